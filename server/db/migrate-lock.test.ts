import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createScratchDatabase } from '../../tests/setup/faults';
import { isPostgres, throughPooler } from '../../tests/setup/server';
import { migrateWithLock } from './client';

/**
 * Migrations at start, several instances at once (README, Deploy): one applies them, the others wait
 * and find nothing left, and no lock outlives the migration. The lock is transaction-scoped: behind
 * PgBouncer in transaction pooling mode (`npm run test:pgbouncer` runs this file through it) a
 * session lock stayed held on a pooled server connection, and the next instance waited for ever.
 */
const MIGRATION_LOCK = 72_200;

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const clean of cleanups.reverse()) await clean();
});

describe.skipIf(!isPostgres)('migrateWithLock', () => {
  it('three instances migrating one empty database at once apply each migration once and leave no lock', async () => {
    const scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL!, 'rc_migrate');
    cleanups.push(() => scratch.drop());
    const url = throughPooler(scratch.url);
    await Promise.all([migrateWithLock(url), migrateWithLock(url), migrateWithLock(url)]);
    // And again, as the next start does.
    await migrateWithLock(url);

    const direct = new pg.Client({ connectionString: scratch.url });
    await direct.connect();
    try {
      const applied = await direct.query<{ n: number; distinct: number }>(
        'select count(*)::int as n, count(distinct hash)::int as distinct from drizzle.__drizzle_migrations',
      );
      expect(applied.rows[0]!.n).toBeGreaterThan(0);
      expect(applied.rows[0]!.n).toBe(applied.rows[0]!.distinct);
      const held = await direct.query<{ n: number }>(
        "select count(*)::int as n from pg_locks where locktype = 'advisory' and objid = $1 and database = (select oid from pg_database where datname = current_database())",
        [MIGRATION_LOCK],
      );
      expect(held.rows[0]!.n).toBe(0);
    } finally {
      await direct.end();
    }
  }, 60_000);
});
