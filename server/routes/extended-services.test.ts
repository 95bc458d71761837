import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ListData } from '../../contract/envelope';
import {
  type ExtendedService,
  extendedServiceMessages,
  extendedServiceSchema,
  extendedServiceServerMessages as msg,
} from '../../contract/extended-services';
import type { Partner } from '../../contract/partners';
import { createPartner, createSuperAdmin, setupTestServer, signIn } from '../../tests/setup/server';
import { events, extendedServices, partnerExtendedServices } from '../db/schema';

const t = setupTestServer();
let token: string;
const PATH = '/admin/partners/extended-services';
const get = <T = unknown>(path: string) => t.request<T>('GET', path, { token });
const create = (json: unknown) => t.request<ExtendedService>('POST', PATH, { json, token });
const update = (json: unknown) => t.request<ExtendedService>('PATCH', PATH, { json, token });
const remove = (id: unknown) => t.request('DELETE', `${PATH}/${id}`, { token });
const lastEvent = async () => (await t.db.select().from(events).orderBy(events.id)).at(-1)!;

beforeAll(async () => {
  const admin = await createSuperAdmin(t.db);
  token = (await signIn(t, admin.email, admin.password)).accessToken;
});

describe('extended services', () => {
  it('creates (201), reads, lists with partnerCount, logs', async () => {
    const res = await create({ title: '  Free Wi-Fi ', description: 'Fiber Wi-Fi on the premises' });
    expect(res.status).toBe(201);
    expect(res.body.message).toBe(msg.created);
    const s = extendedServiceSchema.parse(res.body.data);
    expect(s).toMatchObject({
      title: 'Free Wi-Fi',
      description: 'Fiber Wi-Fi on the premises',
      partnerCount: 0,
    });
    expect(await lastEvent()).toMatchObject({
      action: 'Created extended service Free Wi-Fi',
      entity: 'extended_service',
    });
    await createPartner(t.db, { serviceIds: [s.id] });
    await createPartner(t.db, { serviceIds: [s.id], deletedAt: new Date() });
    expect((await get<ExtendedService>(`${PATH}/${s.id}`)).body.data).toMatchObject({
      id: s.id,
      partnerCount: 1,
    });
    const list = await get<ListData<ExtendedService>>(PATH);
    expect(list.status).toBe(200);
    expect(list.body.data!.records.find((r) => r.id === s.id)?.partnerCount).toBe(1);
  });

  it('searches title and description; sorts by title', async () => {
    await create({ title: 'Home Delivery', description: 'Orders brought to your door' });
    await create({ title: 'Birthday Treats', description: 'A free dessert in your birthday month' });
    const byDescription = await get<ListData<ExtendedService>>(`${PATH}?searchText=dessert`);
    expect(byDescription.body.data!.records.map((r) => r.title)).toEqual(['Birthday Treats']);
    const sorted = await get<ListData<ExtendedService>>(`${PATH}?sortBy=title`);
    expect(sorted.body.data!.records.map((r) => r.title)).toEqual([
      'Birthday Treats',
      'Free Wi-Fi',
      'Home Delivery',
    ]);
    expect((await get(`${PATH}?sortBy=description`)).status).toBe(400);
  });

  it('bad input is a 400 per field; unknown ids 404', async () => {
    const missing = await create({});
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual([
      { fieldName: 'title', message: extendedServiceMessages.titleRequired },
      { fieldName: 'description', message: extendedServiceMessages.descriptionRequired },
    ]);
    expect((await create({ title: 5, description: ['x'] })).status).toBe(400);
    expect((await create({ title: 'x'.repeat(121), description: 'ok' })).body.errors[0]?.fieldName).toBe(
      'title',
    );
    expect((await update({ title: 'No id' })).body.errors[0]?.fieldName).toBe('extendedServiceId');
    expect((await update({ extendedServiceId: 999_999, title: 'Nope' })).status).toBe(404);
    expect((await get(`${PATH}/999999`)).status).toBe(404);
    expect((await get(`${PATH}/0`)).status).toBe(400);
    expect((await remove(999_999)).status).toBe(404);
  });

  it('updates only what is sent and logs a rename', async () => {
    const s = (await create({ title: 'Priority Booking', description: 'Skip the queue' })).body.data!;
    const res = await update({ extendedServiceId: s.id, title: 'Priority Reservations' });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe(msg.updated);
    expect(res.body.data).toMatchObject({ title: 'Priority Reservations', description: 'Skip the queue' });
    expect((await lastEvent()).action).toBe(
      'Updated extended service Priority Reservations (renamed from Priority Booking)',
    );
  });

  it('deletes softly and unlinks it from its partners (the event keeps which)', async () => {
    const s = (await create({ title: 'Member Events', description: 'Tastings and premieres' })).body.data!;
    const keep = (await create({ title: 'Warranty', description: 'Twelve more months' })).body.data!;
    const p = await createPartner(t.db, { serviceIds: [s.id, keep.id] });
    const res = await remove(s.id);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe(msg.deleted);
    expect(await lastEvent()).toMatchObject({
      action: 'Deleted extended service Member Events',
      payload: { title: 'Member Events', unlinkedPartnerIds: [p.id] },
    });
    expect((await get(`${PATH}/${s.id}`)).status).toBe(404);
    const list = await get<ListData<ExtendedService>>(`${PATH}?pageSize=100`);
    expect(list.body.data!.records.map((r) => r.id)).not.toContain(s.id);
    const [row] = await t.db.select().from(extendedServices).where(eq(extendedServices.id, s.id));
    expect(row!.deletedAt).not.toBeNull();
    const links = await t.db
      .select()
      .from(partnerExtendedServices)
      .where(eq(partnerExtendedServices.partnerId, p.id));
    expect(links.map((l) => l.extendedServiceId)).toEqual([keep.id]);
    const partner = (await get<Partner>(`/admin/partners/${p.id}`)).body.data!;
    expect(partner.extendedServiceIds).toEqual([keep.id]);
    expect((await remove(s.id)).status).toBe(404);
  });
});
