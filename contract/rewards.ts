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
  /** Only this customer's rewards (the guided redemption's pick list). */
  userId: idField('userId').optional(),
  status: rewardStatusSchema.optional(),
  sortBy: z.enum(rewardSortKeys).optional(),
});
export type PartnerRewardsQuery = z.infer<typeof partnerRewardsQuerySchema>;

export const rewardMessages = {
  issuedAmountNumber: 'Issued amount must be a number',
  issuedAmountPositive: 'Issued amount must be a positive number',
  percentageNumber: 'Percentage Discount must be a number',
  percentagePositive: 'Percentage Discount must be a positive number',
  percentageMax: 'Percentage Discount cannot exceed 100',
  rewardTypeRequired: 'Reward type is required',
  promotionalImageRequired: 'Promotional image is required',
  titleRequired: 'Title is required',
  descriptionRequired: 'Description is required',
  issued: 'Reward successfully issued',
  invalidAmount: 'Please enter a valid amount.',
  networkRequired: 'This needs a network connection. Nothing was sent; try again when you are back online.',
} as const;

/** SPEC section 9 defaults. */
export const DEFAULT_GIFTCARD_AMOUNT = 2000;
export const DEFAULT_COUPON_DISCOUNT = 10;

/** Money on the wire: a JSON number, positive, at most 2 decimals, finite and bounded. */
export const moneyAmount = (numberMessage: string, positiveMessage: string) =>
  z
    .number({ error: numberMessage })
    .finite({ error: numberMessage })
    .positive({ error: positiveMessage })
    .max(100_000_000, { error: 'Amount is too large' })
    .refine((n) => Math.abs(Math.round(n * 100) - n * 100) < 1e-6, {
      error: 'Amount can have at most 2 decimals',
    });

/**
 * POST /partners/rewards/issue-reward. issuedAmount only for GIFTCARD, percentageDiscount only for
 * COUPON (the other is ignored). Status is always Active on creation.
 */
export const issueRewardBodySchema = z
  .object({
    rewardType: rewardTypeSchema,
    rewardTypeCategory: rewardCategorySchema.optional(),
    issuedAmount: moneyAmount(
      rewardMessages.issuedAmountNumber,
      rewardMessages.issuedAmountPositive,
    ).optional(),
    percentageDiscount: z
      .number({ error: rewardMessages.percentageNumber })
      .finite({ error: rewardMessages.percentageNumber })
      .positive({ error: rewardMessages.percentagePositive })
      .max(100, { error: rewardMessages.percentageMax })
      .optional(),
    expiryDate: z.iso.date({ error: 'expiryDate must be a date (YYYY-MM-DD)' }).optional(),
    promotionalImage: z
      .string({ error: rewardMessages.promotionalImageRequired })
      .min(1, { error: rewardMessages.promotionalImageRequired })
      .max(7_000_000, { error: 'Image must be at most 5 MiB' }),
    title: z
      .string({ error: rewardMessages.titleRequired })
      .trim()
      .min(1, { error: rewardMessages.titleRequired })
      .max(120),
    description: z
      .string({ error: rewardMessages.descriptionRequired })
      .trim()
      .min(1, { error: rewardMessages.descriptionRequired })
      .max(2000),
    /** The customer's id. */
    issuedTo: idField('issuedTo'),
    /** Admins name the partner; partner staff always issue for their own partner. */
    partnerId: idField('partnerId').optional(),
    /** Issued from the points modal: claims the customer's unclaimed points at that partner. */
    byPoints: z.boolean().optional(),
    status: z.literal('Active').optional(),
  })
  .strict();
export type IssueRewardBody = z.infer<typeof issueRewardBodySchema>;

/** Server answers of the partner-side reward calls (SPEC section 7). */
export const rewardServerMessages = {
  notFound: 'Reward not found',
  partnerRequired: 'partnerId is required',
  noPoints: 'This customer has no unclaimed points at this partner',
  expiryInPast: 'expiryDate must be today or later',
  expired: 'This reward has expired and cannot be redeemed',
  alreadyRedeemed: 'This reward has already been redeemed',
  notGiftcard: 'This reward is not a gift card',
  notCoupon: 'This reward is not a coupon',
  overBalance: (balance: string) => `The amount is more than the balance of ${balance}`,
  giftcardRedeemed: 'Gift card redeemed successfully',
  couponRedeemed: 'Coupon redeemed successfully',
  codeSent: 'Redemption code sent',
  codeValid: 'The code is correct',
  reversed: 'Redemption reversed',
  entryNotFound: 'Ledger entry not found',
  notARedemption: 'Only a redemption can be reversed',
  alreadyReversed: 'This redemption was already reversed',
} as const;

export const REWARD_TYPES = rewardTypeSchema.options;
export const REWARD_TYPE_CATEGORIES = rewardCategorySchema.options;

/** ?partnerId= on the partner-side figures: optional for admins; partner staff get their own. */
export const partnerScopeQuerySchema = z.object({ partnerId: idField('partnerId').optional() });

/** GET /partners/rewards/redeemed-giftcard-balance. */
export const giftcardBalanceSchema = z.object({
  /** Naira redeemed from gift cards, net of reversals. */
  totalRedeemed: z.number(),
  /** Naira left on Active, unexpired gift cards. */
  outstandingBalance: z.number(),
});
export type GiftcardBalance = z.infer<typeof giftcardBalanceSchema>;
