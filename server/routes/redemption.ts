import { and, eq } from 'drizzle-orm';
import { type Context, Hono } from 'hono';
import {
  initiateRedemptionBodySchema,
  otpValidityBodySchema,
  type RedemptionResult,
  type ReversalResult,
  redeemCouponBodySchema,
  redeemGiftcardBodySchema,
  reverseRedemptionBodySchema,
} from '../../contract/redemption';
import { rewardServerMessages as rmsg } from '../../contract/rewards';
import { visitServerMessages as vmsg } from '../../contract/visits';
import type { DbOrTx, Tx } from '../db/client';
import { sqlState, UNIQUE_VIOLATION } from '../db/errors';
import { mailOutbox, redemptionOtps, rewardLedger, rewards } from '../db/schema';
import { formatNaira } from '../domain/eligibility';
import { type Actor, actions, actorOfAuthUser, recordEvent, requestMeta } from '../domain/events';
import { type Answer, runIdempotent } from '../domain/idempotency';
import { debitGiftcard, redeemCouponRow, reverseEntry } from '../domain/ledger';
import {
  consumeOtp,
  countWrongAttempt,
  createOtp,
  currentOtp,
  currentOtps,
  dailyCapState,
  generateOtp,
  hashOtp,
  maskEmail,
  OTP_MAX_ATTEMPTS,
  type OtpRow,
  otpBlocker,
  otpMail,
  otpMessages,
  sameHash,
} from '../domain/otp';
import { transactingPartner } from '../domain/partners';
import {
  buckets,
  checkRateLimits,
  OTP_GUESS_IP_LIMIT,
  OTP_GUESS_LIMIT,
  OTP_SEND_IP_LIMIT,
  OTP_SEND_LIMIT,
  recordHit,
  takeRateLimits,
} from '../domain/rate-limit';
import { findScopedReward, markExpired, type RewardRow, rewardById, statusAt } from '../domain/rewards';
import { fullName } from '../domain/users';
import { partnerScope, staffUserId } from '../http/access';
import type { AppEnv, AuthUser, RequestMeta, RouteContext } from '../http/context';
import { ApiError, fieldError, ok, tooManyRequests } from '../http/errors';
import { idempotencyKeyOf, refusal, respond, success } from '../http/idempotency';
import { reportRateLimits } from '../http/rate-limit-headers';
import { jsonBody } from '../http/validate';

const otpError = (status: 400 | 429, message: string) => fieldError('otp', message, status);

/** The `reward.redeemed` webhook of a redemption: its answer, plus where and for whom. */
const redeemedWebhook = (result: RedemptionResult, partnerId: number, customerId: number) => ({
  type: 'reward.redeemed' as const,
  partnerId,
  data: { ...result, partnerId, customerId },
});

/** Wrong codes per staff member and per client address (decision 013), beside the 5 per code. */
const guessLimits = (userId: number | null, ip: string | null) =>
  [
    [userId === null ? null : buckets.otpGuess(userId), OTP_GUESS_LIMIT],
    [ip && buckets.otpGuessIp(ip), OTP_GUESS_IP_LIMIT],
  ] as const;

/**
 * 429 while the caller has tried too many wrong codes. A check, not a place taken: the wrong tries
 * are counted when they are (countWrong), and the atomic 5 per code bounds parallel guesses.
 */
async function assertGuessesLeft(db: DbOrTx, userId: number, ip: string | null, now: Date) {
  const state = await checkRateLimits(db, guessLimits(userId, ip), now);
  if (state.blocked) {
    throw tooManyRequests(otpMessages.tooManyGuessesPrefix, state.retryAfterSeconds, 'otp');
  }
}

/**
 * /partners/rewards: the OTP-guarded redemption (send a code, check it, redeem a gift card or a
 * coupon) and its reversal. Guarantees (docs/decisions/007-ledger-and-otp.md): the code is consumed
 * and the money moves in ONE transaction with guarded UPDATEs, so no overspend and no double use
 * under concurrency; every money call takes an Idempotency-Key.
 */
export function redemptionRoutes(ctx: RouteContext) {
  const { db, clock, config, guards, mailer } = ctx;
  const otpHash = (customerId: number, code: string) => hashOtp(config.jwtSecret, customerId, code);

  const scopedReward = async (tx: DbOrTx, user: AuthUser, userId: number, code: string, lock = false) => {
    const row = await findScopedReward(tx, { code, customerId: userId, scope: partnerScope(user), lock });
    if (!row) throw new ApiError(404, rmsg.notFound);
    return row;
  };

  /** A reward that cannot be redeemed now: 409, persisting an expiry the row did not show yet. */
  const unredeemable = async (tx: DbOrTx, row: RewardRow, now: Date, actor: Actor, meta: RequestMeta) => {
    const status = statusAt(row.r, now);
    if (status === 'Redeemed') return refusal(409, rmsg.alreadyRedeemed);
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
      return refusal(409, rmsg.expired);
    }
    return null;
  };

  /**
   * Why a code did not match in a redeem call: expired, used, locked or no code (nothing to keep), or
   * wrong, which counts an attempt and records it in the event log, committed with the refusal.
   */
  const wrongCodeAnswer = async (
    tx: DbOrTx,
    o: { row: RewardRow; customerId: number; now: Date; actor: Actor; meta: RequestMeta },
  ): Promise<Answer> => {
    const otp = await currentOtp(tx, o.customerId, o.row.r.id);
    const blocker = otpBlocker(otp, o.now);
    if (blocker) throw otpError(blocker.status, blocker.message);
    return countWrong(tx, { otpId: otp!.id, ...o });
  };

  const countWrong = async (
    tx: DbOrTx,
    o: { otpId: number; row: RewardRow; now: Date; actor: Actor; meta: RequestMeta },
  ): Promise<Answer> => {
    const attempts = await countWrongAttempt(tx, o.otpId);
    if (attempts === null) return refusal(429, otpMessages.locked, 'otp');
    for (const [bucket, rule] of guessLimits(o.actor.id, o.meta.ipAddress)) {
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
    return refusal(400, otpMessages.wrong(OTP_MAX_ATTEMPTS - attempts), 'otp');
  };

  /** The shared body of both redeem calls, inside the idempotency transaction. */
  const redeem = async (
    tx: Tx,
    o: {
      user: AuthUser;
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
    if (giftcard && row.r.rewardType !== 'GIFTCARD') throw fieldError('code', rmsg.notGiftcard);
    if (!giftcard && row.r.rewardType !== 'COUPON') throw fieldError('code', rmsg.notCoupon);
    if (row.customerStatus !== 'ACTIVE')
      throw fieldError('userId', vmsg.customerBlocked, 400, 'customer_blocked');
    const refused = await unredeemable(tx, row, o.now, actor, o.meta);
    if (refused) return refused;
    // Before the code is spent: an amount over the balance keeps the code for a corrected amount.
    if (giftcard && (row.r.balance ?? 0) < o.amount!) {
      throw fieldError('amountToRedeem', rmsg.overBalance(formatNaira(row.r.balance ?? 0)), 409);
    }
    const otpId = await consumeOtp(tx, {
      rewardId: row.r.id,
      customerId: o.userId,
      codeHash: otpHash(o.userId, o.otp),
      now: o.now,
    });
    if (otpId === null)
      return wrongCodeAnswer(tx, { row, customerId: o.userId, now: o.now, actor, meta: o.meta });

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
        if (status !== 'Active')
          throw new ApiError(409, status === 'Expired' ? rmsg.expired : rmsg.alreadyRedeemed);
        throw fieldError('amountToRedeem', rmsg.overBalance(formatNaira(fresh.r.balance ?? 0)), 409);
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
    if (!done) throw new ApiError(409, rmsg.alreadyRedeemed);
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

  /** Both redeem calls: the idempotent transaction around `redeem`, answered from its outcome. */
  const redeemCall = async (
    c: Context<AppEnv>,
    route: 'redeem-giftcard' | 'redeem-coupon',
    body: { userId: number; code: string; otp: string },
    amount: number | null,
  ) => {
    const user = c.get('user');
    const now = clock();
    const meta = requestMeta(c, config.trustProxy);
    await reportRateLimits(c, db, guessLimits(user.id, meta.ipAddress), now);
    const outcome = await runIdempotent(
      db,
      { key: idempotencyKeyOf(c), userId: user.id, route, body, now },
      (tx) => redeem(tx, { user, userId: body.userId, code: body.code, otp: body.otp, amount, now, meta }),
    );
    return respond(c, outcome);
  };

  return new Hono<AppEnv>()
    .post(
      '/initiate-reward-redemption-auth',
      guards.requirePermission('rewards.redeem', 'partner'),
      jsonBody(initiateRedemptionBodySchema),
      async (c) => {
        const user = c.get('user');
        const body = c.req.valid('json');
        const now = clock();
        const meta = requestMeta(c, config.trustProxy);
        const actor = actorOfAuthUser(user);
        // Codes per staff member and per client address (decision 013), taken before any lookup.
        const limits = [
          [buckets.otpSend(user.id), OTP_SEND_LIMIT],
          [meta.ipAddress && buckets.otpSendIp(meta.ipAddress), OTP_SEND_IP_LIMIT],
        ] as const;
        const limit = await takeRateLimits(db, limits, now);
        await reportRateLimits(c, db, limits, now);
        if (limit.blocked) throw tooManyRequests(otpMessages.tooManySendsPrefix, limit.retryAfterSeconds);
        const code = generateOtp();
        const sent = await db.transaction(async (tx) => {
          // The reward row lock serialises code requests for one reward (the daily cap holds).
          const row = await scopedReward(tx, user, body.userId, body.code, true);
          await transactingPartner(tx, row.r.partnerId);
          if (row.customerStatus !== 'ACTIVE')
            throw fieldError('userId', vmsg.customerBlocked, 400, 'customer_blocked');
          const status = statusAt(row.r, now);
          if (status === 'Redeemed') throw new ApiError(409, rmsg.alreadyRedeemed);
          if (status === 'Expired') throw new ApiError(409, rmsg.expired);
          const cap = await dailyCapState(tx, row.r.id, now);
          if (cap.blocked) {
            throw new ApiError(429, otpMessages.dailyCap, [], {
              'Retry-After': String(cap.retryAfterSeconds),
            });
          }
          const otp = await createOtp(tx, {
            rewardId: row.r.id,
            customerId: body.userId,
            codeHash: otpHash(body.userId, code),
            requestedBy: staffUserId(user),
            now,
          });
          const mailId = await mailer.enqueue(
            tx,
            otpMail(row.email, code, row.r.title, row.organizationName),
            now,
          );
          await tx.update(redemptionOtps).set({ mailId }).where(eq(redemptionOtps.id, otp.id));
          await recordEvent(tx, {
            actor,
            action: actions.sentRedemptionCode(row.r.code, fullName(row)),
            entity: 'reward',
            entityId: row.r.id,
            payload: { customerId: body.userId, sentTo: maskEmail(row.email) },
            meta,
            at: now,
          });
          return { otp, mailId, row };
        });
        // Deliver now: a transport failure withdraws the code (the customer never got it).
        mailer.kick();
        await mailer.idle();
        const [mail] = await db
          .select({ sentAt: mailOutbox.sentAt, lastError: mailOutbox.lastError })
          .from(mailOutbox)
          .where(eq(mailOutbox.id, sent.mailId));
        if (mail && !mail.sentAt && mail.lastError) {
          await db.transaction(async (tx) => {
            await tx
              .update(redemptionOtps)
              .set({ replacedAt: now })
              .where(eq(redemptionOtps.id, sent.otp.id));
            // Never retried later: a late mail would carry a dead code.
            await tx
              .update(mailOutbox)
              .set({ attempts: 1_000_000, text: '(withdrawn: the code was not delivered)' })
              .where(eq(mailOutbox.id, sent.mailId));
            await recordEvent(tx, {
              actor,
              action: actions.redemptionCodeNotSent(sent.row.r.code),
              entity: 'reward',
              entityId: sent.row.r.id,
              payload: { customerId: body.userId },
              meta,
              at: now,
            });
          });
          throw new ApiError(503, otpMessages.notSent);
        }
        return ok(
          c,
          { expiresAt: sent.otp.expiresAt.toISOString(), sentTo: maskEmail(sent.row.email) },
          rmsg.codeSent,
        );
      },
    )
    .post(
      '/redemption-auth-otp-validity-check',
      guards.requirePermission('rewards.redeem', 'partner'),
      jsonBody(otpValidityBodySchema),
      async (c) => {
        const user = c.get('user');
        const body = c.req.valid('json');
        const now = clock();
        const meta = requestMeta(c, config.trustProxy);
        // The wrong-code limits as they stand before this try (decision 027).
        await reportRateLimits(c, db, guessLimits(user.id, meta.ipAddress), now);
        await assertGuessesLeft(db, user.id, meta.ipAddress, now);
        const scope = c.get('partnerScope');
        // The codes this call may check: the named reward's, or the customer's live codes at rewards
        // inside the caller's scope (a code for a reward outside it is no code for them).
        const candidates: { otp: OtpRow; reward: RewardRow }[] = [];
        if (body.code !== undefined) {
          const reward = await scopedReward(db, user, body.userId, body.code);
          const otp = await currentOtp(db, body.userId, reward.r.id);
          if (otp) candidates.push({ otp, reward });
        } else {
          for (const otp of await currentOtps(db, body.userId)) {
            const reward = await rewardById(db, otp.rewardId);
            if (reward && (scope === null || reward.r.partnerId === scope)) candidates.push({ otp, reward });
          }
        }
        const usable = candidates.filter((x) => otpBlocker(x.otp, now) === null);
        const match = usable.find((x) => sameHash(x.otp.codeHash, otpHash(body.userId, body.otp)));
        if (match) {
          return ok(
            c,
            { valid: true as const, attemptsLeft: OTP_MAX_ATTEMPTS - match.otp.attempts },
            rmsg.codeValid,
          );
        }
        const newest = usable[0];
        if (!newest) {
          const blocker = otpBlocker(candidates[0]?.otp, now)!;
          throw otpError(blocker.status, blocker.message);
        }
        const answer = await db.transaction((tx) =>
          countWrong(tx, {
            otpId: newest.otp.id,
            row: newest.reward,
            now,
            actor: actorOfAuthUser(user),
            meta,
          }),
        );
        return c.json(answer.body as object, answer.status as 400 | 429);
      },
    )
    .post(
      '/redeem-giftcard',
      guards.requirePermission('rewards.redeem', 'partner'),
      jsonBody(redeemGiftcardBodySchema),
      async (c) => {
        const body = c.req.valid('json');
        return redeemCall(c, 'redeem-giftcard', body, body.amountToRedeem);
      },
    )
    .post(
      '/redeem-coupon',
      guards.requirePermission('rewards.redeem', 'partner'),
      jsonBody(redeemCouponBodySchema),
      async (c) => redeemCall(c, 'redeem-coupon', c.req.valid('json'), null),
    )
    .post(
      '/reverse-redemption',
      guards.requirePermission('rewards.reverse', 'partner'),
      jsonBody(reverseRedemptionBodySchema),
      async (c) => {
        const user = c.get('user');
        const body = c.req.valid('json');
        const now = clock();
        const meta = requestMeta(c, config.trustProxy);
        const key = idempotencyKeyOf(c);
        const scope = partnerScope(user);
        try {
          const outcome = await runIdempotent(
            db,
            { key, userId: user.id, route: 'reverse-redemption', body, now },
            async (tx) => {
              const [entry] = await tx
                .select({ e: rewardLedger, partnerId: rewards.partnerId })
                .from(rewardLedger)
                .innerJoin(rewards, eq(rewards.id, rewardLedger.rewardId))
                .where(
                  and(
                    eq(rewardLedger.id, body.ledgerEntryId),
                    scope === null ? undefined : eq(rewards.partnerId, scope),
                  ),
                );
              if (!entry) throw new ApiError(404, rmsg.entryNotFound);
              if (entry.e.kind !== 'REDEEM') throw new ApiError(409, rmsg.notARedemption);
              const [already] = await tx
                .select({ id: rewardLedger.id })
                .from(rewardLedger)
                .where(eq(rewardLedger.reversesId, entry.e.id));
              if (already) throw new ApiError(409, rmsg.alreadyReversed);
              const amount = -entry.e.amount;
              const done = await reverseEntry(tx, {
                entryId: entry.e.id,
                rewardId: entry.e.rewardId,
                amount,
                reason: body.reason,
                actorId: staffUserId(user),
                now,
              });
              const row = (await rewardById(tx, entry.e.rewardId))!;
              await recordEvent(tx, {
                actor: actorOfAuthUser(user),
                action: actions.reversedRedemption(
                  row.r.rewardType === 'GIFTCARD' ? formatNaira(amount) : 'a coupon',
                  row.r.code,
                  body.reason,
                ),
                entity: 'reward',
                entityId: row.r.id,
                payload: {
                  reason: body.reason,
                  reversedEntryId: entry.e.id,
                  ledgerEntryId: done.ledgerEntryId,
                  amount,
                  balance: done.balance,
                  customerId: row.r.customerId,
                },
                meta,
                at: now,
                webhook: {
                  type: 'reward.reversed',
                  partnerId: row.r.partnerId,
                  data: {
                    rewardId: row.r.id,
                    code: row.r.code,
                    rewardType: row.r.rewardType,
                    partnerId: row.r.partnerId,
                    customerId: row.r.customerId,
                    ledgerEntryId: done.ledgerEntryId,
                    reversedEntryId: entry.e.id,
                    amountReversed: amount,
                    balance: row.r.rewardType === 'GIFTCARD' ? done.balance : null,
                    reason: body.reason,
                    reversedAt: now.toISOString(),
                  },
                },
              });
              const result: ReversalResult = {
                rewardId: row.r.id,
                ledgerEntryId: done.ledgerEntryId,
                reversedEntryId: entry.e.id,
                code: row.r.code,
                rewardType: row.r.rewardType,
                amountReversed: amount,
                balance: row.r.rewardType === 'GIFTCARD' ? done.balance : null,
                status: statusAt(row.r, now),
                reason: body.reason,
                reversedAt: now.toISOString(),
              };
              return success(result, rmsg.reversed);
            },
          );
          return respond(c, outcome);
        } catch (err) {
          if (sqlState(err) === UNIQUE_VIOLATION) throw new ApiError(409, rmsg.alreadyReversed);
          throw err;
        }
      },
    );
}
