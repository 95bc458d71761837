import { formatNaira } from '../../contract/money';
import type { RedemptionResult } from '../../contract/redemption';
import { rewardServerMessages as rmsg } from '../../contract/rewards';
import { visitServerMessages as vmsg } from '../../contract/visits';
import type { DbOrTx, Tx } from '../db/client';
import { ApiError, fieldError, tooManyRequests } from '../errors';
import type { AuthUser, RequestMeta } from '../types';
import { type Actor, actions, actorOfAuthUser, recordEvent } from './events';
import { type Answer, refusal, success } from './idempotency';
import { debitGiftcard, redeemCouponRow } from './ledger';
import {
  consumeOtp,
  countWrongAttempt,
  currentOtp,
  dailyCapState,
  hashOtp,
  OTP_MAX_ATTEMPTS,
  type OtpBlocker,
  otpBlocker,
  otpMessages,
} from './otp';
import { transactingPartner } from './partners';
import { buckets, checkRateLimits, OTP_GUESS_IP_LIMIT, OTP_GUESS_LIMIT, recordHit } from './rate-limit';
import { findScopedReward, markExpired, type RewardRow, rewardById, statusAt } from './rewards';
import { partnerScope, staffUserId } from './scope';
import { fullName } from './users';

/*
 * The OTP-guarded redemption inside its transaction (docs/decisions/007-ledger-and-otp.md): the
 * code is consumed and the money moves together with guarded UPDATEs; wrong codes are counted per
 * code, per staff member and per client address (decision 013). server/routes/redemption.ts calls
 * it from the HTTP handlers.
 */

/** A code that cannot be used: its catalogue code, and a locked code's Retry-After. */
export const otpError = (blocker: OtpBlocker, retryAfterSeconds?: number) =>
  new ApiError(
    blocker.status,
    blocker.message,
    [{ fieldName: 'otp', message: blocker.message }],
    retryAfterSeconds === undefined ? {} : { 'Retry-After': String(retryAfterSeconds) },
    blocker.code,
  );

/**
 * A locked code is dead: the client sends a new one. Its 429's Retry-After is when one may be sent
 * for the reward: now (1 second) unless the reward's codes of the day are used up.
 */
export const lockedRetryAfter = async (db: DbOrTx, rewardId: number, now: Date): Promise<number> => {
  const cap = await dailyCapState(db, rewardId, now);
  return cap.blocked ? cap.retryAfterSeconds : 1;
};

/** The `reward.redeemed` webhook of a redemption: its answer, plus where and for whom. */
export const redeemedWebhook = (result: RedemptionResult, partnerId: number, customerId: number) => ({
  type: 'reward.redeemed' as const,
  partnerId,
  data: { ...result, partnerId, customerId },
});

/** Wrong codes per staff member and per client address (decision 013), beside the 5 per code. */
export const guessLimits = (userId: number | null, ip: string | null) =>
  [
    [userId === null ? null : buckets.otpGuess(userId), OTP_GUESS_LIMIT],
    [ip && buckets.otpGuessIp(ip), OTP_GUESS_IP_LIMIT],
  ] as const;

/**
 * 429 while the caller has tried too many wrong codes. A check, not a place taken: the wrong tries
 * are counted when they are (countWrong), and the atomic 5 per code bounds parallel guesses.
 */
export async function assertGuessesLeft(db: DbOrTx, userId: number, ip: string | null, now: Date) {
  const state = await checkRateLimits(db, guessLimits(userId, ip), now);
  if (state.blocked) {
    throw tooManyRequests(otpMessages.tooManyGuessesPrefix, state.retryAfterSeconds, 'otp');
  }
}

export const scopedReward = async (
  tx: DbOrTx,
  user: AuthUser,
  userId: number,
  code: string,
  lock = false,
) => {
  const row = await findScopedReward(tx, { code, customerId: userId, scope: partnerScope(user), lock });
  if (!row) throw new ApiError(404, rmsg.notFound);
  return row;
};

/** A reward that cannot be redeemed now: 409, persisting an expiry the row did not show yet. */
export const unredeemable = async (
  tx: DbOrTx,
  row: RewardRow,
  now: Date,
  actor: Actor,
  meta: RequestMeta,
) => {
  const status = statusAt(row.r, now);
  if (status === 'Redeemed') return refusal(409, rmsg.alreadyRedeemed, { code: 'reward_already_redeemed' });
  if (status === 'Expired') {
    if (await markExpired(tx, row.r.id, now)) {
      await recordEvent(tx, {
        actor,
        action: actions.rewardExpired(row.r.code),
        entity: 'reward',
        entityId: row.r.id,
        payload: { expiryDate: row.r.expiryDate?.toISOString() ?? null },
        meta,
        at: now,
      });
    }
    return refusal(409, rmsg.expired, { code: 'reward_expired' });
  }
  return null;
};

/**
 * Why a code did not match in a redeem call: expired, used, locked or no code (nothing to keep), or
 * wrong, which counts an attempt and records it in the event log, committed with the refusal.
 */
export const wrongCodeAnswer = async (
  tx: DbOrTx,
  o: { row: RewardRow; customerId: number; now: Date; callerId: number; actor: Actor; meta: RequestMeta },
): Promise<Answer> => {
  const otp = await currentOtp(tx, o.customerId, o.row.r.id);
  const blocker = otpBlocker(otp, o.now);
  if (blocker)
    throw otpError(
      blocker,
      blocker.code === 'otp_locked' ? await lockedRetryAfter(tx, o.row.r.id, o.now) : undefined,
    );
  return countWrong(tx, { otpId: otp!.id, ...o });
};

export const countWrong = async (
  tx: DbOrTx,
  o: {
    otpId: number;
    row: RewardRow;
    now: Date;
    /** The caller's principal id (a staff member's, or minus an API key's): its wrong tries count. */
    callerId: number;
    actor: Actor;
    meta: RequestMeta;
  },
): Promise<Answer> => {
  const attempts = await countWrongAttempt(tx, o.otpId);
  if (attempts === null) {
    return refusal(429, otpMessages.locked, {
      fieldName: 'otp',
      code: 'otp_locked',
      headers: { 'Retry-After': String(await lockedRetryAfter(tx, o.row.r.id, o.now)) },
    });
  }
  for (const [bucket, rule] of guessLimits(o.callerId, o.meta.ipAddress)) {
    if (bucket) await recordHit(tx, bucket, rule, o.now);
  }
  await recordEvent(tx, {
    actor: o.actor,
    action: actions.wrongRedemptionCode(fullName(o.row), attempts),
    entity: 'reward',
    entityId: o.row.r.id,
    payload: { customerId: o.row.r.customerId, attempts },
    meta: o.meta,
    at: o.now,
  });
  return refusal(400, otpMessages.wrong(OTP_MAX_ATTEMPTS - attempts), {
    fieldName: 'otp',
    code: 'otp_invalid',
  });
};

/** The shared body of both redeem calls, inside the idempotency transaction. */
export const redeem = async (
  tx: Tx,
  o: {
    user: AuthUser;
    /** Signs the code's hash (the server secret). */
    secret: string;
    userId: number;
    code: string;
    otp: string;
    amount: number | null;
    now: Date;
    meta: RequestMeta;
  },
): Promise<Answer> => {
  const actor = actorOfAuthUser(o.user);
  await assertGuessesLeft(tx, o.user.id, o.meta.ipAddress, o.now);
  const row = await scopedReward(tx, o.user, o.userId, o.code);
  // A blocked or deleted partner redeems nothing (409 with the reason), before the code is spent.
  await transactingPartner(tx, row.r.partnerId);
  const giftcard = o.amount !== null;
  if (giftcard && row.r.rewardType !== 'GIFTCARD')
    throw fieldError('code', rmsg.notGiftcard, 400, 'not_a_giftcard');
  if (!giftcard && row.r.rewardType !== 'COUPON')
    throw fieldError('code', rmsg.notCoupon, 400, 'not_a_coupon');
  if (row.customerStatus !== 'ACTIVE')
    throw fieldError('userId', vmsg.customerBlocked, 400, 'customer_blocked');
  const refused = await unredeemable(tx, row, o.now, actor, o.meta);
  if (refused) return refused;
  // Before the code is spent: an amount over the balance keeps the code for a corrected amount.
  if (giftcard && (row.r.balance ?? 0) < o.amount!) {
    throw fieldError(
      'amountToRedeem',
      rmsg.overBalance(formatNaira(row.r.balance ?? 0)),
      409,
      'insufficient_balance',
    );
  }
  const otpId = await consumeOtp(tx, {
    rewardId: row.r.id,
    customerId: o.userId,
    codeHash: hashOtp(o.secret, o.userId, o.otp),
    now: o.now,
  });
  if (otpId === null)
    return wrongCodeAnswer(tx, {
      row,
      customerId: o.userId,
      now: o.now,
      callerId: o.user.id,
      actor,
      meta: o.meta,
    });

  if (giftcard) {
    const debit = await debitGiftcard(tx, {
      rewardId: row.r.id,
      amount: o.amount!,
      actorId: staffUserId(o.user),
      now: o.now,
    });
    if (!debit) {
      // The guard refused (a concurrent redemption won): roll back, the code included.
      const fresh = (await rewardById(tx, row.r.id))!;
      const status = statusAt(fresh.r, o.now);
      if (status === 'Expired') throw new ApiError(409, rmsg.expired, [], {}, 'reward_expired');
      if (status !== 'Active')
        throw new ApiError(409, rmsg.alreadyRedeemed, [], {}, 'reward_already_redeemed');
      throw fieldError(
        'amountToRedeem',
        rmsg.overBalance(formatNaira(fresh.r.balance ?? 0)),
        409,
        'insufficient_balance',
      );
    }
    const result: RedemptionResult = {
      rewardId: row.r.id,
      ledgerEntryId: debit.ledgerEntryId,
      code: row.r.code,
      rewardType: 'GIFTCARD',
      amountRedeemed: o.amount,
      balance: debit.balance,
      status: debit.status,
      redeemedAt: o.now.toISOString(),
    };
    await recordEvent(tx, {
      actor,
      action: actions.redeemedGiftcard(formatNaira(o.amount!), row.r.code, fullName(row)),
      entity: 'reward',
      entityId: row.r.id,
      payload: {
        amount: o.amount,
        balance: debit.balance,
        ledgerEntryId: debit.ledgerEntryId,
        customerId: o.userId,
      },
      meta: o.meta,
      at: o.now,
      webhook: redeemedWebhook(result, row.r.partnerId, o.userId),
    });
    return success(result, rmsg.giftcardRedeemed);
  }
  const done = await redeemCouponRow(tx, { rewardId: row.r.id, actorId: staffUserId(o.user), now: o.now });
  if (!done) {
    // The guard refused (a concurrent call redeemed it or marked it Expired): say which, as for a card.
    const fresh = (await rewardById(tx, row.r.id))!;
    if (statusAt(fresh.r, o.now) === 'Expired')
      throw new ApiError(409, rmsg.expired, [], {}, 'reward_expired');
    throw new ApiError(409, rmsg.alreadyRedeemed, [], {}, 'reward_already_redeemed');
  }
  const result: RedemptionResult = {
    rewardId: row.r.id,
    ledgerEntryId: done.ledgerEntryId,
    code: row.r.code,
    rewardType: 'COUPON',
    amountRedeemed: null,
    balance: null,
    status: 'Redeemed',
    redeemedAt: o.now.toISOString(),
  };
  await recordEvent(tx, {
    actor,
    action: actions.redeemedCoupon(row.r.code, fullName(row)),
    entity: 'reward',
    entityId: row.r.id,
    payload: {
      ledgerEntryId: done.ledgerEntryId,
      customerId: o.userId,
      percentageDiscount: row.r.percentageDiscount,
    },
    meta: o.meta,
    at: o.now,
    webhook: redeemedWebhook(result, row.r.partnerId, o.userId),
  });
  return success(result, rmsg.couponRedeemed);
};
