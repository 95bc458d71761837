import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import * as schema from './schema';

export type Schema = typeof schema;
/** One type for both drivers: the app only ever speaks PostgreSQL. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
export type DbOrTx = Db | Tx;

export type Database = {
  db: Db;
  kind: 'pglite' | 'postgres';
  close: () => Promise<void>;
};

/** Arbitrary key of the advisory lock that serialises migrations across instances. */
const MIGRATION_LOCK = 72_200;

/**
 * Seconds before a pool connection tries again after a failed connect: 0.05, 0.1, 0.2, ... at most 1.
 * postgres.js's default grows to 20 s, and every query queued meanwhile waits that long, so during a
 * database outage requests hung up to 20 s before their 503 and the service came back up to 20 s
 * after the database (issue 8, decision 015). A refused connect is cheap: one a second is fine.
 */
export const reconnectDelay = (retries: number) => Math.min(0.05 * 2 ** retries, 1);

export const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

export type OpenOptions =
  | { kind: 'postgres'; url: string; max?: number }
  | { kind: 'pglite'; dataDir?: string /* undefined: in memory */ };

/** Opens PGlite (a folder, or memory) or PostgreSQL, and applies the committed migrations. */
export async function openDatabase(opts: OpenOptions): Promise<Database> {
  if (opts.kind === 'postgres') {
    const client = postgres(opts.url, { max: opts.max ?? 10, onnotice: () => {}, backoff: reconnectDelay });
    const db = drizzlePostgres(client, { schema });
    // Several instances may start together: one migrates at a time. A one-connection client holds the
    // session advisory lock while drizzle migrates on that same connection.
    const migrator = postgres(opts.url, { max: 1, onnotice: () => {} });
    try {
      await migrator`select pg_advisory_lock(${MIGRATION_LOCK})`;
      await migratePostgres(drizzlePostgres(migrator, { schema }), { migrationsFolder });
    } finally {
      await migrator.end({ timeout: 5 });
    }
    return { db: db as unknown as Db, kind: 'postgres', close: () => client.end({ timeout: 5 }) };
  }
  if (opts.dataDir) mkdirSync(opts.dataDir, { recursive: true });
  // pg_trgm: the trigram GIN indexes behind the lists' search (migration 0001 creates the extension).
  const client = new PGlite({ dataDir: opts.dataDir, extensions: { pg_trgm } });
  const db = drizzlePglite(client, { schema });
  await migratePglite(db, { migrationsFolder });
  return { db: db as unknown as Db, kind: 'pglite', close: () => client.close() };
}
