import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type ApiRouteKey, apiEndpoints } from '../contract/api';
import { envelopeSchema } from '../contract/envelope';
import type { PermissionName } from '../contract/permissions';
import {
  contractRejects,
  type FuzzRequest,
  malformedRequests,
  type RouteInput,
} from '../tests/setup/malformed';
import {
  createCustomer,
  createExtendedService,
  createPartner,
  createReward,
  createRole,
  createSuperAdmin,
  createUser,
  createVisit,
  isPostgres,
  PNG_BASE64,
  setupTestServer,
  signIn,
} from '../tests/setup/server';
import { routeAccess, routeSchemas } from './app';
import { executeRows } from './db/rows';
import { API_BASE, routerPath } from './http/route';

/**
 * Bad input everywhere (issue 8, item 2): for every route of the router, fast-check generates
 * malformed requests from the route's contract schemas (tests/setup/malformed.ts) and sends them
 * through the real app on a real database, signed in as a Super Admin (and as partner staff on the
 * routes partner staff use), so they reach validation. Every answer must be below 500, in the
 * envelope, and never a 2xx for a request the contract's schema rejects.
 */

/**
 * Requests per route: 200 on the embedded database (what `npm test` runs everywhere), a smaller
 * sample on PostgreSQL (CI runs the server suite on both; decision 014). FUZZ_RUNS overrides.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? (isPostgres ? 40 : 200));
/** On routes partner staff use, this share of the runs is sent as partner staff. */
const PARTNER_SHARE = 0.25;
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;

/** What partner staff hold (as the partner-scope tests give them). */
const PARTNER_STAFF: PermissionName[] = [
  'partners.view',
  'visits.view',
  'visits.create',
  'rewards.view',
  'rewards.issue',
  'rewards.redeem',
  'rewards.reverse',
  'dashboard.view',
];

type Fixtures = {
  partnerId: number;
  customerId: number;
  staffId: number;
  roleId: number;
  serviceId: number;
  visitId: number;
  rewardId: number;
  giftcardCode: string;
  couponCode: string;
  editPartnerId: number;
  statusPartnerId: number;
  editCustomerId: number;
  statusCustomerId: number;
  editServiceId: number;
  editRoleId: number;
  fileHash: string;
};

/** What only the fuzz knows of a route: a request that passes validation, and how to sign in. */
type Fixture = {
  valid?: (f: Fixtures) => RouteInput['valid'];
  /** Each request on a session of its own (sign-out ends the session it is sent on). */
  freshSession?: boolean;
};

/** A route's fuzz case: its descriptor's schemas (contract/api.ts) and the fixture above. */
type Case = Fixture & {
  body?: z.core.$ZodType;
  query?: z.core.$ZodType;
  params?: z.core.$ZodType;
  /** A 2xx here is not an envelope (file bytes, CSV, the OpenAPI document). */
  rawSuccess?: boolean;
};

const NOWHERE = '999999';
const id = (n: number) => String(n);

/**
 * The fixtures of the routes that need one, keyed as the route modules name their descriptors; a
 * route without one is fuzzed from nowhere-ids and empty requests.
 */
const FIXTURES: Partial<Record<ApiRouteKey, Fixture>> = {
  'POST /admin/auth/login': {
    valid: () => ({ body: { email: 'nobody-fuzz@rewardclub.test', password: 'Wrong-Passw0rd' } }),
  },
  'POST /auth/refresh-token': {
    valid: () => ({ body: { refreshToken: 'r'.repeat(43) } }),
  },
  'POST /auth/logout': { freshSession: true },
  'POST /auth/password-reset-request': {
    valid: () => ({ body: { email: 'nobody-fuzz@rewardclub.test' } }),
  },
  'PATCH /auth/update-password': {
    valid: () => ({ body: { resetCode: 'ABCD2345', newPassword: 'Fuzz-Passw0rd' } }),
  },
  'PATCH /user/profile': {
    valid: () => ({ body: { firstName: 'Ada', lastName: 'Root', address: '1 Marina, Lagos' } }),
  },
  'PATCH /user/profile/update-password': {
    // A wrong old password: a valid request must not change the password the run signs in with.
    valid: () => ({ body: { oldPassword: 'Not-the-passw0rd', newPassword: 'Fuzz-Passw0rd' } }),
  },
  'GET /admin/partners/stats/partner/weekly': {
    valid: (f) => ({ query: { partnerId: id(f.partnerId) } }),
  },
  'GET /admin/user/admin-detail': {
    valid: (f) => ({ query: { userId: id(f.staffId) } }),
  },
  'POST /admin/user/new-admin-user': {
    valid: (f) => ({
      body: {
        firstName: 'Fuzz',
        lastName: 'Invitee',
        email: 'invitee-fuzz@rewardclub.test',
        roleId: f.roleId,
      },
    }),
  },
  'PATCH /admin/user/update-admin-user': {
    valid: (f) => ({
      body: { userId: f.staffId, firstName: 'Fuzz', lastName: 'Staff', phone: '08031234567' },
    }),
  },
  'DELETE /admin/user/delete-admin-user/{staffId}': {
    valid: () => ({ params: { staffId: NOWHERE } }),
  },
  'GET /admin/user/get-role-detail': {
    valid: (f) => ({ query: { roleId: id(f.roleId) } }),
  },
  'POST /admin/user/create-role': {
    valid: () => ({ body: { roleName: 'Fuzz role', permissionIds: [1, 2] } }),
  },
  'PATCH /admin/user/update-role': {
    valid: (f) => ({ body: { roleId: f.editRoleId, roleName: 'Fuzz role edited', permissionIds: [1] } }),
  },
  'DELETE /admin/user/delete-role/{roleId}': {
    valid: () => ({ params: { roleId: NOWHERE } }),
  },
  'POST /admin/webhooks': {
    valid: (f) => ({
      body: { url: 'https://hooks.example.com/fuzz', events: ['visit.recorded'], partnerId: f.partnerId },
    }),
  },
  'GET /admin/webhooks/{webhookId}': {
    valid: () => ({ params: { webhookId: NOWHERE } }),
  },
  'PATCH /admin/webhooks/{webhookId}': {
    valid: () => ({ params: { webhookId: NOWHERE }, body: { description: 'Fuzzed', enabled: true } }),
  },
  'DELETE /admin/webhooks/{webhookId}': {
    valid: () => ({ params: { webhookId: NOWHERE } }),
  },
  'GET /admin/webhooks/{webhookId}/deliveries': {
    valid: () => ({ params: { webhookId: NOWHERE } }),
  },
  'POST /admin/webhooks/{webhookId}/deliveries/{deliveryId}/replay': {
    valid: () => ({ params: { webhookId: NOWHERE, deliveryId: NOWHERE } }),
  },
  'GET /admin/partners/{partnerId}/api-keys': {
    valid: (f) => ({ params: { partnerId: id(f.partnerId) } }),
  },
  'POST /admin/partners/{partnerId}/api-keys': {
    valid: (f) => ({
      params: { partnerId: id(f.partnerId) },
      body: { name: 'Fuzz till', permissions: ['visits.create', 'rewards.view'] },
    }),
  },
  'DELETE /admin/partners/{partnerId}/api-keys/{keyId}': {
    valid: (f) => ({ params: { partnerId: id(f.partnerId), keyId: NOWHERE } }),
  },
  'GET /files/{hash}': {
    valid: (f) => ({ params: { hash: f.fileHash } }),
  },
  'GET /admin/partners/stats/partner': {
    valid: (f) => ({ query: { partnerId: id(f.partnerId) } }),
  },
  'GET /admin/partners/{partnerId}': {
    valid: (f) => ({ params: { partnerId: id(f.partnerId) } }),
  },
  'POST /admin/partners/invite': {
    valid: (f) => ({
      body: {
        firstName: 'Fuzz',
        lastName: 'Partner',
        email: 'partner-fuzz@partners.test',
        phone: '08031234567',
        organizationName: 'Fuzz Foods',
        address: '1 Allen Avenue, Ikeja',
        coverImage: PNG_BASE64,
        minSpendToQualify: 10_000,
        extendedServiceIds: [f.serviceId],
      },
    }),
  },
  'PATCH /admin/partners/update-record': {
    valid: (f) => ({
      body: {
        partnerId: f.editPartnerId,
        firstName: 'Fuzz',
        minSpendToQualify: 12_000,
        extendedServiceIds: [f.serviceId],
      },
    }),
  },
  'PATCH /admin/partners/update-status': {
    valid: (f) => ({ body: { partnerId: f.statusPartnerId, accountStatus: 'BLOCKED' } }),
  },
  'DELETE /admin/partners/{partnerId}': {
    valid: () => ({ params: { partnerId: NOWHERE } }),
  },
  'GET /admin/partners/extended-services/{extendedServiceId}': {
    valid: (f) => ({ params: { extendedServiceId: id(f.serviceId) } }),
  },
  'POST /admin/partners/extended-services': {
    valid: () => ({ body: { title: 'Fuzz service', description: 'Made by the fuzz test' } }),
  },
  'PATCH /admin/partners/extended-services': {
    valid: (f) => ({ body: { extendedServiceId: f.editServiceId, title: 'Fuzzed', description: 'Edited' } }),
  },
  'DELETE /admin/partners/extended-services/{extendedServiceId}': {
    valid: () => ({ params: { extendedServiceId: NOWHERE } }),
  },
  'GET /admin/partners/visits': {
    valid: (f) => ({ query: { partnerId: id(f.partnerId), pageSize: '20' } }),
  },
  'GET /admin/partners/visits/{visitId}': {
    valid: (f) => ({ params: { visitId: id(f.visitId) } }),
  },
  'GET /admin/partners/visits/reward-eligible-users': {
    valid: (f) => ({ query: { partnerId: id(f.partnerId), date: '2026-03-01' } }),
  },
  'GET /admin/partners/visits/reward-eligible-users/{userId}': {
    valid: (f) => ({
      params: { userId: id(f.customerId) },
      query: { partnerId: id(f.partnerId), date: '2026-03-01' },
    }),
  },
  'GET /admin/partners/visits/eligible-users-bypoints': {
    valid: (f) => ({ query: { partnerId: id(f.partnerId) } }),
  },
  'GET /admin/partners/rewards': {
    valid: (f) => ({ query: { partnerId: id(f.partnerId), status: 'Active', sortBy: 'balance' } }),
  },
  // CSV exports (decision 017): a 2xx is a CSV file, not an envelope.
  'GET /admin/partners/visits/export': {
    valid: (f) => ({ query: { partnerId: id(f.partnerId) } }),
  },
  'GET /admin/partners/visits/reward-eligible-users/export': {
    valid: (f) => ({ query: { partnerId: id(f.partnerId), date: '2026-03-01' } }),
  },
  'GET /admin/partners/visits/eligible-users-bypoints/export': {
    valid: (f) => ({ query: { partnerId: id(f.partnerId) } }),
  },
  'GET /admin/partners/rewards/export': {
    valid: (f) => ({ query: { partnerId: id(f.partnerId) } }),
  },
  'GET /admin/user/customers/{customerId}': {
    valid: (f) => ({ params: { customerId: id(f.customerId) } }),
  },
  'PATCH /admin/user/customers': {
    valid: (f) => ({ body: { customerId: f.editCustomerId, firstName: 'Fuzz', address: '2 Broad Street' } }),
  },
  'PATCH /admin/user/customers/status': {
    valid: (f) => ({ body: { customerId: f.statusCustomerId, accountStatus: 'BLOCKED' } }),
  },
  'DELETE /admin/user/customers/{customerId}': {
    valid: () => ({ params: { customerId: NOWHERE } }),
  },
  'GET /user/internet/client_info': {
    valid: (f) => ({ query: { client_id: id(f.customerId) } }),
  },
  'POST /user/visits': {
    valid: (f) => ({
      body: {
        partnerId: f.partnerId,
        customerId: f.customerId,
        attendantName: 'Bisi',
        visitDate: '2026-03-01T10:00:00.000Z',
        items: [
          { name: 'Jollof rice', quantity: 2, price: 2500 },
          { name: 'Zobo', quantity: 1, price: 500.5 },
        ],
      },
    }),
  },
  'GET /partners/stats/reward': {
    valid: (f) => ({ query: { partnerId: id(f.partnerId) } }),
  },
  'GET /partners/rewards/redeemed-giftcard-balance': {
    valid: (f) => ({ query: { partnerId: id(f.partnerId) } }),
  },
  'GET /partners/rewards/customers': {
    valid: (f) => ({ query: { search: 'Tunde', partnerId: id(f.partnerId) } }),
  },
  'GET /partners/visits/customers': {
    valid: (f) => ({ query: { search: 'Tunde', partnerId: id(f.partnerId) } }),
  },
  'GET /partners/rewards/{rewardId}/ledger': {
    valid: (f) => ({ params: { rewardId: id(f.rewardId) } }),
  },
  'POST /partners/rewards/get-reward': {
    valid: (f) => ({ body: { userId: f.customerId, code: f.giftcardCode } }),
  },
  'POST /partners/rewards/issue-reward': {
    valid: (f) => ({
      body: {
        rewardType: 'GIFTCARD',
        rewardTypeCategory: 'GENERAL',
        issuedAmount: 5_000,
        expiryDate: '2026-12-31',
        promotionalImage: PNG_BASE64,
        title: 'Fuzz card',
        description: 'Issued by the fuzz test',
        issuedTo: f.customerId,
        partnerId: f.partnerId,
      },
    }),
  },
  'POST /partners/rewards/initiate-reward-redemption-auth': {
    valid: (f) => ({ body: { userId: f.customerId, code: f.giftcardCode } }),
  },
  'POST /partners/rewards/redemption-auth-otp-validity-check': {
    valid: (f) => ({ body: { userId: f.customerId, otp: '123456' } }),
  },
  'POST /partners/rewards/redeem-giftcard': {
    valid: (f) => ({
      body: { userId: f.customerId, code: f.giftcardCode, amountToRedeem: 100, otp: '123456' },
    }),
  },
  'POST /partners/rewards/redeem-coupon': {
    valid: (f) => ({ body: { userId: f.customerId, code: f.couponCode, otp: '123456' } }),
  },
  'POST /partners/rewards/reverse-redemption': {
    valid: () => ({ body: { ledgerEntryId: Number(NOWHERE), reason: 'Fuzz reversal' } }),
  },
};

/**
 * THE table: one fuzz case per route, derived from the route descriptors (contract/api.ts) and keyed
 * `METHOD path` as the router spells it. A route of the router missing here fails the first test.
 */
const CASES: Record<string, Case> = Object.fromEntries(
  apiEndpoints.map((e) => {
    const fixture = FIXTURES[`${e.method.toUpperCase()} ${e.path}` as ApiRouteKey] ?? {};
    const c: Case = { ...fixture, body: e.body, query: e.query, params: e.params, rawSuccess: !!e.raw };
    return [`${e.method.toUpperCase()} ${API_BASE}${routerPath(e)}`, c];
  }),
);

const t = setupTestServer();
let f: Fixtures;
let admin: { email: string; password: string };
let adminToken: string;
let partnerToken: string;
let partnerRoutes: Set<string>;

type Tally = {
  requests: number;
  invalid: number;
  serverErrors: number;
  acceptedInvalid: number;
  notEnvelope: number;
};
const tallies = new Map<string, Tally>();
const anyEnvelope = envelopeSchema(z.unknown());
const timing = { app: 0 };

beforeAll(async () => {
  // Fixture ids far from the small numbers a fuzzer tries first, so a random id never hits them.
  const identities = await executeRows<{ table_name: string; column_name: string }>(
    t.db,
    sql`select table_name, column_name from information_schema.columns
        where table_schema = current_schema() and is_identity = 'YES'`,
  );
  for (const c of identities) {
    await t.db.execute(sql`select setval(pg_get_serial_sequence(${c.table_name}, ${c.column_name}), 500000)`);
  }
  const superAdmin = await createSuperAdmin(t.db);
  admin = superAdmin;
  adminToken = (await signIn(t, superAdmin.email, superAdmin.password)).accessToken;
  const service = await createExtendedService(t.db);
  const partner = await createPartner(t.db, { serviceIds: [service.id] });
  const partnerRole = await createRole(t.db, 'Fuzz partner staff', PARTNER_STAFF);
  const partnerStaff = await createUser(t.db, {
    roleId: partnerRole.id,
    userType: 'PARTNER',
    partnerId: partner.id,
  });
  partnerToken = (await signIn(t, partnerStaff.email, partnerStaff.password)).accessToken;
  const staffRole = await createRole(t.db, 'Fuzz viewer', ['dashboard.view']);
  const staff = await createUser(t.db, { roleId: staffRole.id });
  const customer = await createCustomer(t.db, { firstName: 'Tunde' });
  const visit = await createVisit(t.db, {
    partnerId: partner.id,
    customerId: customer.id,
    visitDate: new Date('2026-02-27T10:00:00Z'),
    amount: 15_000,
  });
  const giftcard = await createReward(t.db, { partnerId: partner.id, customerId: customer.id });
  const coupon = await createReward(t.db, {
    partnerId: partner.id,
    customerId: customer.id,
    rewardType: 'COUPON',
    issuedAmount: null,
    balance: null,
    percentageDiscount: 10,
  });
  // A stored file, so the file route has something to serve.
  const issued = await t.request<{ promotionalImage: string }>('POST', '/partners/rewards/issue-reward', {
    token: adminToken,
    json: {
      rewardType: 'COUPON',
      promotionalImage: PNG_BASE64,
      title: 'Image holder',
      description: 'For the file route',
      issuedTo: customer.id,
      partnerId: partner.id,
    },
  });
  expect(issued.status, issued.text).toBe(201);
  f = {
    partnerId: partner.id,
    customerId: customer.id,
    staffId: staff.id,
    roleId: staffRole.id,
    serviceId: service.id,
    visitId: visit.id,
    rewardId: giftcard.id,
    giftcardCode: giftcard.code,
    couponCode: coupon.code,
    editPartnerId: (await createPartner(t.db, { serviceIds: [service.id] })).id,
    statusPartnerId: (await createPartner(t.db)).id,
    editCustomerId: (await createCustomer(t.db)).id,
    statusCustomerId: (await createCustomer(t.db)).id,
    editServiceId: (await createExtendedService(t.db)).id,
    editRoleId: (await createRole(t.db, 'Fuzz editable', ['dashboard.view'])).id,
    fileHash: issued.body.data!.promotionalImage.split('/').at(-1)!,
  };
  partnerRoutes = new Set(
    routeAccess(t.app)
      .filter((r) => r.access?.kind === 'permission' && r.access.anyOf.some((p) => PARTNER_STAFF.includes(p)))
      .map((r) => `${r.method} ${r.path}`),
  );
});

afterAll(() => {
  const all = [...tallies.values()].reduce(
    (a, b) => ({
      requests: a.requests + b.requests,
      invalid: a.invalid + b.invalid,
      serverErrors: a.serverErrors + b.serverErrors,
      acceptedInvalid: a.acceptedInvalid + b.acceptedInvalid,
      notEnvelope: a.notEnvelope + b.notEnvelope,
    }),
    { requests: 0, invalid: 0, serverErrors: 0, acceptedInvalid: 0, notEnvelope: 0 },
  );
  console.log(
    `[figure] fuzz (${isPostgres ? 'PostgreSQL' : 'PGlite'}): ${tallies.size} endpoints, ` +
      `${all.requests.toLocaleString('en')} requests (${all.invalid.toLocaleString('en')} invalid per the contract), ` +
      `${all.serverErrors} 5xx, ${all.acceptedInvalid} accepted-invalid, ${all.notEnvelope} outside the envelope ` +
      `(${(timing.app / 1000).toFixed(1)} s inside the app)`,
  );
});

const describeRequest = (req: FuzzRequest) => {
  const body = typeof req.body === 'string' ? req.body : req.body ? `<${req.body.length} bytes>` : '';
  return `${req.method} ${req.url.slice(0, 300)} [${req.what}] ${JSON.stringify(req.headers).slice(0, 200)} ${body.slice(0, 300)}`;
};

/** Sends one request and checks the answer; returns a violation, or null. */
async function check(
  key: string,
  route: RouteInput,
  c: Case,
  req: FuzzRequest,
  token: () => Promise<string>,
) {
  const tally = tallies.get(key)!;
  const rejects = contractRejects(route, req);
  tally.requests++;
  if (rejects) tally.invalid++;
  const started = performance.now();
  const res = await t.app.request(req.url, {
    method: req.method,
    headers: { ...req.headers, authorization: `Bearer ${await token()}` },
    body: req.body,
  });
  const text = await res.text();
  timing.app += performance.now() - started;
  const problems: string[] = [];
  if (res.status >= 500) {
    tally.serverErrors++;
    problems.push(`${res.status}`);
  }
  const ok = res.status >= 200 && res.status < 300;
  if (rejects && ok) {
    tally.acceptedInvalid++;
    problems.push(`accepted although the contract rejects its ${rejects}`);
  }
  if (!(ok && c.rawSuccess)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    const envelope = anyEnvelope.safeParse(parsed);
    if (!envelope.success || envelope.data.success !== ok) {
      tally.notEnvelope++;
      problems.push('answer outside the envelope');
    }
  }
  return problems.length
    ? `${problems.join('; ')}: ${res.status} ${text.slice(0, 200)} <- ${describeRequest(req)}`
    : null;
}

describe('fuzz: malformed requests on every route (fast-check, contract schemas)', () => {
  it('every route of the router has a fuzz case, and every case a route', () => {
    const routes = routeAccess(t.app).map((r) => `${r.method} ${r.path}`);
    expect(
      routes.filter((k) => !(k in CASES)),
      'routes without a fuzz case',
    ).toEqual([]);
    expect(
      Object.keys(CASES).filter((k) => !routes.includes(k)),
      'fuzz cases for routes that do not exist',
    ).toEqual([]);
    // The fuzz judges each route by the very schemas its validators check.
    for (const r of routeSchemas(t.app)) {
      const c = CASES[`${r.method} ${r.path}`]!;
      expect({ route: `${r.method} ${r.path}`, body: c.body, query: c.query, params: c.params }).toEqual({
        route: `${r.method} ${r.path}`,
        body: r.schemas.json,
        query: r.schemas.query,
        params: r.schemas.param,
      });
    }
  });

  for (const [key, c] of Object.entries(CASES)) {
    it(key, async () => {
      const [method, path] = key.split(' ') as [string, string];
      const route: RouteInput = {
        method,
        path,
        body: c.body,
        query: c.query,
        params: c.params,
        valid: c.valid?.(f) ?? {},
      };
      tallies.set(key, { requests: 0, invalid: 0, serverErrors: 0, acceptedInvalid: 0, notEnvelope: 0 });
      const partnerRuns = partnerRoutes.has(key) ? Math.round(RUNS * PARTNER_SHARE) : 0;
      const callers: { who: string; runs: number; token: () => Promise<string> }[] = [
        {
          who: 'Super Admin',
          runs: RUNS - partnerRuns,
          token: c.freshSession
            ? async () => (await signIn(t, admin.email, admin.password)).accessToken
            : async () => adminToken,
        },
        { who: 'partner staff', runs: partnerRuns, token: async () => partnerToken },
      ];
      for (const caller of callers.filter((x) => x.runs > 0)) {
        await fc.assert(
          fc.asyncProperty(malformedRequests(route), async (req) => {
            const violation = await check(key, route, c, req, caller.token);
            if (violation) throw new Error(`as ${caller.who}: ${violation}`);
          }),
          { numRuns: caller.runs, seed: SEED, endOnFailure: true },
        );
      }
      const tally = tallies.get(key)!;
      console.log(
        `[figure] fuzz ${key}: ${tally.requests} requests (${tally.invalid} invalid per the contract), ` +
          `${tally.serverErrors} 5xx, ${tally.acceptedInvalid} accepted-invalid`,
      );
      expect(tally.requests).toBeGreaterThanOrEqual(RUNS);
    }, 120_000);
  }
});
