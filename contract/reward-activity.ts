import { z } from './zod';

/** One week of reward activity: Monday 00:00 to the next Monday 00:00, Lagos time (decision 018). */
export const rewardWeekSchema = z.object({
  /** The week's Monday, a Lagos calendar day (YYYY-MM-DD). */
  weekStart: z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/)),
  /** Rewards issued in the week (gift cards, coupons and discounted subscriptions). */
  issuedCount: z.int(),
  /** Naira value of the gift cards issued in the week. */
  issuedAmount: z.number(),
  /** Redemptions made in the week and not reversed (a gift card redeemed in parts counts each part). */
  redeemedCount: z.int(),
  /** Naira redeemed from gift cards in the week, reversed redemptions left out. */
  redeemedAmount: z.number(),
});
export type RewardWeek = z.infer<typeof rewardWeekSchema>;

/** How many weeks the activity covers: the current (partial) week and the 11 before it. */
export const REWARD_ACTIVITY_WEEKS = 12;

/**
 * Rewards issued and redeemed per week for the last 12 weeks, oldest first, weeks without activity
 * present as zeros (GET /admin/partners/stats/reward/weekly, club-wide or the partner staff's own
 * partner; GET /admin/partners/stats/partner/weekly?partnerId= for one partner), and the outstanding
 * gift-card balance: what the club still owes on gift cards that can be redeemed (Active, unexpired).
 */
export const rewardActivitySchema = z.object({
  timeZone: z.literal('Africa/Lagos'),
  weeks: z.array(rewardWeekSchema).check(z.length(REWARD_ACTIVITY_WEEKS)),
  outstandingGiftcardBalance: z.number(),
  outstandingGiftcardCount: z.int(),
  /** The instant the figures were computed for (ISO). */
  asOf: z.string(),
});
export type RewardActivity = z.infer<typeof rewardActivitySchema>;
