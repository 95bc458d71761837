import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import { migrate as migratePostgres } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { CONNECT_TIMEOUT_MS, createPool } from './pool';
import * as schema from './schema';

export type Schema = typeof schema;
/** One type for both drivers: the app only ever speaks PostgreSQL. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
export type DbOrTx = Db | Tx;

export type PoolStats = { total: number; idle: number; waiting: number; max: number };

export type Database = {
  db: Db;
  kind: 'pglite' | 'postgres';
  close: () => Promise<void>;
  /** The connection pool's state (PostgreSQL); PGlite is one in-process connection. */
  poolStats: () => PoolStats;
};

/** Arbitrary key of the advisory lock that serialises migrations across instances. */
const MIGRATION_LOCK = 72_200;

export const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

export type OpenOptions =
  | { kind: 'postgres'; url: string; max?: number; onError?: (err: Error) => void }
  | {
      kind: 'pglite';
      dataDir?: string /* undefined: in memory */;
      /** Start from this image of a database (`dumpPglite`) instead of an empty one. */
      from?: Blob;
    };

/** Opens PGlite (a folder, or memory) or PostgreSQL, and applies the committed migrations. */
export async function openDatabase(opts: OpenOptions): Promise<Database> {
  if (opts.kind === 'postgres') {
    await migrateWithLock(opts.url);
    const pool = createPool(opts.url, opts);
    const db = drizzlePostgres(pool, { schema });
    const max = opts.max ?? 10;
    return {
      db: db as unknown as Db,
      kind: 'postgres',
      close: () => pool.end(),
      poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max }),
    };
  }
  return (await openPglite(opts)).database;
}

async function openPglite(opts: Extract<OpenOptions, { kind: 'pglite' }>) {
  if (opts.dataDir) mkdirSync(opts.dataDir, { recursive: true });
  // pg_trgm: the trigram GIN indexes behind the lists' search (migration 0001 creates the extension).
  const client = new PGlite({ dataDir: opts.dataDir, extensions: { pg_trgm }, loadDataDir: opts.from });
  const db = drizzlePglite(client, { schema });
  // On an image from dumpPglite() this finds every migration applied and changes nothing.
  await migratePglite(db, { migrationsFolder });
  const database: Database = {
    db: db as unknown as Db,
    kind: 'pglite',
    close: () => client.close(),
    poolStats: () => ({ total: 1, idle: 1, waiting: 0, max: 1 }),
  };
  return { client, database };
}

/**
 * An image of a new, migrated in-memory PGlite database. A fresh PGlite spends seconds in initdb; the
 * server tests open one per file, so they start each from this image (tests/setup/db-template.ts,
 * docs/decisions/038-ci-time.md).
 */
export async function dumpPglite(): Promise<Blob> {
  const { client } = await openPglite({ kind: 'pglite' });
  try {
    return await client.dumpDataDir('none');
  } finally {
    await client.close();
  }
}

/**
 * Applies the committed migrations to PostgreSQL once, even when several instances start together:
 * everything happens in one transaction on one connection that first takes a transaction-scoped
 * advisory lock (`pg_advisory_xact_lock`); the others wait for it, then find nothing left to apply.
 * Transaction-scoped, not a session lock: behind PgBouncer in transaction pooling mode a session lock
 * would stay on whichever server connection took it, held for good (docs/decisions/059-operations.md).
 * drizzle's migrator opens and commits a transaction of its own: inside ours, its `begin` is only a
 * warning and its `commit` ends ours, releasing the lock with the migrations applied.
 */
export async function migrateWithLock(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  client.on('error', () => {});
  await client.connect();
  try {
    await client.query('begin');
    await client.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await migratePostgres(drizzlePostgres(client, { schema }), { migrationsFolder });
    // Nothing to commit when drizzle already did; a rollback after its commit is harmless too.
    await client.query('commit');
  } catch (err) {
    await client.query('rollback').catch(() => {});
    throw err;
  } finally {
    await client.end().catch(() => {});
  }
}

/** Runs one statement on its own short-lived connection (create/drop database in tests and benches). */
export async function runOnce(url: string, text: string, timeoutMs = CONNECT_TIMEOUT_MS): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs });
  client.on('error', () => {});
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end().catch(() => {});
  }
}
