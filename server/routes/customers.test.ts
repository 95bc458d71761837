import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type Customer,
  clientInternetInfoSchema,
  customerMessages,
  customerSchema,
  customerServerMessages as msg,
} from '../../contract/customers';
import type { ListData } from '../../contract/envelope';
import { createCustomer, createSuperAdmin, setupTestServer, signIn } from '../../tests/setup/server';
import { customers, events } from '../db/schema';

const t = setupTestServer();
let token: string;
const get = <T = unknown>(path: string) => t.request<T>('GET', path, { token });
const update = (json: unknown) => t.request<Customer>('PATCH', '/admin/user/customers', { json, token });
const setStatus = (json: unknown) =>
  t.request<Customer>('PATCH', '/admin/user/customers/status', { json, token });
const remove = (id: unknown) => t.request('DELETE', `/admin/user/customers/${id}`, { token });
const lastEvent = async () => (await t.db.select().from(events).orderBy(events.id)).at(-1)!;

let tunde: typeof customers.$inferSelect;

beforeAll(async () => {
  const admin = await createSuperAdmin(t.db);
  token = (await signIn(t, admin.email, admin.password)).accessToken;
  tunde = await createCustomer(t.db, { firstName: 'Tunde', lastName: 'Bakare', email: 'tunde@bakare.ng' });
  await createCustomer(t.db, { firstName: 'Ngozi', lastName: 'Eze', email: 'ngozi@eze.ng' });
  await createCustomer(t.db, { firstName: 'Blocked', lastName: 'Person', accountStatus: 'BLOCKED' });
  await createCustomer(t.db, { firstName: 'Deleted', lastName: 'Person', deletedAt: new Date() });
});

describe('GET /admin/user/customers and /{customerId}', () => {
  it('lists ACTIVE by default, BLOCKED on request, never the deleted', async () => {
    const res = await get<ListData<Customer>>('/admin/user/customers');
    expect(res.status).toBe(200);
    const names = res.body.data!.records.map((c) => c.firstName);
    expect(names.sort()).toEqual(['Ngozi', 'Tunde']);
    expect(res.body.data!.meta.totalCount).toBe(2);
    const blocked = await get<ListData<Customer>>('/admin/user/customers?status=BLOCKED');
    expect(blocked.body.data!.records.map((c) => c.firstName)).toEqual(['Blocked']);
    customerSchema.parse(res.body.data!.records[0]);
  });

  it('searches names and email; sorts by a whitelisted column; bad query is 400', async () => {
    const byEmail = await get<ListData<Customer>>('/admin/user/customers?search=eze.ng');
    expect(byEmail.body.data!.records.map((c) => c.firstName)).toEqual(['Ngozi']);
    const byName = await get<ListData<Customer>>('/admin/user/customers?searchText=tunde%20bak');
    expect(byName.body.data!.records.map((c) => c.firstName)).toEqual(['Tunde']);
    const sorted = await get<ListData<Customer>>('/admin/user/customers?sortBy=lastName&sortOrder=desc');
    expect(sorted.body.data!.records.map((c) => c.lastName)).toEqual(['Eze', 'Bakare']);
    const bad = await get('/admin/user/customers?sortBy=fiberPlan&pageNumber=zero');
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e) => e.fieldName).sort()).toEqual(['pageNumber', 'sortBy']);
  });

  it('detail; 404 for unknown or deleted', async () => {
    const res = await get<Customer>(`/admin/user/customers/${tunde.id}`);
    expect(res.body.data).toMatchObject({ id: tunde.id, email: 'tunde@bakare.ng', accountStatus: 'ACTIVE' });
    const [deleted] = await t.db.select().from(customers).where(eq(customers.firstName, 'Deleted'));
    expect((await get(`/admin/user/customers/${deleted!.id}`)).status).toBe(404);
    expect((await get('/admin/user/customers/999999')).status).toBe(404);
  });

  it('client_info gives the fiber account; 404 unknown; 400 without client_id', async () => {
    const res = await get(`/user/internet/client_info?client_id=${tunde.id}`);
    expect(res.status).toBe(200);
    expect(clientInternetInfoSchema.parse(res.body.data)).toEqual({
      customerId: tunde.id,
      plan: 'Fiber Home 50',
      speedMbps: 50,
      monthlyFee: 25_000,
      status: 'ACTIVE',
      renewalDate: '2026-04-01T00:00:00.000Z',
      // The internet account number the subscriber sync brings (issue 27); this customer has none.
      accountNumber: null,
    });
    expect((await get('/user/internet/client_info?client_id=999999')).status).toBe(404);
    const missing = await get('/user/internet/client_info');
    expect(missing.status).toBe(400);
    expect(missing.body.errors[0]?.fieldName).toBe('client_id');
  });
});

describe('PATCH /admin/user/customers, /status and DELETE', () => {
  it('updates only what is sent', async () => {
    const res = await update({ customerId: tunde.id, address: '7 Awolowo Road, Ikoyi, Lagos' });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe(customerMessages.updated);
    expect(res.body.data).toMatchObject({ firstName: 'Tunde', address: '7 Awolowo Road, Ikoyi, Lagos' });
    expect((await lastEvent()).action).toBe('Updated client Tunde Bakare (address)');
  });

  it('an empty address clears it; names cannot be emptied (issue 22)', async () => {
    const c = await createCustomer(t.db, {
      firstName: 'Kemi',
      lastName: 'Ade',
      address: '3 Allen Avenue, Ikeja',
    });
    const res = await update({ customerId: c.id, address: '' });
    expect(res.status).toBe(200);
    expect(res.body.data?.address).toBeNull();
    expect((await lastEvent()).action).toBe('Updated client Kemi Ade (address)');
  });

  it('bad input is a 400 per field; unknown a 404', async () => {
    expect((await update({ customerId: tunde.id, firstName: '' })).body.errors).toEqual([
      { fieldName: 'firstName', message: 'Cannot be empty' },
    ]);
    expect((await update({ customerId: '12abc' })).status).toBe(400);
    expect((await update({ customerId: tunde.id, email: 'x@y.z' })).status).toBe(200); // unknown keys are ignored
    expect((await update({ customerId: 999_999, firstName: 'X' })).status).toBe(404);
    expect((await setStatus({ customerId: tunde.id, accountStatus: 'PAUSED' })).status).toBe(400);
    expect((await setStatus({ customerId: 999_999, accountStatus: 'BLOCKED' })).status).toBe(404);
  });

  it('blocks and unblocks with a plain sentence in the log', async () => {
    const blocked = await setStatus({ customerId: tunde.id, accountStatus: 'BLOCKED' });
    expect(blocked.body).toMatchObject({ message: msg.blocked, data: { accountStatus: 'BLOCKED' } });
    expect((await lastEvent()).action).toBe('Blocked client Tunde Bakare');
    const unblocked = await setStatus({ customerId: tunde.id, accountStatus: 'ACTIVE' });
    expect(unblocked.body.message).toBe(msg.unblocked);
    expect((await lastEvent()).action).toBe('Unblocked client Tunde Bakare');
  });

  it('deletes softly', async () => {
    const c = await createCustomer(t.db, { firstName: 'Leaving', lastName: 'Soon' });
    const res = await remove(c.id);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe(msg.deleted);
    expect(await lastEvent()).toMatchObject({ action: 'Deleted client Leaving Soon', entity: 'customer' });
    expect((await get(`/admin/user/customers/${c.id}`)).status).toBe(404);
    const [row] = await t.db.select().from(customers).where(eq(customers.id, c.id));
    expect(row!.deletedAt).not.toBeNull();
    expect((await remove(c.id)).status).toBe(404);
  });
});
