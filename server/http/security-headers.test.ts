import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCustomer,
  createExtendedService,
  createPartner,
  createReward,
  createSuperAdmin,
  createTestServer,
  createVisit,
  type TestServer,
} from '../../tests/setup/server';
import { API_BASE, createApp, routeAccess } from '../app';
import { mountSpa } from '../spa';
import { CONTENT_SECURITY_POLICY, HSTS } from './security-headers';

/**
 * Issue 8 item 5: the headers of every answer. The SPA's files (mounted exactly as server/main.ts
 * mounts them) carry the strict CSP; HSTS only over HTTPS; every GET of the API says no-store; sign-out
 * sends Clear-Site-Data; no answer sets a cookie.
 */
let t: TestServer;
let token: string;
let spaDir: string;
/** The app as server/main.ts serves it: the API plus the SPA, directly and behind a trusted proxy. */
let served: ReturnType<typeof createApp>;
let proxied: ReturnType<typeof createApp>;

beforeAll(async () => {
  t = await createTestServer();
  // A fresh database: the first row of each table has id 1, which the GETs below ask for.
  const admin = await createSuperAdmin(t.db);
  const service = await createExtendedService(t.db);
  const partner = await createPartner(t.db, { serviceIds: [service.id] });
  const customer = await createCustomer(t.db);
  await createVisit(t.db, {
    partnerId: partner.id,
    customerId: customer.id,
    visitDate: t.clock(),
    amount: 20_000,
  });
  await createReward(t.db, { partnerId: partner.id, customerId: customer.id });
  const res = await t.request<{ accessToken: string }>('POST', '/admin/auth/login', {
    json: { email: admin.email, password: admin.password },
  });
  expect(res.headers.get('set-cookie')).toBeNull();
  token = res.body.data!.accessToken;

  spaDir = mkdtempSync(join(tmpdir(), 'rc-spa-'));
  mkdirSync(join(spaDir, 'assets'));
  writeFileSync(
    join(spaDir, 'index.html'),
    '<!doctype html><html><head><script type="module" src="/assets/index-abc.js"></script></head><body><div id="root"></div></body></html>',
  );
  writeFileSync(join(spaDir, 'assets', 'index-abc.js'), 'console.log(1)');
  writeFileSync(join(spaDir, 'sw.js'), 'self.addEventListener("install", () => {})');
  served = createApp({ db: t.db, clock: t.clock, mailer: t.mailer, config: t.config });
  mountSpa(served, spaDir);
  proxied = createApp({
    db: t.db,
    clock: t.clock,
    mailer: t.mailer,
    config: { ...t.config, trustProxy: true },
  });
  mountSpa(proxied, spaDir);
});

afterAll(async () => {
  await t?.close();
  if (spaDir) rmSync(spaDir, { recursive: true, force: true });
});

describe('Content-Security-Policy', () => {
  it('is strict: no inline script or style, nothing from elsewhere, no framing', () => {
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(CONTENT_SECURITY_POLICY).toContain("style-src 'self'");
    expect(CONTENT_SECURITY_POLICY).toContain("object-src 'none'");
    expect(CONTENT_SECURITY_POLICY).toContain("frame-ancestors 'none'");
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-inline|unsafe-eval|\*|https?:/);
  });

  it('comes with every SPA file, the history fallback, a missing file and the API', async () => {
    const paths = [
      '/',
      '/index.html',
      '/dashboard',
      '/partners/12',
      '/assets/index-abc.js',
      '/sw.js',
      '/nope.js',
    ];
    const statuses: number[] = [];
    for (const path of [...paths, `${API_BASE}/health`, `${API_BASE}/no-such-route`]) {
      const res = await served.request(path);
      statuses.push(res.status);
      expect(res.headers.get('content-security-policy'), path).toBe(CONTENT_SECURITY_POLICY);
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(res.headers.get('x-frame-options'), path).toBe('SAMEORIGIN');
      expect(res.headers.get('set-cookie'), path).toBeNull();
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 404, 200, 404]);
    console.log(`[figure] headers: ${statuses.length} SPA and API answers, each with the strict CSP`);
  });
});

describe('Strict-Transport-Security', () => {
  it('only over HTTPS: a TLS request, or X-Forwarded-Proto from a trusted proxy', async () => {
    const hsts = async (app: typeof proxied, url: string, headers: Record<string, string> = {}) =>
      (await app.request(url, { headers })).headers.get('strict-transport-security');
    expect(await hsts(served, 'http://localhost/')).toBeNull();
    expect(await hsts(served, `http://localhost${API_BASE}/health`)).toBeNull();
    expect(await hsts(served, 'https://localhost/')).toBe(HSTS);
    expect(await hsts(served, `https://localhost${API_BASE}/health`)).toBe(HSTS);
    // The client's own X-Forwarded-Proto counts for nothing without a trusted proxy ...
    expect(await hsts(served, 'http://localhost/', { 'x-forwarded-proto': 'https' })).toBeNull();
    // ... and is the client's protocol behind one (the value our proxy added: the last).
    expect(await hsts(proxied, 'http://localhost/', { 'x-forwarded-proto': 'https' })).toBe(HSTS);
    expect(await hsts(proxied, 'http://localhost/', { 'x-forwarded-proto': 'http, https' })).toBe(HSTS);
    expect(await hsts(proxied, 'http://localhost/', { 'x-forwarded-proto': 'https, http' })).toBeNull();
    expect(await hsts(proxied, 'http://localhost/', { 'x-forwarded-proto': 'http' })).toBeNull();
    expect(await hsts(proxied, 'http://localhost/')).toBeNull();
  });
});

describe('Cache-Control on the API', () => {
  /** Real ids of the demo club, so most GETs answer 200 with data. */
  const QUERY: Record<string, string> = {
    '/admin/user/admin-detail': '?userId=1',
    '/admin/user/get-role-detail': '?roleId=1',
    '/admin/partners/stats/partner': '?partnerId=1',
    '/admin/partners/visits': '?partnerId=1',
    '/admin/partners/visits/reward-eligible-users': '?partnerId=1',
    '/admin/partners/visits/eligible-users-bypoints': '?partnerId=1',
    '/admin/partners/rewards': '?partnerId=1',
    '/user/internet/client_info': '?client_id=1',
    '/partners/rewards/customers': '?partnerId=1',
    '/partners/visits/customers': '?partnerId=1',
  };

  it('every GET route answers no-store (files by content hash excepted), with data or without', async () => {
    // A customer with subscriber number '1', so GET /admin/customers/external/1 answers with data too.
    const added = await t.request('POST', '/admin/user/customers', {
      token,
      json: { externalId: '1', firstName: 'Kemi', lastName: 'Ade', email: 'kemi.headers@mail.ng' },
    });
    expect(added.status, added.text).toBe(201);
    // A campaign draft, so its GETs (detail, preview) answer with data too.
    const campaign = await t.request<{ id: number }>('POST', '/admin/campaigns', {
      token,
      json: {
        name: 'Headers campaign',
        partnerId: 1,
        reward: {
          rewardType: 'COUPON',
          percentageDiscount: 10,
          title: 'Ten off',
          description: 'Ten percent off',
          expiryDate: new Date(t.clock().getTime() + 60 * 86_400_000).toISOString().slice(0, 10),
        },
        segment: { kind: 'filter' },
      },
    });
    expect(campaign.status, campaign.text).toBe(201);
    expect(campaign.body.data!.id).toBe(1);
    const gets = routeAccess(t.app).filter((r) => r.method === 'GET' && r.path.startsWith(`${API_BASE}/`));
    let withData = 0;
    const offenders: string[] = [];
    for (const route of gets) {
      const path = route.path
        .slice(API_BASE.length)
        .replace(/:(\w+)(\{[^}]*\})?/g, (_, name: string) => (name === 'hash' ? '0'.repeat(64) : '1'));
      for (const auth of [true, false]) {
        const res = await t.request('GET', `${path}${QUERY[path] ?? ''}`, auth ? { token } : {});
        if (auth && res.status === 200) withData++;
        const cache = res.headers.get('cache-control');
        // Uploaded images are public by unguessable content hash and immutable (server/routes/files.ts);
        // the OpenAPI document is public and the same for everyone (revalidated, no personal data).
        const expected =
          res.status !== 200
            ? 'no-store'
            : route.path.includes('/files/:hash')
              ? 'public'
              : route.path.endsWith('/openapi.json')
                ? 'no-cache'
                : 'no-store';
        if (!cache?.startsWith(expected)) offenders.push(`${route.path} (${res.status}): ${cache}`);
        expect(res.headers.get('set-cookie')).toBeNull();
      }
    }
    console.log(
      `[figure] headers: ${gets.length} GET routes (${withData} answered 200 with data, each also unauthenticated), ${offenders.length} without no-store`,
    );
    expect(offenders).toEqual([]);
    expect(gets.length).toBeGreaterThan(30);
    expect(withData).toBeGreaterThan(gets.length * 0.8);
  });
});

describe('sign-out', () => {
  it('tells the browser to clear its HTTP cache of this origin', async () => {
    const admin = await createSuperAdmin(t.db, 'signout@rewardclub.test');
    const login = await t.request<{ accessToken: string }>('POST', '/admin/auth/login', {
      json: { email: admin.email, password: admin.password },
    });
    const res = await t.request('POST', '/auth/logout', { token: login.body.data!.accessToken });
    expect(res.status).toBe(200);
    expect(res.headers.get('clear-site-data')).toBe('"cache"');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('set-cookie')).toBeNull();
  });
});
