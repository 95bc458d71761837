import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFailoverProxy } from '../../tests/setup/faults';
import { createSuperAdmin, isPostgres, setupTestServer, signIn, type Tokens } from '../../tests/setup/server';
import { isDatabaseUnavailable } from './errors';
import { createPool } from './pool';
import { executeRows } from './rows';

/**
 * A database that dropped the server's connections (a failover, a restart at night): the pool may
 * still hold idle clients whose connections are dead. The first request after it must not meet one
 * and answer 503 (docs/decisions/041-server-one-source-and-dead-connections.md).
 *
 * The server reaches PostgreSQL through a proxy that can play a failover (tests/setup/faults.ts):
 * the connections it cuts look alive to the pool until they are used, then answer with a reset.
 * PostgreSQL only (project `server-postgres`): PGlite runs inside the process, with no connection to
 * cut and no pool.
 */
let proxy: Awaited<ReturnType<typeof startFailoverProxy>>;
beforeAll(async () => {
  if (!isPostgres) return;
  const target = new URL(process.env.TEST_DATABASE_URL!);
  proxy = await startFailoverProxy({ host: target.hostname, port: Number(target.port || 5432) });
});
// Registered after the proxy's hook, so the server's pool connects through the running proxy.
const t = setupTestServer({ poolSize: 6, databaseVia: (url) => proxy.via(url) });
let tokens: Tokens;
let killer: pg.Client;
let dbName: string;

beforeAll(async () => {
  if (!isPostgres) return;
  const admin = await createSuperAdmin(t.db);
  tokens = await signIn(t, admin.email, admin.password);
  const [row] = await executeRows<{ name: string }>(t.db, sql`select current_database() as name`);
  dbName = row!.name;
  killer = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  killer.on('error', () => {});
  await killer.connect();
});
afterAll(async () => {
  await killer?.end().catch(() => {});
  await proxy?.close();
});

/** Several requests at once, so the pool holds several idle clients afterwards. */
async function warmPool() {
  const answers = await Promise.all(
    Array.from({ length: 6 }, () => t.request('GET', '/admin/user/get-roles', { token: tokens.accessToken })),
  );
  expect(answers.map((a) => a.status)).toEqual(Array(6).fill(200));
  expect(t.database.poolStats().idle).toBeGreaterThan(1);
}

/** Every server connection to this file's database ended by the server (`pg_terminate_backend`). */
async function terminateAll(): Promise<number> {
  const { rows } = await killer.query<{ n: number }>(
    'select count(pg_terminate_backend(pid))::int as n from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
    [dbName],
  );
  return rows[0]!.n;
}

const createRole = (roleName: string) =>
  t.request('POST', '/admin/user/create-role', {
    token: tokens.accessToken,
    json: { roleName, permissionIds: [1] },
  });

async function rolesNamed(name: string): Promise<number> {
  const [row] = await executeRows<{ n: number }>(
    t.db,
    sql`select count(*)::int as n from roles where name = ${name}`,
  );
  return row!.n;
}

describe.runIf(isPostgres)('the pool after the database dropped its connections', () => {
  it('after pg_terminate_backend on every connection, the next read and write answer', async () => {
    await warmPool();
    expect(await terminateAll()).toBeGreaterThan(1);
    const read = await t.request('GET', '/user/profile', { token: tokens.accessToken });
    expect(read.status, read.text).toBe(200);
    await warmPool();
    expect(await terminateAll()).toBeGreaterThan(1);
    const name = `Night shift ${Date.now()}`;
    const write = await createRole(name);
    expect(write.status, write.text).toBe(201);
    expect(await rolesNamed(name)).toBe(1);
  });

  it('after a failover (every idle connection dead, reset on use), the next read answers 200', async () => {
    await warmPool();
    expect(proxy.cut()).toBeGreaterThan(1);
    const res = await t.request('GET', '/user/profile', { token: tokens.accessToken });
    expect(res.status, res.text).toBe(200);
  });

  it('after a failover, the next write (a transaction) answers 201 and is stored once', async () => {
    await warmPool();
    expect(proxy.cut()).toBeGreaterThan(1);
    const name = `Dawn shift ${Date.now()}`;
    const res = await createRole(name);
    expect(res.status, res.text).toBe(201);
    expect(await rolesNamed(name)).toBe(1);
  });

  it('after a failover, no dead client stays checked out of the pool', async () => {
    await warmPool();
    proxy.cut();
    await t.request('GET', '/user/profile', { token: tokens.accessToken });
    await createRole(`Dusk shift ${Date.now()}`);
    const stats = t.database.poolStats();
    expect(stats.total).toBe(stats.idle);
    expect(stats.waiting).toBe(0);
  });

  it('a lone write on a dead connection is not run again: it fails, and nothing is doubled', async () => {
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${dbName}`;
    const pool = createPool(proxy.via(url.toString()), { max: 3 });
    try {
      await pool.query('create table if not exists lone_writes (n int)');
      const held = await Promise.all([pool.connect(), pool.connect()]);
      for (const c of held) c.release();
      expect(pool.idleCount).toBe(2);
      proxy.cut();
      const write = pool.query('insert into lone_writes values (1)');
      await expect(write).rejects.toSatisfy(isDatabaseUnavailable);
      // A read on the other dead idle client is run again on a new connection.
      const { rows } = await pool.query<{ n: number }>('select count(*)::int as n from lone_writes');
      expect(rows[0]!.n).toBe(0);
    } finally {
      await pool.end();
    }
  });
});
