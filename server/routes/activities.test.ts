import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Activity, activitySchema } from '../../contract/activities';
import type { ListData } from '../../contract/envelope';
import { createRole, createSuperAdmin, createUser, setupTestServer, signIn } from '../../tests/setup/server';
import { API_BASE } from '../app';
import { events } from '../db/schema';
import { type ActorType, recordEvent } from '../domain/events';

const t = setupTestServer();
let token: string;
const BASE = new Date('2026-02-01T10:00:00.000Z');

const activities = (query = '', as = token) =>
  t.request<ListData<Activity>>('GET', `/admin/user/activities${query}`, { token: as });

const seedEvent = (
  type: ActorType,
  name: string,
  action: string,
  minutes: number,
  ip: string,
  organization: string | null = null,
) =>
  recordEvent(t.db, {
    actor: { id: null, type, name, organization },
    action,
    entity: 'test',
    meta: { ipAddress: ip, userAgent: 'seed-agent' },
    at: new Date(BASE.getTime() + minutes * 60_000),
  });

beforeAll(async () => {
  const admin = await createSuperAdmin(t.db);
  token = (await signIn(t, admin.email, admin.password)).accessToken;
  await seedEvent(
    'PARTNER',
    'Segun Adeyemi',
    'Recorded a visit for Kemi Lawal',
    1,
    '102.89.10.20',
    'Eko Grill House',
  );
  await seedEvent(
    'PARTNER',
    'chiamaka Okonkwo',
    'Issued a reward to Uche Obi',
    2,
    '192.168.1.7',
    'Jollof Republic',
  );
  await seedEvent('PARTNER', 'Musa Abubakar', 'Signed in', 3, '105.112.30.193', 'Wuse Suya Spot');
  await seedEvent('PARTNER', 'Segun Adeyemi', 'Signed in', 4, '10.0.0.4', 'Eko Grill House');
  await seedEvent('CUSTOMER', 'Kemi Lawal', 'Redeemed a coupon at Eko Grill House', 5, '197.210.1.1');
  await seedEvent('CUSTOMER', 'Uche Obi', 'Viewed their rewards', 6, '41.58.2.2');
  await seedEvent('PARTNER', '100% Legit_Name', 'Signed in', 7, '127.0.0.1', 'Odd Names Ltd');
});

describe('GET /admin/user/activities', () => {
  it('lists PARTNER events by default, newest first, in the contract shape', async () => {
    const res = await activities();
    expect(res.status).toBe(200);
    const { records, meta } = res.body.data!;
    expect(meta).toEqual({ totalCount: 5, pageNumber: 1, pageSize: 10 });
    for (const r of records) activitySchema.parse(r);
    expect(records.map((r) => r.userType)).toEqual(Array(5).fill('PARTNER'));
    expect(records[0]).toMatchObject({
      user: { name: '100% Legit_Name', organizationName: 'Odd Names Ltd' },
    });
    const times = records.map((r) => r.createdAt);
    expect(times).toEqual([...times].sort().reverse());
    const segun = records.find((r) => r.ipAddress === '102.89.10.20')!;
    expect(segun).toMatchObject({
      user: { id: null, name: 'Segun Adeyemi', imageUrl: null, organizationName: 'Eko Grill House' },
      action: 'Recorded a visit for Kemi Lawal',
      userAgent: 'seed-agent',
      entity: 'test',
    });
    expect(segun.ipLocation).toMatch(/Nigeria$/);
    expect(records.find((r) => r.ipAddress === '10.0.0.4')!.ipLocation).toBe('Local network');
  });

  it('filters by userType: CUSTOMER, ADMIN (sign-ins are logged as they happen)', async () => {
    const customers = await activities('?userType=CUSTOMER');
    expect(customers.body.data!.records.map((r) => r.user.name)).toEqual(['Uche Obi', 'Kemi Lawal']);
    const admins = await activities('?userType=ADMIN');
    expect(admins.body.data!.records[0]).toMatchObject({
      action: 'Signed in',
      userType: 'ADMIN',
      user: { name: 'Ada Root', organizationName: 'Reward Club' },
    });
    const bad = await activities('?userType=ROBOT');
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]!.fieldName).toBe('userType');
  });

  it('searches name, action, organisation, IP address and location; wildcards are literal', async () => {
    const names = async (q: string, type = 'PARTNER') =>
      (await activities(`?userType=${type}&searchText=${encodeURIComponent(q)}`)).body.data!.records.map(
        (r) => r.user.name,
      );
    expect(await names('segun')).toEqual(['Segun Adeyemi', 'Segun Adeyemi']);
    expect(await names('ISSUED A REWARD')).toEqual(['chiamaka Okonkwo']);
    expect(await names('wuse suya')).toEqual(['Musa Abubakar']);
    expect(await names('102.89.10')).toEqual(['Segun Adeyemi']);
    expect(await names('local network')).toEqual(['100% Legit_Name', 'Segun Adeyemi', 'chiamaka Okonkwo']);
    expect(await names('100%')).toEqual(['100% Legit_Name']);
    expect(await names('t_n')).toEqual(['100% Legit_Name']);
    expect(await names('%')).toEqual(['100% Legit_Name']);
    expect(await names('eko grill', 'CUSTOMER')).toEqual(['Kemi Lawal']);
    const counted = await activities('?searchText=signed%20in');
    expect(counted.body.data!.meta.totalCount).toBe(3);
  });

  it('sorts by action and name (case-insensitive) and createdAt, both ways, id breaking ties', async () => {
    const byName = await activities('?sortBy=name&sortOrder=asc');
    expect(byName.body.data!.records.map((r) => r.user.name)).toEqual([
      '100% Legit_Name',
      'chiamaka Okonkwo',
      'Musa Abubakar',
      'Segun Adeyemi',
      'Segun Adeyemi',
    ]);
    const segunIds = byName.body.data!.records.slice(3).map((r) => r.id);
    expect(segunIds).toEqual([...segunIds].sort((a, b) => a - b));
    const byAction = await activities('?sortBy=action&sortOrder=desc');
    expect(byAction.body.data!.records.map((r) => r.action)).toEqual([
      'Signed in',
      'Signed in',
      'Signed in',
      'Recorded a visit for Kemi Lawal',
      'Issued a reward to Uche Obi',
    ]);
    const oldest = await activities('?sortBy=createdAt&sortOrder=asc');
    expect(oldest.body.data!.records[0]!.action).toBe('Recorded a visit for Kemi Lawal');
    const bad = await activities('?sortBy=ipAddress');
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]!.fieldName).toBe('sortBy');
  });

  it('pages: pageNumber from 1, sizes 10/20/50/100 only', async () => {
    for (let i = 0; i < 25; i++)
      await seedEvent('CUSTOMER', `Bulk ${i}`, 'Viewed their rewards', 100 + i, '41.58.2.3');
    const first = await activities('?userType=CUSTOMER&pageSize=10&pageNumber=1');
    const third = await activities('?userType=CUSTOMER&pageSize=10&pageNumber=3');
    expect(first.body.data!.meta).toEqual({ totalCount: 27, pageNumber: 1, pageSize: 10 });
    expect(third.body.data!.records).toHaveLength(7);
    const all = await activities('?userType=CUSTOMER&pageSize=50');
    expect(all.body.data!.records.slice(20).map((r) => r.id)).toEqual(
      third.body.data!.records.map((r) => r.id),
    );
    for (const q of ['?pageSize=7', '?pageSize=0', '?pageNumber=-1', '?pageNumber=1.5']) {
      const res = await activities(q);
      expect(res.status, q).toBe(400);
    }
  });

  it('filters by date', async () => {
    const res = await activities('?userType=PARTNER&startDate=2026-02-01&endDate=2026-02-01');
    expect(res.body.data!.meta.totalCount).toBe(5);
    const none = await activities('?userType=PARTNER&startDate=2026-02-02&endDate=2026-02-02');
    expect(none.body.data!.meta.totalCount).toBe(0);
  });

  it('needs activities.view', async () => {
    const role = await createRole(t.db, 'No log', ['dashboard.view']);
    const user = await createUser(t.db, { roleId: role.id });
    const other = (await signIn(t, user.email, user.password)).accessToken;
    expect((await activities('', other)).status).toBe(403);
  });
});

describe('the event log', () => {
  it('is append-only: UPDATE, DELETE and TRUNCATE fail in the database', async () => {
    const [first] = await t.db.select().from(events).limit(1);
    await expect(
      t.db.update(events).set({ action: 'forged' }).where(eq(events.id, first!.id)),
    ).rejects.toThrow();
    await expect(t.db.delete(events).where(eq(events.id, first!.id))).rejects.toThrow();
    await expect(t.db.execute(sql`truncate events`)).rejects.toThrow();
    const [again] = await t.db.select().from(events).where(eq(events.id, first!.id));
    expect(again!.action).toBe(first!.action);
  });

  it('sign-in, failed sign-in, profile change, password change and sign-out all land in it with the address', async () => {
    const user = await createUser(t.db, { firstName: 'Ifeoma', lastName: 'Nwosu' });
    const env = { incoming: { socket: { remoteAddress: '::ffff:192.168.1.20' } } } as never;
    const call = (method: string, path: string, body?: unknown, bearer?: string) =>
      t.app.request(
        `${API_BASE}${path}`,
        {
          method,
          headers: {
            'content-type': 'application/json',
            'user-agent': 'log-agent',
            ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
        },
        env,
      );
    await call('POST', '/admin/auth/login', { email: user.email, password: 'Wrong1pass' });
    const login = await (
      await call('POST', '/admin/auth/login', { email: user.email, password: user.password })
    ).json();
    const bearer = login.data.accessToken as string;
    await call('PATCH', '/user/profile', { address: '3 Allen Avenue, Ikeja' }, bearer);
    await call(
      'PATCH',
      '/user/profile/update-password',
      { oldPassword: user.password, newPassword: 'Newer1pass' },
      bearer,
    );
    await call('POST', '/auth/logout', undefined, bearer);
    const rows = await t.db.select().from(events).where(eq(events.actorId, user.id)).orderBy(events.id);
    expect(rows.map((r) => r.action)).toEqual([
      'Failed sign-in attempt',
      'Signed in',
      'Updated profile',
      'Changed password',
      'Signed out',
    ]);
    for (const r of rows) {
      expect(r).toMatchObject({
        ipAddress: '192.168.1.20',
        ipLocation: 'Local network',
        userAgent: 'log-agent',
      });
    }
  });
});
