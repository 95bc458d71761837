import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { Env, Hono } from 'hono';

/** Outside /api/v1 on purpose: not part of the product's API, and only there with BENCH_METRICS=1. */
export const BENCH_METRICS_PATH = '/__bench/metrics';

export type BenchMetrics = {
  /** Event-loop delay since the previous read (or the start), in milliseconds. */
  eventLoopDelayMs: { p50: number; p99: number; max: number };
  rssBytes: number;
};

/**
 * For the API load benchmark (tests/bench/api-load.bench.ts) only, mounted by server/main.ts when
 * BENCH_METRICS is set: the server's own event-loop delay (perf_hooks.monitorEventLoopDelay at
 * 1 ms resolution) and RSS. Each GET returns the figures since the previous GET and
 * starts a new window, so the bench reads one window per load run.
 */
export function mountBenchMetrics<E extends Env>(app: Hono<E>) {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  const ms = (ns: number) => +(ns / 1e6).toFixed(2);
  app.get(BENCH_METRICS_PATH, (c) => {
    const metrics: BenchMetrics = {
      eventLoopDelayMs: {
        p50: ms(histogram.percentile(50)),
        p99: ms(histogram.percentile(99)),
        max: ms(histogram.max),
      },
      rssBytes: process.memoryUsage.rss(),
    };
    histogram.reset();
    return c.json(metrics);
  });
}
