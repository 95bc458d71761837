import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { FullConfig } from '@playwright/test';
import { E2E_RUN_TMP, E2E_SPA_DIR, REPO_ROOT, workerPort, workerTmp } from './env';
import { startServer } from './server';

/**
 * Builds the SPA (once, shared read-only by every server of the run), then starts one real server
 * per worker on a fresh embedded database of its own, which seeds the demo data itself exactly as
 * `npm start` does: worker i's on workerPort(i) with its data in workerTmp(i)/main, so no two
 * workers share a database, a mailbox or a port. Specs that must see untouched demo figures start
 * a server of their own (see `startSeededServer`), so no spec depends on another's leftovers.
 */
export default async function globalSetup(config: FullConfig) {
  // Wipe the databases and mailboxes of the last run; keep its SPA build for E2E_SKIP_BUILD=1.
  mkdirSync(E2E_RUN_TMP, { recursive: true });
  for (const entry of readdirSync(E2E_RUN_TMP)) {
    if (join(E2E_RUN_TMP, entry) !== E2E_SPA_DIR.replace(/\/$/, ''))
      rmSync(join(E2E_RUN_TMP, entry), { recursive: true, force: true });
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

  // config.workers is the run's worker count (PW_WORKERS or --workers); a run of fewer files
  // than workers leaves the extra servers idle.
  const workers = Math.max(1, config.workers);
  const started = await Promise.allSettled(
    Array.from({ length: workers }, (_, i) =>
      startServer({ port: workerPort(i), dataDir: `${workerTmp(i)}main` }),
    ),
  );
  const servers = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const stopAll = () => Promise.all(servers.map((s) => s.stop())).then(() => undefined);
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) {
    await stopAll();
    throw failed.reason;
  }
  return stopAll;
}
