import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { permissionCatalogue } from '../contract/permissions';
import { createRole, createSuperAdmin, createUser, setupTestServer, signIn } from '../tests/setup/server';
import { API_BASE, createApp, routeAccess } from './app';
import { events } from './db/schema';
import { actions } from './domain/events';

const t = setupTestServer();
let adminToken: string;
let nobodyToken: string;

beforeAll(async () => {
  const admin = await createSuperAdmin(t.db);
  adminToken = (await signIn(t, admin.email, admin.password)).accessToken;
  const empty = await createRole(t.db, 'Nothing', []);
  const nobody = await createUser(t.db, { roleId: empty.id });
  nobodyToken = (await signIn(t, nobody.email, nobody.password)).accessToken;
});

describe('system routes', () => {
  it('GET /health', async () => {
    const res = await t.request('GET', '/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      data: { status: 'ok', environment: 'development' },
      message: 'OK',
      errors: [],
    });
  });

  it('GET /authz serves the permission catalogue to any signed-in user', async () => {
    const res = await t.request('GET', '/authz', { token: nobodyToken });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(permissionCatalogue);
  });
});

describe('error mapping', () => {
  it('unknown routes and methods: 404 envelope', async () => {
    for (const [method, path] of [
      ['GET', '/nope'],
      ['DELETE', '/health'],
      ['GET', ''],
    ] as const) {
      const res = await t.request(method, path);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body).toEqual({
        success: false,
        data: null,
        message: 'Route not found',
        code: 'route_not_found',
        errors: [],
      });
    }
  });

  it('anything unexpected: 500 envelope without stack or SQL', async () => {
    const logged: string[] = [];
    const app = createApp({
      db: t.db,
      clock: t.clock,
      mailer: t.mailer,
      config: t.config,
      log: { debug() {}, info() {}, warn() {}, error: (m, f) => logged.push(`${m} ${JSON.stringify(f)}`) },
    });
    app.get(`${API_BASE}/boom`, () => {
      throw new Error('Failed query: select password_hash from users');
    });
    const res = await app.request(`${API_BASE}/boom`);
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({
      success: false,
      data: null,
      message: 'Internal server error',
      code: 'internal_error',
      errors: [],
    });
    expect(text).not.toMatch(/select|stack|at /i);
    expect(logged.join()).toContain('Failed query');
  });

  it('API responses are not cached and carry security headers', async () => {
    const res = await t.request('GET', '/health');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('no API answer may be kept by the browser (HTTP disk cache): no-store on data, tokens and errors alike', async () => {
    // Sign-out wipes the device (issue 6): user data must never reach the browser's HTTP cache,
    // where no page script could remove it. Every kind of answer, success or failure.
    const failedSignIn = await t.request('POST', '/admin/auth/login', {
      json: { email: 'nobody-here@rewardclub.test', password: 'wrong' },
    });
    const someone = await createUser(t.db, { roleId: (await createRole(t.db, 'Cache check', [])).id });
    const tokens = await signIn(t, someone.email, someone.password);
    const app = createApp({ db: t.db, clock: t.clock, mailer: t.mailer, config: t.config });
    app.get(`${API_BASE}/boom`, () => {
      throw new Error('boom');
    });
    const answers: [number, Response | Promise<Response>][] = [
      [
        200,
        t.app.request(`${API_BASE}/admin/user/customers`, {
          headers: { authorization: `Bearer ${adminToken}` },
        }),
      ],
      [
        200,
        t.app.request(`${API_BASE}/user/profile`, { headers: { authorization: `Bearer ${adminToken}` } }),
      ],
      [
        200,
        t.app.request(`${API_BASE}/auth/refresh-token`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ refreshToken: tokens.refreshToken }),
        }),
      ],
      [401, t.app.request(`${API_BASE}/user/profile`)],
      [
        403,
        t.app.request(`${API_BASE}/admin/user/customers`, {
          headers: { authorization: `Bearer ${nobodyToken}` },
        }),
      ],
      [404, t.app.request(`${API_BASE}/nope`)],
      [500, app.request(`${API_BASE}/boom`)],
    ];
    expect(failedSignIn.status).toBe(401);
    expect(failedSignIn.headers.get('cache-control')).toBe('no-store');
    for (const [status, pending] of answers) {
      const res = await pending;
      expect(res.status, res.url).toBe(status);
      expect(res.headers.get('cache-control'), `${status} ${res.url}`).toBe('no-store');
    }
  });

  const hostile: unknown[] = [
    null,
    [],
    [1, 2],
    'x',
    0,
    { email: { $ne: 1 }, password: { a: 1 } },
    {
      refreshToken: ['a'],
      resetCode: null,
      newPassword: 7,
      oldPassword: [],
      firstName: {},
      profileImage: 12,
    },
    { email: 'a'.repeat(100_000), password: 'b'.repeat(100_000), refreshToken: 'c'.repeat(100_000) },
    { resetCode: 'x'.repeat(500_000), newPassword: 'Aa1'.repeat(1000) },
    { __proto__: { admin: true }, constructor: { prototype: {} } },
  ];

  it('a NUL character (which PostgreSQL text cannot hold) is a 400 naming the field, not a 500', async () => {
    for (const [method, path, json] of [
      ['GET', '/admin/user/admin-users?searchText=%00', undefined],
      ['GET', '/admin/user/activities?searchText=a%00b', undefined],
      ['POST', '/admin/user/create-role', { roleName: 'a\u0000b', permissionIds: [1] }],
      ['PATCH', '/user/profile', { firstName: 'x\u0000' }],
    ] as const) {
      const res = await t.request(method, path, { token: adminToken, json });
      expect(res.status, path).toBe(400);
      expect(res.body.errors[0]!.message).toBe('Must not contain the NUL character');
    }
  });

  it('never answers 500 to bad input on any JSON route', async () => {
    const jsonRoutes = routeAccess(t.app).filter((r) => r.method === 'POST' || r.method === 'PATCH');
    for (const r of jsonRoutes) {
      for (const body of hostile) {
        const res = await t.app.request(r.path, {
          method: r.method,
          headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        expect(res.status, `${r.method} ${r.path} ${JSON.stringify(body)?.slice(0, 80)}`).toBeLessThan(500);
        const json = await res.json();
        expect(typeof json.success).toBe('boolean');
      }
    }
  });
});

describe('client address in the event log', () => {
  const loginAs = async (
    app: ReturnType<typeof createApp>,
    headers: Record<string, string>,
    env?: unknown,
  ) => {
    const user = await createUser(t.db);
    await app.request(
      `${API_BASE}/admin/auth/login`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ email: user.email, password: user.password }),
      },
      env as never,
    );
    const [event] = await t.db.select().from(events).where(eq(events.actorId, user.id));
    expect(event?.action).toBe(actions.signedIn);
    return event!;
  };

  it('uses the socket peer; loopback and private ranges read Local network', async () => {
    const event = await loginAs(t.app, {}, { incoming: { socket: { remoteAddress: '::ffff:127.0.0.1' } } });
    expect(event.ipAddress).toBe('127.0.0.1');
    expect(event.ipLocation).toBe('Local network');
  });

  it('ignores X-Forwarded-For unless TRUST_PROXY', async () => {
    const event = await loginAs(
      t.app,
      { 'x-forwarded-for': '102.89.1.1' },
      { incoming: { socket: { remoteAddress: '10.1.2.3' } } },
    );
    expect(event.ipAddress).toBe('10.1.2.3');
  });

  it('with TRUST_PROXY takes the address the proxy saw (last entry), located offline', async () => {
    const app = createApp({
      db: t.db,
      clock: t.clock,
      mailer: t.mailer,
      config: { ...t.config, trustProxy: true },
    });
    const event = await loginAs(app, { 'x-forwarded-for': '1.2.3.4, 105.112.30.193' });
    expect(event.ipAddress).toBe('105.112.30.193');
    expect(event.ipLocation).toMatch(/Nigeria$/);
  });
});
