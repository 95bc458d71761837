import { sql } from 'drizzle-orm';
import { REWARD_ACTIVITY_WEEKS, type RewardActivity, type RewardWeek } from '../../contract/reward-activity';
import type { RewardStats } from '../../contract/stats';
import type { DbOrTx } from '../db/client';
import { executeRows } from '../db/rows';
import { lagosDate, lagosDayStart } from './eligibility';

const num = (v: unknown): number => {
  const n = Number(v ?? 0);
  return Number.isFinite(n) ? n : 0;
};

/**
 * Reward figures, club-wide or for one partner:
 * - giftcards: rewardType GIFTCARD; coupons: COUPON + GENERAL; discounted subscriptions: COUPON + DISCOUNTED_SUBSCRIPTION
 * - totalIssuedGiftcardsAmount: sum of issuedAmount
 * - totalRedeemedIssuedGiftcards: naira redeemed, -(sum of REDEEM + REVERSAL ledger rows), i.e.
 *   sum(issued_amount - balance): the ledger's ISSUE row is +issued_amount and the cached balance is
 *   the sum of all the reward's rows (server/domain/ledger.ts keeps it so in the same transaction)
 * - redeemed coupons / subscriptions: status 'Redeemed'
 * - averages: avg percentageDiscount, rates: redeemed / issued * 100; both to 2 decimals, 0 when none.
 * Read from reward_stats_by_partner (one row per partner with rewards), which triggers on rewards keep
 * exact in the same transaction as every change (migration 0008, decision 011): summing at most one
 * row per partner instead of aggregating every reward per request.
 */
export async function rewardStats(db: DbOrTx, opts: { partnerId?: number } = {}): Promise<RewardStats> {
  const scope = opts.partnerId === undefined ? sql`true` : sql`s.partner_id = ${opts.partnerId}`;
  const rows = await executeRows(
    db,
    sql`
    with agg as (
      select
        coalesce(sum(s.gc_count), 0) as gc_count,
        coalesce(sum(s.gc_amount), 0) as gc_amount,
        coalesce(sum(s.gc_redeemed), 0) as gc_redeemed,
        coalesce(sum(s.cp_count), 0) as cp_count,
        coalesce(sum(s.cp_redeemed), 0) as cp_redeemed,
        sum(s.cp_pct_sum) / nullif(sum(s.cp_pct_n), 0) as cp_avg,
        coalesce(sum(s.ds_count), 0) as ds_count,
        coalesce(sum(s.ds_redeemed), 0) as ds_redeemed,
        sum(s.ds_pct_sum) / nullif(sum(s.ds_pct_n), 0) as ds_avg
      from reward_stats_by_partner s
      where ${scope}
    )
    select
      gc_count::int as "totalIssuedGiftcardsCount",
      gc_amount::numeric(14, 2)::text as "totalIssuedGiftcardsAmount",
      gc_redeemed::numeric(14, 2)::text as "totalRedeemedIssuedGiftcards",
      cp_count::int as "totalIssuedCouponsCount",
      cp_redeemed::int as "totalRedeemedCouponsCount",
      coalesce(round(cp_avg, 2), 0)::text as "averageCouponDiscount",
      coalesce(round(100.0 * cp_redeemed / nullif(cp_count, 0), 2), 0)::text as "couponRedemptionRate",
      ds_count::int as "totalIssuedDiscountedSubscriptions",
      coalesce(round(ds_avg, 2), 0)::text as "averageDiscountedSubscriptionPercentage",
      ds_redeemed::int as "totalRedeemedDiscountedSubscriptions",
      coalesce(round(100.0 * ds_redeemed / nullif(ds_count, 0), 2), 0)::text as "discountedSubscriptionRedemptionRate"
    from agg
  `,
  );
  const row = rows[0] ?? {};
  return {
    totalIssuedGiftcardsCount: num(row.totalIssuedGiftcardsCount),
    totalIssuedGiftcardsAmount: num(row.totalIssuedGiftcardsAmount),
    totalRedeemedIssuedGiftcards: num(row.totalRedeemedIssuedGiftcards),
    totalIssuedCouponsCount: num(row.totalIssuedCouponsCount),
    totalRedeemedCouponsCount: num(row.totalRedeemedCouponsCount),
    averageCouponDiscount: num(row.averageCouponDiscount),
    couponRedemptionRate: num(row.couponRedemptionRate),
    totalIssuedDiscountedSubscriptions: num(row.totalIssuedDiscountedSubscriptions),
    averageDiscountedSubscriptionPercentage: num(row.averageDiscountedSubscriptionPercentage),
    totalRedeemedDiscountedSubscriptions: num(row.totalRedeemedDiscountedSubscriptions),
    discountedSubscriptionRedemptionRate: num(row.discountedSubscriptionRedemptionRate),
  };
}

const DAY_MS = 24 * 60 * 60 * 1000;
const WEEK_MS = 7 * DAY_MS;

export type ActivityWeeks = {
  /** The Mondays (Lagos calendar days), oldest first. */
  starts: string[];
  /** First instant inside: the oldest Monday 00:00 Lagos. */
  start: Date;
  /** First instant after: the Monday after the current week, 00:00 Lagos. */
  endExclusive: Date;
};

/**
 * The 12 weeks the activity covers (decision 018): ISO weeks, Monday 00:00 to the next Monday 00:00
 * in Lagos time (UTC+1, no daylight saving); the last is the week `now` falls in (partial so far).
 */
export function activityWeeks(now: Date, weeks = REWARD_ACTIVITY_WEEKS): ActivityWeeks {
  const today = lagosDate(now);
  const todayStart = lagosDayStart(today);
  // getUTCDay of the Lagos calendar day: 0 Sunday ... 6 Saturday; ISO weeks start on Monday.
  const weekday = (new Date(`${today}T00:00:00.000Z`).getUTCDay() + 6) % 7;
  const currentMonday = todayStart.getTime() - weekday * DAY_MS;
  const start = new Date(currentMonday - (weeks - 1) * WEEK_MS);
  const starts = Array.from({ length: weeks }, (_, i) => lagosDate(new Date(start.getTime() + i * WEEK_MS)));
  return { starts, start, endExclusive: new Date(currentMonday + WEEK_MS) };
}

/**
 * SQL rows of the activity query: w, the figures of one week (index w, oldest 0); o, the outstanding
 * gift-card balance (n cards, amount naira).
 */
type ActivityRow = {
  k: 'w' | 'o';
  w: number | null;
  n: number;
  amount: string;
  redeemedCount: number;
  redeemedAmount: string;
};

/** Fills the 12 weeks from the grouped rows; weeks without a row stay zeros. */
export function shapeWeeks(starts: string[], rows: ActivityRow[]): RewardWeek[] {
  const weeks: RewardWeek[] = starts.map((weekStart) => ({
    weekStart,
    issuedCount: 0,
    issuedAmount: 0,
    redeemedCount: 0,
    redeemedAmount: 0,
  }));
  for (const row of rows) {
    if (row.k !== 'w') continue;
    const week = row.w === null ? undefined : weeks[Number(row.w)];
    if (!week) continue;
    week.issuedCount = num(row.n);
    week.issuedAmount = num(row.amount);
    week.redeemedCount = num(row.redeemedCount);
    week.redeemedAmount = num(row.redeemedAmount);
  }
  return weeks;
}

/**
 * Rewards issued and redeemed per week for the last 12 weeks and the outstanding gift-card balance,
 * club-wide or for one partner, in one statement (decision 018 and its follow-up):
 * - issued and redeemed: the sum of reward_activity_by_day over the 84 Lagos days of the 12 weeks
 *   (one partner: at most 84 rows by primary key; club-wide: reward_activity_club_by_day, the same
 *   rows summed per day by a trigger, migration 0021).
 *   Triggers on rewards and reward_ledger keep it exact in the same transaction as every change
 *   (migration 0011): issued counts every reward by its created_at (the amount is the gift cards'
 *   issued_amount, coupons have no ISSUE ledger row); redeemed counts the REDEEM ledger rows by `at`,
 *   those a REVERSAL names left out (a coupon's REDEEM row is 0 naira: it counts, adds nothing).
 *   The days are Lagos calendar days, so they add up exactly to the weeks from Monday 00:00 Lagos;
 * - outstanding: live, as it depends on the clock: the balance of gift cards that can still be
 *   redeemed (Active, not past expiry at now), a range read of rewards_giftcard_open_idx (a rollup
 *   by expiry deadlocked parallel redemptions and reversals: decision 069).
 */
export async function rewardActivity(
  db: DbOrTx,
  opts: { now: Date; partnerId?: number },
): Promise<RewardActivity> {
  const { starts, endExclusive } = activityWeeks(opts.now);
  const firstDay = starts[0]!;
  const endDay = lagosDate(endExclusive);
  const now = opts.now.toISOString();
  const p = opts.partnerId;
  // Club-wide: the club's days (migration 0021, decision 069), 84 days × 16 shards however many
  // partners there are; one partner: its own rows.
  const days =
    p === undefined
      ? sql`select a.day, sum(a.issued_count) as ic, sum(a.issued_amount) as ia,
          sum(a.redeemed_count) as rc, sum(a.redeemed_amount) as ra
        from reward_activity_club_by_day a
        where a.day >= ${firstDay}::date and a.day < ${endDay}::date
        group by a.day`
      : sql`select a.day, sum(a.issued_count) as ic, sum(a.issued_amount) as ia,
          sum(a.redeemed_count) as rc, sum(a.redeemed_amount) as ra
        from reward_activity_by_day a
        where a.partner_id = ${p} and a.day >= ${firstDay}::date and a.day < ${endDay}::date
        group by a.day`;
  const open = sql`select 'o', null, count(*)::int, coalesce(sum(g.balance), 0)::numeric(14, 2)::text, 0, '0'
    from rewards g
    where g.reward_type = 'GIFTCARD' and g.status = 'Active'
      and (g.expiry_date is null or g.expiry_date > ${now}::timestamptz)
      and ${p === undefined ? sql`true` : sql`g.partner_id = ${p}`}`;
  const rows = await executeRows<ActivityRow>(
    db,
    sql`
    select 'w' as k, (d.day - ${firstDay}::date) / 7 as w,
      sum(d.ic)::int as n, sum(d.ia)::numeric(14, 2)::text as amount,
      sum(d.rc)::int as "redeemedCount", sum(d.ra)::numeric(14, 2)::text as "redeemedAmount"
    from (${days}) d
    group by 2
    union all
    ${open}
  `,
  );
  const outstanding = rows.find((r) => r.k === 'o');
  return {
    timeZone: 'Africa/Lagos',
    weeks: shapeWeeks(starts, rows),
    outstandingGiftcardBalance: num(outstanding?.amount),
    outstandingGiftcardCount: num(outstanding?.n),
    asOf: now,
  };
}
