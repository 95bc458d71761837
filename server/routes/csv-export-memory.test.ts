import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createSuperAdmin } from '../../tests/setup/server';
import { type Database, openDatabase } from '../db/client';
import { executeRows } from '../db/rows';

/**
 * Issue 9: an export of 100,000 rows from the real server (a child process running server/main.ts,
 * as `npm start` does) keeps the server's memory flat. The customers are seeded set-based with
 * generate_series; the client reads the body as a stream and keeps only counts. The server's RSS is
 * sampled from /proc every 50 ms before, during and after the download. On PGlite, the database
 * runs inside the server process, so its memory counts too: the stricter case. It runs in the
 * PGlite project only (vitest.config.ts); the route tests run the same export code on PostgreSQL.
 */
const ROWS = 100_000;
/** Growth of the server's RSS over its warmed-up baseline that still counts as flat. */
const FLAT_BOUND_MB = 96;
const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

let child: ChildProcess | undefined;
let dataDir: string;
let baseUrl: string;
let token: string;

const rssMb = (pid: number, field: 'VmRSS' | 'VmHWM' = 'VmRSS'): number => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  return kb / 1024;
};

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

async function seed(db: Database['db']) {
  const admin = await createSuperAdmin(db, 'export@rewardclub.test', 'Exp0rtSecret');
  // Building the customers' indexes once after the insert is far quicker than updating them row by
  // row (the trigram index above all): drop them, insert, and create them again as they were.
  const indexes = await executeRows<{ name: string; def: string }>(
    db,
    sql`select indexname as name, indexdef as def from pg_indexes
      where tablename = 'customers' and indexname <> 'customers_pkey'`,
  );
  for (const i of indexes) await db.execute(sql.raw(`drop index "${i.name}"`));
  await db.execute(sql`insert into customers (first_name, last_name, email, phone, address, fiber_plan,
      fiber_speed_mbps, fiber_monthly_fee, fiber_renewal_date, created_at)
    select 'Customer' || g, 'Surname' || (g % 997), 'customer' || g || '@bulk.test', '0803' || lpad(g::text, 7, '0'),
      g || ' Allen Avenue, Ikeja, Lagos', 'Fiber Home 50', 50, 25000, timestamptz '2026-04-01',
      timestamptz '2026-01-01' + g * interval '1 second'
    from generate_series(1, ${ROWS}) g`);
  for (const i of indexes) await db.execute(sql.raw(i.def));
  await db.execute(sql`analyze customers`);
  return admin;
}

/** User plus system CPU seconds the process has used (from /proc, clock ticks of 1/100 s). */
const cpuSeconds = (pid: number): number => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
};

let setupFigures = '';

beforeAll(async () => {
  const t0 = performance.now();
  dataDir = mkdtempSync(join(tmpdir(), 'rc-export-mem-'));
  // The server serves this stand-in instead of building the SPA (this test is about the API).
  writeFileSync(join(dataDir, 'index.html'), '<!doctype html><title>export test</title>');
  const pglite = await openDatabase({ kind: 'pglite', dataDir: join(dataDir, 'db') });
  let admin: { email: string; password: string };
  try {
    admin = await seed(pglite.db);
  } finally {
    await pglite.close();
  }
  const seeded = performance.now();
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  let output = '';
  child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      DATABASE_URL: '',
      PORT: String(port),
      DATA_DIR: dataDir,
      SPA_DIR: dataDir,
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d) => {
    output += d;
  });
  child.stderr?.on('data', (d) => {
    output += d;
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early (${child.exitCode}):\n${output}`);
    const up = await fetch(`${baseUrl}/api/v1/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) throw new Error(`server did not start within 60 s:\n${output}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  setupFigures = `seed ${((seeded - t0) / 1000).toFixed(1)} s, server start ${((performance.now() - seeded) / 1000).toFixed(1)} s`;
  const login = await fetch(`${baseUrl}/api/v1/admin/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: admin.email, password: admin.password }),
  });
  token = ((await login.json()) as { data: { accessToken: string } }).data.accessToken;
}, 120_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((r) => child!.once('exit', r));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child?.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
  rmSync(dataDir, { recursive: true, force: true });
});

/** Downloads an export as a stream, keeping only the byte and line counts. */
async function download(query: string, onLines?: (lines: number) => void) {
  const started = performance.now();
  const res = await fetch(`${baseUrl}/api/v1/admin/user/customers/export${query}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.status).toBe(200);
  let bytes = 0;
  let lines = 0;
  let tail = '';
  let firstByteMs = -1;
  const decoder = new TextDecoder();
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    if (firstByteMs < 0) firstByteMs = performance.now() - started;
    bytes += chunk.byteLength;
    const text = decoder.decode(chunk, { stream: true });
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) lines++;
    onLines?.(lines);
    tail = (tail + text).slice(-200);
  }
  return { bytes, lines, tail, firstByteMs, total: Number(res.headers.get('x-total-count')) };
}

it(`exports ${ROWS.toLocaleString('en')} rows with the server's memory flat`, async () => {
  const pid = child!.pid!;
  // Warm up the code paths with a small export (11 rows), so the baseline is the idle, loaded server.
  const warm = await download('?searchText=Customer1234');
  expect(warm.total).toBe(11);
  const before = rssMb(pid);
  const cpuBefore = cpuSeconds(pid);
  let peak = before;
  let current = before;
  const sampler = setInterval(() => {
    current = rssMb(pid);
    peak = Math.max(peak, current);
  }, 50);
  // RSS when a fifth of the rows has arrived, and the peak after it: memory that grew with the rows
  // would keep climbing through the other four fifths.
  let atFifth: number | undefined;
  let peakAfterFifth = 0;
  const started = performance.now();
  let result: Awaited<ReturnType<typeof download>>;
  try {
    result = await download('?sortBy=lastName&sortOrder=desc', (lines) => {
      if (atFifth === undefined && lines >= ROWS / 5) atFifth = rssMb(pid);
      if (atFifth !== undefined) peakAfterFifth = Math.max(peakAfterFifth, current);
    });
  } finally {
    clearInterval(sampler);
  }
  const seconds = (performance.now() - started) / 1000;
  const cpu = cpuSeconds(pid) - cpuBefore;
  const after = rssMb(pid);
  peak = Math.max(peak, after);
  peakAfterFifth = Math.max(peakAfterFifth, after);
  const mb = (n: number) => `${n.toFixed(0)} MB`;
  console.log(
    `[figure] csv export (PGlite, in the server process): ${ROWS.toLocaleString('en')} rows, ` +
      `${(result.bytes / 1024 / 1024).toFixed(1)} MiB in ${seconds.toFixed(1)} s (server CPU ${cpu.toFixed(1)} s); ` +
      `server RSS before ${mb(before)}, at 20% of rows ${mb(atFifth ?? Number.NaN)}, peak during ${mb(peak)} ` +
      `(+${mb(peak - before)}; +${mb(peakAfterFifth - (atFifth ?? 0))} over the last 80% of rows), after ${mb(after)} ` +
      `(bound +${FLAT_BOUND_MB} MB); first bytes after ${result.firstByteMs.toFixed(0)} ms; ${setupFigures}`,
  );
  expect(result.total).toBe(ROWS);
  expect(result.lines).toBe(ROWS + 1);
  expect(result.tail).toMatch(/\r\n$/);
  expect(peak - before).toBeLessThan(FLAT_BOUND_MB);
  // Streamed: the first bytes arrive long before the last (the server does not build the file first).
  expect(result.firstByteMs).toBeLessThan((seconds * 1000) / 4);
}, 120_000);
