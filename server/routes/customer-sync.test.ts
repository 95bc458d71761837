import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { ALL_PERMISSION_NAMES } from '../../contract/permissions';
import {
  createCustomer,
  createPartner,
  createRole,
  createSuperAdmin,
  createUser,
  setupTestServer,
  signIn,
} from '../../tests/setup/server';
import { routeAccess } from '../app';
import { customers, events, partnerApiKeys, webhookDeliveries, webhookEndpoints } from '../db/schema';
import { generateApiKey } from '../domain/api-keys';
import { toOpenApiPath } from '../openapi';

const t = setupTestServer();
let admin: string;
let writeKey: string;
let readKey: string;
let partnerKey: string;

const put = (externalId: string, json: unknown, key = writeKey) =>
  t.request<{ result: string; customer: Record<string, unknown> }>(
    'PUT',
    `/admin/customers/external/${encodeURIComponent(externalId)}`,
    { json, headers: { 'x-api-key': key } },
  );

const ada = {
  firstName: 'Adaeze',
  lastName: 'Okonkwo',
  email: 'adaeze.okonkwo@mail.test',
  phone: '+234 803 123 4567',
  address: '12 Awolowo Road, Ikoyi',
  internetAccountNumber: 'FBR-000123',
};

beforeAll(async () => {
  const root = await createSuperAdmin(t.db);
  admin = (await signIn(t, root.email, root.password)).accessToken;
  const make = async (scopes: string[]) => {
    const res = await t.request<{ key: string }>('POST', '/admin/api-keys', {
      token: admin,
      json: { name: `Subscriber sync ${scopes.join('+')}`, scopes },
    });
    expect(res.status, res.text).toBe(201);
    return res.body.data!.key;
  };
  writeKey = await make(['customers.write', 'customers.read']);
  readKey = await make(['customers.read']);
  const partner = await createPartner(t.db);
  const generated = generateApiKey();
  await t.db.insert(partnerApiKeys).values({
    partnerId: partner.id,
    name: 'Till',
    prefix: generated.prefix,
    secretHash: generated.secretHash,
    permissions: ['clients.view', 'visits.view'],
  });
  partnerKey = generated.key;
  // A club-wide webhook endpoint hears customer events.
  await t.db.insert(webhookEndpoints).values({
    url: 'https://hooks.example.com/crm',
    events: ['customer.created', 'customer.updated', 'customer.blocked'],
    partnerId: null,
    secret: 'whsec_bWF0cml4',
  });
});

describe('club integration keys', () => {
  it('are rcc_ keys, shown once, listed without their secret, and only a Super Admin manages them', async () => {
    expect(writeKey).toMatch(/^rcc_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/);
    const list = await t.request<{ prefix: string; scopes: string[] }[]>('GET', '/admin/api-keys', {
      token: admin,
    });
    expect(list.status).toBe(200);
    expect(list.text).not.toContain(writeKey.slice(17));
    expect(list.body.data!.map((k) => k.scopes)).toEqual([
      ['customers.write', 'customers.read'],
      ['customers.read'],
    ]);
    // A role holding integrations.manage (but not the built-in role) cannot.
    const role = await createRole(t.db, 'Integrators', [...ALL_PERMISSION_NAMES]);
    const other = await createUser(t.db, { roleId: role.id });
    const token = (await signIn(t, other.email, other.password)).accessToken;
    const refused = await t.request('POST', '/admin/api-keys', {
      token,
      json: { name: 'Mine', scopes: ['customers.read'] },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Only a Super Admin manages club integration keys');
    const bad = await t.request('POST', '/admin/api-keys', {
      token: admin,
      json: { name: 'x', scopes: ['visits.view'] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]?.message).toBe('scopes must be among customers.read, customers.write');
  });

  it('a revoked key is refused at once', async () => {
    const made = await t.request<{ id: number; key: string }>('POST', '/admin/api-keys', {
      token: admin,
      json: { name: 'Short lived', scopes: ['customers.read'] },
    });
    const key = made.body.data!.key;
    expect(
      (await t.request('GET', '/admin/customers/external/NONE', { headers: { 'x-api-key': key } })).status,
    ).toBe(404);
    expect(
      (await t.request('DELETE', `/admin/api-keys/${made.body.data!.id}`, { token: admin })).status,
    ).toBe(200);
    const after = await t.request('GET', '/admin/customers/external/NONE', { headers: { 'x-api-key': key } });
    expect(after.status).toBe(401);
    // Still listed, marked revoked, after every active key.
    const list = await t.request<{ id: number; revokedAt: string | null }[]>('GET', '/admin/api-keys', {
      token: admin,
    });
    const keys = list.body.data!;
    const revoked = keys.find((k) => k.id === made.body.data!.id);
    expect(revoked?.revokedAt).toEqual(expect.any(String));
    expect(keys.filter((k) => k.revokedAt === null).length).toBeGreaterThan(0);
    expect(keys.at(-1)?.id).toBe(made.body.data!.id);
    expect(keys.findIndex((k) => k.revokedAt !== null)).toBe(keys.filter((k) => k.revokedAt === null).length);
  });

  it('a club key reaches only the customer sync routes; a partner key never reaches those', async () => {
    const wrongly: string[] = [];
    for (const r of routeAccess(t.app)) {
      if (!r.access || r.access.kind === 'public') continue;
      const path = r.path
        .replace('/api/v1', '')
        .replace(':hash', 'a'.repeat(64))
        .replace(/:[A-Za-z]+(\{[^}]*\})?/g, '1');
      const club = await t.request(r.method, path, { headers: { 'x-api-key': writeKey } });
      const isSync = r.access.kind === 'permission' && r.access.clubKey === true;
      if (!isSync && club.status !== 403)
        wrongly.push(`club key ${r.method} ${toOpenApiPath(r.path)}: ${club.status}`);
      if (isSync && (club.status === 401 || club.status === 403))
        wrongly.push(`club key refused on ${r.method} ${r.path}`);
      if (isSync) {
        const partner = await t.request(r.method, path, { headers: { 'x-api-key': partnerKey } });
        if (partner.status !== 403) wrongly.push(`partner key ${r.method} ${r.path}: ${partner.status}`);
      }
    }
    expect(wrongly).toEqual([]);
  });

  it('a read-only key reads but does not write', async () => {
    expect((await put('RO-1', { ...ada, email: 'ro@mail.test' }, readKey)).status).toBe(403);
    await createCustomer(t.db, { externalId: 'RO-2' });
    expect(
      (await t.request('GET', '/admin/customers/external/RO-2', { headers: { 'x-api-key': readKey } }))
        .status,
    ).toBe(200);
  });
});

describe('PUT /admin/customers/external/{externalId}', () => {
  it('creates, then says unchanged, then updated; phone normalised like the staff phone', async () => {
    const first = await put('SUB-1001', ada);
    expect(first.status, first.text).toBe(200);
    expect(first.body.data!.result).toBe('created');
    expect(first.body.data!.customer).toMatchObject({
      externalId: 'SUB-1001',
      firstName: 'Adaeze',
      phone: '08031234567',
      accountStatus: 'ACTIVE',
      internetAccountNumber: 'FBR-000123',
    });
    const id = first.body.data!.customer.id as number;
    const again = await put('SUB-1001', ada);
    expect(again.body.data!.result).toBe('unchanged');
    expect(again.body.message).toBe('Nothing changed');
    const moved = await put('SUB-1001', { ...ada, address: '3 Allen Avenue, Ikeja' });
    expect(moved.body.data!.result).toBe('updated');
    expect(moved.body.data!.customer.id).toBe(id);
    // The fiber account call reads the account number; the plan is not known yet.
    const info = await t.request<Record<string, unknown>>(
      'GET',
      `/user/internet/client_info?client_id=${id}`,
      {
        token: admin,
      },
    );
    expect(info.body.data).toMatchObject({ customerId: id, accountNumber: 'FBR-000123', plan: null });
    const log = await t.db
      .select()
      .from(events)
      .where(and(eq(events.entity, 'customer'), eq(events.entityId, String(id))));
    expect(log.map((e) => e.action)).toEqual([
      'Added client Adaeze Okonkwo (SUB-1001)',
      'Updated client Adaeze Okonkwo (address)',
    ]);
    expect(log[0]!.actorName).toBe('API key Subscriber sync customers.write+customers.read');
  });

  it('a cancelled subscription blocks the customer: customer.blocked to club-wide endpoints', async () => {
    await put('SUB-2002', { ...ada, email: 'blocked@mail.test' });
    const res = await put('SUB-2002', { ...ada, email: 'blocked@mail.test', status: 'BLOCKED' });
    expect(res.body.data!.result).toBe('updated');
    expect(res.body.data!.customer.accountStatus).toBe('BLOCKED');
    const queued = await t.db.select().from(webhookDeliveries);
    const mine = queued.filter(
      (d) => (d.payload as { data: { externalId: string } }).data.externalId === 'SUB-2002',
    );
    expect(mine.map((d) => d.eventType)).toEqual(['customer.created', 'customer.blocked']);
  });

  it('an email of another external id is a 409 and changes nothing', async () => {
    const res = await put('SUB-3003', { ...ada, lastName: 'Other' });
    expect(res.status).toBe(409);
    expect(res.body.errors[0]).toEqual({
      fieldName: 'email',
      message: 'This email belongs to another customer (another external id); change one of them first',
    });
    expect(await t.db.select().from(customers).where(eq(customers.externalId, 'SUB-3003'))).toEqual([]);
  });

  it('bad input is a 400 naming the field', async () => {
    const res = await put('SUB-4004', { ...ada, email: 'not-an-email', phone: '12' });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e) => e.fieldName).sort()).toEqual(['email', 'phone']);
    const badId = await put('has space', ada);
    expect(badId.status).toBe(400);
    expect(badId.body.errors[0]?.fieldName).toBe('externalId');
    const status = await put('SUB-4005', { ...ada, email: 's@mail.test', status: 'CANCELLED' });
    expect(status.body.errors[0]?.message).toBe("status must be 'ACTIVE' or 'BLOCKED'");
  });
});

describe('POST /admin/user/customers (Add customer)', () => {
  it('adds one customer; a taken external id or email is a 409 at the field', async () => {
    const body = {
      externalId: 'ACC-77',
      firstName: 'Chinedu',
      lastName: 'Eze',
      email: 'chinedu.eze@mail.test',
      phone: '0803-123-4568',
    };
    const res = await t.request<{ result: string; customer: { id: number } }>(
      'POST',
      '/admin/user/customers',
      {
        token: admin,
        json: body,
      },
    );
    expect(res.status, res.text).toBe(201);
    expect(res.body.message).toBe('Customer added');
    const twice = await t.request('POST', '/admin/user/customers', { token: admin, json: body });
    expect(twice.status).toBe(409);
    expect(twice.body.errors[0]?.fieldName).toBe('externalId');
    const email = await t.request('POST', '/admin/user/customers', {
      token: admin,
      json: { ...body, externalId: 'ACC-78' },
    });
    expect(email.status).toBe(409);
    expect(email.body.errors[0]?.fieldName).toBe('email');
    const [event] = await t.db
      .select()
      .from(events)
      .where(eq(events.entityId, String(res.body.data!.customer.id)));
    expect(event!.action).toBe('Added client Chinedu Eze (ACC-77)');
    expect(event!.actorType).toBe('ADMIN');
  });
});
