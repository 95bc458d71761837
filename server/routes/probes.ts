import { sql } from 'drizzle-orm';
import { Hono } from 'hono';
import type { AppDeps } from '../http/context';
import type { AppEnv } from '../types';

/** How long /readyz waits for the database before it answers 503. */
export const READY_TIMEOUT_MS = 2_000;

/**
 * The probes, outside /api and before the SPA (JSON, never the app's HTML):
 * - `GET /livez`: the process is up and serving (no database call; restart me only if this fails);
 * - `GET /readyz`: the database answers `select 1` within 2 s and the process is not shutting down;
 *   else 503 (send me no traffic now).
 */
export function probeRoutes(deps: Pick<AppDeps, 'db' | 'stopping'>) {
  return new Hono<AppEnv>()
    .get('/livez', (c) => c.json({ status: 'ok' }, 200, { 'Cache-Control': 'no-store' }))
    .get('/readyz', async (c) => {
      const headers = { 'Cache-Control': 'no-store' };
      const state = await readiness(deps);
      if (state === 'stopping') return c.json({ status: 'stopping', database: 'unknown' }, 503, headers);
      return state === 'up'
        ? c.json({ status: 'ok', database: 'up' }, 200, headers)
        : c.json({ status: 'unavailable', database: state }, 503, headers);
    });
}

/**
 * What /readyz answers: `up` (ready), `stopping`, or the database `down` or not answering within
 * READY_TIMEOUT_MS (`timeout`). The metrics export it too (`app_ready`, server/metrics.ts).
 */
export async function readiness(
  deps: Pick<AppDeps, 'db' | 'stopping'>,
): Promise<'up' | 'down' | 'timeout' | 'stopping'> {
  if (deps.stopping?.()) return 'stopping';
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), READY_TIMEOUT_MS);
  });
  return Promise.race([
    deps.db.execute(sql`select 1`).then(
      () => 'up' as const,
      () => 'down' as const,
    ),
    timeout,
  ]).finally(() => clearTimeout(timer));
}
