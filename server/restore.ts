import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import { lockDataDir } from './db/data-dir-lock';
import { readEnv } from './env';

const USAGE = 'Usage: npm run db:restore -- <backup file> [--clean]';

/**
 * `npm run db:restore -- <file> [--clean]`: loads a backup from `npm run db:backup`.
 * - PostgreSQL (DATABASE_URL): `pg_restore --no-owner --single-transaction --exit-on-error` into that
 *   database, which must hold no tables of this product yet, unless `--clean` is given: then what is
 *   there is replaced (`--clean --if-exists`). All or nothing: a failure leaves the database as it was.
 * - The embedded database: PGlite's dump into DATA_DIR, which must hold no database yet (move the old
 *   one aside first).
 * Stop the servers first (docs/operations.md, restore drill).
 */
async function main() {
  const env = readEnv();
  const args = process.argv.slice(2);
  const clean = args.includes('--clean');
  const file = args.find((a) => !a.startsWith('--'));
  if (!file) throw new Error(USAGE);
  if (!existsSync(resolve(file))) throw new Error(`No backup file at ${resolve(file)}.`);
  if (env.databaseUrl) return restorePostgres(env.databaseUrl, resolve(file), clean);

  const dbDir = join(env.dataDir, 'db');
  if (existsSync(dbDir) && readdirSync(dbDir).length > 0) {
    throw new Error(`${dbDir} already holds a database: move it aside (or choose another DATA_DIR) first.`);
  }
  const lock = lockDataDir(env.dataDir);
  try {
    const bytes = readFileSync(resolve(file));
    const pglite = new PGlite({
      dataDir: dbDir,
      extensions: { pg_trgm },
      loadDataDir: new Blob([new Uint8Array(bytes)]),
    });
    const { rows } = await pglite.query<{ n: number }>('select count(*)::int as n from users');
    await pglite.close();
    process.stdout.write(`Restored ${file} into ${dbDir} (${rows[0]?.n ?? 0} staff users).\n`);
  } finally {
    lock.release();
  }
}

/** The number of staff users in the database, or null when it has no `users` table (nothing restored). */
async function staffUsers(url: string): Promise<number | null> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  client.on('error', () => {});
  await client.connect();
  try {
    const { rows } = await client.query<{ t: string | null }>(
      `select to_regclass('public.users')::text as t`,
    );
    if (!rows[0]?.t) return null;
    const count = await client.query<{ n: number }>('select count(*)::int as n from users');
    return count.rows[0]?.n ?? 0;
  } finally {
    await client.end().catch(() => {});
  }
}

async function restorePostgres(url: string, file: string, clean: boolean) {
  const where = new URL(url);
  const name = `${where.host}${where.pathname}`;
  if (!clean && (await staffUsers(url)) !== null) {
    throw new Error(
      `The database ${name} already holds this product's tables: restore into an empty database, or add --clean to replace what is there (npm run db:restore -- ${file} --clean).`,
    );
  }
  const res = spawnSync(
    'pg_restore',
    [
      '--no-owner',
      '--no-privileges',
      '--single-transaction',
      '--exit-on-error',
      ...(clean ? ['--clean', '--if-exists'] : []),
      `--dbname=${url}`,
      file,
    ],
    { stdio: ['ignore', 'inherit', 'inherit'] },
  );
  if (res.error) {
    throw new Error(
      `pg_restore could not run (${(res.error as NodeJS.ErrnoException).code ?? res.error.message}): install the PostgreSQL client of your server's major version or newer (Debian: apt-get install postgresql-client), then run this again.`,
    );
  }
  if (res.status !== 0)
    throw new Error(`pg_restore failed (exit ${res.status}); the database ${name} is unchanged.`);
  process.stdout.write(`Restored ${file} into ${name} (${(await staffUsers(url)) ?? 0} staff users).\n`);
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
