import { sql } from 'drizzle-orm';
import type { RewardStats } from '../../contract/stats';
import type { DbOrTx } from '../db/client';
import { executeRows } from '../db/rows';

const num = (v: unknown): number => {
  const n = Number(v ?? 0);
  return Number.isFinite(n) ? n : 0;
};

/**
 * Reward figures, club-wide or for one partner, in ONE aggregate query:
 * - giftcards: rewardType GIFTCARD; coupons: COUPON + GENERAL; discounted subscriptions: COUPON + DISCOUNTED_SUBSCRIPTION
 * - totalIssuedGiftcardsAmount: sum of issuedAmount
 * - totalRedeemedIssuedGiftcards: naira redeemed, -(sum of REDEEM + REVERSAL ledger rows), read as
 *   sum(issued_amount - balance): the ledger's ISSUE row is +issued_amount and the cached balance is
 *   the sum of all the reward's rows, kept so by server/domain/ledger.ts in the same transaction
 *   (decision 011). No ledger join: the whole query reads rewards only, index-only through
 *   rewards_stats_idx (a covering index), instead of aggregating every ledger row per request.
 * - redeemed coupons / subscriptions: status 'Redeemed'
 * - averages: avg percentageDiscount, rates: redeemed / issued * 100; both to 2 decimals, 0 when none.
 */
export async function rewardStats(db: DbOrTx, opts: { partnerId?: number } = {}): Promise<RewardStats> {
  const scope = opts.partnerId === undefined ? sql`true` : sql`r.partner_id = ${opts.partnerId}`;
  const rows = await executeRows(
    db,
    sql`
    with agg as (
      select
        count(*) filter (where r.reward_type = 'GIFTCARD') as gc_count,
        coalesce(sum(r.issued_amount) filter (where r.reward_type = 'GIFTCARD'), 0) as gc_amount,
        coalesce(sum(r.issued_amount - r.balance) filter (where r.reward_type = 'GIFTCARD'), 0) as gc_redeemed,
        count(*) filter (where r.reward_type = 'COUPON' and r.reward_type_category = 'GENERAL') as cp_count,
        count(*) filter (where r.reward_type = 'COUPON' and r.reward_type_category = 'GENERAL' and r.status = 'Redeemed') as cp_redeemed,
        avg(r.percentage_discount) filter (where r.reward_type = 'COUPON' and r.reward_type_category = 'GENERAL') as cp_avg,
        count(*) filter (where r.reward_type = 'COUPON' and r.reward_type_category = 'DISCOUNTED_SUBSCRIPTION') as ds_count,
        count(*) filter (where r.reward_type = 'COUPON' and r.reward_type_category = 'DISCOUNTED_SUBSCRIPTION' and r.status = 'Redeemed') as ds_redeemed,
        avg(r.percentage_discount) filter (where r.reward_type = 'COUPON' and r.reward_type_category = 'DISCOUNTED_SUBSCRIPTION') as ds_avg
      from rewards r
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
