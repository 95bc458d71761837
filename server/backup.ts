import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { lockDataDir } from './db/data-dir-lock';
import { readEnv } from './env';

/**
 * `npm run db:backup [-- <folder>]` writes one restorable backup into <folder> (default
 * ./backups) and prints its path:
 * - PostgreSQL (DATABASE_URL): `pg_dump --format=custom`, restored with `pg_restore` (README, Deploy);
 * - the embedded database: PGlite's dump of its data directory (a .tar.gz), restored by
 *   `npm run db:restore -- <file>` into an empty DATA_DIR. The server must be stopped: the data
 *   directory is one process's at a time (the lock says which one holds it).
 */
async function main() {
  const env = readEnv();
  const folder = resolve(process.argv[2] ?? 'backups');
  mkdirSync(folder, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');

  if (env.databaseUrl) {
    const file = join(folder, `reward-club-${stamp}.dump`);
    const res = spawnSync('pg_dump', ['--format=custom', '--no-owner', `--file=${file}`, env.databaseUrl], {
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    if (res.error)
      throw new Error(`pg_dump could not run (${res.error.message}); install the PostgreSQL client.`);
    if (res.status !== 0) throw new Error(`pg_dump failed (exit ${res.status}).`);
    process.stdout.write(`${file}\n`);
    return;
  }

  const dbDir = join(env.dataDir, 'db');
  if (!existsSync(dbDir)) throw new Error(`No embedded database at ${dbDir} (DATA_DIR=${env.dataDir}).`);
  const lock = lockDataDir(env.dataDir);
  try {
    const pglite = new PGlite({ dataDir: dbDir, extensions: { pg_trgm } });
    await pglite.waitReady; // dumpDataDir does not wait for the start itself: the process would just end
    const dump = await pglite.dumpDataDir('gzip');
    await pglite.close();
    const file = join(folder, `reward-club-${stamp}.tar.gz`);
    writeFileSync(file, new Uint8Array(await dump.arrayBuffer()));
    process.stdout.write(`${file}\n`);
  } finally {
    lock.release();
  }
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
