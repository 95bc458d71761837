import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { E2E_PORT, E2E_TMP, MAIN_DATA_DIR, REPO_ROOT } from './env';
import { startServer } from './server';

/**
 * Builds the SPA, then starts the real server on a fresh embedded database, which seeds the demo
 * data itself exactly as `npm start` does. Specs that must see untouched demo figures start a
 * server of their own (see `startSeededServer`), so no spec depends on another's leftovers.
 */
export default async function globalSetup() {
  rmSync(E2E_TMP, { recursive: true, force: true });
  mkdirSync(E2E_TMP, { recursive: true });

  if (!process.env.E2E_SKIP_BUILD) {
    const build = spawnSync(
      process.execPath,
      ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn'],
      { cwd: REPO_ROOT, stdio: 'inherit' },
    );
    if (build.status !== 0) throw new Error('vite build failed');
  }

  const server = await startServer({ port: E2E_PORT, dataDir: MAIN_DATA_DIR });
  return () => server.stop();
}
