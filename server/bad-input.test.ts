import { once } from 'node:events';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ServerType, serve } from '@hono/node-server';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_PERMISSION_NAMES, PERMISSIONS } from '../contract/permissions';
import {
  createCustomer,
  createExtendedService,
  createPartner,
  createReward,
  createRole,
  createSuperAdmin,
  createUser,
  linkCustomer,
  PNG_BASE64,
  setupTestServer,
  signIn,
} from '../tests/setup/server';
import { API_BASE, DEFAULT_BODY_LIMIT, IMAGE_BODY_LIMIT, routeAccess } from './app';
import { customers, extendedServices, partners, rewards, roles, users, visits } from './db/schema';
import { PROFILE_BODY_LIMIT } from './routes/profile';

/**
 * Bodies over the limit are a 413 in the envelope, whether the client announces the size
 * (Content-Length) or streams it chunked with no length at all (issue 8, item 2). Chunked bodies
 * only exist on a socket, so this runs the app on a real listening server (@hono/node-server, an
 * ephemeral loopback port) and sends with node:http.
 */

/** The routes that take more than 1 MiB (base64 images), as server/app.ts sets them. */
const LARGE: Record<string, number> = {
  [`PATCH ${API_BASE}/user/profile`]: PROFILE_BODY_LIMIT,
  [`POST ${API_BASE}/admin/partners/invite`]: IMAGE_BODY_LIMIT,
  [`PATCH ${API_BASE}/admin/partners/update-record`]: IMAGE_BODY_LIMIT,
  [`POST ${API_BASE}/user/visits`]: IMAGE_BODY_LIMIT,
  [`POST ${API_BASE}/partners/rewards/issue-reward`]: IMAGE_BODY_LIMIT,
  // A campaign's promotional image, and a list of up to 100,000 customers (issue 35).
  [`POST ${API_BASE}/admin/campaigns`]: IMAGE_BODY_LIMIT,
};
const limitOf = (method: string, path: string) => LARGE[`${method} ${path}`] ?? DEFAULT_BODY_LIMIT;

const t = setupTestServer();
let server: ServerType;
let port: number;
let token: string;
let partnerToken: string;
let own: { id: number };
let other: { id: number };

beforeAll(async () => {
  const admin = await createSuperAdmin(t.db);
  token = (await signIn(t, admin.email, admin.password)).accessToken;
  own = await createPartner(t.db, { organizationName: 'Own Shop' });
  other = await createPartner(t.db, { organizationName: 'Other Shop' });
  const partnerRole = await createRole(t.db, 'Partner staff', [
    'partners.view',
    'visits.view',
    'visits.create',
    'rewards.view',
    'rewards.issue',
    'rewards.redeem',
  ]);
  const staff = await createUser(t.db, { roleId: partnerRole.id, userType: 'PARTNER', partnerId: own.id });
  partnerToken = (await signIn(t, staff.email, staff.password)).accessToken;
  server = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' });
  if (!server.listening) await once(server, 'listening');
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  (server as { closeAllConnections?: () => void }).closeAllConnections?.();
  await new Promise((resolve) => server.close(resolve));
});

/** A JSON body of exactly `size` bytes: {"x":"aaa…"}. */
const jsonOfSize = (size: number) => Buffer.from(`{"x":"${'a'.repeat(size - 8)}"}`);

type Sent = { status: number; body: unknown; wrote: number };

/**
 * Sends `body` in 64 KiB chunks, with a Content-Length or chunked (no length). Stops writing when
 * the answer comes (the server may answer 413 before reading it all).
 */
function send(method: string, path: string, body: Buffer, mode: 'content-length' | 'chunked', auth = true) {
  return new Promise<Sent>((resolve, reject) => {
    let answered = false;
    let wrote = 0;
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (auth) headers.authorization = `Bearer ${token}`;
    if (mode === 'content-length') headers['content-length'] = String(body.length);
    else headers['transfer-encoding'] = 'chunked';
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
      answered = true;
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      res.on('end', () => {
        // A body cut off mid-way leaves the request open: end the connection.
        req.destroy();
        const text = Buffer.concat(parts).toString('utf8');
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          // left as text: the assertion shows it
        }
        resolve({ status: res.statusCode ?? 0, body: parsed, wrote });
      });
      res.on('error', reject);
    });
    req.on('error', (err) => {
      if (!answered) reject(err);
    });
    const step = 64 * 1024;
    const writeMore = () => {
      while (!answered && wrote < body.length) {
        const chunk = body.subarray(wrote, wrote + step);
        wrote += chunk.length;
        if (!req.write(chunk)) {
          req.once('drain', writeMore);
          return;
        }
      }
      if (!answered) req.end();
    };
    writeMore();
  });
}

const tooLarge = (limit: number) => ({
  success: false,
  data: null,
  message: `Request body is too large (at most ${Math.round(limit / 1024 / 1024)} MiB)`,
  code: 'payload_too_large',
  errors: [],
});

describe('request bodies over the limit: 413 in the envelope, with or without Content-Length', () => {
  it('every route that takes a body, one byte over its limit, both ways', async () => {
    // The customer import and its dry run take the file itself as their body (text/csv or NDJSON, up
    // to their own much larger limit): their 413 is tested in server/routes/customer-imports.test.ts.
    const files = [`${API_BASE}/admin/customers/imports`, `${API_BASE}/admin/customers/imports/dry-run`];
    const routes = routeAccess(t.app).filter((r) => r.method !== 'GET' && !files.includes(r.path));
    expect(routes.length).toBeGreaterThan(20);
    let tried = 0;
    let wrong = 0;
    const started = performance.now();
    for (const r of routes) {
      const limit = limitOf(r.method, r.path);
      const path = r.path.replace(/:[A-Za-z]+(\{[^}]*\})?/g, '999999');
      for (const mode of ['content-length', 'chunked'] as const) {
        const res = await send(r.method, path, jsonOfSize(limit + 1), mode);
        tried++;
        if (res.status !== 413) wrong++;
        expect({ route: `${r.method} ${r.path} (${mode})`, status: res.status, body: res.body }).toEqual({
          route: `${r.method} ${r.path} (${mode})`,
          status: 413,
          body: tooLarge(limit),
        });
      }
    }
    console.log(
      `[figure] body limit: ${routes.length} routes x 2 (Content-Length, chunked) = ${tried} oversized bodies, ` +
        `${wrong} not 413, ${Math.round(performance.now() - started)} ms`,
    );
  });

  it('a body at the limit goes through to validation, both ways; anonymous callers get the same 413', async () => {
    for (const [method, path] of [
      ['POST', `${API_BASE}/admin/partners/extended-services`],
      ['PATCH', `${API_BASE}/user/profile`],
    ] as const) {
      const limit = limitOf(method, path);
      for (const mode of ['content-length', 'chunked'] as const) {
        const res = await send(method, path, jsonOfSize(limit), mode);
        expect(res.status, `${method} ${path} ${mode}`).toBe(400);
        expect(res.body).toMatchObject({ success: false, data: null, message: 'Validation failed' });
      }
    }
    for (const mode of ['content-length', 'chunked'] as const) {
      const res = await send(
        'POST',
        `${API_BASE}/admin/auth/login`,
        jsonOfSize(DEFAULT_BODY_LIMIT + 1),
        mode,
        false,
      );
      expect(res.status, mode).toBe(413);
      expect(res.body).toEqual(tooLarge(DEFAULT_BODY_LIMIT));
    }
  });

  it('a chunked body far over the limit is cut off early: the server does not read it all', async () => {
    const body = jsonOfSize(64 * 1024 * 1024);
    const res = await send('POST', `${API_BASE}/admin/partners/extended-services`, body, 'chunked');
    expect(res.status).toBe(413);
    expect(res.body).toEqual(tooLarge(DEFAULT_BODY_LIMIT));
    console.log(
      `[figure] body limit: a 64 MiB chunked body answered 413 after ${(res.wrote / 1024 / 1024).toFixed(1)} MiB sent`,
    );
    expect(res.wrote).toBeLessThan(body.length);
  });
});

/**
 * Fields a caller must not set: sent beside a valid request, they are ignored (the contract's
 * objects drop unknown keys) or refused (strict objects: 400), and never applied. Each case reads
 * the database afterwards.
 */
const FORGED = {
  id: 424_242,
  balance: 99_999_999,
  role: { id: 1, name: 'Super Admin' },
  roleId: 1,
  permissions: ALL_PERMISSION_NAMES,
  userType: 'PARTNER',
  accountStatus: 'BLOCKED',
  createdAt: '2000-01-01T00:00:00.000Z',
  updatedAt: '2000-01-01T00:00:00.000Z',
  deletedAt: '2000-01-01T00:00:00.000Z',
  passwordHash: 'forged',
  builtIn: true,
  totalAmount: 1,
  code: 'FORGED-CODE',
  status: 'Redeemed',
  email: 'forged@rewardclub.test',
} as const;
const forged = (...keys: (keyof typeof FORGED)[]) => Object.fromEntries(keys.map((k) => [k, FORGED[k]]));
const NOW = () => t.clock().toISOString();

describe('fields a caller must not set are ignored or refused, never applied', () => {
  let applied = 0;
  let tried = 0;
  /** Counts a check: `ok` false means the forged field was applied. */
  const verdict = (label: string, ok: boolean) => {
    tried++;
    if (!ok) applied++;
    expect(ok, label).toBe(true);
  };

  afterAll(() => {
    console.log(`[figure] forged fields: ${tried} create/update checks, ${applied} applied`);
  });

  it('staff invite and update: id, userType, role, permissions, status, password, dates', async () => {
    const role = await createRole(t.db, 'Viewer', ['dashboard.view']);
    const res = await t.request<{ id: number }>('POST', '/admin/user/new-admin-user', {
      token,
      json: {
        firstName: 'New',
        lastName: 'Member',
        email: 'new.member@rewardclub.test',
        roleId: role.id,
        ...forged(
          'id',
          'userType',
          'permissions',
          'role',
          'accountStatus',
          'createdAt',
          'deletedAt',
          'passwordHash',
        ),
        password: 'Forged-Passw0rd',
      },
    });
    expect(res.status, res.text).toBe(201);
    const [row] = await t.db.select().from(users).where(eq(users.email, 'new.member@rewardclub.test'));
    verdict('invite: id', row!.id !== FORGED.id);
    verdict('invite: userType', row!.userType === 'ADMIN' && row!.partnerId === null);
    verdict('invite: role', row!.roleId === role.id);
    verdict(
      'invite: status and dates',
      row!.accountStatus === 'ACTIVE' && row!.deletedAt === null && row!.createdAt.toISOString() === NOW(),
    );
    verdict('invite: no password until the invitee sets one', row!.passwordHash === null);

    const upd = await t.request('PATCH', '/admin/user/update-admin-user', {
      token,
      json: {
        userId: row!.id,
        firstName: 'Renamed',
        // partnerId is a field of the update since issue 22 (server/routes/staff-placement.test.ts).
        ...forged(
          'userType',
          'permissions',
          'accountStatus',
          'createdAt',
          'deletedAt',
          'passwordHash',
          'email',
        ),
      },
    });
    expect(upd.status, upd.text).toBe(200);
    const [after] = await t.db.select().from(users).where(eq(users.id, row!.id));
    verdict('update: name applied', after!.firstName === 'Renamed');
    verdict('update: userType', after!.partnerId === null && after!.userType === 'ADMIN');
    verdict('update: email', after!.email === 'new.member@rewardclub.test');
    verdict(
      'update: status, dates, password',
      after!.accountStatus === 'ACTIVE' &&
        after!.deletedAt === null &&
        after!.passwordHash === null &&
        after!.createdAt.getTime() === row!.createdAt.getTime(),
    );
    verdict('update: role', after!.roleId === role.id);
  });

  it('roles: builtIn and permission names are not taken from the body', async () => {
    const one = PERMISSIONS[0]!;
    const res = await t.request<{ id: number }>('POST', '/admin/user/create-role', {
      token,
      json: {
        roleName: 'Forged role',
        permissionIds: [one.id],
        ...forged('id', 'builtIn', 'permissions', 'createdAt'),
      },
    });
    expect(res.status, res.text).toBe(201);
    const [row] = await t.db.select().from(roles).where(eq(roles.name, 'Forged role'));
    verdict('create-role: id', row!.id !== FORGED.id);
    verdict('create-role: builtIn', row!.builtIn === false);
    verdict('create-role: permissions', JSON.stringify(row!.permissions) === JSON.stringify([one.name]));
    const upd = await t.request('PATCH', '/admin/user/update-role', {
      token,
      json: {
        roleId: row!.id,
        roleName: 'Forged role 2',
        permissionIds: [one.id],
        ...forged('builtIn', 'permissions', 'createdAt'),
      },
    });
    expect(upd.status, upd.text).toBe(200);
    const [after] = await t.db.select().from(roles).where(eq(roles.id, row!.id));
    verdict(
      'update-role: builtIn, permissions, createdAt',
      after!.builtIn === false &&
        JSON.stringify(after!.permissions) === JSON.stringify([one.name]) &&
        after!.createdAt.getTime() === row!.createdAt.getTime(),
    );
  });

  it('partners: id, status, dates on invite; email, status, dates on update', async () => {
    const service = await createExtendedService(t.db);
    const res = await t.request<{ id: number }>('POST', '/admin/partners/invite', {
      token,
      json: {
        firstName: 'Forge',
        lastName: 'Partner',
        email: 'forge.partner@partners.test',
        phone: '08031234567',
        organizationName: 'Forge Foods',
        address: '1 Allen Avenue',
        coverImage: PNG_BASE64,
        minSpendToQualify: 10_000,
        extendedServiceIds: [service.id],
        ...forged('id', 'accountStatus', 'createdAt', 'updatedAt', 'deletedAt', 'balance'),
      },
    });
    expect(res.status, res.text).toBe(201);
    const [row] = await t.db.select().from(partners).where(eq(partners.email, 'forge.partner@partners.test'));
    verdict('invite: id', row!.id !== FORGED.id);
    verdict(
      'invite: status and dates',
      row!.accountStatus === 'ACTIVE' && row!.deletedAt === null && row!.createdAt.toISOString() === NOW(),
    );
    const upd = await t.request('PATCH', '/admin/partners/update-record', {
      token,
      json: {
        partnerId: row!.id,
        firstName: 'Forged',
        ...forged('email', 'accountStatus', 'createdAt', 'deletedAt', 'id'),
      },
    });
    expect(upd.status, upd.text).toBe(200);
    const [after] = await t.db.select().from(partners).where(eq(partners.id, row!.id));
    verdict('update: name applied', after!.firstName === 'Forged');
    verdict(
      'update: email, status, dates',
      after!.email === 'forge.partner@partners.test' &&
        after!.accountStatus === 'ACTIVE' &&
        after!.deletedAt === null &&
        after!.createdAt.getTime() === row!.createdAt.getTime(),
    );
  });

  it('customers: email, status, fiber account and dates are not editable', async () => {
    const customer = await createCustomer(t.db);
    const upd = await t.request('PATCH', '/admin/user/customers', {
      token,
      json: {
        customerId: customer.id,
        firstName: 'Forged',
        fiberMonthlyFee: 1,
        fiberPlan: 'Forged',
        ...forged('email', 'accountStatus', 'createdAt', 'deletedAt', 'id', 'balance'),
      },
    });
    expect(upd.status, upd.text).toBe(200);
    const [after] = await t.db.select().from(customers).where(eq(customers.id, customer.id));
    verdict('update: name applied', after!.firstName === 'Forged');
    verdict(
      'update: email, status, dates',
      after!.email === customer.email &&
        after!.accountStatus === 'ACTIVE' &&
        after!.deletedAt === null &&
        after!.createdAt.getTime() === customer.createdAt.getTime(),
    );
    verdict(
      'update: fiber account',
      after!.fiberMonthlyFee === customer.fiberMonthlyFee && after!.fiberPlan === customer.fiberPlan,
    );
  });

  it('extended services: id and dates', async () => {
    const res = await t.request<{ id: number }>('POST', '/admin/partners/extended-services', {
      token,
      json: { title: 'Forged service', description: 'x', ...forged('id', 'createdAt', 'deletedAt') },
    });
    expect(res.status, res.text).toBe(201);
    const [row] = await t.db
      .select()
      .from(extendedServices)
      .where(eq(extendedServices.title, 'Forged service'));
    verdict('create: id, dates', row!.id !== FORGED.id && row!.createdAt.toISOString() === NOW());
    const upd = await t.request('PATCH', '/admin/partners/extended-services', {
      token,
      json: { extendedServiceId: row!.id, description: 'y', ...forged('id', 'createdAt') },
    });
    expect(upd.status, upd.text).toBe(200);
    const [after] = await t.db.select().from(extendedServices).where(eq(extendedServices.id, row!.id));
    verdict(
      'update: dates',
      after!.description === 'y' && after!.createdAt.getTime() === row!.createdAt.getTime(),
    );
  });

  it('visits: the total comes from the items; partner staff cannot record at another partner', async () => {
    const customer = await createCustomer(t.db);
    // A partner acts only for a customer linked to it (issue 28): linked at the staff's own partner.
    await linkCustomer(t.db, own.id, customer.id);
    const body = {
      partnerId: own.id,
      customerId: customer.id,
      attendantName: 'Bisi',
      visitDate: '2026-03-01T10:00:00.000Z',
      items: [{ name: 'Rice', quantity: 2, price: 1500, id: 99, totalAmount: 1 }],
      ...forged('id', 'totalAmount', 'createdAt'),
    };
    const res = await t.request('POST', '/user/visits', { token: partnerToken, json: body });
    expect(res.status, res.text).toBe(201);
    const mine = await t.db.select().from(visits).where(eq(visits.customerId, customer.id));
    verdict(
      'visit: total from items, id, createdAt',
      mine.length === 1 &&
        mine[0]!.totalAmount === 3_000 &&
        mine[0]!.id !== FORGED.id &&
        mine[0]!.createdAt.toISOString() === NOW(),
    );
    const elsewhere = await t.request('POST', '/user/visits', {
      token: partnerToken,
      json: { ...body, partnerId: other.id },
    });
    expect(elsewhere.status).toBe(404);
    const atOther = await t.db
      .select()
      .from(visits)
      .where(and(eq(visits.customerId, customer.id), eq(visits.partnerId, other.id)));
    verdict('visit: not at another partner', atOther.length === 0);
  });

  it('rewards: balance, code, status, id are refused on issue; partner staff issue only at their own partner', async () => {
    const customer = await createCustomer(t.db);
    await linkCustomer(t.db, own.id, customer.id);
    const body = {
      rewardType: 'GIFTCARD',
      issuedAmount: 5_000,
      promotionalImage: PNG_BASE64,
      title: 'Card',
      description: 'A card',
      issuedTo: customer.id,
    };
    for (const extra of [
      forged('balance'),
      forged('code'),
      { status: 'Redeemed' },
      forged('id'),
      forged('createdAt'),
    ]) {
      const res = await t.request('POST', '/partners/rewards/issue-reward', {
        token,
        json: { ...body, partnerId: own.id, ...extra },
      });
      verdict(`issue with ${Object.keys(extra)} refused (${res.status})`, res.status === 400);
    }
    const elsewhere = await t.request('POST', '/partners/rewards/issue-reward', {
      token: partnerToken,
      json: { ...body, partnerId: other.id },
    });
    verdict(
      `partner staff issuing at another partner refused (${elsewhere.status})`,
      elsewhere.status === 404,
    );
    const issued = await t.db.select().from(rewards).where(eq(rewards.customerId, customer.id));
    verdict('no reward was written', issued.length === 0);
    const mine = await t.request('POST', '/partners/rewards/issue-reward', {
      token: partnerToken,
      json: body,
    });
    expect(mine.status, mine.text).toBe(201);
    const [row] = await t.db.select().from(rewards).where(eq(rewards.customerId, customer.id));
    verdict(
      'issued at their own partner, balance from the amount',
      row!.partnerId === own.id && row!.balance === 5_000 && row!.status === 'Active',
    );
  });

  it('redeeming a gift card: a balance in the body is ignored', async () => {
    const customer = await createCustomer(t.db);
    const reward = await createReward(t.db, {
      partnerId: own.id,
      customerId: customer.id,
      issuedAmount: 5_000,
      balance: 5_000,
    });
    const sent = await t.request('POST', '/partners/rewards/initiate-reward-redemption-auth', {
      token,
      json: { userId: customer.id, code: reward.code },
    });
    expect(sent.status, sent.text).toBe(200);
    const otp = await t.lastOtp(customer.email);
    const res = await t.request('POST', '/partners/rewards/redeem-giftcard', {
      token,
      json: {
        userId: customer.id,
        code: reward.code,
        amountToRedeem: 100,
        otp,
        ...forged('balance', 'status'),
      },
    });
    expect(res.status, res.text).toBe(200);
    const [after] = await t.db.select().from(rewards).where(eq(rewards.id, reward.id));
    verdict(
      'redeem: balance is the old one less the amount',
      after!.balance === 4_900 && after!.status === 'Active',
    );
  });

  it('own profile: email, role, permissions, userType, partnerId are refused, and nothing changes', async () => {
    const someone = await createUser(t.db, {
      roleId: (await createRole(t.db, 'Plain', ['dashboard.view'])).id,
    });
    const { accessToken } = await signIn(t, someone.email, someone.password);
    for (const extra of [
      forged('email'),
      forged('role'),
      forged('roleId'),
      forged('permissions'),
      forged('userType'),
      { partnerId: own.id },
      forged('accountStatus'),
      forged('createdAt'),
      forged('id'),
    ]) {
      const res = await t.request('PATCH', '/user/profile', {
        token: accessToken,
        json: { firstName: 'Changed', ...extra },
      });
      verdict(`profile with ${Object.keys(extra)} refused (${res.status})`, res.status === 400);
    }
    const [after] = await t.db.select().from(users).where(eq(users.id, someone.id));
    verdict(
      'profile unchanged',
      after!.firstName === someone.firstName &&
        after!.email === someone.email &&
        after!.roleId === someone.roleId &&
        after!.userType === 'ADMIN' &&
        after!.partnerId === null &&
        after!.updatedAt.getTime() === someone.updatedAt.getTime(),
    );
  });
});

describe('what the fuzz test found (issue 8), kept as plain regression cases', () => {
  it('a lone UTF-16 surrogate in any text is a 400 naming the field (jsonb refused it: 500)', async () => {
    for (const [method, path, json, field] of [
      ['POST', '/admin/user/create-role', { roleName: 'a\udd8eb', permissionIds: [1] }, 'roleName'],
      ['POST', '/admin/partners/extended-services', { title: 'ok', description: 'x\ud800' }, 'description'],
      ['PATCH', '/user/profile', { address: '\udfff' }, 'address'],
    ] as const) {
      const res = await t.request(method, path, { token, json });
      expect(res.status, path).toBe(400);
      expect(res.body.errors).toEqual([{ fieldName: field, message: 'Must be valid Unicode text' }]);
    }
    // A well-formed pair (an emoji) is text like any other.
    const emoji = await t.request('POST', '/admin/user/create-role', {
      token,
      json: { roleName: 'Role 😀', permissionIds: [1] },
    });
    expect(emoji.status).toBe(201);
  });

  it('ids past the database integer range are a 400, never sent to SQL (they were a 500)', async () => {
    const big = 2_147_483_648;
    for (const [method, path, json] of [
      ['DELETE', `/admin/user/delete-role/${big}`, undefined],
      ['GET', `/admin/user/get-role-detail?roleId=${big}`, undefined],
      ['GET', `/admin/user/admin-detail?userId=${big}`, undefined],
      ['DELETE', `/admin/user/delete-admin-user/${big}`, undefined],
      ['PATCH', '/admin/user/update-role', { roleId: big, roleName: 'x', permissionIds: [1] }],
      ['PATCH', '/admin/user/update-admin-user', { userId: big }],
      ['PATCH', '/admin/user/update-admin-user', { userId: 1, roleId: big }],
      [
        'POST',
        '/admin/user/new-admin-user',
        { firstName: 'a', lastName: 'b', email: 'big@rewardclub.test', roleId: big },
      ],
      [
        'POST',
        '/admin/user/new-admin-user',
        { firstName: 'a', lastName: 'b', email: 'big@rewardclub.test', roleId: 1, partnerId: big },
      ],
      ['PATCH', '/admin/partners/update-record', { partnerId: own.id, extendedServiceIds: [big] }],
    ] as const) {
      const res = await t.request(method, path, { token, json });
      expect(res.status, `${method} ${path} ${JSON.stringify(json)}`).toBe(400);
      expect(res.body.message).toBe('Validation failed');
    }
  });
});
