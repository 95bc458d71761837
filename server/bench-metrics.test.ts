import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { BENCH_METRICS_PATH, type BenchMetrics, mountBenchMetrics } from './bench-metrics';
import { readEnv } from './env';

describe('bench metrics', () => {
  it('are off unless BENCH_METRICS is set', () => {
    expect(readEnv({}).benchMetrics).toBe(false);
    expect(readEnv({ BENCH_METRICS: '0' }).benchMetrics).toBe(false);
    expect(readEnv({ BENCH_METRICS: '1' }).benchMetrics).toBe(true);
  });

  it('report the event-loop delay since the last read, and RSS', async () => {
    expect((await new Hono().request(BENCH_METRICS_PATH)).status).toBe(404);
    const app = new Hono();
    mountBenchMetrics(app);
    // Block the loop for ~60 ms so the window holds a delay of that order.
    await new Promise((r) => setTimeout(r, 20));
    const until = Date.now() + 60;
    while (Date.now() < until) {
      // busy
    }
    await new Promise((r) => setTimeout(r, 20));
    const first = (await (await app.request(BENCH_METRICS_PATH)).json()) as BenchMetrics;
    expect(first.eventLoopDelayMs.max).toBeGreaterThanOrEqual(40);
    expect(first.rssBytes).toBeGreaterThan(1_000_000);
    await new Promise((r) => setTimeout(r, 20));
    const second = (await (await app.request(BENCH_METRICS_PATH)).json()) as BenchMetrics;
    expect(second.eventLoopDelayMs.max).toBeLessThan(first.eventLoopDelayMs.max);
  });
});
