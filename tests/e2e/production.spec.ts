import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import pg from 'pg';
import { runOnce } from '../../server/db/client';
import { E2E_SPA_DIR, E2E_TMP, REPO_ROOT } from './support/env';

/**
 * Issue 18: production as the README's Deploy section sets it up. Two BUILT instances
 * (`dist-server/main.js` with plain node, NODE_ENV=production) on one PostgreSQL, behind Debian's
 * nginx running the repository's deploy/nginx.conf. A session signs in through one instance and
 * refreshes through the other; the SPA works through nginx with the right caching headers; under
 * load, every instance is restarted in turn as the README says (SIGTERM, start, wait for /readyz,
 * the next one) and no request fails through nginx (issue 33 item 1).
 *
 * PostgreSQL: TEST_DATABASE_URL (CI) or the local server on 127.0.0.1:5432; nginx: scripts/ensure-nginx.mjs.
 */
const PG_SERVER = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const NGINX = process.env.NGINX_PATH || '/usr/sbin/nginx';
const JWT_SECRET = randomBytes(32).toString('hex');
const ADMIN = { email: 'ops@rewardclub.test', password: 'Ops#Deploy2026' };
const WORK = join(E2E_TMP, 'production');
const BUILT = join(WORK, 'server');

type Instance = {
  port: number;
  url: string;
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
};

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

async function waitFor(url: string, child?: ChildProcess, output?: () => string) {
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child && child.exitCode !== null) throw new Error(`exited early (${child.exitCode}):\n${output?.()}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer within 90 s:\n${output?.()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

function startInstance(name: string, port: number, databaseUrl: string): Instance {
  const dataDir = join(WORK, name);
  mkdirSync(dataDir, { recursive: true });
  const child = spawn(process.execPath, [join(BUILT, 'main.js')], {
    cwd: REPO_ROOT,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      JWT_SECRET,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      TRUST_PROXY: '127.0.0.1',
      DATA_DIR: dataDir,
      SPA_DIR: E2E_SPA_DIR,
      LOG_LEVEL: 'warn',
      SHUTDOWN_TIMEOUT_SECONDS: '10',
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
  process.once('exit', () => child.kill('SIGKILL'));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { port, url: `http://127.0.0.1:${port}`, child, output: () => output, exited };
}

/** deploy/nginx.conf as committed, with the instances' ports and a free listen port, in a minimal main config. */
function nginxConfig(listen: number, ports: number[]): string {
  let snippet = readFileSync(join(REPO_ROOT, 'deploy/nginx.conf'), 'utf8');
  const servers = [...snippet.matchAll(/^\s*server 127\.0\.0\.1:\d+ [^\n]*$/gm)];
  expect(servers).toHaveLength(2);
  snippet = snippet
    .replace(/127\.0\.0\.1:3000/, `127.0.0.1:${ports[0]}`)
    .replace(/127\.0\.0\.1:3001/, `127.0.0.1:${ports[1]}`);
  expect(snippet).toMatch(/^\s*listen 80;$/m);
  snippet = snippet.replace(/^(\s*)listen 80;$/m, `$1listen 127.0.0.1:${listen};`);
  return [
    'worker_processes 1;',
    `pid ${WORK}/nginx.pid;`,
    `error_log ${WORK}/nginx-error.log warn;`,
    'events { worker_connections 256; }',
    'http {',
    '  include /etc/nginx/mime.types;',
    `  access_log ${WORK}/nginx-access.log;`,
    `  client_body_temp_path ${WORK}/nginx-body;`,
    `  proxy_temp_path ${WORK}/nginx-proxy;`,
    `  fastcgi_temp_path ${WORK}/nginx-fastcgi;`,
    `  uwsgi_temp_path ${WORK}/nginx-uwsgi;`,
    `  scgi_temp_path ${WORK}/nginx-scgi;`,
    snippet,
    '}',
  ].join('\n');
}

let dbName = '';
let databaseUrl = '';
let a: Instance;
let b: Instance;
let nginx: ChildProcess;
let proxy = '';

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(240_000);
  rmSync(WORK, { recursive: true, force: true });
  mkdirSync(WORK, { recursive: true });
  // The built server, exactly as `npm run build` makes it (the SPA is global-setup's build).
  const build = spawnSync(process.execPath, ['scripts/build-server.mjs', BUILT], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
  });
  expect(build.status, build.stderr).toBe(0);

  dbName = `rc_e2e_prod_${randomBytes(4).toString('hex')}`;
  await runOnce(PG_SERVER, `create database "${dbName}"`);
  const url = new URL(PG_SERVER);
  url.pathname = `/${dbName}`;

  // Both start together on an empty database: the advisory lock lets one migrate.
  const [portA, portB, listen] = [await freePort(), await freePort(), await freePort()];
  databaseUrl = url.toString();
  a = startInstance('a', portA, databaseUrl);
  b = startInstance('b', portB, databaseUrl);
  await Promise.all([
    waitFor(`${a.url}/readyz`, a.child, a.output),
    waitFor(`${b.url}/readyz`, b.child, b.output),
  ]);

  writeFileSync(join(WORK, 'nginx.conf'), nginxConfig(listen, [portA, portB]));
  nginx = spawn(NGINX, ['-p', WORK, '-c', join(WORK, 'nginx.conf'), '-g', 'daemon off;'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let nginxOut = '';
  nginx.stderr?.on('data', (d) => {
    nginxOut += d;
  });
  process.once('exit', () => nginx.kill('SIGKILL'));
  proxy = `http://127.0.0.1:${listen}`;
  await waitFor(`${proxy}/livez`, nginx, () => nginxOut);
});

test.afterAll(async () => {
  nginx?.kill('SIGTERM');
  for (const i of [a, b]) {
    if (i && i.child.exitCode === null) {
      i.child.kill('SIGTERM');
      await i.exited;
    }
  }
  if (dbName) await runOnce(PG_SERVER, `drop database if exists "${dbName}" with (force)`);
});

test('probes, JSON 404s and the SPA caching headers through nginx; no demo data', async () => {
  const ready = await fetch(`${proxy}/readyz`);
  expect(ready.status).toBe(200);
  expect(await ready.json()).toEqual({ status: 'ok', database: 'up' });
  const unknown = await fetch(`${proxy}/api/v2/partners`);
  expect(unknown.status).toBe(404);
  expect(await unknown.json()).toMatchObject({ success: false });
  const sent = await fetch(`${proxy}/livez`, { headers: { 'x-request-id': 'e2e-trace-1' } });
  expect(sent.headers.get('x-request-id')).toBe('e2e-trace-1');

  const index = await fetch(`${proxy}/`);
  expect(index.headers.get('cache-control')).toBe('no-cache');
  const html = await index.text();
  const asset = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
  expect(asset).toBeTruthy();
  expect((await fetch(`${proxy}${asset}`)).headers.get('cache-control')).toBe(
    'public, max-age=31536000, immutable',
  );
  expect((await fetch(`${proxy}/sw.js`)).headers.get('cache-control')).toBe('no-cache');
  expect((await fetch(`${proxy}/dashboard/partners`)).headers.get('cache-control')).toBe('no-cache');

  // Production: no demo account, and no sign-in details printed.
  const demo = await fetch(`${proxy}/api/v1/admin/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@rewardclub.ng', password: 'RewardClub#2026' }),
  });
  expect(demo.status).toBe(401);
  expect(a.output() + b.output()).not.toMatch(/RewardClub#2026|Ops#Deploy2026/);
});

test('a session signs in through one instance and refreshes through the other; the SPA works through nginx', async ({
  page,
}) => {
  const login = await fetch(`${a.url}/api/v1/admin/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  expect(login.status).toBe(200);
  const first = ((await login.json()) as { data: { accessToken: string; refreshToken: string } }).data;
  const refresh = await fetch(`${b.url}/api/v1/auth/refresh-token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ refreshToken: first.refreshToken }),
  });
  expect(refresh.status).toBe(200);
  const second = ((await refresh.json()) as { data: { accessToken: string } }).data;
  for (const i of [a, b]) {
    const profile = await fetch(`${i.url}/api/v1/user/profile`, {
      headers: { authorization: `Bearer ${second.accessToken}` },
    });
    expect(profile.status).toBe(200);
  }

  // The same sign-in as tests/e2e/support/fixtures.ts, at nginx's address.
  await page.goto(`${proxy}/`);
  await page.getByPlaceholder('Enter your email').fill(ADMIN.email);
  await page.getByPlaceholder('Enter your password').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.reload();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('button', { name: 'Sign in' })).toHaveCount(0);
});

test('a rolling restart of every instance under load, as the README says: 0 errors, every acknowledged write stored once', async () => {
  test.setTimeout(240_000);
  const login = await fetch(`${proxy}/api/v1/admin/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  const { accessToken } = ((await login.json()) as { data: { accessToken: string } }).data;
  const auth = { authorization: `Bearer ${accessToken}` };

  const failures: string[] = [];
  const counts = { reads: 0, writes: 0 };
  /** The role names whose creation was acknowledged (a 2xx through nginx). */
  const acknowledged: string[] = [];
  const prefix = `Rolling ${randomBytes(3).toString('hex')}`;
  let stop = false;
  let seq = 0;
  const worker = async (n: number) => {
    for (let i = 0; !stop; i++) {
      const write = i % 3 === 0;
      const path = write
        ? '/api/v1/admin/user/create-role'
        : i % 2
          ? '/api/v1/admin/partners'
          : '/api/v1/user/profile';
      const roleName = `${prefix} ${n}-${seq++}`;
      try {
        const res = await fetch(`${proxy}${path}`, {
          method: write ? 'POST' : 'GET',
          headers: write ? { ...auth, 'content-type': 'application/json' } : auth,
          body: write ? JSON.stringify({ roleName, permissionIds: [1] }) : undefined,
        });
        const text = await res.text();
        if (!res.ok) failures.push(`${path}: ${res.status} ${text.slice(0, 120)}`);
        else {
          counts[write ? 'writes' : 'reads']++;
          if (write) acknowledged.push(roleName);
        }
      } catch (err) {
        failures.push(`${path}: ${(err as Error).message}`);
      }
    }
  };
  const load = Promise.all(Array.from({ length: 8 }, (_, n) => worker(n)));
  const served = () => counts.reads + counts.writes;
  await new Promise((r) => setTimeout(r, 2_000));

  // The README's procedure, for each instance in turn: SIGTERM it, start it again, wait for its
  // /readyz, then the next one. No pause is added between the steps.
  const steps: string[] = [];
  for (const name of ['a', 'b'] as const) {
    const old = name === 'a' ? a : b;
    const before = served();
    old.child.kill('SIGTERM');
    const code = await old.exited;
    expect(code, old.output()).toBe(0);
    expect(old.output()).not.toMatch(/\n\s+at /);
    const fresh = startInstance(`${name}-2`, old.port, databaseUrl);
    if (name === 'a') a = fresh;
    else b = fresh;
    await waitFor(`${fresh.url}/readyz`, fresh.child, fresh.output);
    steps.push(`${name}: exit ${code}, ${served() - before} answers while it restarted`);
  }
  const afterBoth = served();
  await new Promise((r) => setTimeout(r, 2_000));
  stop = true;
  await load;
  console.log(
    `[figure] rolling restart: ${served()} requests through nginx (${counts.writes} writes), ${failures.length} failed; ${steps.join('; ')}`,
  );
  expect(failures).toEqual([]);
  expect(served() - afterBoth).toBeGreaterThan(20); // both new instances serve
  // Both new instances answer directly too.
  for (const i of [a, b]) expect((await fetch(`${i.url}/readyz`)).status).toBe(200);

  // Every acknowledged write is in the database, once; nothing else with the prefix was stored.
  const check = new pg.Client({ connectionString: databaseUrl });
  await check.connect();
  try {
    const { rows } = await check.query<{ name: string; n: number }>(
      'select name, count(*)::int as n from roles where name like $1 group by name',
      [`${prefix} %`],
    );
    const stored = new Map(rows.map((r) => [r.name, r.n]));
    expect(acknowledged.length).toBeGreaterThan(20);
    expect(acknowledged.filter((n) => stored.get(n) !== 1)).toEqual([]);
    expect(rows.length).toBe(acknowledged.length);
  } finally {
    await check.end();
  }
});
