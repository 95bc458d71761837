import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { concurrencyMessages, VERSION_HEADER, versionTag } from '../../contract/concurrency';
import {
  createCustomer,
  createExtendedService,
  createPartner,
  createSuperAdmin,
  setupTestServer,
  signIn,
} from '../../tests/setup/server';
import { events, extendedServices } from '../db/schema';

/**
 * Optimistic concurrency (If-Match: the record's updatedAt as read) and Idempotency-Key on the edits
 * the SPA may send late from its outbox: profile, partner, client, extended service (issue 6).
 */

const t = setupTestServer();
let token: string;
let adminId: number;

type Rec = { id: number; updatedAt: string } & Record<string, unknown>;

interface Edit {
  name: string;
  method: 'PATCH';
  path: string;
  /** The record's read path. */
  read: () => string;
  /** An edit body whose field `field` becomes `value`. */
  body: (value: string) => Record<string, unknown>;
  field: string;
  entity: string;
  entityId: () => number;
}

let partnerId = 0;
let customerId = 0;
let serviceId = 0;

const edits: Edit[] = [
  {
    name: 'profile',
    method: 'PATCH',
    path: '/user/profile',
    read: () => '/user/profile',
    body: (v) => ({ address: v }),
    field: 'address',
    entity: 'user',
    entityId: () => adminId,
  },
  {
    name: 'partner',
    method: 'PATCH',
    path: '/admin/partners/update-record',
    read: () => `/admin/partners/${partnerId}`,
    body: (v) => ({ partnerId, address: v }),
    field: 'address',
    entity: 'partner',
    entityId: () => partnerId,
  },
  {
    name: 'client',
    method: 'PATCH',
    path: '/admin/user/customers',
    read: () => `/admin/user/customers/${customerId}`,
    body: (v) => ({ customerId, address: v }),
    field: 'address',
    entity: 'customer',
    entityId: () => customerId,
  },
  {
    name: 'extended service',
    method: 'PATCH',
    path: '/admin/partners/extended-services',
    read: () => `/admin/partners/extended-services/${serviceId}`,
    body: (v) => ({ extendedServiceId: serviceId, description: v }),
    field: 'description',
    entity: 'extended_service',
    entityId: () => serviceId,
  },
];

const read = async (e: Edit) => {
  const res = await t.request<Rec>('GET', e.read(), { token });
  expect(res.status).toBe(200);
  return res.body.data!;
};
const send = (e: Edit, value: string, headers: Record<string, string> = {}) =>
  t.request<Rec>(e.method, e.path, { token, json: e.body(value), headers });
const eventsOf = async (e: Edit) =>
  (await t.db.select().from(events).orderBy(events.id)).filter(
    (x) => x.entity === e.entity && x.entityId === String(e.entityId()),
  );

beforeAll(async () => {
  const admin = await createSuperAdmin(t.db);
  adminId = admin.id;
  token = (await signIn(t, admin.email, admin.password)).accessToken;
  const service = await createExtendedService(t.db, { title: 'Free Wi-Fi' });
  serviceId = service.id;
  partnerId = (await createPartner(t.db, { serviceIds: [service.id] })).id;
  customerId = (await createCustomer(t.db)).id;
});

describe.each(edits)('$name edit', (e) => {
  it('names the version it has (updatedAt); the current version passes and the change is logged once', async () => {
    const before = await read(e);
    expect(typeof before.updatedAt).toBe('string');
    t.clock.advance(1000);
    const res = await send(e, `${e.name} current`, { [VERSION_HEADER]: versionTag(before.updatedAt) });
    expect(res.status).toBe(200);
    expect(res.body.data![e.field]).toBe(`${e.name} current`);
    expect(res.body.data!.updatedAt).not.toBe(before.updatedAt);
    expect(res.body.data!.updatedAt).toBe(t.clock().toISOString());
  });

  it('a stale version is a 409 with the current record; nothing changes, nothing is logged', async () => {
    const stale = await read(e);
    t.clock.advance(1000);
    const other = await send(e, `${e.name} by someone else`);
    expect(other.status).toBe(200);
    const logged = (await eventsOf(e)).length;
    t.clock.advance(1000);
    const res = await send(e, `${e.name} mine`, { [VERSION_HEADER]: versionTag(stale.updatedAt) });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({
      success: false,
      message: concurrencyMessages.recordChanged,
      code: 'version_conflict',
      errors: [],
    });
    expect(res.body.data).toMatchObject({ id: stale.id, [e.field]: `${e.name} by someone else` });
    expect(res.body.data!.updatedAt).toBe(other.body.data!.updatedAt);
    expect((await read(e))[e.field]).toBe(`${e.name} by someone else`);
    expect(await eventsOf(e)).toHaveLength(logged);
  });

  it('without If-Match (an old client) there is no check; a malformed one is a 400', async () => {
    t.clock.advance(1000);
    expect((await send(e, `${e.name} no version`)).status).toBe(200);
    const bad = await send(e, `${e.name} bad`, { [VERSION_HEADER]: 'yesterday' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({
      success: false,
      data: null,
      errors: [{ fieldName: VERSION_HEADER, message: concurrencyMessages.invalidVersion }],
    });
    expect((await read(e))[e.field]).toBe(`${e.name} no version`);
    // '*' and weak tags are understood.
    t.clock.advance(1000);
    expect((await send(e, `${e.name} any`, { [VERSION_HEADER]: '*' })).status).toBe(200);
    const now = await read(e);
    t.clock.advance(1000);
    const weak = await send(e, `${e.name} weak`, { [VERSION_HEADER]: `W/${versionTag(now.updatedAt)}` });
    expect(weak.status).toBe(200);
  });

  it('Idempotency-Key: a replay answers the first result and appends no second event', async () => {
    const before = await read(e);
    const key = `outbox-${e.name.replace(' ', '-')}-1`;
    const headers = { 'Idempotency-Key': key, [VERSION_HEADER]: versionTag(before.updatedAt) };
    const logged = (await eventsOf(e)).length;
    t.clock.advance(1000);
    const first = await send(e, `${e.name} once`, headers);
    expect(first.status).toBe(200);
    t.clock.advance(1000);
    // The replay still names the old version: it is answered from the key, not checked again.
    const again = await send(e, `${e.name} once`, headers);
    expect(again.status).toBe(200);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await eventsOf(e)).toHaveLength(logged + 1);
    // The same key with another body is refused.
    const other = await send(e, `${e.name} twice`, headers);
    expect(other.status).toBe(422);
    expect((await read(e))[e.field]).toBe(`${e.name} once`);
  });

  it('a 409 is not kept under the key: after "keep mine" the same key goes through once', async () => {
    const stale = await read(e);
    t.clock.advance(1000);
    await send(e, `${e.name} theirs`);
    const key = `outbox-${e.name.replace(' ', '-')}-2`;
    const refused = await send(e, `${e.name} kept`, {
      'Idempotency-Key': key,
      [VERSION_HEADER]: versionTag(stale.updatedAt),
    });
    expect(refused.status).toBe(409);
    const logged = (await eventsOf(e)).length;
    t.clock.advance(1000);
    const kept = await send(e, `${e.name} kept`, { 'Idempotency-Key': key });
    expect(kept.status).toBe(200);
    expect(kept.headers.get('Idempotent-Replayed')).toBeNull();
    expect(
      (await send(e, `${e.name} kept`, { 'Idempotency-Key': key })).headers.get('Idempotent-Replayed'),
    ).toBe('true');
    expect((await read(e))[e.field]).toBe(`${e.name} kept`);
    expect(await eventsOf(e)).toHaveLength(logged + 1);
  });
});

describe('extended service creation', () => {
  it('Idempotency-Key: the same creation sent twice makes one service and one event', async () => {
    const body = { title: 'Outbox Delivery', description: 'Created offline, sent twice' };
    const headers = { 'Idempotency-Key': 'outbox-create-1' };
    const first = await t.request<Rec>('POST', '/admin/partners/extended-services', {
      token,
      json: body,
      headers,
    });
    expect(first.status).toBe(201);
    const again = await t.request<Rec>('POST', '/admin/partners/extended-services', {
      token,
      json: body,
      headers,
    });
    expect(again.status).toBe(201);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    const rows = await t.db.select().from(extendedServices).where(eq(extendedServices.title, body.title));
    expect(rows).toHaveLength(1);
    const logged = (await t.db.select().from(events)).filter(
      (x) => x.entity === 'extended_service' && x.entityId === String(rows[0]!.id),
    );
    expect(logged).toHaveLength(1);
    const bad = await t.request('POST', '/admin/partners/extended-services', {
      token,
      json: body,
      headers: { 'Idempotency-Key': 'has spaces in it' },
    });
    expect(bad.status).toBe(400);
  });
});

describe('parallel edits naming one version', () => {
  it('ten at once: one is applied, nine get the 409, one event (row lock on PostgreSQL)', async () => {
    const e = edits.find((x) => x.name === 'partner')!;
    const base = await read(e);
    const logged = (await eventsOf(e)).length;
    t.clock.advance(1000);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        send(e, `parallel ${i}`, { [VERSION_HEADER]: versionTag(base.updatedAt) }),
      ),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, ...Array(9).fill(409)]);
    const winner = answers.find((a) => a.status === 200)!;
    expect((await read(e))[e.field]).toBe(winner.body.data![e.field]);
    expect(await eventsOf(e)).toHaveLength(logged + 1);
  });
});
