import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
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

/**
 * THE table: every API route, keyed `METHOD path` as the router spells it, with the access it must
 * demand and (optionally) a minimal request for the Super Admin. A route missing here fails the test,
 * and so does an entry for a route that no longer exists: every new route is added here.
 */
type AnyOf = readonly [PermissionName, PermissionName, ...PermissionName[]];
/** One permission, or a list: the route lets in a holder of any one of them. */
type Expected = 'public' | 'authenticated' | PermissionName | AnyOf;
/** `raw`: the answer is not an envelope (the OpenAPI document itself). */
type Entry = { access: Expected; query?: string; json?: unknown; raw?: true };

const permissionsOf = (access: Expected): PermissionName[] =>
  Array.isArray(access)
    ? [...access]
    : access === 'public' || access === 'authenticated'
      ? []
      : [access as PermissionName];
/** The key of the 'lacking' user for an entry: the permissions their role leaves out. */
const lackKey = (access: Expected) => permissionsOf(access).sort().join('|');

const ACCESS: Record<string, Entry> = {
  'POST /api/v1/admin/auth/login': { access: 'public' },
  'POST /api/v1/auth/refresh-token': { access: 'public' },
  'POST /api/v1/auth/logout': { access: 'authenticated' },
  'POST /api/v1/auth/password-reset-request': { access: 'public', json: { email: 'x@rewardclub.test' } },
  'PATCH /api/v1/auth/update-password': { access: 'public' },
  'GET /api/v1/health': { access: 'public' },
  'GET /api/v1/authz': { access: 'authenticated' },
  'GET /api/v1/openapi.json': { access: 'public', raw: true },
  'GET /api/v1/user/profile': { access: 'authenticated' },
  'PATCH /api/v1/user/profile': { access: 'authenticated', json: {} },
  'PATCH /api/v1/user/profile/update-password': { access: 'authenticated' },
  'GET /api/v1/admin/user/stats': { access: 'dashboard.view' },
  'GET /api/v1/admin/partners/stats/reward': { access: 'dashboard.view' },
  'GET /api/v1/admin/partners/stats/reward/weekly': { access: 'dashboard.view' },
  'GET /api/v1/admin/user/admin-users': { access: 'staff.view' },
  'GET /api/v1/admin/admin-users': { access: 'staff.view' },
  'GET /api/v1/admin/user/admin-detail': { access: 'staff.view', query: '?userId=1' },
  'POST /api/v1/admin/user/new-admin-user': {
    access: 'staff.create',
    json: { firstName: 'Matrix', lastName: 'Test', email: 'matrix@rewardclub.test', roleId: 1 },
  },
  'PATCH /api/v1/admin/user/update-admin-user': { access: 'staff.update', json: { userId: 1 } },
  'DELETE /api/v1/admin/user/delete-admin-user/:staffId': { access: 'staff.delete' },
  'GET /api/v1/admin/user/get-roles': { access: 'roles.view' },
  'GET /api/v1/admin/user/get-role-detail': { access: 'roles.view', query: '?roleId=1' },
  'POST /api/v1/admin/user/create-role': {
    access: 'roles.create',
    json: { roleName: 'Matrix role', permissionIds: [1] },
  },
  'PATCH /api/v1/admin/user/update-role': {
    access: 'roles.update',
    json: { roleId: 999_999, roleName: 'Nope', permissionIds: [1] },
  },
  'DELETE /api/v1/admin/user/delete-role/:roleId': { access: 'roles.delete' },
  'GET /api/v1/admin/user/activities': { access: 'activities.view' },
  'GET /api/v1/admin/webhooks': { access: 'integrations.manage' },
  'POST /api/v1/admin/webhooks': {
    access: 'integrations.manage',
    json: { url: 'https://hooks.example.com/matrix', events: ['visit.recorded'] },
  },
  'GET /api/v1/admin/webhooks/:webhookId{[0-9]+}': { access: 'integrations.manage' },
  'PATCH /api/v1/admin/webhooks/:webhookId{[0-9]+}': { access: 'integrations.manage', json: {} },
  'DELETE /api/v1/admin/webhooks/:webhookId{[0-9]+}': { access: 'integrations.manage' },
  'GET /api/v1/admin/webhooks/:webhookId{[0-9]+}/deliveries': { access: 'integrations.manage' },
  'POST /api/v1/admin/webhooks/:webhookId{[0-9]+}/deliveries/:deliveryId{[0-9]+}/replay': {
    access: 'integrations.manage',
  },
  'GET /api/v1/admin/partners/:partnerId{[0-9]+}/api-keys': { access: 'integrations.manage' },
  'POST /api/v1/admin/partners/:partnerId{[0-9]+}/api-keys': {
    access: 'integrations.manage',
    json: { name: 'Matrix till', permissions: ['visits.view'] },
  },
  'DELETE /api/v1/admin/partners/:partnerId{[0-9]+}/api-keys/:keyId{[0-9]+}': {
    access: 'integrations.manage',
  },
  'GET /api/v1/files/:hash': { access: 'public' },
  'GET /api/v1/admin/partners': { access: 'partners.view' },
  'GET /api/v1/admin/partners/stats': { access: 'partners.view' },
  'GET /api/v1/admin/partners/stats/partner': { access: 'partners.view', query: '?partnerId=1' },
  'GET /api/v1/admin/partners/stats/partner/weekly': { access: 'partners.view', query: '?partnerId=1' },
  'GET /api/v1/admin/partners/:partnerId{[0-9]+}': { access: 'partners.view' },
  'POST /api/v1/admin/partners/invite': { access: 'partners.create' },
  'PATCH /api/v1/admin/partners/update-record': { access: 'partners.update', json: { partnerId: 999_999 } },
  'PATCH /api/v1/admin/partners/update-status': {
    access: 'partners.update',
    json: { partnerId: 999_999, accountStatus: 'BLOCKED' },
  },
  'DELETE /api/v1/admin/partners/:partnerId{[0-9]+}': { access: 'partners.delete' },
  'GET /api/v1/admin/partners/extended-services': { access: 'extended_services.view' },
  'GET /api/v1/admin/partners/extended-services/:extendedServiceId{[0-9]+}': {
    access: 'extended_services.view',
  },
  'POST /api/v1/admin/partners/extended-services': { access: 'extended_services.create' },
  'PATCH /api/v1/admin/partners/extended-services': {
    access: 'extended_services.update',
    json: { extendedServiceId: 999_999, title: 'Nope' },
  },
  'DELETE /api/v1/admin/partners/extended-services/:extendedServiceId{[0-9]+}': {
    access: 'extended_services.delete',
  },
  'GET /api/v1/admin/partners/visits': { access: 'visits.view', query: '?partnerId=1' },
  'GET /api/v1/admin/partners/visits/:visitId{[0-9]+}': { access: 'visits.view' },
  'GET /api/v1/admin/partners/visits/reward-eligible-users': { access: 'visits.view', query: '?partnerId=1' },
  'GET /api/v1/admin/partners/visits/reward-eligible-users/:userId{[0-9]+}': {
    access: 'visits.view',
    query: '?partnerId=1',
  },
  'GET /api/v1/admin/partners/visits/eligible-users-bypoints': {
    access: 'visits.view',
    query: '?partnerId=1',
  },
  'GET /api/v1/admin/partners/rewards': {
    access: ['rewards.view', 'rewards.redeem'],
    query: '?partnerId=1',
  },
  'GET /api/v1/admin/user/customers': { access: 'clients.view' },
  'GET /api/v1/admin/user/customers/:customerId{[0-9]+}': { access: 'clients.view' },
  'PATCH /api/v1/admin/user/customers': { access: 'clients.update', json: { customerId: 999_999 } },
  'PATCH /api/v1/admin/user/customers/status': {
    access: 'clients.update',
    json: { customerId: 999_999, accountStatus: 'BLOCKED' },
  },
  'DELETE /api/v1/admin/user/customers/:customerId{[0-9]+}': { access: 'clients.delete' },
  'GET /api/v1/user/internet/client_info': { access: 'clients.view', query: '?client_id=1' },
  'POST /api/v1/user/visits': { access: 'visits.create' },
  'GET /api/v1/partners/reward-types': { access: 'authenticated' },
  'GET /api/v1/partners/reward-type-categories': { access: 'authenticated' },
  'GET /api/v1/partners/stats/reward': { access: 'rewards.view' },
  'GET /api/v1/partners/rewards/redeemed-giftcard-balance': { access: 'rewards.view' },
  'GET /api/v1/partners/rewards/customers': {
    access: ['rewards.view', 'rewards.redeem'],
    query: '?partnerId=1',
  },
  'GET /api/v1/partners/visits/customers': { access: 'visits.create', query: '?partnerId=1' },
  'GET /api/v1/partners/rewards/:rewardId/ledger': {
    access: ['rewards.view', 'rewards.redeem', 'rewards.reverse'],
  },
  'POST /api/v1/partners/rewards/get-reward': {
    access: ['rewards.view', 'rewards.redeem'],
    json: { userId: 999_999, code: 'GC-NOPE' },
  },
  'POST /api/v1/partners/rewards/issue-reward': { access: 'rewards.issue' },
  'POST /api/v1/partners/rewards/initiate-reward-redemption-auth': {
    access: 'rewards.redeem',
    json: { userId: 999_999, code: 'GC-NOPE' },
  },
  'POST /api/v1/partners/rewards/redemption-auth-otp-validity-check': {
    access: 'rewards.redeem',
    json: { userId: 999_999, otp: '123456' },
  },
  'POST /api/v1/partners/rewards/redeem-giftcard': {
    access: 'rewards.redeem',
    json: { userId: 999_999, code: 'GC-NOPE', amountToRedeem: 100, otp: '123456' },
  },
  'POST /api/v1/partners/rewards/redeem-coupon': {
    access: 'rewards.redeem',
    json: { userId: 999_999, code: 'CP-NOPE', otp: '123456' },
  },
  // CSV exports (issue 9): the list's own permission, query and partner scope.
  'GET /api/v1/admin/user/admin-users/export': { access: 'staff.view' },
  'GET /api/v1/admin/admin-users/export': { access: 'staff.view' },
  'GET /api/v1/admin/user/get-roles/export': { access: 'roles.view' },
  'GET /api/v1/admin/user/activities/export': { access: 'activities.view' },
  'GET /api/v1/admin/partners/export': { access: 'partners.view' },
  'GET /api/v1/admin/partners/extended-services/export': { access: 'extended_services.view' },
  'GET /api/v1/admin/partners/visits/export': { access: 'visits.view', query: '?partnerId=1' },
  'GET /api/v1/admin/partners/visits/reward-eligible-users/export': {
    access: 'visits.view',
    query: '?partnerId=1',
  },
  'GET /api/v1/admin/partners/visits/eligible-users-bypoints/export': {
    access: 'visits.view',
    query: '?partnerId=1',
  },
  'GET /api/v1/admin/partners/rewards/export': {
    access: ['rewards.view', 'rewards.redeem'],
    query: '?partnerId=1',
  },
  'GET /api/v1/admin/user/customers/export': { access: 'clients.view' },
  'POST /api/v1/partners/rewards/reverse-redemption': {
    access: 'rewards.reverse',
    json: { ledgerEntryId: 999_999, reason: 'Matrix test' },
  },
};

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

/** A concrete path for a route pattern. */
const concrete = (path: string) =>
  path.replace(':hash', 'a'.repeat(64)).replace(/:[A-Za-z]+(\{[^}]*\})?/g, '999999');

beforeAll(async () => {
  superAdmin = await createSuperAdmin(t.db);
  const sets = new Map(
    Object.values(ACCESS)
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
  for (const permission of new Set(Object.values(ACCESS).flatMap((e) => permissionsOf(e.access)))) {
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
  it('the table lists exactly the routes of the router, with the access each guard declares', () => {
    const routes = routeAccess(t.app);
    const declared = Object.fromEntries(
      routes.map((r) => [
        `${r.method} ${r.path}`,
        r.access?.kind === 'permission'
          ? r.access.anyOf.length === 1
            ? r.access.anyOf[0]
            : [...r.access.anyOf]
          : (r.access?.kind ?? 'NONE'),
      ]),
    );
    const missing = Object.keys(declared).filter((k) => !(k in ACCESS));
    expect(missing, 'routes missing from the ACCESS table').toEqual([]);
    const stale = Object.keys(ACCESS).filter((k) => !(k in declared));
    expect(stale, 'ACCESS entries for routes that do not exist').toEqual([]);
    for (const [key, entry] of Object.entries(ACCESS)) expect(declared[key], key).toEqual(entry.access);
  });

  for (const [key, entry] of Object.entries(ACCESS)) {
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
