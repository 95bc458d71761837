import { sql } from 'drizzle-orm';
import type { RewardStats } from '../../contract/stats';
import type { DbOrTx } from '../db/client';
import { executeRows } from '../db/rows';

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
