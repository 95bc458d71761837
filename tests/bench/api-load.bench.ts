/**
 * API under load (issue 7, scope 2): the large data set (tests/bench/large-seed.ts) is seeded into
 * PGlite (a folder on disk) and into PostgreSQL (TEST_DATABASE_URL, else a local server at
 * postgres://postgres@127.0.0.1:5432/postgres if one answers; a throwaway database), then the REAL
 * server (`node --import tsx server/main.ts`, what `npm start` runs) is started on it as a child
 * process and autocannon, in this process (a second process, over loopback), loads each endpoint at
 * 10 and at 50 connections: req/s, latency p50/p99, errors (errors + timeouts + non-2xx), the server's
 * RSS (/proc/<pid>/status VmRSS) and its event-loop delay p99 (BENCH_METRICS=1 makes the server serve
 * server/bench-metrics.ts). Every number goes through figure(); nothing fails on a timing.
 *
 * `npm run bench:api`. Environment: BENCH_DURATION (seconds at 50 connections, default 30),
 * BENCH_DURATION_10 (seconds at 10 connections, default 10), BENCH_SCALE (fraction of the customers,
 * visits, rewards and events, default 1; 5,000 partners always), BENCH_SKIP_PGLITE=1,
 * BENCH_SKIP_POSTGRES=1, BENCH_ONLY (a substring of the endpoint names to run).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { API_BASE } from '../../server/app';
import { BENCH_METRICS_PATH, type BenchMetrics } from '../../server/bench-metrics';
import { type Database, openDatabase } from '../../server/db/client';
import { type Budget, figure } from './figures';
import { analyzeSeeded, BUSY, LARGE, type SeedSizes, seedLargeData } from './large-seed';
import { BENCH_ADMIN, pgliteTarget, postgresTarget, type Target } from './support';

const BENCH = 'api-load';
const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const WORK_DIR = join(REPO_ROOT, 'tests/.tmp/bench-api');
const DURATION_50 = Number(process.env.BENCH_DURATION ?? 30);
const DURATION_10 = Number(process.env.BENCH_DURATION_10 ?? 10);
const SCALE = Number(process.env.BENCH_SCALE ?? 1);
const ONLY = process.env.BENCH_ONLY;
const DATE = '2026-03-01';

const SIZES: SeedSizes = {
  partners: LARGE.partners,
  customers: Math.round(LARGE.customers * SCALE),
  visits: Math.round(LARGE.visits * SCALE),
  rewards: Math.round(LARGE.rewards * SCALE),
  events: Math.round(LARGE.events * SCALE),
};

type Kind = 'list' | 'stats';
type Endpoint = { name: string; path: string; kind: Kind };

/** The screens issue 7 names (paths from server/routes and docs/product.md#calls). */
const ENDPOINTS: Endpoint[] = [
  { name: 'partner list, search "kitchen"', path: '/admin/partners?searchText=kitchen', kind: 'list' },
  { name: 'partner detail', path: `/admin/partners/${BUSY}`, kind: 'list' },
  { name: 'customer list', path: '/admin/user/customers', kind: 'list' },
  { name: 'visits tab, busy partner', path: `/admin/partners/visits?partnerId=${BUSY}`, kind: 'list' },
  {
    name: 'eligible users for a date, busy partner',
    path: `/admin/partners/visits/reward-eligible-users?partnerId=${BUSY}&date=${DATE}`,
    kind: 'list',
  },
  { name: 'activity log, partners', path: '/admin/user/activities?userType=PARTNER', kind: 'list' },
  { name: 'dashboard stats (users)', path: '/admin/user/stats', kind: 'stats' },
  { name: 'dashboard stats (rewards)', path: '/admin/partners/stats/reward', kind: 'stats' },
  {
    name: 'partner analytics, busy partner',
    path: `/admin/partners/stats/partner?partnerId=${BUSY}`,
    kind: 'stats',
  },
];

const P99_BUDGET: Record<Kind, Budget> = { list: { max: 25 }, stats: { max: 100 } };

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

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1] ?? Number.NaN);
  return kb / 1024;
}

/** The real server on the seeded database; waits until /health answers. */
async function startServer(env: Record<string, string>) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  // An existing index.html: the server serves it and does not run a vite build at start.
  const spaDir = join(WORK_DIR, 'spa');
  mkdirSync(spaDir, { recursive: true });
  writeFileSync(join(spaDir, 'index.html'), '<!doctype html><title>bench</title>');
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      DATABASE_URL: '',
      PORT: String(port),
      SPA_DIR: spaDir,
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
      BENCH_METRICS: '1',
      JWT_SECRET: randomBytes(32).toString('hex'),
      ACCESS_TOKEN_TTL_SECONDS: '86400',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d) => {
    output += d;
  });
  child.stderr?.on('data', (d) => {
    output += d;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early (${child.exitCode}):\n${output}`);
    try {
      if ((await fetch(`${url}${API_BASE}/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not start within 180 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url,
    pid: child.pid!,
    output: () => output,
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

async function benchMetrics(url: string): Promise<BenchMetrics> {
  const res = await fetch(`${url}${BENCH_METRICS_PATH}`);
  if (!res.ok) throw new Error(`bench metrics: ${res.status} (is BENCH_METRICS on?)`);
  return (await res.json()) as BenchMetrics;
}

async function load(server: Awaited<ReturnType<typeof startServer>>, target: string, token: string) {
  const headers = { authorization: `Bearer ${token}` };
  for (const e of ENDPOINTS) {
    if (ONLY && !e.name.includes(ONLY)) continue;
    const url = `${server.url}${API_BASE}${e.path}`;
    // Warm-up, and a check that the endpoint answers 200 at all.
    for (let i = 0; i < 5; i++) {
      const res = await fetch(url, { headers });
      if (res.status !== 200) throw new Error(`${e.path}: ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
    }
    for (const connections of [10, 50]) {
      const duration = connections === 50 ? DURATION_50 : DURATION_10;
      await benchMetrics(server.url); // starts a new event-loop window
      const r = await autocannon({ url, connections, duration, headers });
      const m = await benchMetrics(server.url);
      const label = `${e.name}, ${connections} conn`;
      const errors = r.errors + r.timeouts + r.non2xx;
      figure({
        bench: BENCH,
        name: `${label}, req/s`,
        value: r.requests.average,
        unit: 'req/s',
        budget: null,
        target,
      });
      figure({ bench: BENCH, name: `${label}, p50`, value: r.latency.p50, unit: 'ms', budget: null, target });
      figure({
        bench: BENCH,
        name: `${label}, p99`,
        value: r.latency.p99,
        unit: 'ms',
        budget: connections === 10 ? P99_BUDGET[e.kind] : null,
        target,
      });
      figure({
        bench: BENCH,
        name: `${label}, errors in ${duration} s (${r.requests.total} requests)`,
        value: errors,
        unit: 'count',
        budget: connections === 50 ? { max: 0 } : null,
        target,
      });
      figure({
        bench: BENCH,
        name: `${label}, server event-loop delay p99`,
        value: m.eventLoopDelayMs.p99,
        unit: 'ms',
        budget: null,
        target,
      });
      figure({
        bench: BENCH,
        name: `${label}, server RSS`,
        value: rssMb(server.pid),
        unit: 'MB',
        budget: null,
        target,
      });
    }
  }
}

async function run(target: Target) {
  const t0 = performance.now();
  const pgliteDir = join(WORK_DIR, `pglite-${randomBytes(4).toString('hex')}`);
  const isPglite = target === pgliteTarget;
  const database: Database & { url?: string } = isPglite
    ? await openDatabase({
        kind: 'pglite',
        dataDir: join(pgliteDir, 'db'),
      })
    : await target.open();
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  try {
    let last = performance.now();
    const part = (step: string) => {
      const at = performance.now();
      figure({
        bench: BENCH,
        name: `seed: ${step}`,
        value: (at - last) / 1000,
        unit: 's',
        budget: null,
        target: target.name,
      });
      last = at;
    };
    await seedLargeData(database.db, SIZES, part);
    await analyzeSeeded(database.db);
    part('vacuum analyze');
    figure({
      bench: BENCH,
      name: `seed: total (${SIZES.visits.toLocaleString()} visits, ${SIZES.events.toLocaleString()} events)`,
      value: (performance.now() - t0) / 1000,
      unit: 's',
      budget: null,
      target: target.name,
    });
    // PGlite is one process's folder: closed here before the server opens it.
    if (isPglite) await database.close();
    server = await startServer(
      isPglite ? { DATA_DIR: pgliteDir } : { DATA_DIR: pgliteDir, DATABASE_URL: database.url! },
    );
    const login = await fetch(`${server.url}${API_BASE}/admin/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(BENCH_ADMIN),
    });
    if (!login.ok) throw new Error(`bench admin sign-in: ${login.status} ${await login.text()}`);
    const token = ((await login.json()) as { data: { accessToken: string } }).data.accessToken;
    figure({
      bench: BENCH,
      name: 'server RSS after start',
      value: rssMb(server.pid),
      unit: 'MB',
      budget: null,
      target: target.name,
    });
    await load(server, target.name, token);
  } finally {
    await server?.stop();
    if (!isPglite) await database.close();
    rmSync(pgliteDir, { recursive: true, force: true });
  }
}

console.log(
  `API load: ${SIZES.partners.toLocaleString()} partners, ${SIZES.customers.toLocaleString()} customers, ${SIZES.visits.toLocaleString()} visits, ${SIZES.rewards.toLocaleString()} rewards, ${SIZES.events.toLocaleString()} events; ${DURATION_10} s at 10 and ${DURATION_50} s at 50 connections per endpoint`,
);
const targets: Target[] = [];
if (process.env.BENCH_SKIP_POSTGRES !== '1') {
  const pg = await postgresTarget();
  if (pg) targets.push(pg);
  else console.log('No PostgreSQL answered (set TEST_DATABASE_URL); PGlite only.');
}
if (process.env.BENCH_SKIP_PGLITE !== '1') targets.push(pgliteTarget);
for (const target of targets) await run(target);
