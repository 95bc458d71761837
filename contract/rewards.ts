import { z } from 'zod';
import { idField } from './ids';
import { listQuerySchema } from './list';

export const rewardTypeSchema = z.enum(['GIFTCARD', 'COUPON'], {
  error: "rewardType must be 'GIFTCARD' or 'COUPON'",
});
export const rewardCategorySchema = z.enum(['GENERAL', 'DISCOUNTED_SUBSCRIPTION'], {
  error: "rewardTypeCategory must be 'GENERAL' or 'DISCOUNTED_SUBSCRIPTION'",
});
export const rewardStatusSchema = z.enum(['Active', 'Redeemed', 'Expired']);

export const rewardSchema = z.object({
  id: z.number().int(),
  user: z.object({ id: z.number().int(), firstName: z.string(), lastName: z.string() }),
  partner: z.object({ id: z.number().int(), organizationName: z.string() }),
  rewardType: rewardTypeSchema,
  rewardTypeCategory: rewardCategorySchema,
  code: z.string(),
  title: z.string(),
  description: z.string(),
  /** Promotional image URL, or null. */
  promotionalImage: z.string().nullable(),
  expiryDate: z.string().nullable(),
  issuedAmount: z.number().nullable(),
  percentageDiscount: z.number().nullable(),
  /** Gift cards: what is left (from the ledger); null for coupons. */
  balance: z.number().nullable(),
  status: rewardStatusSchema,
  issuedTo: z.number().int(),
  createdAt: z.string(),
});
export type Reward = z.infer<typeof rewardSchema>;

export const rewardSortKeys = [
  'createdAt',
  'expiryDate',
  'userName',
  'rewardType',
  'status',
  'balance',
] as const;
/** GET /admin/partners/rewards?partnerId=… (paged, sortable). */
export const partnerRewardsQuerySchema = listQuerySchema.extend({
  partnerId: idField('partnerId'),
  status: rewardStatusSchema.optional(),
  sortBy: z.enum(rewardSortKeys).optional(),
});
