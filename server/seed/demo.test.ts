import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unmetNeeds } from '../../contract/permissions';
import type { RewardActivity } from '../../contract/reward-activity';
import type { RewardStats, UserStats } from '../../contract/stats';
import { openTestDatabase, setupTestServer, signIn, testHasher } from '../../tests/setup/server';
import type { DbOrTx } from '../db/client';
import { executeRows } from '../db/rows';
import { roles } from '../db/schema';
import { DEMO_ADMIN, DEMO_COUNTS, isEmpty, seedDemo } from './demo';

const t = setupTestServer();
const NOW = new Date('2026-03-02T09:00:00.000Z');

const one = async (db: DbOrTx, query: ReturnType<typeof sql>) => {
  const [row] = await executeRows(db, query);
  return Number(Object.values(row ?? {})[0] ?? 0);
};

/** A fingerprint of everything seeded, to compare two runs. */
const fingerprint = (db: DbOrTx) =>
  executeRows(
    db,
    sql`select
      (select count(*) from users)::int as users,
      (select sum(total_amount)::text from visits) as visits_total,
      (select count(*) from visit_items)::int as items,
      (select string_agg(code || ':' || status || ':' || coalesce(balance::text, '-'), ',' order by id) from rewards) as rewards,
      (select sum(amount)::text from reward_ledger) as ledger,
      (select string_agg(email, ',' order by id) from customers) as customers`,
  );

beforeAll(async () => {
  expect(await isEmpty(t.db)).toBe(true);
  await seedDemo(t.db, { now: NOW, hasher: testHasher });
});

describe('seedDemo', () => {
  it('fills the database with the fixed counts', async () => {
    expect(await isEmpty(t.db)).toBe(false);
    expect(await one(t.db, sql`select count(*) from partners`)).toBe(DEMO_COUNTS.partners);
    expect(await one(t.db, sql`select count(*) from partners where account_status = 'BLOCKED'`)).toBe(
      DEMO_COUNTS.blockedPartners,
    );
    expect(await one(t.db, sql`select count(*) from customers`)).toBe(DEMO_COUNTS.customers);
    expect(await one(t.db, sql`select count(*) from customers where account_status = 'BLOCKED'`)).toBe(
      DEMO_COUNTS.blockedCustomers,
    );
    expect(await one(t.db, sql`select count(*) from visits`)).toBe(DEMO_COUNTS.visits);
    expect(await one(t.db, sql`select count(*) from rewards`)).toBe(DEMO_COUNTS.rewards);
    expect(await one(t.db, sql`select count(*) from extended_services`)).toBe(DEMO_COUNTS.extendedServices);
    expect(
      await one(t.db, sql`select count(*) from users where partner_id is not null`),
    ).toBeGreaterThanOrEqual(3);
    expect(await one(t.db, sql`select count(*) from roles where built_in`)).toBe(1);
  });

  it('links each partner to the customers it already holds visits or rewards with (confirmed, decision 053)', async () => {
    const pairs = await one(
      t.db,
      sql`select count(*) from (select partner_id, customer_id from visits union select partner_id, customer_id from rewards) s`,
    );
    expect(pairs).toBeGreaterThan(0);
    expect(await one(t.db, sql`select count(*) from customer_links where state = 'CONFIRMED'`)).toBe(pairs);
    expect(
      await one(
        t.db,
        sql`select count(*) from (select partner_id, customer_id from visits union select partner_id, customer_id from rewards) s
          where not exists (select 1 from customer_links l where l.partner_id = s.partner_id and l.customer_id = s.customer_id and l.state = 'CONFIRMED')`,
      ),
    ).toBe(0);
  });

  it('has rewards of every type, category and status', async () => {
    const combos = await executeRows<{ c: string }>(
      t.db,
      sql`select distinct reward_type || '/' || reward_type_category || '/' || status as c from rewards`,
    );
    const found = new Set(combos.map((r) => r.c));
    for (const kind of ['GIFTCARD/GENERAL', 'COUPON/GENERAL', 'COUPON/DISCOUNTED_SUBSCRIPTION'])
      for (const status of ['Active', 'Redeemed', 'Expired'])
        expect(found, `${kind}/${status}`).toContain(`${kind}/${status}`);
  });

  it('keeps the books straight: visit totals, gift-card balances', async () => {
    expect(
      await one(
        t.db,
        sql`select count(*) from visits v where v.total_amount <> (select sum(i.quantity * i.price) from visit_items i where i.visit_id = v.id)`,
      ),
    ).toBe(0);
    expect(
      await one(
        t.db,
        sql`select count(*) from rewards r where r.reward_type = 'GIFTCARD' and r.balance <> (select sum(l.amount) from reward_ledger l where l.reward_id = r.id)`,
      ),
    ).toBe(0);
    expect(
      await one(
        t.db,
        sql`select count(*) from rewards where reward_type = 'GIFTCARD' and status = 'Redeemed' and balance <> 0`,
      ),
    ).toBe(0);
    expect(
      await one(
        t.db,
        sql`select count(*) from visits where visit_date > ${NOW.toISOString()}::timestamptz or visit_date < ${new Date(NOW.getTime() - 121 * 86_400_000).toISOString()}::timestamptz`,
      ),
    ).toBe(0);
    expect(await one(t.db, sql`select count(*) from visit_items`)).toBeGreaterThan(DEMO_COUNTS.visits);
  });

  it('is deterministic', async () => {
    const other = await openTestDatabase();
    try {
      await seedDemo(other.db, { now: NOW, hasher: testHasher });
      expect(await fingerprint(other.db)).toEqual(await fingerprint(t.db));
    } finally {
      await other.close();
    }
  });

  it('fills the staff and activity screens: roles held by staff, events of every user type and place', async () => {
    const held = await executeRows<{ name: string; n: number }>(
      t.db,
      sql`select r.name, count(u.id)::int as n from roles r left join users u on u.role_id = r.id group by r.name`,
    );
    expect(held.length).toBeGreaterThanOrEqual(4);
    expect(held.every((r) => Number(r.n) > 0)).toBe(true);
    for (const type of ['ADMIN', 'PARTNER', 'CUSTOMER']) {
      expect(
        await one(t.db, sql`select count(*) from events where actor_type = ${type}`),
        type,
      ).toBeGreaterThan(20);
    }
    const places = await executeRows<{ l: string }>(t.db, sql`select distinct ip_location as l from events`);
    const locations = places.map((p) => p.l);
    expect(locations).toContain('Local network');
    expect(locations).toContain('Lagos, Nigeria');
    expect(locations.filter((l) => l?.endsWith('Nigeria')).length).toBeGreaterThanOrEqual(3);
    for (const action of ['Created role Support', 'Invited Ngozi Eze', 'Set password from an invitation']) {
      expect(
        await one(t.db, sql`select count(*) from events where action = ${action}`),
        action,
      ).toBeGreaterThan(0);
    }
  });

  it('seeds roles without dead ends: every permission has what it needs (contract/permissions.ts PERMISSION_NEEDS)', async () => {
    const seeded = await t.db.select({ name: roles.name, permissions: roles.permissions }).from(roles);
    expect(seeded.length).toBeGreaterThan(1);
    for (const role of seeded)
      expect({ role: role.name, unmet: unmetNeeds(role.permissions) }).toEqual({
        role: role.name,
        unmet: [],
      });
  });

  it('signs in the demo admin', async () => {
    await signIn(t, DEMO_ADMIN.email, DEMO_ADMIN.password);
  });
});

describe('dashboard figures on the seeded data equal direct SQL counts', () => {
  let token: string;
  beforeAll(async () => {
    token = (await signIn(t, DEMO_ADMIN.email, DEMO_ADMIN.password)).accessToken;
  });
  afterAll(() => {});

  it('GET /admin/user/stats', async () => {
    const res = await t.request<UserStats>('GET', '/admin/user/stats', { token });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      totalPartners: await one(t.db, sql`select count(*) from partners where deleted_at is null`),
      totalClients: await one(t.db, sql`select count(*) from customers where deleted_at is null`),
      totalStaff: await one(t.db, sql`select count(*) from users where deleted_at is null`),
    });
    expect(res.body.data).toEqual({ totalPartners: 25, totalClients: 200, totalStaff: 9 });
  });

  it('GET /admin/partners/stats/reward', async () => {
    const res = await t.request<RewardStats>('GET', '/admin/partners/stats/reward', { token });
    expect(res.status).toBe(200);
    const coupons = sql`reward_type = 'COUPON' and reward_type_category = 'GENERAL'`;
    const subs = sql`reward_type = 'COUPON' and reward_type_category = 'DISCOUNTED_SUBSCRIPTION'`;
    const couponCount = await one(t.db, sql`select count(*) from rewards where ${coupons}`);
    const couponRedeemed = await one(
      t.db,
      sql`select count(*) from rewards where ${coupons} and status = 'Redeemed'`,
    );
    const subCount = await one(t.db, sql`select count(*) from rewards where ${subs}`);
    const subRedeemed = await one(
      t.db,
      sql`select count(*) from rewards where ${subs} and status = 'Redeemed'`,
    );
    const round2 = (n: number) => Math.round(n * 100) / 100;
    expect(res.body.data).toEqual({
      totalIssuedGiftcardsCount: await one(
        t.db,
        sql`select count(*) from rewards where reward_type = 'GIFTCARD'`,
      ),
      totalIssuedGiftcardsAmount: await one(
        t.db,
        sql`select coalesce(sum(issued_amount), 0) from rewards where reward_type = 'GIFTCARD'`,
      ),
      totalRedeemedIssuedGiftcards: await one(
        t.db,
        sql`select coalesce(-sum(l.amount), 0) from reward_ledger l join rewards r on r.id = l.reward_id where r.reward_type = 'GIFTCARD' and l.kind in ('REDEEM', 'REVERSAL')`,
      ),
      totalIssuedCouponsCount: couponCount,
      totalRedeemedCouponsCount: couponRedeemed,
      averageCouponDiscount: round2(
        await one(t.db, sql`select avg(percentage_discount) from rewards where ${coupons}`),
      ),
      couponRedemptionRate: round2((couponRedeemed / couponCount) * 100),
      totalIssuedDiscountedSubscriptions: subCount,
      averageDiscountedSubscriptionPercentage: round2(
        await one(t.db, sql`select avg(percentage_discount) from rewards where ${subs}`),
      ),
      totalRedeemedDiscountedSubscriptions: subRedeemed,
      discountedSubscriptionRedemptionRate: round2((subRedeemed / subCount) * 100),
    });
  });

  it('GET /admin/partners/stats/reward/weekly: the charts have rewards issued and redeemed in recent weeks', async () => {
    const res = await t.request<RewardActivity>('GET', '/admin/partners/stats/reward/weekly', { token });
    expect(res.status).toBe(200);
    const { weeks } = res.body.data!;
    // The demo's rewards are dated 1 to 119 days before now: the 11 full weeks have both.
    const busy = weeks.filter((w) => w.issuedCount > 0 && w.redeemedCount > 0 && w.redeemedAmount > 0);
    expect(busy.length).toBeGreaterThanOrEqual(10);
    const from = `${weeks[0]!.weekStart}T00:00:00+01:00`;
    const sum = (pick: (w: RewardActivity['weeks'][number]) => number) =>
      Math.round(weeks.reduce((a, w) => a + pick(w), 0) * 100) / 100;
    expect(sum((w) => w.issuedCount)).toBe(
      await one(t.db, sql`select count(*) from rewards where created_at >= ${from}::timestamptz`),
    );
    expect(sum((w) => w.redeemedAmount)).toBe(
      await one(
        t.db,
        sql`select coalesce(-sum(amount), 0) from reward_ledger where kind in ('REDEEM', 'REVERSAL') and at >= ${from}::timestamptz`,
      ),
    );
    expect(res.body.data!.outstandingGiftcardBalance).toBe(
      await one(
        t.db,
        sql`select coalesce(sum(balance), 0) from rewards where reward_type = 'GIFTCARD' and status = 'Active' and (expiry_date is null or expiry_date > ${NOW.toISOString()}::timestamptz)`,
      ),
    );
  });
});

describe('the partner, client and visit screens have believable data', () => {
  let token: string;
  const get = <T>(path: string) => t.request<T>('GET', path, { token });
  beforeAll(async () => {
    token = (await signIn(t, DEMO_ADMIN.email, DEMO_ADMIN.password)).accessToken;
  });

  it('every partner has a cover image that is served; a third of the visits have receipts', async () => {
    const list = await get<{ records: { coverImage: string | null }[] }>('/admin/partners?pageSize=100');
    expect(list.body.data!.records.length).toBe(DEMO_COUNTS.partners - DEMO_COUNTS.blockedPartners);
    for (const p of list.body.data!.records) expect(p.coverImage).toMatch(/^\/api\/v1\/files\/[0-9a-f]{64}$/);
    const res = await t.app.request(list.body.data!.records[0]!.coverImage!);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    const withReceipt = await one(t.db, sql`select count(*) from visits where receipt_image is not null`);
    expect(withReceipt).toBeGreaterThan(DEMO_COUNTS.visits / 4);
  });

  it('today, several partners have both eligible and not eligible customers', async () => {
    const partners = await executeRows<{ id: number }>(
      t.db,
      sql`select id from partners where account_status = 'ACTIVE' order by id limit 8`,
    );
    let both = 0;
    for (const p of partners) {
      const res = await get<{ records: { isEligible: boolean }[] }>(
        `/admin/partners/visits/reward-eligible-users?partnerId=${p.id}&pageSize=100`,
      );
      expect(res.status).toBe(200);
      const verdicts = new Set(res.body.data!.records.map((r) => r.isEligible));
      if (verdicts.has(true) && verdicts.has(false)) both++;
    }
    expect(both).toBeGreaterThanOrEqual(5);
  });

  it('customers have unclaimed points; some points were claimed by rewards; every tab has rows', async () => {
    expect(await one(t.db, sql`select count(*) from rewards where points_claimed > 0`)).toBeGreaterThan(5);
    const [p] = await executeRows<{ id: number }>(t.db, sql`select id from partners order by id limit 1`);
    const points = await get<{ records: { totalUnclaimedPoints: number }[] }>(
      `/admin/partners/visits/eligible-users-bypoints?partnerId=${p!.id}`,
    );
    expect(points.body.data!.records.length).toBeGreaterThan(0);
    const visits = await get<{ meta: { totalCount: number } }>(`/admin/partners/visits?partnerId=${p!.id}`);
    expect(visits.body.data!.meta.totalCount).toBeGreaterThan(20);
    const rewards = await get<{ meta: { totalCount: number } }>(`/admin/partners/rewards?partnerId=${p!.id}`);
    expect(rewards.body.data!.meta.totalCount).toBeGreaterThan(3);
    const services = await get<{ records: { partnerCount: number }[] }>('/admin/partners/extended-services');
    expect(services.body.data!.records.some((s) => s.partnerCount > 0)).toBe(true);
    for (const action of ['Added partner Eko Grill House', 'Created extended service Home Delivery']) {
      expect(await one(t.db, sql`select count(*) from events where action = ${action}`), action).toBe(1);
    }
  });
});
