import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { type ApiAccess, apiEndpoints } from '../contract/api';
import { ALL_PERMISSION_NAMES, type PermissionName } from '../contract/permissions';
import {
  createRole,
  createSuperAdmin,
  createUser,
  setupTestServer,
  signIn,
  type Tokens,
} from '../tests/setup/server';
import { API_BASE, routeAccess } from './app';
import { refreshTokens, roles } from './db/schema';
import { sha256Hex, signAccessToken } from './domain/tokens';
import { toOpenApiPath } from './openapi';

/**
 * Every API route, from its one declaration in contract/api.ts (apiEndpoints): the access it must
 * demand, tried against the running router with every kind of caller. The router's guards must
 * declare the same access for exactly these routes (the first test).
 */
type AnyOf = readonly [PermissionName, PermissionName, ...PermissionName[]];
/** One permission, or a list: the route lets in a holder of any one of them. */
type Expected = 'public' | 'authenticated' | PermissionName | AnyOf;
/** `raw`: the answer is not an envelope (the OpenAPI document itself). */
type Request = { query?: string; json?: unknown; raw?: true };
type Entry = Request & { access: Expected };

const permissionsOf = (access: Expected): PermissionName[] =>
  Array.isArray(access)
    ? [...access]
    : access === 'public' || access === 'authenticated'
      ? []
      : [access as PermissionName];
/** The key of the 'lacking' user for an entry: the permissions their role leaves out. */
const lackKey = (access: Expected) => permissionsOf(access).sort().join('|');

/**
 * The request each route needs to get past its validation for the Super Admin (the rest send an empty
 * body): a fixture, not an expectation. What each route must demand comes from its declaration in
 * contract/api.ts (decision 056): there is no second table of access to keep in step.
 */
const REQUESTS: Record<string, Request> = {
  'POST /api/v1/auth/password-reset-request': { json: { email: 'x@rewardclub.test' } },
  'GET /api/v1/openapi.json': { raw: true },
  'PATCH /api/v1/user/profile': { json: {} },
  'GET /api/v1/admin/user/admin-detail': { query: '?userId=1' },
  'POST /api/v1/admin/user/new-admin-user': {
    json: { firstName: 'Matrix', lastName: 'Test', email: 'matrix@rewardclub.test', roleId: 1 },
  },
  'PATCH /api/v1/admin/user/update-admin-user': { json: { userId: 1 } },
  'GET /api/v1/admin/user/get-role-detail': { query: '?roleId=1' },
  'POST /api/v1/admin/user/create-role': { json: { roleName: 'Matrix role', permissionIds: [1] } },
  'PATCH /api/v1/admin/user/update-role': { json: { roleId: 999_999, roleName: 'Nope', permissionIds: [1] } },
  'POST /api/v1/admin/webhooks': {
    json: { url: 'https://hooks.example.com/matrix', events: ['visit.recorded'] },
  },
  'PATCH /api/v1/admin/webhooks/:webhookId{[0-9]+}': { json: {} },
  'POST /api/v1/admin/partners/:partnerId{[0-9]+}/api-keys': {
    json: { name: 'Matrix till', permissions: ['visits.view'] },
  },
  // The subscriber sync (decision 051); club keys: server/routes/customer-sync.test.ts.
  'POST /api/v1/admin/api-keys': { json: { name: 'Matrix sync', scopes: ['customers.read'] } },
  'PUT /api/v1/admin/customers/external/:externalId': {
    json: { firstName: 'Matrix', lastName: 'Sync', email: 'matrix-sync@mail.test' },
  },
  'POST /api/v1/admin/user/customers': {
    json: { externalId: 'MATRIX-ADD', firstName: 'Matrix', lastName: 'Add', email: 'matrix-add@mail.test' },
  },
  'GET /api/v1/admin/partners/stats/partner': { query: '?partnerId=1' },
  'GET /api/v1/admin/partners/stats/partner/weekly': { query: '?partnerId=1' },
  'PATCH /api/v1/admin/partners/update-record': { json: { partnerId: 999_999 } },
  'PATCH /api/v1/admin/partners/update-status': { json: { partnerId: 999_999, accountStatus: 'BLOCKED' } },
  'PATCH /api/v1/admin/partners/extended-services': { json: { extendedServiceId: 999_999, title: 'Nope' } },
  'GET /api/v1/admin/partners/visits': { query: '?partnerId=1' },
  'GET /api/v1/admin/partners/visits/reward-eligible-users': { query: '?partnerId=1' },
  'GET /api/v1/admin/partners/visits/reward-eligible-users/:userId{[0-9]+}': { query: '?partnerId=1' },
  'GET /api/v1/admin/partners/visits/eligible-users-bypoints': { query: '?partnerId=1' },
  'GET /api/v1/admin/partners/rewards': { query: '?partnerId=1' },
  'PATCH /api/v1/admin/user/customers': { json: { customerId: 999_999 } },
  'PATCH /api/v1/admin/user/customers/status': { json: { customerId: 999_999, accountStatus: 'BLOCKED' } },
  'GET /api/v1/user/internet/client_info': { query: '?client_id=1' },
  'GET /api/v1/partners/rewards/customers': { query: '?partnerId=1' },
  'GET /api/v1/partners/visits/customers': { query: '?partnerId=1' },
  'POST /api/v1/partners/rewards/get-reward': { json: { userId: 999_999, code: 'GC-NOPE' } },
  'POST /api/v1/partners/customer-links': { json: { email: 'matrix@mail.test', partnerId: 1 } },
  'POST /api/v1/partners/customer-links/:linkId{[0-9]+}/confirm': { json: { code: '000000' } },
  'POST /api/v1/partners/rewards/initiate-reward-redemption-auth': {
    json: { userId: 999_999, code: 'GC-NOPE' },
  },
  'POST /api/v1/partners/rewards/redemption-auth-otp-validity-check': {
    json: { userId: 999_999, otp: '123456' },
  },
  'POST /api/v1/partners/rewards/redeem-giftcard': {
    json: { userId: 999_999, code: 'GC-NOPE', amountToRedeem: 100, otp: '123456' },
  },
  'POST /api/v1/partners/rewards/redeem-coupon': {
    json: { userId: 999_999, code: 'CP-NOPE', otp: '123456' },
  },
  'GET /api/v1/admin/partners/visits/export': { query: '?partnerId=1' },
  'GET /api/v1/admin/partners/visits/reward-eligible-users/export': { query: '?partnerId=1' },
  'GET /api/v1/admin/partners/visits/eligible-users-bypoints/export': { query: '?partnerId=1' },
  'GET /api/v1/admin/partners/rewards/export': { query: '?partnerId=1' },
  'POST /api/v1/partners/rewards/reverse-redemption': {
    json: { ledgerEntryId: 999_999, reason: 'Matrix test' },
  },
  'POST /api/v1/admin/campaigns': {
    json: {
      name: 'Matrix',
      partnerId: 999_999,
      reward: { rewardType: 'COUPON', percentageDiscount: 5, title: 'Matrix', description: 'Matrix' },
      segment: { kind: 'eligible' },
    },
  },
  'POST /api/v1/admin/campaigns/:id{[0-9]+}/reject': { json: { reason: 'Matrix' } },
  'POST /api/v1/admin/approvals/rewards/:id{[0-9]+}/reject': { json: { reason: 'Matrix' } },
  'PUT /api/v1/admin/settings/approvals': { json: { campaignTotalAbove: null, singleRewardAbove: null } },
  'POST /api/v1/admin/visit-reviews/:visitId{[0-9]+}/reject': { json: { reason: 'Matrix' } },
  'PATCH /api/v1/admin/partners/:partnerId{[0-9]+}/review-rules': { json: { requireReceipt: false } },
};

/** What a declaration's access makes each caller expect (one permission is written as itself). */
const expectedOf = (access: ApiAccess): Expected =>
  typeof access === 'string' ? access : access.length === 1 ? access[0] : (access as unknown as AnyOf);

/** `METHOD /api/v1/path` in the router's spelling of the declaration's OpenAPI path. */
const requestsByDeclaration = new Map(
  Object.entries(REQUESTS).map(([k, r]) => {
    const [method, path] = k.split(' ') as [string, string];
    return [`${method} ${toOpenApiPath(path)}`, r];
  }),
);
const ENTRIES: Record<string, Entry> = Object.fromEntries(
  apiEndpoints.map((e) => {
    const key = `${e.method.toUpperCase()} ${API_BASE}${e.path}`;
    return [
      key,
      { ...requestsByDeclaration.get(`${e.method.toUpperCase()} ${e.path}`), access: expectedOf(e.access) },
    ];
  }),
);

/** The JSON envelope; a CSV export (200, text/csv) stands in as a success with its first line. */
async function bodyOf(res: Response): Promise<{ success: boolean; message: string; openapi?: string }> {
  if (res.headers.get('content-type')?.startsWith('text/csv')) {
    const text = await res.text();
    return { success: res.status === 200, message: `csv: ${text.split('\r\n')[0]}` };
  }
  return res.json();
}

type Caller = 'superAdmin' | 'lackingPermission' | 'anonymous' | 'expiredToken' | 'refreshAsAccess';
const CALLERS: Caller[] = ['superAdmin', 'lackingPermission', 'anonymous', 'expiredToken', 'refreshAsAccess'];

/** What each caller must get, from the route's entry: an exact status, or 'through' (not 401/403). */
function expected(access: Expected, caller: Caller): number | 'through' {
  if (access === 'public') return 'through';
  if (caller === 'superAdmin') return 'through';
  if (caller === 'lackingPermission') return access === 'authenticated' ? 'through' : 403;
  return 401;
}

const t = setupTestServer();
let superAdmin: { id: number; email: string; password: string };
/**
 * A user per route's permission set: their role holds every permission but those (for a route that
 * accepts any of several, the user lacks them all and must get 403).
 */
const lacking = new Map<string, { email: string; password: string }>();
/** A user per permission whose role holds that one alone: each accepted permission lets them in. */
const holdingOnly = new Map<PermissionName, { email: string; password: string }>();
let noPermissions: { email: string; password: string };

/** A concrete path for a declared path (`{partnerId}`: an id that does not exist). */
const concrete = (path: string) => path.replace('{hash}', 'a'.repeat(64)).replace(/\{[A-Za-z]+\}/g, '999999');

beforeAll(async () => {
  superAdmin = await createSuperAdmin(t.db);
  const sets = new Map(
    Object.values(ENTRIES)
      .filter((e) => permissionsOf(e.access).length > 0)
      .map((e) => [lackKey(e.access), permissionsOf(e.access)] as const),
  );
  for (const [key, left] of sets) {
    const role = await createRole(
      t.db,
      `All but ${left.join(', ')}`,
      ALL_PERMISSION_NAMES.filter((p) => !left.includes(p)),
    );
    lacking.set(key, await createUser(t.db, { roleId: role.id }));
  }
  for (const permission of new Set(Object.values(ENTRIES).flatMap((e) => permissionsOf(e.access)))) {
    const role = await createRole(t.db, `Only ${permission}`, [permission]);
    holdingOnly.set(permission, await createUser(t.db, { roleId: role.id }));
  }
  noPermissions = await createUser(t.db, { roleId: (await createRole(t.db, 'Nothing', [])).id });
});

/** The bearer token a caller sends (fresh sessions: a logout must not spoil the next route). */
async function tokenFor(caller: Caller, access: Expected): Promise<string | undefined> {
  switch (caller) {
    case 'anonymous':
      return undefined;
    case 'superAdmin':
      return (await signIn(t, superAdmin.email, superAdmin.password)).accessToken;
    case 'lackingPermission': {
      const who = lacking.get(lackKey(access)) ?? noPermissions;
      return (await signIn(t, who.email, who.password)).accessToken;
    }
    case 'expiredToken': {
      // A real session whose access token ran out a second ago.
      const live: Tokens = await signIn(t, superAdmin.email, superAdmin.password);
      const [row] = await t.db
        .select({ familyId: refreshTokens.familyId })
        .from(refreshTokens)
        .where(eq(refreshTokens.tokenHash, sha256Hex(live.refreshToken)));
      return signAccessToken(
        { userId: superAdmin.id, sessionId: row!.familyId },
        {
          secret: t.config.jwtSecret,
          ttlSeconds: t.config.accessTokenTtlSeconds,
          now: new Date(t.clock().getTime() - (t.config.accessTokenTtlSeconds + 1) * 1000),
        },
      );
    }
    case 'refreshAsAccess':
      return (await signIn(t, superAdmin.email, superAdmin.password)).refreshToken;
  }
}

describe('authorization matrix (derived from the router)', () => {
  it('the declarations name exactly the routes of the router, with the access each guard declares', () => {
    const routes = routeAccess(t.app);
    const declared = Object.fromEntries(
      routes.map((r) => [
        `${r.method} ${API_BASE}${toOpenApiPath(r.path)}`,
        r.access?.kind === 'permission'
          ? r.access.anyOf.length === 1
            ? r.access.anyOf[0]
            : [...r.access.anyOf]
          : (r.access?.kind ?? 'NONE'),
      ]),
    );
    const missing = Object.keys(declared).filter((k) => !(k in ENTRIES));
    expect(missing, 'routes without a declaration in contract/api.ts').toEqual([]);
    const stale = Object.keys(ENTRIES).filter((k) => !(k in declared));
    expect(stale, 'declarations of routes that do not exist').toEqual([]);
    for (const [key, entry] of Object.entries(ENTRIES)) expect(declared[key], key).toEqual(entry.access);
    // Every request fixture names a declared route.
    const unknown = [...requestsByDeclaration.keys()].filter(
      (k) => !(`${k.split(' ')[0]} ${API_BASE}${k.split(' ')[1]}` in ENTRIES),
    );
    expect(unknown, 'REQUESTS entries for routes that do not exist').toEqual([]);
  });

  for (const [key, entry] of Object.entries(ENTRIES)) {
    it(`${key}`, async () => {
      const [method, pattern] = key.split(' ') as [string, string];
      expect(pattern.startsWith(API_BASE)).toBe(true);
      for (const caller of CALLERS) {
        const token = await tokenFor(caller, entry.access);
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        if (token) headers.authorization = `Bearer ${token}`;
        const res = await t.app.request(`${concrete(pattern)}${entry.query ?? ''}`, {
          method,
          headers,
          body: method === 'GET' ? undefined : JSON.stringify(entry.json ?? {}),
        });
        const body = await bodyOf(res);
        const want = expected(entry.access, caller);
        const label = `${key} as ${caller}: ${res.status} ${body.message}`;
        expect(res.status, label).toBeLessThan(500);
        if (entry.raw) expect(body.openapi, label).toBe('3.1.0');
        else expect(typeof body.success, label).toBe('boolean');
        if (want === 'through') {
          expect([401, 403], label).not.toContain(res.status);
        } else {
          expect(res.status, label).toBe(want);
          expect(body, label).toMatchObject({ success: false, data: null, errors: [] });
          if (want === 403) expect(body.message).toBe('You do not have permission to do this');
        }
      }
      // Each permission the route accepts lets in a user holding that one alone.
      for (const permission of permissionsOf(entry.access)) {
        const who = holdingOnly.get(permission)!;
        const { accessToken } = await signIn(t, who.email, who.password);
        const res = await t.app.request(`${concrete(pattern)}${entry.query ?? ''}`, {
          method,
          headers: { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` },
          body: method === 'GET' ? undefined : JSON.stringify(entry.json ?? {}),
        });
        const body = await bodyOf(res);
        const label = `${key} holding only ${permission}: ${res.status} ${body.message}`;
        expect(res.status, label).toBeLessThan(500);
        // Past the guard: a rule of the route itself may still refuse (e.g. granting more than one holds).
        expect(res.status, label).not.toBe(401);
        expect(body.message, label).not.toBe('You do not have permission to do this');
      }
    });
  }

  it('a role change applies on the next request', async () => {
    const role = await createRole(t.db, 'Dashboard viewer', ['dashboard.view']);
    const viewer = await createUser(t.db, { roleId: role.id });
    const { accessToken } = await signIn(t, viewer.email, viewer.password);
    expect((await t.request('GET', '/admin/user/stats', { token: accessToken })).status).toBe(200);
    await t.db.update(roles).set({ permissions: [] }).where(eq(roles.id, role.id));
    expect((await t.request('GET', '/admin/user/stats', { token: accessToken })).status).toBe(403);
    await t.db
      .update(roles)
      .set({ permissions: ['dashboard.view', 'roles.view'] })
      .where(eq(roles.id, role.id));
    expect((await t.request('GET', '/admin/user/get-roles', { token: accessToken })).status).toBe(200);
  });
});
