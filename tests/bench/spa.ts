/**
 * What the SPA benchmarks share: a production build of the SPA (`vite build`, exactly what
 * `npm run build` makes) in a folder of the bench's own, and the real server (`server/main.ts`, what
 * `npm start` runs) serving it on a fresh embedded database seeded with the demo data.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { REPO_ROOT } from '../e2e/support/env';
import { startServer } from '../e2e/support/server';

export const BENCH_TMP = fileURLToPath(new URL('../.tmp/bench/', import.meta.url));
/** The build the SPA benches measure; `npm run bench` builds it once (bench:bundle) for all three. */
export const BENCH_SPA_DIR = `${BENCH_TMP}dist`;
/** Ports of the SPA benches (each bench its own, so a bench left running never blocks the next). */
export const BENCH_PORT = Number(process.env.BENCH_PORT ?? 4510);

/** Builds the SPA with a Vite manifest, unless BENCH_SKIP_BUILD=1 and a build is already there. */
export function buildSpa(outDir = BENCH_SPA_DIR): string {
  if (process.env.BENCH_SKIP_BUILD === '1' && existsSync(`${outDir}/.vite/manifest.json`)) return outDir;
  mkdirSync(outDir, { recursive: true });
  const started = Date.now();
  const build = spawnSync(
    process.execPath,
    [
      'node_modules/vite/bin/vite.js',
      'build',
      '--logLevel',
      'warn',
      '--manifest',
      '--outDir',
      outDir,
      '--emptyOutDir',
    ],
    { cwd: REPO_ROOT, stdio: 'inherit' },
  );
  if (build.status !== 0) throw new Error('vite build failed');
  console.log(`SPA built into ${outDir} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return outDir;
}

/** The real server on a fresh data folder (demo data seeded at start), serving `spaDir`. */
export async function startSpaServer(port: number, spaDir = BENCH_SPA_DIR) {
  const dataDir = `${BENCH_TMP}server-${port}`;
  rmSync(dataDir, { recursive: true, force: true });
  return startServer({ port, dataDir, env: { SPA_DIR: spaDir } });
}
