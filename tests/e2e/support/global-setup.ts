import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { E2E_PORT, E2E_SPA_DIR, E2E_TMP, MAIN_DATA_DIR, REPO_ROOT } from './env';
import { startServer } from './server';

/**
 * Builds the SPA, then starts the real server on a fresh embedded database, which seeds the demo
 * data itself exactly as `npm start` does. Specs that must see untouched demo figures start a
 * server of their own (see `startSeededServer`), so no spec depends on another's leftovers.
 */
export default async function globalSetup() {
  // Wipe the databases and mailboxes of the last run; keep its SPA build for E2E_SKIP_BUILD=1.
  mkdirSync(E2E_TMP, { recursive: true });
  for (const entry of readdirSync(E2E_TMP)) {
    if (join(E2E_TMP, entry) !== E2E_SPA_DIR.replace(/\/$/, ''))
      rmSync(join(E2E_TMP, entry), { recursive: true, force: true });
  }

  if (!process.env.E2E_SKIP_BUILD) {
    const build = spawnSync(
      process.execPath,
      [
        'node_modules/vite/bin/vite.js',
        'build',
        '--logLevel',
        'warn',
        '--outDir',
        E2E_SPA_DIR,
        '--emptyOutDir',
      ],
      { cwd: REPO_ROOT, stdio: 'inherit' },
    );
    if (build.status !== 0) throw new Error('vite build failed');
  }

  const server = await startServer({ port: E2E_PORT, dataDir: MAIN_DATA_DIR });
  return () => server.stop();
}
