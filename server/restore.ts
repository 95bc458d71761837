import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { lockDataDir } from './db/data-dir-lock';
import { readEnv } from './env';

/**
 * `npm run db:restore -- <file.tar.gz>`: loads a backup of the embedded database (from
 * `npm run db:backup`) into DATA_DIR, which must hold no database yet (move the old one aside
 * first). PostgreSQL backups are restored with `pg_restore` (README, Deploy).
 */
async function main() {
  const env = readEnv();
  const file = process.argv[2];
  if (!file) throw new Error('Usage: npm run db:restore -- <backup.tar.gz>');
  if (env.databaseUrl) {
    throw new Error(
      `DATABASE_URL is set: restore a PostgreSQL dump with pg_restore --clean --if-exists --no-owner -d "$DATABASE_URL" ${file}`,
    );
  }
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

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
