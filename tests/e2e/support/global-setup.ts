import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { openDatabase } from '../../../server/db/client';
import { seedDemo } from '../../../server/seed/demo';
import { E2E_PORT, E2E_TMP, EXPECTED_FIGURES_FILE, MAIN_DATA_DIR, REPO_ROOT } from './env';
import { readDashboardFigures } from './figures';
import { startServer } from './server';

/**
 * Builds the SPA, seeds the demo data into a fresh embedded database, records the figures the
 * dashboard must show (read straight from that database), then starts the real server on it.
 */
export default async function globalSetup() {
  rmSync(E2E_TMP, { recursive: true, force: true });
  mkdirSync(E2E_TMP, { recursive: true });

  if (!process.env.E2E_SKIP_BUILD) {
    const build = spawnSync(
      process.execPath,
      ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn'],
      {
        cwd: REPO_ROOT,
        stdio: 'inherit',
      },
    );
    if (build.status !== 0) throw new Error('vite build failed');
  }

  const database = await openDatabase({ kind: 'pglite', dataDir: `${MAIN_DATA_DIR}/db` });
  try {
    await seedDemo(database.db);
    writeFileSync(EXPECTED_FIGURES_FILE, JSON.stringify(await readDashboardFigures(database.db), null, 2));
  } finally {
    await database.close();
  }

  const server = await startServer({ port: E2E_PORT, dataDir: MAIN_DATA_DIR });
  return () => server.stop();
}
