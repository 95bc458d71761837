import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from './log';

/**
 * Issue 33 item 4: a 30-s database outage wrote 45,943 warning lines, one per failed request. A
 * warning or error is written once per cause per window, then one line with how many more came.
 */
type Line = Record<string, unknown> & { level: string; msg: string };

function capture() {
  const err: Line[] = [];
  const out: Line[] = [];
  const parse = (into: Line[]) => (chunk: unknown) => {
    for (const l of String(chunk).split('\n').filter(Boolean)) into.push(JSON.parse(l) as Line);
    return true;
  };
  vi.spyOn(process.stderr, 'write').mockImplementation(parse(err) as typeof process.stderr.write);
  vi.spyOn(process.stdout, 'write').mockImplementation(parse(out) as typeof process.stdout.write);
  return { err, out };
}

afterEach(() => {
  vi.restoreAllMocks();
});

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('repeated warnings and errors', () => {
  it('are collapsed to one line per cause per window, then one line with the count', async () => {
    const { err } = capture();
    const log = createLogger('info', { repeatWindowMs: 200 });
    for (let i = 0; i < 1000; i++)
      log.warn('database unavailable', { requestId: `r${i}`, error: 'connect ECONNREFUSED 127.0.0.1:5432' });
    for (let i = 0; i < 5; i++)
      log.warn('database unavailable', { requestId: `t${i}`, error: 'Connection terminated unexpectedly' });
    log.error('unhandled error', { error: 'boom' });
    // At once: the first of each cause, nothing more.
    expect(err.map((l) => [l.msg, l.error, l.requestId])).toEqual([
      ['database unavailable', 'connect ECONNREFUSED 127.0.0.1:5432', 'r0'],
      ['database unavailable', 'Connection terminated unexpectedly', 't0'],
      ['unhandled error', 'boom', undefined],
    ]);
    await wait(400);
    // The window ended: one line per cause that came again, with how many times (999 and 4 more).
    expect(err.slice(3).map((l) => [l.level, l.msg, l.error, l.repeated, l.windowSeconds])).toEqual([
      ['warn', 'database unavailable', 'connect ECONNREFUSED 127.0.0.1:5432', 999, 0.2],
      ['warn', 'database unavailable', 'Connection terminated unexpectedly', 4, 0.2],
    ]);
    // A new window: the cause is written again at once.
    log.warn('database unavailable', { requestId: 'x', error: 'connect ECONNREFUSED 127.0.0.1:5432' });
    expect(err).toHaveLength(6);
    expect(err[5]).toMatchObject({ requestId: 'x' });
    expect(err[5]!.repeated).toBeUndefined();
  });

  it('info lines (the access log) are never collapsed', () => {
    const { out } = capture();
    const log = createLogger('info', { repeatWindowMs: 200 });
    for (let i = 0; i < 50; i++) log.info('request', { method: 'GET', route: '/x', status: 503 });
    expect(out).toHaveLength(50);
  });
});
