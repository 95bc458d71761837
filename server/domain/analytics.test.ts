import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  activityDaysFromRows,
  activityDaysKept,
  activityFromRows,
} from '../../tests/setup/reward-activity-oracle';
import { createPartner, createReward, createUser, setupTestServer } from '../../tests/setup/server';
import { executeRows } from '../db/rows';
import { customers, partners, rewardLedger, rewards } from '../db/schema';
import { rewardActivity, rewardStats } from './analytics';
import { debitGiftcard, redeemCouponRow, reverseEntry } from './ledger';

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

describe('reward_activity_by_day (kept by triggers on rewards and reward_ledger, decision 018 follow-up)', () => {
  // Runs after the tests above: it adds rewards and ledger rows of its own.
  const DAY = 24 * 60 * 60 * 1000;
  // A Wednesday; its 12 weeks run from Monday 2025-12-15 00:00 Lagos (2025-12-14T23:00Z).
  const NOW = new Date('2026-03-04T12:00:00.000Z');
  const WINDOW_START = new Date('2025-12-14T23:00:00.000Z');
  const CURRENT_WEEK = new Date('2026-03-01T23:00:00.000Z');
  const at = (base: Date, ms: number) => new Date(base.getTime() + ms);
  /** The clocks the figures are compared at: now, a week on, three weeks back, a Sunday 23:30 Lagos. */
  const NOWS = [NOW, at(NOW, 7 * DAY), at(NOW, -21 * DAY), new Date('2026-03-08T22:30:00.000Z')];
  const partnerIds: number[] = [];

  /** rewardActivity (the rollup) equals the direct query, club-wide and per partner, at every clock. */
  const check = async () => {
    for (const now of NOWS) {
      expect(await rewardActivity(t.db, { now })).toEqual(await activityFromRows(t.db, { now }));
      for (const partnerId of partnerIds)
        expect(await rewardActivity(t.db, { now, partnerId })).toEqual(
          await activityFromRows(t.db, { now, partnerId }),
        );
    }
    // And every day of the table, not only those 12 weeks.
    expect(await activityDaysKept(t.db)).toEqual(await activityDaysFromRows(t.db));
  };
  const redeemedAt = async (now: Date) =>
    (await rewardActivity(t.db, { now })).weeks.reduce((s, w) => s + w.redeemedCount, 0);

  it('stays equal to the direct query after issues, redemptions in parts, reversals, moves, bulk writes, updates and deletes', async () => {
    const p = await createPartner(t.db, { organizationName: 'Rollup P' });
    const q = await createPartner(t.db, { organizationName: 'Rollup Q' });
    const staff = await createUser(t.db);
    partnerIds.push(ids.a, ids.b, ids.c, p.id, q.id);
    const [{ id: customerId }] = (await t.db.select({ id: customers.id }).from(customers).limit(1)) as [
      { id: number },
    ];
    const card = (partnerId: number, createdAt: Date, issuedAmount: number | null = 10_000) =>
      createReward(t.db, {
        partnerId,
        customerId,
        createdAt,
        issuedAmount,
        balance: issuedAmount,
        expiryDate: at(NOW, 60 * DAY),
      });
    const coupon = (partnerId: number, createdAt: Date) =>
      createReward(t.db, {
        partnerId,
        customerId,
        createdAt,
        rewardType: 'COUPON',
        issuedAmount: null,
        balance: null,
        percentageDiscount: 10,
      });

    // Issues at the edges of Lagos days and weeks (Lagos midnight is 23:00 UTC), before the window,
    // a gift card without an amount, coupons.
    const g1 = await card(p.id, CURRENT_WEEK);
    const g2 = await card(p.id, at(CURRENT_WEEK, -1), 2_500);
    const g3 = await card(q.id, WINDOW_START, 7_000);
    await card(q.id, at(WINDOW_START, -1), 4_000);
    await card(q.id, at(CURRENT_WEEK, 22 * 60 * 60 * 1000 + 59 * 60 * 1000), null);
    const c1 = await coupon(p.id, at(CURRENT_WEEK, -3 * DAY));
    const c2 = await coupon(q.id, at(WINDOW_START, 10 * DAY));
    await check();

    // A gift card redeemed in three parts on three days (one a minute before Lagos midnight), coupons
    // redeemed, through the code the routes run.
    await t.db.transaction(async (tx) => {
      expect(
        await debitGiftcard(tx, {
          rewardId: g1.id,
          amount: 1_000,
          actorId: null,
          now: at(CURRENT_WEEK, 60_000),
        }),
      ).not.toBeNull();
      expect(
        await debitGiftcard(tx, {
          rewardId: g1.id,
          amount: 250.5,
          actorId: null,
          now: at(CURRENT_WEEK, DAY - 60_000),
        }),
      ).not.toBeNull();
      expect(
        await debitGiftcard(tx, {
          rewardId: g1.id,
          amount: 300,
          actorId: null,
          now: at(CURRENT_WEEK, 2 * DAY),
        }),
      ).not.toBeNull();
      expect(
        await debitGiftcard(tx, { rewardId: g3.id, amount: 7_000, actorId: null, now: at(WINDOW_START, 1) }),
      ).not.toBeNull();
      expect(
        await redeemCouponRow(tx, { rewardId: c1.id, actorId: null, now: at(CURRENT_WEEK, -DAY) }),
      ).not.toBeNull();
      expect(
        await redeemCouponRow(tx, { rewardId: c2.id, actorId: null, now: at(WINDOW_START, 20 * DAY) }),
      ).not.toBeNull();
    });
    await check();
    expect(await redeemedAt(NOW)).toBe(6);

    // Reversals, a week after the redemption they name: the redemption leaves its own day.
    const redeemRows = await t.db
      .select()
      .from(rewardLedger)
      .where(sql`kind = 'REDEEM' and reward_id in (${g1.id}, ${g3.id}, ${c1.id})`)
      .orderBy(rewardLedger.id);
    const [r1, , , r4, r5] = redeemRows;
    await t.db.transaction(async (tx) => {
      await reverseEntry(tx, {
        entryId: r1!.id,
        rewardId: g1.id,
        amount: 1_000,
        reason: 'Twice',
        actorId: staff.id,
        now: at(NOW, 7 * DAY),
      });
      await reverseEntry(tx, {
        entryId: r4!.id,
        rewardId: g3.id,
        amount: 7_000,
        reason: 'Wrong card',
        actorId: staff.id,
        now: NOW,
      });
      await reverseEntry(tx, {
        entryId: r5!.id,
        rewardId: c1.id,
        amount: 0,
        reason: 'Not used',
        actorId: staff.id,
        now: NOW,
      });
    });
    await check();
    expect(await redeemedAt(NOW)).toBe(3);

    // A reward moves to another partner with its standing and reversed redemptions; two rewards swap
    // partners in one statement.
    await t.db.execute(sql`update rewards set partner_id = ${q.id} where id = ${g1.id}`);
    await check();
    await t.db.execute(
      sql`update rewards set partner_id = case when id = ${g1.id} then ${p.id}::int else ${q.id}::int end where id in (${g1.id}, ${c2.id})`,
    );
    await check();

    // A bulk insert over two partners and 100 days, with a redemption of every third of them and a
    // reversal of every other of those, each in one statement.
    await t.db.execute(sql`insert into rewards (partner_id, customer_id, reward_type, reward_type_category, code, title, description, issued_amount, balance, percentage_discount, created_at)
      select case when g % 2 = 0 then ${p.id}::int else ${q.id}::int end, ${customerId}::int,
        case when g % 3 = 0 then 'COUPON' else 'GIFTCARD' end, 'GENERAL', 'ROLL' || g, 't', 'd',
        case when g % 3 = 0 then null else 100 * g end, case when g % 3 = 0 then null else 100 * g end,
        case when g % 3 = 0 then 5 else null end,
        ${WINDOW_START.toISOString()}::timestamptz + (g * 23 - 300) * interval '1 hour' + (g % 2) * interval '59 minutes'
      from generate_series(1, 120) g`);
    await t.db.execute(sql`insert into reward_ledger (reward_id, kind, amount, at)
      select id, 'REDEEM', case when reward_type = 'GIFTCARD' then -50 else 0 end, created_at + interval '30 minutes'
      from rewards where code like 'ROLL%' and right(code, 1)::int % 3 = 0`);
    await t.db.execute(sql`insert into reward_ledger (reward_id, kind, amount, reverses_id, at)
      select reward_id, 'REVERSAL', -amount, id, at + interval '1 day' from reward_ledger
      where kind = 'REDEEM' and id % 2 = 0 and reward_id in (select id from rewards where code like 'ROLL%')`);
    await check();

    // A redemption and the reversal naming it in one statement; a reversal made by an update (as the
    // demo seed does), then undone; a redemption re-dated to another week; a kind changed.
    await t.db.execute(sql`with ids as (select nextval(pg_get_serial_sequence('reward_ledger', 'id')) as id)
      insert into reward_ledger (id, reward_id, kind, amount, reverses_id, at) overriding system value
      select ids.id, ${g2.id}::int, 'REDEEM', -100, null, ${at(CURRENT_WEEK, DAY).toISOString()}::timestamptz from ids
      union all
      select nextval(pg_get_serial_sequence('reward_ledger', 'id')), ${g2.id}::int, 'REVERSAL', 100, ids.id, ${at(CURRENT_WEEK, DAY).toISOString()}::timestamptz from ids`);
    await check();
    const [standing] = await t.db
      .select()
      .from(rewardLedger)
      .where(
        sql`kind = 'REDEEM' and reward_id = ${g1.id} and not exists (select 1 from reward_ledger x where x.reverses_id = reward_ledger.id)`,
      )
      .limit(1);
    const [spare] = await t.db
      .insert(rewardLedger)
      .values({ rewardId: g1.id, kind: 'ISSUE', amount: 0, at: NOW })
      .returning();
    await t.db.execute(
      sql`update reward_ledger set kind = 'REVERSAL', reverses_id = ${standing!.id} where id = ${spare!.id}`,
    );
    await check();
    await t.db.execute(sql`update reward_ledger set reverses_id = null where id = ${spare!.id}`);
    await check();
    await t.db.execute(sql`update reward_ledger set at = at - interval '15 days' where id = ${standing!.id}`);
    await t.db.execute(
      sql`update reward_ledger set kind = 'ISSUE' where kind = 'REDEEM' and reward_id in (select id from rewards where code in ('ROLL3', 'ROLL6'))`,
    );
    await check();

    // Rewards re-dated, re-priced and re-typed; several in one statement.
    await t.db.execute(sql`update rewards set created_at = created_at - interval '6 days', issued_amount = issued_amount + 1
      where code like 'ROLL1%'`);
    await t.db.execute(sql`update rewards set reward_type = 'COUPON' where id = ${g2.id}`);
    await check();

    // Written under other session time zones: the Lagos day does not depend on them.
    for (const zone of ['+14', '-12']) {
      await t.db.transaction(async (tx) => {
        await tx.execute(sql.raw(`set local time zone '${zone}'`));
        const g = await tx
          .insert(rewards)
          .values({
            partnerId: p.id,
            customerId,
            rewardType: 'GIFTCARD',
            code: `TZ${zone}`,
            title: 't',
            description: 'd',
            issuedAmount: 900,
            balance: 900,
            createdAt: at(CURRENT_WEEK, -30 * 60_000),
          })
          .returning({ id: rewards.id });
        await tx
          .insert(rewardLedger)
          .values({ rewardId: g[0]!.id, kind: 'REDEEM', amount: -90, at: at(CURRENT_WEEK, 30 * 60_000) });
      });
    }
    await check();

    // Deletes: a reversal (its redemption stands again), redemptions, then rewards with all their rows.
    await t.db.execute(sql`delete from reward_ledger where kind = 'REVERSAL' and reward_id = ${g3.id}`);
    await check();
    await t.db.execute(
      sql`delete from reward_ledger where kind = 'REDEEM' and reward_id = ${g1.id} and id % 2 = 1`,
    );
    await check();
    await t.db.execute(
      sql`delete from reward_ledger where reward_id in (select id from rewards where code like 'ROLL%' and partner_id = ${q.id})`,
    );
    await t.db.execute(sql`delete from rewards where code like 'ROLL%' and partner_id = ${q.id}`);
    await check();
    // Not a test of nothing: the window still holds issues and redemptions of both partners.
    const pw = await rewardActivity(t.db, { now: NOW, partnerId: p.id });
    expect(
      pw.weeks.some((w) => w.redeemedCount > 0) && pw.weeks.filter((w) => w.issuedCount > 0).length > 5,
    ).toBe(true);
  });
});
