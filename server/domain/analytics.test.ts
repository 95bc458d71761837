import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { setupTestServer } from '../../tests/setup/server';
import { executeRows } from '../db/rows';
import { customers, partners, rewardLedger, rewards } from '../db/schema';
import { rewardStats } from './analytics';

const t = setupTestServer();
const ids = { a: 0, b: 0, c: 0 };

beforeAll(async () => {
  const made = await t.db
    .insert(partners)
    .values(
      ['A', 'B', 'C'].map((n) => ({
        firstName: n,
        lastName: 'Partner',
        email: `${n}@p.ng`,
        phone: '08030000000',
        organizationName: `Partner ${n}`,
        address: 'Lagos',
      })),
    )
    .returning({ id: partners.id });
  [ids.a, ids.b, ids.c] = made.map((p) => p.id) as [number, number, number];
  const [customer] = await t.db
    .insert(customers)
    .values({
      firstName: 'Bisi',
      lastName: 'Ade',
      email: 'bisi@x.ng',
      fiberPlan: 'Fiber Home 50',
      fiberSpeedMbps: 50,
      fiberMonthlyFee: 25000,
      fiberRenewalDate: new Date(),
    })
    .returning({ id: customers.id });

  let n = 0;
  const reward = async (
    partnerId: number,
    kind: 'GC' | 'CP' | 'DS',
    status: 'Active' | 'Redeemed' | 'Expired',
    value: number,
    ledger: ['ISSUE' | 'REDEEM' | 'REVERSAL', number][] = [],
  ) => {
    const [row] = await t.db
      .insert(rewards)
      .values({
        partnerId,
        customerId: customer!.id,
        rewardType: kind === 'GC' ? 'GIFTCARD' : 'COUPON',
        rewardTypeCategory: kind === 'DS' ? 'DISCOUNTED_SUBSCRIPTION' : 'GENERAL',
        code: `R${++n}`,
        title: 't',
        description: 'd',
        issuedAmount: kind === 'GC' ? value : null,
        percentageDiscount: kind === 'GC' ? null : value,
        balance: kind === 'GC' ? ledger.reduce((s, [, a]) => s + a, 0) : null,
        status,
      })
      .returning({ id: rewards.id });
    if (ledger.length) {
      await t.db
        .insert(rewardLedger)
        .values(ledger.map(([k, amount]) => ({ rewardId: row!.id, kind: k, amount })));
    }
  };
  // Partner A
  await reward(ids.a, 'GC', 'Active', 10000, [
    ['ISSUE', 10000],
    ['REDEEM', -3000],
    ['REDEEM', -500],
    ['REVERSAL', 500],
  ]);
  await reward(ids.a, 'GC', 'Redeemed', 5000, [
    ['ISSUE', 5000],
    ['REDEEM', -5000],
  ]);
  await reward(ids.a, 'CP', 'Redeemed', 10);
  await reward(ids.a, 'CP', 'Active', 15);
  await reward(ids.a, 'CP', 'Expired', 20);
  await reward(ids.a, 'DS', 'Redeemed', 25);
  await reward(ids.a, 'DS', 'Active', 12.5);
  // Partner B
  await reward(ids.b, 'GC', 'Active', 2000, [['ISSUE', 2000]]);
  await reward(ids.b, 'CP', 'Redeemed', 7);
});

describe('rewardStats', () => {
  it('club-wide', async () => {
    expect(await rewardStats(t.db)).toEqual({
      totalIssuedGiftcardsCount: 3,
      totalIssuedGiftcardsAmount: 17000,
      totalRedeemedIssuedGiftcards: 8000,
      totalIssuedCouponsCount: 4,
      totalRedeemedCouponsCount: 2,
      averageCouponDiscount: 13,
      couponRedemptionRate: 50,
      totalIssuedDiscountedSubscriptions: 2,
      averageDiscountedSubscriptionPercentage: 18.75,
      totalRedeemedDiscountedSubscriptions: 1,
      discountedSubscriptionRedemptionRate: 50,
    });
  });

  it('for one partner, rounding to 2 decimals', async () => {
    expect(await rewardStats(t.db, { partnerId: ids.a })).toEqual({
      totalIssuedGiftcardsCount: 2,
      totalIssuedGiftcardsAmount: 15000,
      totalRedeemedIssuedGiftcards: 8000,
      totalIssuedCouponsCount: 3,
      totalRedeemedCouponsCount: 1,
      averageCouponDiscount: 15,
      couponRedemptionRate: 33.33,
      totalIssuedDiscountedSubscriptions: 2,
      averageDiscountedSubscriptionPercentage: 18.75,
      totalRedeemedDiscountedSubscriptions: 1,
      discountedSubscriptionRedemptionRate: 50,
    });
  });

  it('zeros, not nulls or NaN, when there is nothing', async () => {
    const stats = await rewardStats(t.db, { partnerId: ids.c });
    expect(Object.values(stats).every((v) => v === 0)).toBe(true);
  });
});

/** The figures aggregated straight from rewards (what the stats were before decision 011's table). */
async function fromRewards(partnerId?: number) {
  const scope = partnerId === undefined ? sql`true` : sql`partner_id = ${partnerId}`;
  const [row] = await executeRows<Record<string, string>>(
    t.db,
    sql`select
      count(*) filter (where reward_type = 'GIFTCARD')::text as gc,
      coalesce(sum(issued_amount) filter (where reward_type = 'GIFTCARD'), 0)::text as gca,
      coalesce(sum(issued_amount - balance) filter (where reward_type = 'GIFTCARD'), 0)::text as gcr,
      count(*) filter (where reward_type = 'COUPON' and reward_type_category = 'GENERAL')::text as cp,
      count(*) filter (where reward_type = 'COUPON' and reward_type_category = 'GENERAL' and status = 'Redeemed')::text as cpr,
      coalesce(round(avg(percentage_discount) filter (where reward_type = 'COUPON' and reward_type_category = 'GENERAL'), 2), 0)::text as cpa,
      count(*) filter (where reward_type_category = 'DISCOUNTED_SUBSCRIPTION')::text as ds,
      count(*) filter (where reward_type_category = 'DISCOUNTED_SUBSCRIPTION' and status = 'Redeemed')::text as dsr,
      coalesce(round(avg(percentage_discount) filter (where reward_type_category = 'DISCOUNTED_SUBSCRIPTION'), 2), 0)::text as dsa
    from rewards where ${scope}`,
  );
  return Object.fromEntries(Object.entries(row!).map(([k, v]) => [k, Number(v)]));
}

describe('reward_stats_by_partner (kept by triggers on rewards, decision 011)', () => {
  // Runs last: it changes the rewards the tests above count.
  it('stays equal to the figures aggregated from rewards after updates, moves, bulk inserts and deletes', async () => {
    const pick = (s: Awaited<ReturnType<typeof rewardStats>>) => ({
      gc: s.totalIssuedGiftcardsCount,
      gca: s.totalIssuedGiftcardsAmount,
      gcr: s.totalRedeemedIssuedGiftcards,
      cp: s.totalIssuedCouponsCount,
      cpr: s.totalRedeemedCouponsCount,
      cpa: s.averageCouponDiscount,
      ds: s.totalIssuedDiscountedSubscriptions,
      dsr: s.totalRedeemedDiscountedSubscriptions,
      dsa: s.averageDiscountedSubscriptionPercentage,
    });
    const check = async () => {
      expect(pick(await rewardStats(t.db))).toEqual(await fromRewards());
      for (const p of [ids.a, ids.b, ids.c])
        expect(pick(await rewardStats(t.db, { partnerId: p }))).toEqual(await fromRewards(p));
    };
    await check();
    // Expiry, a redemption, a balance change, a discount change: several rows in one statement.
    await t.db.execute(
      sql`update rewards set status = 'Expired' where status = 'Active' and reward_type = 'COUPON'`,
    );
    await t.db.execute(
      sql`update rewards set balance = balance - 1234.56 where reward_type = 'GIFTCARD' and balance > 2000`,
    );
    await t.db.execute(
      sql`update rewards set status = 'Redeemed', percentage_discount = 33.33 where reward_type_category = 'DISCOUNTED_SUBSCRIPTION'`,
    );
    await check();
    // A reward moves to another partner; a bulk insert over two partners; deletes.
    await t.db.execute(sql`update rewards set partner_id = ${ids.c} where code = 'R1'`);
    await t.db.execute(sql`insert into rewards (partner_id, customer_id, reward_type, reward_type_category, code, title, description, percentage_discount, status)
      select case when g % 2 = 0 then ${ids.b}::int else ${ids.c}::int end, customer_id, 'COUPON', 'GENERAL', 'BULK' || g, 't', 'd', g, 'Redeemed'
      from generate_series(1, 7) g, (select customer_id from rewards limit 1) c`);
    await check();
    expect(pick(await rewardStats(t.db, { partnerId: ids.c })).gc).toBe(1);
    await t.db.execute(sql`delete from reward_ledger`);
    await t.db.execute(
      sql`delete from rewards where code like 'BULK%' and partner_id = ${ids.b} or code = 'R3'`,
    );
    await check();
    expect(pick(await rewardStats(t.db, { partnerId: ids.c })).cp).toBe(4);
  });
});
