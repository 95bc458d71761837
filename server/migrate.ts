import { join } from 'node:path';
import { openDatabase } from './db/client';
import { lockDataDir } from './db/data-dir-lock';
import { readEnv } from './env';

/**
 * `npm run db:migrate`: applies the committed migrations and exits (DATABASE_URL, else the embedded
 * database under DATA_DIR). The server also migrates at start, under an advisory lock, so several
 * instances starting together migrate once; this is for a deploy that migrates before it starts them.
 */
async function main() {
  const env = readEnv();
  const lock = env.databaseUrl ? undefined : lockDataDir(env.dataDir);
  try {
    const database = await openDatabase(
      env.databaseUrl
        ? { kind: 'postgres', url: env.databaseUrl, max: 1 }
        : { kind: 'pglite', dataDir: join(env.dataDir, 'db') },
    );
    await database.close();
    process.stdout.write(`Migrations applied (${database.kind}).\n`);
  } finally {
    lock?.release();
  }
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
