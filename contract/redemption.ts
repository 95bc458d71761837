import { idField } from './ids';
import { cursorQueryShape } from './list';
import { moneyAmount, rewardMessages, rewardSchema } from './rewards';
import { z } from './zod';

/** Six ASCII digits: full-width or other digits are refused. */
export const OTP_LENGTH = 6;
export const otpField = z
  .string({ error: 'The code must be 6 digits' })
  .check(z.regex(/^[0-9]{6}$/, { error: 'The code must be 6 digits' }));

const code = z
  .string({ error: 'Reward code is required' })
  .check(
    z.trim(),
    z.minLength(1, { error: 'Reward code is required' }),
    z.maxLength(40, { error: 'Reward code is invalid' }),
  );

/** POST /partners/rewards/get-reward: look a reward up by its code and customer. */
export const getRewardBodySchema = z.object({ userId: idField('userId'), code });

/** POST /partners/rewards/initiate-reward-redemption-auth: mails the customer a 6-digit code. */
export const initiateRedemptionBodySchema = z.object({ userId: idField('userId'), code });
export const initiateRedemptionResponseSchema = z.object({ expiresAt: z.string(), sentTo: z.string() });

/**
 * POST /partners/rewards/redemption-auth-otp-validity-check: does not consume the code. Codes are
 * bound to one reward (a customer may hold live codes for several): `code`, the reward's code,
 * checks that reward's code only; without it, any of the customer's live codes in scope that matches.
 */
export const otpValidityBodySchema = z.object({
  userId: idField('userId'),
  otp: otpField,
  code: z.optional(code),
});
export const otpValidityResponseSchema = z.object({ valid: z.literal(true), attemptsLeft: z.int() });

/** POST /partners/rewards/redeem-giftcard (send an Idempotency-Key header). */
export const redeemGiftcardBodySchema = z.object({
  userId: idField('userId'),
  code,
  amountToRedeem: moneyAmount(rewardMessages.invalidAmount, rewardMessages.invalidAmount),
  otp: otpField,
});

/** POST /partners/rewards/redeem-coupon (send an Idempotency-Key header). */
export const redeemCouponBodySchema = z.object({ userId: idField('userId'), code, otp: otpField });

export const redemptionResultSchema = z.object({
  rewardId: z.int(),
  ledgerEntryId: z.nullable(z.int()),
  code: z.string(),
  rewardType: z.enum(['GIFTCARD', 'COUPON']),
  amountRedeemed: z.nullable(z.number()),
  balance: z.nullable(z.number()),
  status: z.enum(['Active', 'Redeemed', 'Expired']),
  redeemedAt: z.string(),
});
export type RedemptionResult = z.infer<typeof redemptionResultSchema>;

/** POST /partners/rewards/reverse-redemption: gives a redemption back, with a reason (rewards.reverse). */
export const REVERSAL_REASON_MIN = 3;
export const REVERSAL_REASON_MAX = 500;
export const reversalMessages = {
  reasonRequired: 'A reason is required',
  reasonTooShort: `The reason must be at least ${REVERSAL_REASON_MIN} characters`,
  reasonTooLong: `The reason must be at most ${REVERSAL_REASON_MAX} characters`,
} as const;
/** Why a redemption is given back: required, 3 to 500 characters (spaces around do not count). */
export const reversalReasonField = z
  .string({ error: reversalMessages.reasonRequired })
  .check(
    z.trim(),
    z.minLength(1, { error: reversalMessages.reasonRequired }),
    z.minLength(REVERSAL_REASON_MIN, { error: reversalMessages.reasonTooShort }),
    z.maxLength(REVERSAL_REASON_MAX, { error: reversalMessages.reasonTooLong }),
  );
export const reverseRedemptionBodySchema = z.object({
  ledgerEntryId: idField('ledgerEntryId'),
  reason: reversalReasonField,
});

/** GET /partners/rewards/:rewardId/ledger: the path parameter. */
export const rewardLedgerParamsSchema = z.object({ rewardId: idField('rewardId') });
/**
 * Its query: none for every entry (the console); `limit`, `startingAfter` or `endingBefore` (a ledger
 * entry's id) for a page of entries by cursor (decision 066).
 */
export const rewardLedgerQuerySchema = z.object(cursorQueryShape);

/** One row of a reward's ledger (gift cards: ISSUE +amount, REDEEM -amount, REVERSAL +amount; coupons: a REDEEM of 0). */
export const ledgerEntrySchema = z.object({
  id: z.int(),
  kind: z.enum(['ISSUE', 'REDEEM', 'REVERSAL']),
  /** Signed naira: what the entry did to the balance. */
  amount: z.number(),
  at: z.string(),
  /** Who made it (null: seeded or system rows). */
  by: z.nullable(z.object({ id: z.int(), name: z.string() })),
  /** Why: required on a reversal; a note or null on the other kinds. */
  reason: z.nullable(z.string()),
  /** A REVERSAL: the REDEEM entry it gave back. */
  reversesId: z.nullable(z.int()),
  /** A REDEEM already given back: the REVERSAL entry that did it (null: not reversed). */
  reversedById: z.nullable(z.int()),
});
export type LedgerEntry = z.infer<typeof ledgerEntrySchema>;

/** The answer of GET /partners/rewards/:rewardId/ledger: the reward now, and its entries oldest first. */
export const rewardLedgerSchema = z.object({
  reward: rewardSchema,
  entries: z.array(ledgerEntrySchema),
  /** Paged by cursor: more entries follow (or, with endingBefore, precede) these. Whole: false. */
  hasMore: z.boolean(),
});
export type RewardLedger = z.infer<typeof rewardLedgerSchema>;

/** The gift-card amount typed in the Redeem modal: digits with up to 2 decimals, more than 0. */
export const redeemAmountInput = z.string().check(
  z.trim(),
  z.regex(/^\d+(\.\d{1,2})?$/, { error: rewardMessages.invalidAmount }),
  z.refine((s) => Number(s) > 0, { error: rewardMessages.invalidAmount }),
);

/** The answer of POST /partners/rewards/reverse-redemption. */
export const reversalResultSchema = z.object({
  rewardId: z.int(),
  /** The new REVERSAL ledger row. */
  ledgerEntryId: z.int(),
  reversedEntryId: z.int(),
  code: z.string(),
  rewardType: z.enum(['GIFTCARD', 'COUPON']),
  amountReversed: z.number(),
  balance: z.nullable(z.number()),
  status: z.enum(['Active', 'Redeemed', 'Expired']),
  reason: z.string(),
  reversedAt: z.string(),
});
export type ReversalResult = z.infer<typeof reversalResultSchema>;

/** Shown when a code took its 5 wrong tries: the server's 429 and the OTP modal say the same. */
export const OTP_LOCKED_MESSAGE = 'Too many wrong codes. Send a new code.';

/**
 * GET /partners/rewards/customers?search=&partnerId=: the guided redemption's 'find customer'. Only
 * customers holding a reward at the partner (partner staff: their own; admins name it), by name,
 * email or reward code; at most 10, the address masked.
 */
export const redemptionCustomersQuerySchema = z.object({
  search: z.optional(
    z.string().check(z.trim(), z.maxLength(100, { error: 'search must be at most 100 characters' })),
  ),
  partnerId: z.optional(idField('partnerId')),
});
export const redemptionCustomerSchema = z.object({
  id: z.int(),
  firstName: z.string(),
  lastName: z.string(),
  /** Masked ('a***@mail.ng'): enough to confirm who it is. */
  email: z.string(),
});
export type RedemptionCustomer = z.infer<typeof redemptionCustomerSchema>;
export const REDEMPTION_CUSTOMERS_LIMIT = 10;
