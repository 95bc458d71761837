import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ListData } from '../../contract/envelope';
import type { PartnerStats } from '../../contract/partners';
import type { UserStats } from '../../contract/stats';
import {
  createCustomer,
  createExtendedService,
  createPartner,
  createSuperAdmin,
  createUser,
  createVisit,
  isPostgres,
  PNG_BASE64,
  setupTestServer,
  signIn,
} from '../../tests/setup/server';
import { executeRows } from '../db/rows';
import {
  eventCount,
  liveCustomerCount,
  livePartnerCount,
  liveStaffCount,
  partnerStats,
  partnerVisitCount,
  userStats,
} from './counts';

/**
 * The counters of migration 0012 (decision 011) against count(*) of the rows they count, after every
 * kind of write: the API's own write paths, and straight SQL for the shapes no route makes yet (bulk
 * inserts over several keys, moves, hard deletes, truncate, rollbacks). A pool of 25 for the parallel
 * writes on PostgreSQL.
 */
const t = setupTestServer({ poolSize: 25 });
let token: string;
let serviceId: number;

const get = <T>(path: string) => t.request<T>('GET', path, { token });

type Counts = Record<string, number>;

/** `key -> n` without the keys at 0 (a counter row may stay at 0; count(*) has no group then). */
const rowsToCounts = (rows: { k: string; n: string | number }[]): Counts =>
  Object.fromEntries(rows.map((r) => [r.k, Number(r.n)]).filter(([, n]) => n !== 0));

/** Every counter, and the same figures counted from the tables. */
async function counters(): Promise<Record<string, Counts>> {
  const q = (query: ReturnType<typeof sql>) =>
    executeRows<{ k: string; n: string }>(t.db, query).then(rowsToCounts);
  return {
    customers: await q(sql`select account_status as k, sum(n) as n from customer_counts group by 1`),
    partners: await q(sql`select account_status as k, sum(n) as n from partner_counts group by 1`),
    staff: await q(
      sql`select user_type || '/' || account_status as k, sum(n) as n from staff_counts group by 1`,
    ),
    visits: await q(sql`select partner_id::text as k, sum(n) as n from visit_counts group by 1`),
    events: await q(sql`select actor_type as k, sum(n) as n from event_counts group by 1`),
  };
}

async function counted(): Promise<Record<string, Counts>> {
  const q = (query: ReturnType<typeof sql>) =>
    executeRows<{ k: string; n: string }>(t.db, query).then(rowsToCounts);
  return {
    customers: await q(
      sql`select account_status as k, count(*) as n from customers where deleted_at is null group by 1`,
    ),
    partners: await q(
      sql`select account_status as k, count(*) as n from partners where deleted_at is null group by 1`,
    ),
    staff: await q(
      sql`select user_type || '/' || account_status as k, count(*) as n from users where deleted_at is null group by 1`,
    ),
    visits: await q(sql`select partner_id::text as k, count(*) as n from visits group by 1`),
    events: await q(sql`select actor_type as k, count(*) as n from events group by 1`),
  };
}

/** The counters equal count(*), and so do the readers the routes use. */
async function expectExact() {
  const direct = await counted();
  expect(await counters()).toEqual(direct);
  const n = (c: Counts, k: string) => c[k] ?? 0;
  const sum = (c: Counts) => Object.values(c).reduce((a, b) => a + b, 0);
  for (const s of ['ACTIVE', 'BLOCKED'] as const) {
    expect(await liveCustomerCount(t.db, s)).toBe(n(direct.customers!, s));
    expect(await livePartnerCount(t.db, s)).toBe(n(direct.partners!, s));
  }
  expect(await liveCustomerCount(t.db)).toBe(sum(direct.customers!));
  expect(await livePartnerCount(t.db)).toBe(sum(direct.partners!));
  expect(await liveStaffCount(t.db)).toBe(sum(direct.staff!));
  for (const type of ['ADMIN', 'PARTNER', 'CUSTOMER'] as const)
    expect(await eventCount(t.db, type)).toBe(n(direct.events!, type));
  for (const [partnerId, visits] of Object.entries(direct.visits!))
    expect(await partnerVisitCount(t.db, Number(partnerId))).toBe(visits);
  expect(await userStats(t.db)).toEqual({
    totalPartners: sum(direct.partners!),
    totalClients: sum(direct.customers!),
    totalStaff: sum(direct.staff!),
  });
  expect(await partnerStats(t.db)).toEqual({
    totalPartners: sum(direct.partners!),
    activePartners: n(direct.partners!, 'ACTIVE'),
    blockedPartners: n(direct.partners!, 'BLOCKED'),
  });
  return direct;
}

/** count(*) of what a list shows, to compare with its meta.totalCount. */
const countOf = async (query: ReturnType<typeof sql>) =>
  Number((await executeRows<{ n: string }>(t.db, query))[0]!.n);

beforeAll(async () => {
  const admin = await createSuperAdmin(t.db);
  token = (await signIn(t, admin.email, admin.password)).accessToken;
  serviceId = (await createExtendedService(t.db)).id;
});

describe('counters of migration 0012 (decision 011)', () => {
  it('start equal to count(*) (the migration backfills; fixtures insert through the triggers)', async () => {
    await createPartner(t.db);
    await createCustomer(t.db, { accountStatus: 'BLOCKED' });
    await createUser(t.db, { deletedAt: new Date() });
    await expectExact();
  });

  it('follow the API write paths: partners, customers, staff, visits and their events', async () => {
    const invited = await t.request<{ id: number }>('POST', '/admin/partners/invite', {
      token,
      json: {
        firstName: 'Cass',
        lastName: 'Adeyemi',
        email: 'cass@counts.ng',
        phone: '08031234567',
        organizationName: 'Counts Kitchen',
        address: '12 Allen Avenue, Ikeja, Lagos',
        coverImage: PNG_BASE64,
        minSpendToQualify: 10_000,
        extendedServiceIds: [serviceId],
      },
    });
    expect(invited.status, invited.text).toBe(201);
    const partnerId = invited.body.data!.id;
    await expectExact();

    const customer = await createCustomer(t.db);
    for (let i = 0; i < 3; i++) {
      const res = await t.request('POST', '/user/visits', {
        token,
        json: {
          partnerId,
          customerId: customer.id,
          attendantName: 'Bisi',
          visitDate: '2026-03-02T08:30:00.000Z',
          items: [{ name: 'Jollof rice', quantity: 1, price: 4500 }],
        },
      });
      expect(res.status, res.text).toBe(201);
    }
    expect(await partnerVisitCount(t.db, partnerId)).toBe(3);
    await expectExact();

    // A refused visit (blocked customer) changes nothing.
    const blocked = await t.request('PATCH', '/admin/user/customers/status', {
      token,
      json: { customerId: customer.id, accountStatus: 'BLOCKED' },
    });
    expect(blocked.status, blocked.text).toBe(200);
    const refused = await t.request('POST', '/user/visits', {
      token,
      json: {
        partnerId,
        customerId: customer.id,
        attendantName: 'Bisi',
        visitDate: '2026-03-02T08:30:00.000Z',
        items: [{ name: 'Jollof rice', quantity: 1, price: 4500 }],
      },
    });
    expect(refused.status).toBe(400);
    expect(await partnerVisitCount(t.db, partnerId)).toBe(3);
    await expectExact();
    expect(
      (
        await t.request('PATCH', '/admin/user/customers/status', {
          token,
          json: { customerId: customer.id, accountStatus: 'ACTIVE' },
        })
      ).status,
    ).toBe(200);
    // A name edit moves no counter; a delete takes the customer away.
    expect(
      (
        await t.request('PATCH', '/admin/user/customers', {
          token,
          json: { customerId: customer.id, firstName: 'Renamed' },
        })
      ).status,
    ).toBe(200);
    await expectExact();
    expect((await t.request('DELETE', `/admin/user/customers/${customer.id}`, { token })).status).toBe(200);
    await expectExact();

    // Staff: invited, a partner's staff, then the partner blocked, unblocked and deleted (its staff go too).
    const role = (await executeRows<{ id: number }>(t.db, sql`select id from roles limit 1`))[0]!.id;
    const staff = await t.request<{ id: number }>('POST', '/admin/user/new-admin-user', {
      token,
      json: { firstName: 'Ngozi', lastName: 'Eze', email: 'ngozi@counts.test', roleId: role },
    });
    expect(staff.status, staff.text).toBe(201);
    await createUser(t.db, { userType: 'PARTNER', partnerId });
    await createUser(t.db, { userType: 'PARTNER', partnerId, accountStatus: 'BLOCKED' });
    await expectExact();
    for (const accountStatus of ['BLOCKED', 'ACTIVE'] as const) {
      const res = await t.request('PATCH', '/admin/partners/update-status', {
        token,
        json: { partnerId, accountStatus },
      });
      expect(res.status, res.text).toBe(200);
      await expectExact();
    }
    expect((await t.request('DELETE', `/admin/partners/${partnerId}`, { token })).status).toBe(200);
    const after = await expectExact();
    expect(after.staff!['PARTNER/ACTIVE'] ?? 0).toBe(0);
    expect(
      (await t.request('DELETE', `/admin/user/delete-admin-user/${staff.body.data!.id}`, { token })).status,
    ).toBe(200);
    // A failed sign-in, a sign-in: events outside any other change.
    await t.request('POST', '/admin/auth/login', { json: { email: 'nobody@counts.test', password: 'x' } });
    await signIn(t, 'root@rewardclub.test', 'Sup3rSecret');
    await expectExact();
  });

  it('follow bulk statements over several keys, status swaps, soft deletes and undeletes, moves and hard deletes', async () => {
    const [p1, p2] = [await createPartner(t.db), await createPartner(t.db, { accountStatus: 'BLOCKED' })];
    await t.db.execute(sql`insert into customers (first_name, last_name, email, account_status, fiber_plan,
        fiber_speed_mbps, fiber_monthly_fee, fiber_renewal_date, deleted_at)
      select 'Bulk', 'C' || g, 'bulk' || g || '@counts.test', case when g % 3 = 0 then 'BLOCKED' else 'ACTIVE' end,
        'Fiber Home 50', 50, 25000, now(), case when g % 5 = 0 then now() else null end
      from generate_series(1, 40) g`);
    await expectExact();
    const some = await executeRows<{ id: number }>(
      t.db,
      sql`select id from customers where email like 'bulk%' order by id limit 2`,
    );
    await t.db.execute(sql`insert into visits (partner_id, customer_id, attendant_name, visit_date, total_amount)
      select case when g % 2 = 0 then ${p1.id}::int else ${p2.id}::int end, ${some[0]!.id}::int, 'Bulk', now(), 100
      from generate_series(1, 25) g`);
    await expectExact();
    // Every status flipped in one statement; a third soft-deleted; the deleted ones brought back.
    await t.db.execute(
      sql`update customers set account_status = case account_status when 'ACTIVE' then 'BLOCKED' else 'ACTIVE' end where email like 'bulk%'`,
    );
    await expectExact();
    await t.db.execute(sql`update customers set deleted_at = now() where email like 'bulk%' and id % 3 = 0`);
    await t.db.execute(sql`update partners set account_status = 'ACTIVE' where id = ${p2.id}`);
    await t.db.execute(
      sql`update users set account_status = 'BLOCKED' where user_type = 'ADMIN' and id % 2 = 0`,
    );
    await expectExact();
    await t.db.execute(sql`update customers set deleted_at = null where email like 'bulk%'`);
    await t.db.execute(
      sql`update users set deleted_at = null, user_type = 'PARTNER' where deleted_at is not null`,
    );
    await expectExact();
    // Visits move between partners (one statement, both directions), then some go for good.
    await t.db.execute(
      sql`update visits set partner_id = case when partner_id = ${p1.id} then ${p2.id}::int else ${p1.id}::int end where attendant_name = 'Bulk'`,
    );
    await t.db.execute(
      sql`update visits set partner_id = ${p1.id} where attendant_name = 'Bulk' and id % 4 = 0`,
    );
    await expectExact();
    await t.db.execute(
      sql`delete from visit_items where visit_id in (select id from visits where id % 3 = 0)`,
    );
    await t.db.execute(sql`delete from visits where id % 3 = 0`);
    await t.db.execute(
      sql`delete from customers where email like 'bulk%' and id not in (select customer_id from visits)`,
    );
    await expectExact();
    // An update that changes nothing counted takes no counter row (no row for a key at 0 appears).
    const before = await executeRows(t.db, sql`select * from customer_counts order by account_status`);
    await t.db.execute(sql`update customers set address = 'Moved' where email like 'bulk%'`);
    expect(await executeRows(t.db, sql`select * from customer_counts order by account_status`)).toEqual(
      before,
    );
  });

  it('are untouched by a rolled-back transaction', async () => {
    const partner = await createPartner(t.db);
    const before = await expectExact();
    await expect(
      t.db.transaction(async (tx) => {
        await tx.execute(sql`update partners set deleted_at = now() where id = ${partner.id}`);
        await tx.execute(sql`insert into events (actor_type, actor_name, action, entity)
          values ('ADMIN', 'Rollback', 'Nothing', 'test'), ('CUSTOMER', 'Rollback', 'Nothing', 'test')`);
        await tx.execute(sql`insert into visits (partner_id, customer_id, attendant_name, visit_date, total_amount)
          select ${partner.id}::int, id, 'Rollback', now(), 1 from customers limit 3`);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await expectExact()).toEqual(before);
  });

  it('answer the lists without search text or dates; filtered lists still count their rows', async () => {
    const partner = await createPartner(t.db);
    const customer = await createCustomer(t.db, { firstName: 'Zebedee' });
    for (let i = 0; i < 4; i++)
      await createVisit(t.db, {
        partnerId: partner.id,
        customerId: customer.id,
        visitDate: new Date(`2026-02-0${i + 1}T10:00:00.000Z`),
        amount: 1000,
      });
    await expectExact();
    const total = async (path: string) => {
      const res = await get<ListData<unknown>>(path);
      expect(res.status, res.text).toBe(200);
      return res.body.data!.meta.totalCount;
    };
    const live = sql`deleted_at is null`;
    for (const status of ['ACTIVE', 'BLOCKED'] as const) {
      expect(await total(`/admin/user/customers?status=${status}`)).toBe(
        await countOf(sql`select count(*) as n from customers where ${live} and account_status = ${status}`),
      );
      expect(await total(`/admin/partners?status=${status}`)).toBe(
        await countOf(sql`select count(*) as n from partners where ${live} and account_status = ${status}`),
      );
    }
    expect(await total('/admin/partners')).toBe(
      await countOf(sql`select count(*) as n from partners where ${live}`),
    );
    expect(await total('/admin/user/admin-users')).toBe(
      await countOf(sql`select count(*) as n from users where ${live}`),
    );
    expect(await total(`/admin/partners/visits?partnerId=${partner.id}`)).toBe(4);
    expect(await total(`/admin/partners/visits?partnerId=${partner.id}&startDate=2026-02-03`)).toBe(2);
    expect(await total('/admin/user/customers?status=ACTIVE&searchText=zebedee')).toBe(1);
    for (const userType of ['ADMIN', 'PARTNER', 'CUSTOMER'] as const)
      expect(await total(`/admin/user/activities?userType=${userType}`)).toBe(
        await countOf(sql`select count(*) as n from events where actor_type = ${userType}`),
      );
    expect(await total('/admin/user/activities?userType=ADMIN&searchText=Deleted partner')).toBe(
      await countOf(
        sql`select count(*) as n from events where actor_type = 'ADMIN' and action ilike '%Deleted partner%'`,
      ),
    );
    const stats = await get<UserStats>('/admin/user/stats');
    expect(stats.body.data).toEqual({
      totalPartners: await countOf(sql`select count(*) as n from partners where ${live}`),
      totalClients: await countOf(sql`select count(*) as n from customers where ${live}`),
      totalStaff: await countOf(sql`select count(*) as n from users where ${live}`),
    });
    const header = await get<PartnerStats>('/admin/partners/stats');
    expect(header.body.data).toEqual({
      totalPartners: await countOf(sql`select count(*) as n from partners where ${live}`),
      activePartners: await countOf(
        sql`select count(*) as n from partners where ${live} and account_status = 'ACTIVE'`,
      ),
      blockedPartners: await countOf(
        sql`select count(*) as n from partners where ${live} and account_status = 'BLOCKED'`,
      ),
    });
    const exported = await t.request('GET', '/admin/user/customers/export?status=ACTIVE', { token });
    expect(exported.headers.get('X-Total-Count')).toBe(
      String(
        await countOf(sql`select count(*) as n from customers where ${live} and account_status = 'ACTIVE'`),
      ),
    );
  });

  it('are emptied by TRUNCATE of the counted table (events refuse it)', async () => {
    // In a transaction rolled back afterwards: the other tests' rows stay.
    await expect(
      t.db.transaction(async (tx) => {
        await tx.execute(sql`truncate visits, visit_items, rewards, reward_ledger, redemption_otps cascade`);
        const [row] = await executeRows<{ n: string }>(tx, sql`select count(*) as n from visit_counts`);
        expect(Number(row!.n)).toBe(0);
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    await expect(t.db.execute(sql`truncate events`)).rejects.toThrow();
    await expectExact();
  });
});

// PGlite serialises transactions, so only PostgreSQL can show a lost update or a deadlock.
// Reported as skipped on PGlite (set TEST_DATABASE_URL to run them).
describe.skipIf(!isPostgres)(
  'counters under concurrent writes (PostgreSQL only; skipped on PGlite, one transaction at a time)',
  () => {
    it('stay exact when many transactions write events, visits, statuses and deletes at once, some rolled back', async () => {
      const partner = await createPartner(t.db);
      const people = await Promise.all(Array.from({ length: 8 }, () => createCustomer(t.db)));
      const before = await expectExact();
      // 60 transactions on 25 connections: each records a visit at the same partner, flips a customer's
      // status, writes events of two types and holds its locks a moment before it commits; every fifth
      // rolls back. Events are written last, as the routes do.
      const outcomes = await Promise.allSettled(
        Array.from({ length: 60 }, (_, i) =>
          t.db.transaction(async (tx) => {
            const c = people[i % people.length]!;
            await tx.execute(sql`insert into visits (partner_id, customer_id, attendant_name, visit_date, total_amount)
            values (${partner.id}, ${c.id}, 'Parallel', now(), 100)`);
            await tx.execute(
              sql`update customers set account_status = case account_status when 'ACTIVE' then 'BLOCKED' else 'ACTIVE' end where id = ${c.id}`,
            );
            await tx.execute(sql`insert into events (actor_type, actor_name, action, entity)
            values ('PARTNER', 'Parallel', 'Recorded', 'visit'), ('ADMIN', 'Parallel', 'Changed', 'customer')`);
            await tx.execute(sql`select pg_sleep(0.02)`);
            if (i % 5 === 4) throw new Error('roll back');
          }),
        ),
      );
      const failures = outcomes
        .filter((o) => o.status === 'rejected')
        .map((o) => (o as PromiseRejectedResult).reason);
      // Only the planned rollbacks fail: no deadlock, no serialisation error.
      expect(failures.map((e) => String((e as Error).message))).toEqual(Array(12).fill('roll back'));
      const after = await expectExact();
      expect(after.visits![String(partner.id)]).toBe(48);
      expect(after.events!.PARTNER).toBe((before.events!.PARTNER ?? 0) + 48);
      // The events were spread over several shard rows, not one.
      const [spread] = await executeRows<{ n: string }>(
        t.db,
        sql`select count(*) as n from event_counts where actor_type = 'PARTNER' and n > 0`,
      );
      expect(Number(spread!.n)).toBeGreaterThan(1);
    });

    it('stay exact through the API under parallel visits, sign-ins and status changes', async () => {
      const partner = await createPartner(t.db);
      const customers = await Promise.all(Array.from({ length: 5 }, () => createCustomer(t.db)));
      // One account per sign-in, so the sign-ins write their events in parallel.
      const members = await Promise.all(Array.from({ length: 10 }, () => createUser(t.db)));
      const calls = Array.from({ length: 40 }, (_, i) => {
        const c = customers[i % customers.length]!;
        if (i % 4 === 0)
          return t.request('PATCH', '/admin/user/customers/status', {
            token,
            json: { customerId: c.id, accountStatus: i % 8 === 0 ? 'BLOCKED' : 'ACTIVE' },
          });
        if (i % 4 === 1)
          return t.request('POST', '/admin/auth/login', {
            json: { email: members[(i - 1) / 4]!.email, password: members[(i - 1) / 4]!.password },
          });
        return t.request('POST', '/user/visits', {
          token,
          json: {
            partnerId: partner.id,
            customerId: c.id,
            attendantName: 'Rush',
            visitDate: '2026-03-02T08:30:00.000Z',
            items: [{ name: 'Chapman', quantity: 1, price: 1500 }],
          },
        });
      });
      const results = await Promise.all(calls);
      // Visits of a customer blocked meanwhile are refused (400); nothing else fails.
      expect(results.filter((r) => r.status >= 500)).toEqual([]);
      expect(results.filter((_, i) => i % 4 === 1).map((r) => r.status)).toEqual(Array(10).fill(200));
      await expectExact();
    });
  },
);
