import { idField } from './ids';
import { IMAGE_TOO_LARGE, MAX_IMAGE_BASE64 } from './images';
import { defineList } from './list';
import { z } from './zod';

export const rewardTypeSchema = z.enum(['GIFTCARD', 'COUPON'], {
  error: "rewardType must be 'GIFTCARD' or 'COUPON'",
});
export const rewardCategorySchema = z.enum(['GENERAL', 'DISCOUNTED_SUBSCRIPTION'], {
  error: "rewardTypeCategory must be 'GENERAL' or 'DISCOUNTED_SUBSCRIPTION'",
});
export const rewardStatusSchema = z.enum(['Active', 'Redeemed', 'Expired']);

export const rewardSchema = z.object({
  id: z.int(),
  user: z.object({ id: z.int(), firstName: z.string(), lastName: z.string() }),
  partner: z.object({ id: z.int(), organizationName: z.string() }),
  rewardType: rewardTypeSchema,
  rewardTypeCategory: rewardCategorySchema,
  code: z.string(),
  title: z.string(),
  description: z.string(),
  /** Promotional image URL, or null. */
  promotionalImage: z.nullable(z.string()),
  expiryDate: z.nullable(z.string()),
  issuedAmount: z.nullable(z.number()),
  percentageDiscount: z.nullable(z.number()),
  /** Gift cards: what is left (from the ledger); null for coupons. */
  balance: z.nullable(z.number()),
  status: rewardStatusSchema,
  issuedTo: z.int(),
  createdAt: z.string(),
});
export type Reward = z.infer<typeof rewardSchema>;

/** GET /admin/partners/rewards?partnerId=… (paged, sortable; and /export). */
export const rewardList = defineList({
  sortKeys: ['createdAt', 'expiryDate', 'userName', 'rewardType', 'status', 'balance'],
  defaultSort: { sortBy: 'createdAt', sortOrder: 'desc' },
  filters: {
    partnerId: idField('partnerId'),
    /** Only this customer's rewards (the guided redemption's pick list). */
    userId: z.optional(idField('userId')),
    status: z.optional(rewardStatusSchema),
  },
  cursor: true,
});
export const partnerRewardsQuerySchema = rewardList.query;
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

/** docs/product.md#constants defaults. */
export const DEFAULT_GIFTCARD_AMOUNT = 2000;
export const DEFAULT_COUPON_DISCOUNT = 10;

/**
 * Money on the wire: a JSON number, positive, at most 2 decimals, finite and bounded (z.number()
 * refuses Infinity and NaN with numberMessage).
 */
export const moneyAmount = (numberMessage: string, positiveMessage: string) =>
  z.number({ error: numberMessage }).check(
    z.positive({ error: positiveMessage }),
    z.maximum(100_000_000, { error: 'Amount is too large' }),
    z.refine((n) => Math.abs(Math.round(n * 100) - n * 100) < 1e-6, {
      error: 'Amount can have at most 2 decimals',
    }),
  );

/**
 * POST /partners/rewards/issue-reward. issuedAmount only for GIFTCARD, percentageDiscount only for
 * COUPON (the other is ignored). Status is always Active on creation.
 */
/** A reward's own fields as an issue names them: one reward, or a campaign's template (contract/campaigns.ts). */
export const rewardTemplateFields = {
  rewardType: rewardTypeSchema,
  rewardTypeCategory: z.optional(rewardCategorySchema),
  issuedAmount: z.optional(
    moneyAmount(rewardMessages.issuedAmountNumber, rewardMessages.issuedAmountPositive),
  ),
  percentageDiscount: z.optional(
    z
      .number({ error: rewardMessages.percentageNumber })
      .check(
        z.positive({ error: rewardMessages.percentagePositive }),
        z.maximum(100, { error: rewardMessages.percentageMax }),
      ),
  ),
  expiryDate: z.optional(z.iso.date({ error: 'expiryDate must be a date (YYYY-MM-DD)' })),
  promotionalImage: z
    .string({ error: rewardMessages.promotionalImageRequired })
    .check(
      z.minLength(1, { error: rewardMessages.promotionalImageRequired }),
      z.maxLength(MAX_IMAGE_BASE64, { error: IMAGE_TOO_LARGE }),
    ),
  title: z
    .string({ error: rewardMessages.titleRequired })
    .check(z.trim(), z.minLength(1, { error: rewardMessages.titleRequired }), z.maxLength(120)),
  description: z
    .string({ error: rewardMessages.descriptionRequired })
    .check(z.trim(), z.minLength(1, { error: rewardMessages.descriptionRequired }), z.maxLength(2000)),
};

export const issueRewardBodySchema = z.strictObject({
  ...rewardTemplateFields,
  /** The customer's id. */
  issuedTo: idField('issuedTo'),
  /** Admins name the partner; partner staff always issue for their own partner. */
  partnerId: z.optional(idField('partnerId')),
  /** Issued from the points modal: claims the customer's unclaimed points at that partner. */
  byPoints: z.optional(z.boolean()),
  status: z.optional(z.literal('Active')),
});
export type IssueRewardBody = z.infer<typeof issueRewardBodySchema>;

/** Server answers of the partner-side reward calls (docs/product.md#calls). */
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
export const partnerScopeQuerySchema = z.object({ partnerId: z.optional(idField('partnerId')) });

/** GET /partners/rewards/redeemed-giftcard-balance. */
export const giftcardBalanceSchema = z.object({
  /** Naira redeemed from gift cards, net of reversals. */
  totalRedeemed: z.number(),
  /** Naira left on Active, unexpired gift cards. */
  outstandingBalance: z.number(),
});
export type GiftcardBalance = z.infer<typeof giftcardBalanceSchema>;
