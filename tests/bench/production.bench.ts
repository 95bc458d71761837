/**
 * `npm run bench:prod` (issue 18): what production costs. Builds (`npm run build`), installs the
 * production dependencies alone (`npm ci --omit=dev`) into a scratch folder with the build beside
 * them, and starts THAT server with plain node (NODE_ENV=production), which also proves the
 * production install is enough to run it. Prints:
 * - the size of the production install (node_modules) and of the build (SPA, server);
 * - the server's RSS idle (after start and sign-in) and the highest RSS under load (autocannon,
 *   20 connections, reads and sign-in-free authenticated requests), on PGlite and on PostgreSQL
 *   (TEST_DATABASE_URL or the local server; goal ≤ 150 MiB on PostgreSQL).
 * BENCH_SKIP_BUILD=1 reuses dist/ and dist-server/.
 */
import { type ChildProcess, execSync, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { runOnce } from '../../server/db/client';
import { figure } from './figures';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const LOAD_SECONDS = Number(process.env.BENCH_PROD_SECONDS ?? 15);
const ADMIN = { email: 'bench-prod@rewardclub.test', password: 'Bench#Prod2026' };
const MiB = 1024 * 1024;

const duBytes = (path: string) =>
  Number(execSync(`du -sb ${JSON.stringify(path)}`, { encoding: 'utf8' }).split('\t')[0]);
const rssMiB = (pid: number) =>
  Number(/VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? Number.NaN) / 1024;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

if (process.env.BENCH_SKIP_BUILD !== '1') {
  const build = spawnSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('npm run build failed');
}

// The production install, as an operator makes it: package.json + lock, `npm ci --omit=dev`.
const app = mkdtempSync(join(tmpdir(), 'rc-prod-install-'));
process.on('exit', () => rmSync(app, { recursive: true, force: true }));
for (const f of ['package.json', 'package-lock.json']) cpSync(join(ROOT, f), join(app, f));
const t0 = Date.now();
const install = spawnSync('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund'], {
  cwd: app,
  stdio: 'inherit',
});
if (install.status !== 0) throw new Error('npm ci --omit=dev failed');
console.log(`npm ci --omit=dev: ${((Date.now() - t0) / 1000).toFixed(0)} s`);
cpSync(join(ROOT, 'dist'), join(app, 'dist'), { recursive: true });
cpSync(join(ROOT, 'dist-server'), join(app, 'dist-server'), { recursive: true });

const bench = 'production';
figure({
  bench,
  name: 'production install (npm ci --omit=dev), node_modules',
  value: duBytes(join(app, 'node_modules')) / MiB,
  unit: 'MiB',
  budget: null,
  target: '-',
});
figure({
  bench,
  name: 'build: SPA (dist/)',
  value: duBytes(join(app, 'dist')) / MiB,
  unit: 'MiB',
  budget: null,
  target: '-',
});
figure({
  bench,
  name: 'build: server (dist-server/, with source maps)',
  value: duBytes(join(app, 'dist-server')) / MiB,
  unit: 'MiB',
  budget: null,
  target: '-',
});

async function measure(target: 'PGlite' | 'PostgreSQL', databaseUrl: string) {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'rc-prod-data-'));
  const child: ChildProcess = spawn(process.execPath, ['dist-server/main.js'], {
    cwd: app,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      JWT_SECRET: randomBytes(32).toString('hex'),
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    for (let i = 0; ; i++) {
      if (child.exitCode !== null) throw new Error(`the built server exited (${child.exitCode})`);
      try {
        if ((await fetch(`${url}/readyz`)).ok) break;
      } catch {
        // starting
      }
      if (i > 600) throw new Error('the built server did not start within 120 s');
      await new Promise((r) => setTimeout(r, 200));
    }
    const login = await fetch(`${url}/api/v1/admin/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ADMIN),
    });
    const { accessToken } = ((await login.json()) as { data: { accessToken: string } }).data;
    await new Promise((r) => setTimeout(r, 3_000));
    figure({
      bench,
      name: 'server RSS idle (after start and one sign-in)',
      value: rssMiB(child.pid!),
      unit: 'MiB',
      budget: target === 'PostgreSQL' ? { max: 150 } : null,
      target,
    });

    let peak = 0;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssMiB(child.pid!));
    }, 250);
    const result = await autocannon({
      url,
      connections: 20,
      duration: LOAD_SECONDS,
      headers: { authorization: `Bearer ${accessToken}` },
      requests: [
        { method: 'GET', path: '/api/v1/user/profile' },
        { method: 'GET', path: '/api/v1/admin/partners?pageNumber=1&pageSize=20' },
        { method: 'GET', path: '/api/v1/admin/user/get-roles' },
        { method: 'GET', path: '/api/v1/admin/user/activities?pageNumber=1&pageSize=20' },
      ],
    });
    clearInterval(sampler);
    peak = Math.max(peak, rssMiB(child.pid!));
    figure({
      bench,
      name: `server RSS peak under load (20 connections, ${LOAD_SECONDS} s)`,
      value: peak,
      unit: 'MiB',
      budget: target === 'PostgreSQL' ? { max: 150 } : null,
      target,
    });
    figure({
      bench,
      name: 'requests/s under that load',
      value: result.requests.average,
      unit: 'req/s',
      budget: null,
      target,
    });
    figure({
      bench,
      name: 'non-2xx answers under that load',
      value: result.non2xx + result.errors,
      unit: 'count',
      budget: { max: 0 },
      target,
    });
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await measure('PGlite', '');
const pgServer = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
let pgAvailable = true;
try {
  await runOnce(pgServer, 'select 1', 3_000);
} catch {
  pgAvailable = false;
  console.log('No PostgreSQL answered (set TEST_DATABASE_URL): PGlite only.');
}
if (pgAvailable) {
  const name = `rc_bench_prod_${randomBytes(4).toString('hex')}`;
  await runOnce(pgServer, `create database "${name}"`);
  const url = new URL(pgServer);
  url.pathname = `/${name}`;
  try {
    await measure('PostgreSQL', url.toString());
  } finally {
    await runOnce(pgServer, `drop database if exists "${name}" with (force)`);
  }
}
