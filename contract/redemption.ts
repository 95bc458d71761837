import { z } from 'zod';
import { idField } from './ids';
import { moneyAmount, rewardMessages } from './rewards';

/** Six ASCII digits: full-width or other digits are refused. */
export const OTP_LENGTH = 6;
export const otpField = z
  .string({ error: 'The code must be 6 digits' })
  .regex(/^[0-9]{6}$/, { error: 'The code must be 6 digits' });

const code = z
  .string({ error: 'Reward code is required' })
  .trim()
  .min(1, { error: 'Reward code is required' })
  .max(40, { error: 'Reward code is invalid' });

/** POST /partners/rewards/get-reward: look a reward up by its code and customer. */
export const getRewardBodySchema = z.object({ userId: idField('userId'), code });

/** POST /partners/rewards/initiate-reward-redemption-auth: mails the customer a 6-digit code. */
export const initiateRedemptionBodySchema = z.object({ userId: idField('userId'), code });
export const initiateRedemptionResponseSchema = z.object({ expiresAt: z.string(), sentTo: z.string() });

/** POST /partners/rewards/redemption-auth-otp-validity-check: does not consume the code. */
export const otpValidityBodySchema = z.object({ userId: idField('userId'), otp: otpField });
export const otpValidityResponseSchema = z.object({ valid: z.literal(true), attemptsLeft: z.number().int() });

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
  rewardId: z.number().int(),
  ledgerEntryId: z.number().int().nullable(),
  code: z.string(),
  rewardType: z.enum(['GIFTCARD', 'COUPON']),
  amountRedeemed: z.number().nullable(),
  balance: z.number().nullable(),
  status: z.enum(['Active', 'Redeemed', 'Expired']),
  redeemedAt: z.string(),
});
export type RedemptionResult = z.infer<typeof redemptionResultSchema>;

/** POST /partners/rewards/reverse-redemption: gives a redemption back, with a reason (rewards.reverse). */
export const reverseRedemptionBodySchema = z.object({
  ledgerEntryId: idField('ledgerEntryId'),
  reason: z
    .string({ error: 'A reason is required' })
    .trim()
    .min(3, { error: 'A reason is required' })
    .max(500),
});

/** The gift-card amount typed in the Redeem modal: digits with up to 2 decimals, more than 0. */
export const redeemAmountInput = z
  .string()
  .trim()
  .regex(/^\d+(\.\d{1,2})?$/, { error: rewardMessages.invalidAmount })
  .refine((s) => Number(s) > 0, { error: rewardMessages.invalidAmount });

/** The answer of POST /partners/rewards/reverse-redemption. */
export const reversalResultSchema = z.object({
  rewardId: z.number().int(),
  /** The new REVERSAL ledger row. */
  ledgerEntryId: z.number().int(),
  reversedEntryId: z.number().int(),
  code: z.string(),
  rewardType: z.enum(['GIFTCARD', 'COUPON']),
  amountReversed: z.number(),
  balance: z.number().nullable(),
  status: z.enum(['Active', 'Redeemed', 'Expired']),
  reason: z.string(),
  reversedAt: z.string(),
});
export type ReversalResult = z.infer<typeof reversalResultSchema>;

/** Shown when a code took its 5 wrong tries: the server's 429 and the OTP modal say the same. */
export const OTP_LOCKED_MESSAGE = 'Too many wrong codes. Send a new code.';
