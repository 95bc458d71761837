/**
 * What the benchmarks share: the database targets (PGlite, and PostgreSQL when one answers), an
 * app signed in as the bench admin, timing of request cases, and EXPLAIN output. Figures are
 * printed; nothing here fails on a timing.
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { API_BASE, createApp } from '../../server/app';
import { type Database, type Db, openDatabase, runOnce } from '../../server/db/client';
import { executeRows } from '../../server/db/rows';
import { TEST_PASSWORD_HASHING } from '../../server/domain/passwords';
import { silentLogger } from '../../server/log';
import { createMailer, fileMailbox } from '../../server/mail';
import { figure } from './figures';

export const BENCH_ADMIN = { email: 'bench-root@rewardclub.test', password: 'Bench#2026' } as const;
export const EXPLAIN = process.argv.includes('--explain');

/** A SQL array literal of strings, for generate_series seeding. */
export const arr = (items: readonly string[]) =>
  sql.raw(`array[${items.map((s) => `'${s.replace(/'/g, "''")}'`).join(',')}]`);

/** The p-th percentile of sorted figures. */
export const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

/** `url`: the PostgreSQL database made for the run, for a server started on it. */
export type Target = { name: string; open: () => Promise<Database & { url?: string }> };

export const pgliteTarget: Target = { name: 'PGlite', open: () => openDatabase({ kind: 'pglite' }) };

/** PostgreSQL at TEST_DATABASE_URL (or the local default) in a database of its own, dropped on close; null when none answers. */
export async function postgresTarget(): Promise<Target | null> {
  const server = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
  try {
    await runOnce(server, 'select 1', 3_000);
  } catch {
    return null;
  }
  return {
    name: 'PostgreSQL',
    open: async () => {
      const name = `rc_bench_${randomBytes(4).toString('hex')}`;
      await runOnce(server, `create database "${name}"`);
      const url = new URL(server);
      url.pathname = `/${name}`;
      const database = await openDatabase({ kind: 'postgres', url: url.toString(), max: 10 });
      return {
        ...database,
        url: url.toString(),
        close: async () => {
          await database.close();
          await runOnce(server, `drop database if exists "${name}" with (force)`);
        },
      };
    },
  };
}

/** The real app on the seeded database, signed in as BENCH_ADMIN (which the seed must create). */
export async function signedInApp(db: Db, mailDir: string, clock: () => Date = () => new Date()) {
  const app = createApp({
    db,
    clock,
    mailer: createMailer({ db, transport: fileMailbox(mailDir), clock, log: silentLogger }),
    config: {
      jwtSecret: randomBytes(32).toString('hex'),
      accessTokenTtlSeconds: 3600,
      refreshTokenTtlDays: 1,
      trustProxy: false,
      passwordHashing: TEST_PASSWORD_HASHING,
    },
  });
  const login = await app.request(`${API_BASE}/admin/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(BENCH_ADMIN),
  });
  const token = ((await login.json()) as { data: { accessToken: string } }).data.accessToken;
  return { app, headers: { authorization: `Bearer ${token}` } };
}

export type Case = { name: string; path: string };

/** Times each case `runs` times after 3 warm-ups; a row per case with the list size, p50 and p99. */
export async function timeCases(
  { app, headers }: Awaited<ReturnType<typeof signedInApp>>,
  cases: Case[],
  runs: number,
): Promise<Record<string, string | number>[]> {
  const rows: Record<string, string | number>[] = [];
  for (const c of cases) {
    const times: number[] = [];
    let size = '-';
    for (let i = 0; i < runs + 3; i++) {
      const start = performance.now();
      const res = await app.request(`${API_BASE}${c.path}`, { headers });
      const body = (await res.json()) as { data: { meta?: { totalCount: number } } };
      const ms = performance.now() - start;
      if (res.status !== 200) throw new Error(`${c.path}: ${res.status} ${JSON.stringify(body)}`);
      size = body.data.meta ? String(body.data.meta.totalCount) : '-';
      if (i >= 3) times.push(ms);
    }
    times.sort((a, b) => a - b);
    rows.push({
      case: c.name,
      totalCount: size,
      'p50 ms': +pct(times, 50).toFixed(1),
      'p99 ms': +pct(times, 99).toFixed(1),
    });
  }
  return rows;
}

/** Prints EXPLAIN ANALYZE of each named query. */
export async function printPlans(db: Db, targetName: string, queries: [string, string][]) {
  for (const [name, query] of queries) {
    const plan = await executeRows<Record<string, string>>(
      db,
      sql.raw(`explain (analyze, costs off) ${query}`),
    );
    console.log(`\n-- ${targetName}: ${name}\n${plan.map((r) => Object.values(r)[0]).join('\n')}`);
  }
}

/** Reports the p50 and p99 of each timed case (the rows of `timeCases`) as figures, without budget. */
export function caseFigures(bench: string, target: string, rows: Record<string, string | number>[]) {
  for (const row of rows)
    for (const p of ['p50', 'p99'] as const)
      figure({
        bench,
        name: `${row.case}, ${p}`,
        value: Number(row[`${p} ms`]),
        unit: 'ms',
        budget: null,
        target,
      });
}

/** One API call of a bench with a signed-in bearer header: the envelope's data, or a thrown error. */
export async function apiCall<T>(
  base: string,
  headers: Record<string, string>,
  method: string,
  path: string,
  body?: unknown,
) {
  const res = await fetch(`${base}/api/v1${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return (JSON.parse(text) as { data: T }).data;
}
