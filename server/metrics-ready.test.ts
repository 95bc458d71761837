import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../tests/setup/server';
import type { Database } from './db/client';
import { createMetrics } from './metrics';
import { readiness } from './routes/probes';

/**
 * Issue 33 item 8: the alert "readiness failing" (deploy/alerts.yml, RewardClubNotReady) reads
 * `app_ready`, which says what GET /readyz would answer: 1 when ready, 0 once the process is stopping
 * or the database does not answer.
 */
let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

describe('app_ready', () => {
  it('is 1 while ready, 0 once stopping', async () => {
    let stopping = false;
    const metrics = createMetrics({
      db: database.db,
      poolStats: database.poolStats,
      ready: async () => (await readiness({ db: database.db, stopping: () => stopping })) === 'up',
    });
    expect(await metrics.registry.metrics()).toMatch(/^app_ready 1$/m);
    stopping = true;
    expect(await metrics.registry.metrics()).toMatch(/^app_ready 0$/m);
  });
});
