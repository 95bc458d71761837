import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase } from '../tests/setup/faults';
import {
  createRole,
  createSuperAdmin,
  createTestClock,
  isPostgres,
  openTestDatabase,
} from '../tests/setup/server';
import { createApp } from './app';
import { type Database, openDatabase } from './db/client';
import { LOCK_FILE } from './db/data-dir-lock';
import { roles } from './db/schema';
import { TEST_PASSWORD_HASHING } from './domain/passwords';
import { readEnv } from './env';
import { forwardedClient } from './http/trust-proxy';
import type { Logger } from './log';
import { createMailer, fileMailbox } from './mail';
import { createMetrics, type Metrics } from './metrics';
import { mountSpa } from './spa';

/**
 * Issue 18: what production relies on. The probes, the JSON 404 for any /api/ path, request ids,
 * the access-log line, the metrics on their own port, the production refusals and the data-dir lock.
 */
const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const ADMIN = { email: 'ops@rewardclub.test', password: 'Ops#Secret2026' };

type Line = { level: string; msg: string } & Record<string, unknown>;
const lines: Line[] = [];
const capture: Logger = {
  debug: () => {},
  info: (msg, fields) => lines.push({ level: 'info', msg, ...fields }),
  warn: (msg, fields) => lines.push({ level: 'warn', msg, ...fields }),
  error: (msg, fields) => lines.push({ level: 'error', msg, ...fields }),
};

let database: Database;
let dir: string;
let metrics: Metrics;
let metricsServer: Server;
let stopping = false;
let app: ReturnType<typeof createApp>;

beforeAll(async () => {
  database = await openTestDatabase();
  dir = mkdtempSync(join(tmpdir(), 'rc-prod-'));
  const spaDir = join(dir, 'spa');
  mkdirSync(spaDir);
  writeFileSync(join(spaDir, 'index.html'), '<!doctype html><title>SPA</title>');
  const clock = createTestClock(new Date());
  const mailer = createMailer({ db: database.db, transport: fileMailbox(join(dir, 'mail')), clock });
  metrics = createMetrics({ db: database.db, poolStats: database.poolStats });
  app = createApp({
    db: database.db,
    clock,
    mailer,
    log: capture,
    onRequest: metrics.observe,
    stopping: () => stopping,
    config: {
      jwtSecret: 'p'.repeat(40),
      accessTokenTtlSeconds: 900,
      refreshTokenTtlDays: 7,
      trustProxy: false,
      passwordHashing: TEST_PASSWORD_HASHING,
    },
  });
  mountSpa(app, spaDir);
  await createSuperAdmin(database.db, ADMIN.email, ADMIN.password);
  metricsServer = await metrics.listen(0, '127.0.0.1');
});

afterAll(async () => {
  metricsServer?.close();
  await database?.close();
  rmSync(dir, { recursive: true, force: true });
});

const get = (path: string, headers: Record<string, string> = {}) => app.request(path, { headers });

describe('probes', () => {
  it('/livez and /readyz answer JSON, never the SPA, and are never cached', async () => {
    for (const path of ['/livez', '/readyz']) {
      const res = await get(path);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(await res.json()).toMatchObject({ status: 'ok' });
    }
    expect(await (await get('/readyz')).json()).toEqual({ status: 'ok', database: 'up' });
  });

  it('/readyz is 503 while the process stops; /livez stays 200', async () => {
    stopping = true;
    try {
      const res = await get('/readyz');
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({ status: 'stopping' });
      expect((await get('/livez')).status).toBe(200);
    } finally {
      stopping = false;
    }
  });
});

describe('unknown API paths', () => {
  it('are a JSON 404 in the envelope for any version and method, never the SPA', async () => {
    for (const [method, path] of [
      ['GET', '/api/v1/no-such-thing'],
      ['GET', '/api/v2/partners'],
      ['GET', '/api/v9'],
      ['GET', '/api'],
      ['GET', '/api/'],
      ['POST', '/api/v2/admin/auth/login'],
      ['DELETE', '/api/v1/admin/partners/1/nothing'],
      ['GET', '/api/anything/at/all.html'],
    ] as const) {
      const res = await app.request(path, { method });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.headers.get('content-type'), `${method} ${path}`).toMatch(/^application\/json/);
      expect(await res.json()).toEqual({
        success: false,
        data: null,
        message: 'Route not found',
        errors: [],
        code: 'route_not_found',
      });
    }
    // The SPA still answers its own routes.
    const page = await get('/dashboard/partners');
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>SPA</title>');
  });
});

describe('request ids and the access log', () => {
  it('keeps a sane X-Request-Id, replaces anything else, and echoes it on every answer', async () => {
    const sane = 'req-1234.abcd:EF_56';
    expect((await get('/livez', { 'x-request-id': sane })).headers.get('x-request-id')).toBe(sane);
    for (const bad of ['x'.repeat(129), 'has space', 'quote"d', '<script>', '-leading-dash', 'naïve']) {
      const id = (await get('/api/v1/health', { 'x-request-id': bad })).headers.get('x-request-id');
      expect(id).not.toBe(bad);
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
    const a = (await get('/api/v2/x')).headers.get('x-request-id');
    const b = (await get('/api/v2/x')).headers.get('x-request-id');
    expect(a).toBeTruthy();
    expect(a).not.toBe(b);
  });

  it('writes one line per request: method, route pattern, status, duration, user id, request id; no token, no code', async () => {
    const login = await app.request('/api/v1/admin/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ADMIN),
    });
    expect(login.status).toBe(200);
    const { accessToken, refreshToken } = (
      (await login.json()) as {
        data: { accessToken: string; refreshToken: string };
      }
    ).data;
    lines.length = 0;
    const res = await app.request('/api/v1/admin/partners/987654?code=SECRETCODE1', {
      headers: { authorization: `Bearer ${accessToken}`, 'x-request-id': 'trace-42' },
    });
    expect(res.status).toBe(404);
    await app.request('/api/v1/auth/refresh-token', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refreshToken }),
    });
    const access = lines.filter((l) => l.msg === 'request');
    expect(access).toHaveLength(2);
    const [first, second] = access;
    expect(first).toMatchObject({
      level: 'info',
      method: 'GET',
      route: '/api/v1/admin/partners/:partnerId{[0-9]+}',
      status: 404,
      userId: expect.any(Number),
      requestId: 'trace-42',
    });
    expect(first!.durationMs).toEqual(expect.any(Number));
    expect(second).toMatchObject({ method: 'POST', route: '/api/v1/auth/refresh-token', status: 200 });
    const text = JSON.stringify(access);
    expect(text).not.toContain('\n');
    for (const secret of [accessToken, refreshToken, 'SECRETCODE1', '987654', ADMIN.password]) {
      expect(text).not.toContain(secret);
    }
  });
});

describe('metrics', () => {
  it('are served on their own port (default process metrics, HTTP histogram by route and status, pool, outbox), not on the public one', async () => {
    await get('/livez');
    await get('/api/v7/unknown');
    const { port } = metricsServer.address() as { port: number };
    const res = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await res.text();
    expect(text).toContain('process_resident_memory_bytes');
    expect(text).toContain('nodejs_eventloop_lag_seconds');
    expect(text).toMatch(
      /http_request_duration_seconds_count\{method="GET",route="\/livez",status="200"\} \d+/,
    );
    expect(text).toMatch(
      /http_request_duration_seconds_count\{method="GET",route="\(unmatched\)",status="404"\}/,
    );
    expect(text).toMatch(/db_pool_connections\{state="max"\} \d+/);
    expect(text).toContain('db_pool_waiting_requests');
    expect(text).toMatch(/outbox_depth\{outbox="mail"\} \d+/);
    expect((await fetch(`http://127.0.0.1:${port}/other`)).status).toBe(404);
    // The public app has no /metrics: it is the SPA's page there, never the figures.
    expect(await (await get('/metrics')).text()).not.toContain('process_resident_memory_bytes');
  });
});

describe('production configuration', () => {
  it('refuses NODE_ENV=production without JWT_SECRET, seeds no demo data unless asked', () => {
    expect(() => readEnv({ NODE_ENV: 'production' })).toThrow(
      /JWT_SECRET is required when NODE_ENV=production/,
    );
    const secret = 's'.repeat(32);
    expect(readEnv({ NODE_ENV: 'production', JWT_SECRET: secret }).seedDemo).toBe(false);
    expect(readEnv({ NODE_ENV: 'production', JWT_SECRET: secret, SEED_DEMO: 'true' }).seedDemo).toBe(true);
    expect(readEnv({}).seedDemo).toBe(true);
    expect(() => readEnv({ PORT: '4000', METRICS_PORT: '4000' })).toThrow(/METRICS_PORT must differ/);
    expect(readEnv({ HOST: '127.0.0.1', METRICS_PORT: '9100' })).toMatchObject({
      host: '127.0.0.1',
      metricsPort: 9100,
      metricsHost: '127.0.0.1',
    });
  });

  it('reads TRUST_PROXY as true/false or a list of addresses and CIDR ranges', () => {
    expect(readEnv({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(readEnv({ TRUST_PROXY: 'off' }).trustProxy).toBe(false);
    expect(readEnv({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8,::1' }).trustProxy).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
      '::1',
    ]);
    expect(() => readEnv({ TRUST_PROXY: '10.0.0.0/33,proxy.local' })).toThrow(
      /TRUST_PROXY[\s\S]*10\.0\.0\.0\/33, proxy\.local/,
    );
  });

  it('takes the client from X-Forwarded-For only through listed proxies, right to left', () => {
    const norm = (raw: string | undefined) => raw?.trim() || null;
    const list = ['127.0.0.1', '10.0.0.0/8'];
    // The peer is not a listed proxy: its word about the client counts for nothing.
    expect(forwardedClient(list, '203.0.113.9', '1.2.3.4', norm)).toBe('203.0.113.9');
    // Through nginx on loopback and an internal balancer: the first address that is not a proxy.
    expect(forwardedClient(list, '127.0.0.1', '6.6.6.6, 198.51.100.7, 10.1.2.3', norm)).toBe('198.51.100.7');
    expect(forwardedClient(list, '::ffff:127.0.0.1', '198.51.100.7', norm)).toBe('198.51.100.7');
    expect(forwardedClient(true, '203.0.113.9', '6.6.6.6, 198.51.100.7', norm)).toBe('198.51.100.7');
    expect(forwardedClient(false, '203.0.113.9', '198.51.100.7', norm)).toBe('203.0.113.9');
  });
});

/** `node --import tsx server/main.ts` with `env`; resolves with its exit code and output (or kills it after `ms`). */
function runServer(env: Record<string, string>, ms = 60_000) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: REPO_ROOT,
    env: { ...process.env, DATABASE_URL: '', SMTP_URL: '', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => {
    output += d;
  });
  child.stderr.on('data', (d) => {
    output += d;
  });
  const done = new Promise<{ code: number | null; output: string }>((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), ms);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
  return { child, done, output: () => output };
}

describe.runIf(!isPostgres)('the server process', () => {
  it('refuses to start in production without JWT_SECRET: one clear message, no stack', async () => {
    const data = mkdtempSync(join(tmpdir(), 'rc-prod-nojwt-'));
    try {
      const { code, output } = await runServer({
        NODE_ENV: 'production',
        JWT_SECRET: '',
        DATA_DIR: data,
        PORT: '0',
      }).done;
      expect(code).toBe(1);
      expect(output).toContain('JWT_SECRET is required when NODE_ENV=production');
      expect(output).not.toMatch(/\n\s+at /);
    } finally {
      rmSync(data, { recursive: true, force: true });
    }
  }, 60_000);

  it('a second process on one DATA_DIR refuses, naming the directory; a dead holder’s lock is taken over', async () => {
    const data = mkdtempSync(join(tmpdir(), 'rc-prod-lock-'));
    const spa = join(data, 'spa');
    mkdirSync(spa);
    writeFileSync(join(spa, 'index.html'), '<!doctype html>');
    const env = { DATA_DIR: data, SPA_DIR: spa, SEED_DEMO: 'false', PORT: '0' };
    const first = runServer(env);
    try {
      // The first process holds the directory once its lock file names it.
      for (let i = 0; i < 600 && !existsSync(join(data, LOCK_FILE)); i++) {
        if (first.child.exitCode !== null) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      const second = await runServer(env).done;
      expect(second.code).toBe(1);
      expect(second.output).toContain(
        `The data directory ${data} is in use by another server process (pid ${first.child.pid})`,
      );
      expect(second.output).not.toMatch(/\n\s+at /);
    } finally {
      first.child.kill('SIGKILL');
      await first.done;
    }
    // SIGKILL left the lock file behind; the next start takes it over and serves.
    const third = runServer({ ...env, LOG_LEVEL: 'info' });
    try {
      for (let i = 0; i < 600 && !third.output().includes('"listening"'); i++) {
        if (third.child.exitCode !== null) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(third.output()).toContain('"listening"');
      third.child.kill('SIGTERM');
      expect((await third.done).code).toBe(0);
    } finally {
      third.child.kill('SIGKILL');
      rmSync(data, { recursive: true, force: true });
    }
  }, 120_000);
});

describe.runIf(!isPostgres)('SIGTERM through npm', () => {
  it('npm start: the signal reaches the server, which stops cleanly (exit 0, lock released), no orphan', async () => {
    const data = mkdtempSync(join(tmpdir(), 'rc-prod-npm-'));
    const spa = join(data, 'spa');
    mkdirSync(spa);
    writeFileSync(join(spa, 'index.html'), '<!doctype html>');
    const npm = spawn('npm', ['start', '--silent'], {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        DATABASE_URL: '',
        DATA_DIR: data,
        SPA_DIR: spa,
        SEED_DEMO: 'false',
        PORT: '0',
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    npm.stdout.on('data', (d) => {
      output += d;
    });
    npm.stderr.on('data', (d) => {
      output += d;
    });
    const exited = new Promise<number | null>((resolve) => npm.once('exit', (code) => resolve(code)));
    try {
      for (let i = 0; i < 900 && !output.includes('"listening"'); i++) {
        if (npm.exitCode !== null) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(output).toContain('"listening"');
      const serverPid = Number(readFileSync(join(data, LOCK_FILE), 'utf8'));
      expect(serverPid).toBeGreaterThan(0);
      npm.kill('SIGTERM');
      expect(await exited).toBe(0);
      // The server itself is gone (not left behind as an orphan) and said so.
      await new Promise((r) => setTimeout(r, 500));
      expect(() => process.kill(serverPid, 0)).toThrow();
      expect(output).toContain('"stopped"');
      expect(existsSync(join(data, LOCK_FILE))).toBe(false);
    } finally {
      npm.kill('SIGKILL');
      rmSync(data, { recursive: true, force: true });
    }
  }, 120_000);
});

/** `node --import tsx server/<script>.ts args` with `env`; its exit code and output. */
function runScript(script: string, args: string[], env: Record<string, string>) {
  const res = spawnSync(process.execPath, ['--import', 'tsx', `server/${script}.ts`, ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { code: res.status, output: `${res.stdout}${res.stderr}` };
}

describe('db:backup and db:restore', () => {
  it('writes a backup that restores to the same data (PGlite dump, or pg_dump on PostgreSQL)', async () => {
    const work = mkdtempSync(join(tmpdir(), 'rc-backup-'));
    let scratch: Awaited<ReturnType<typeof createScratchDatabase>> | undefined;
    let restored: Awaited<ReturnType<typeof createScratchDatabase>> | undefined;
    try {
      const role = `Backup role ${randomBytes(3).toString('hex')}`;
      const source = join(work, 'source');
      let env: Record<string, string> = { DATA_DIR: source, DATABASE_URL: '' };
      if (isPostgres) {
        scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL!, 'rc_backup');
        env = { ...env, DATABASE_URL: scratch.url };
      }
      const db = await openDatabase(
        isPostgres
          ? { kind: 'postgres', url: scratch!.url }
          : { kind: 'pglite', dataDir: join(source, 'db') },
      );
      await createRole(db.db, role, ['roles.view']);
      await db.close();

      const backup = runScript('backup', [join(work, 'backups')], env);
      expect(backup.code, backup.output).toBe(0);
      const file = backup.output.trim().split('\n').at(-1)!;
      expect(file).toMatch(isPostgres ? /reward-club-.*\.dump$/ : /reward-club-.*\.tar\.gz$/);

      let copy: Database;
      if (isPostgres) {
        restored = await createScratchDatabase(process.env.TEST_DATABASE_URL!, 'rc_restore');
        const res = spawnSync('pg_restore', ['--no-owner', '-d', restored.url, file], { encoding: 'utf8' });
        expect(res.status, res.stderr).toBe(0);
        copy = await openDatabase({ kind: 'postgres', url: restored.url });
      } else {
        const target = join(work, 'restored');
        const restore = runScript('restore', [file], { DATA_DIR: target, DATABASE_URL: '' });
        expect(restore.code, restore.output).toBe(0);
        // Restoring over a database is refused.
        expect(runScript('restore', [file], { DATA_DIR: target, DATABASE_URL: '' }).output).toContain(
          'already holds a database',
        );
        copy = await openDatabase({ kind: 'pglite', dataDir: join(target, 'db') });
      }
      const names = (await copy.db.select({ name: roles.name }).from(roles)).map((r) => r.name);
      await copy.close();
      expect(names).toContain(role);
    } finally {
      await scratch?.drop();
      await restored?.drop();
      rmSync(work, { recursive: true, force: true });
    }
  }, 180_000);
});
