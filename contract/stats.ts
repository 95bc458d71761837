import { z } from './zod';

export const userStatsSchema = z.object({
  totalPartners: z.int(),
  totalClients: z.int(),
  totalStaff: z.int(),
});
export type UserStats = z.infer<typeof userStatsSchema>;

/**
 * Club-wide reward figures (GET /admin/partners/stats/reward) and one partner's analytics.
 * Amounts are naira; averages and rates are percentages rounded to 2 decimals.
 */
export const rewardStatsSchema = z.object({
  totalIssuedGiftcardsCount: z.number(),
  totalIssuedGiftcardsAmount: z.number(),
  totalRedeemedIssuedGiftcards: z.number(),
  totalIssuedCouponsCount: z.number(),
  totalRedeemedCouponsCount: z.number(),
  averageCouponDiscount: z.number(),
  couponRedemptionRate: z.number(),
  totalIssuedDiscountedSubscriptions: z.number(),
  averageDiscountedSubscriptionPercentage: z.number(),
  totalRedeemedDiscountedSubscriptions: z.number(),
  discountedSubscriptionRedemptionRate: z.number(),
});
export type RewardStats = z.infer<typeof rewardStatsSchema>;
