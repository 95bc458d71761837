/**
 * `npm run bench:import` (issue 27): 100,000 subscriber rows as one CSV file into the customer
 * import (POST /admin/customers/imports, streamed, chunked; then the worker applies it), on
 * PostgreSQL (TEST_DATABASE_URL or the local server) and on PGlite, against the server built as
 * `npm run build` builds it and run as `npm run start:prod` runs it (plain node, NODE_ENV=production).
 * Prints, for each database: the time from the first byte sent to the job's `done` and rows per
 * second, the same for a re-run of the same file (every row unchanged), and the server process's
 * peak RSS (VmHWM) over both. Goal: ≤ 60 s on PostgreSQL, peak RSS ≤ 250 MiB, a re-run at least as
 * fast. BENCH_IMPORT_ROWS changes the size.
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { runOnce } from '../../server/db/client';
import { bearerOf, peakRssMiB, subscriberCsv, uploadImport, waitForImport } from '../setup/customer-import';
import { buildServer, scratchDir, startServerProcess, tinySpaDir } from '../setup/faults';
import { figure } from './figures';

const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 100_000);
const ADMIN = { email: 'bench-import@rewardclub.test', password: 'Bench#Import2026' };
const bench = 'import';

const built = buildServer();
process.on('exit', () => rmSync(built.dir, { recursive: true, force: true }));

async function measure(target: 'PGlite' | 'PostgreSQL', databaseUrl: string) {
  const dir = scratchDir('rc-bench-import-');
  const server = await startServerProcess(
    {
      NODE_ENV: 'production',
      DATABASE_URL: databaseUrl,
      DATA_DIR: dir,
      SPA_DIR: tinySpaDir(dir),
      JWT_SECRET: randomBytes(32).toString('hex'),
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
    },
    { built: built.main },
  );
  try {
    const auth = await bearerOf(server.url, ADMIN.email, ADMIN.password);
    const idle = peakRssMiB(server.pid);
    for (const run of ['first run (every row created)', 're-run of the same file (every row unchanged)']) {
      const started = Date.now();
      const up = await uploadImport(server.url, auth, subscriberCsv('BENCH', ROWS), 'bench.csv');
      if (up.status !== 201) throw new Error(`upload: ${up.status} ${up.text}`);
      const uploaded = (Date.now() - started) / 1000;
      const job = await waitForImport(server.url, auth, up.job.id, (j) => j.state === 'done', {
        timeoutMs: 1_800_000,
        everyMs: 250,
      });
      const seconds = (Date.now() - started) / 1000;
      if (job.rowsDone !== ROWS || job.rejected !== 0)
        throw new Error(`the import did not apply every row: ${JSON.stringify(job)}`);
      figure({
        bench,
        name: `${ROWS} CSV rows, ${run}: upload to done (upload alone ${uploaded.toFixed(1)} s)`,
        value: seconds,
        unit: 's',
        budget: target === 'PostgreSQL' ? { max: 60 } : null,
        target,
      });
      figure({
        bench,
        name: `${ROWS} CSV rows, ${run}: rows per second`,
        value: ROWS / seconds,
        unit: 'rows/s',
        budget: null,
        target,
      });
    }
    figure({
      bench,
      name: `server peak RSS (VmHWM) over both imports (${idle.toFixed(0)} MiB after start and sign-in)`,
      value: peakRssMiB(server.pid),
      unit: 'MiB',
      budget: { max: 250 },
      target,
    });
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const pgServer = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
let pgAvailable = true;
try {
  await runOnce(pgServer, 'select 1', 3_000);
} catch {
  pgAvailable = false;
  console.log('No PostgreSQL answered (set TEST_DATABASE_URL): PGlite only.');
}
if (pgAvailable) {
  const name = `rc_bench_import_${randomBytes(4).toString('hex')}`;
  await runOnce(pgServer, `create database "${name}"`);
  const url = new URL(pgServer);
  url.pathname = `/${name}`;
  try {
    await measure('PostgreSQL', url.toString());
  } finally {
    await runOnce(pgServer, `drop database if exists "${name}" with (force)`);
  }
}
await measure('PGlite', '');
