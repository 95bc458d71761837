import { eq } from 'drizzle-orm';
import type { Context } from 'hono';
import { rewardServerMessages as rmsg } from '../../contract/rewards';
import { visitServerMessages as vmsg } from '../../contract/visits';
import { mailOutbox, redemptionOtps } from '../db/schema';
import { actions, actorOfAuthUser, recordEvent } from '../domain/events';
import { forgetIdempotencyKey, runIdempotent, storedOutcome, success } from '../domain/idempotency';
import {
  createOtp,
  currentOtp,
  currentOtps,
  dailyCapReport,
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
import { buckets, OTP_SEND_IP_LIMIT, OTP_SEND_LIMIT, takeRateLimits } from '../domain/rate-limit';
import {
  assertGuessesLeft,
  countWrong,
  guessLimits,
  lockedRetryAfter,
  otpError,
  redeem,
  scopedReward,
} from '../domain/redemption';
import { type RewardRow, rewardById, statusAt } from '../domain/rewards';
import { staffUserId } from '../domain/scope';
import { fullName } from '../domain/users';
import { ApiError, fieldError, tooManyRequests } from '../errors';
import { requestMeta } from '../http/client-address';
import type { RouteContext } from '../http/context';
import { ok } from '../http/errors';
import { idempotencyKeyOf, respond } from '../http/idempotency';
import { reportLimits, reportRateLimits } from '../http/rate-limit-headers';
import { routeSet } from '../http/route';
import type { AppEnv } from '../types';

/**
 * /partners/rewards: the OTP-guarded redemption (send a code, check it, redeem a gift card or a
 * coupon; the reversal is server/routes/reversal.ts). Guarantees (docs/decisions/007-ledger-and-otp.md): the code is consumed
 * and the money moves in ONE transaction with guarded UPDATEs, so no overspend and no double use
 * under concurrency; every money call takes an Idempotency-Key.
 */
export function redemptionRoutes(ctx: RouteContext) {
  const { db, clock, config, guards, mailer } = ctx;
  const otpHash = (customerId: number, code: string) => hashOtp(config.jwtSecret, customerId, code);

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
      (tx) =>
        redeem(tx, {
          user,
          secret: config.jwtSecret,
          userId: body.userId,
          code: body.code,
          otp: body.otp,
          amount,
          now,
          meta,
        }),
    );
    return respond(c, outcome);
  };

  return routeSet(guards)
    .on('POST /partners/rewards/initiate-reward-redemption-auth', async (c) => {
      const user = c.get('user');
      const body = c.req.valid('json');
      const now = clock();
      const meta = requestMeta(c, config.trustProxy);
      const actor = actorOfAuthUser(user);
      // A retry with the first request's Idempotency-Key gets its answer back: no new code (which
      // would replace the one the customer may be reading out), no place taken in a limit.
      const idempotency = {
        key: idempotencyKeyOf(c),
        userId: user.id,
        route: 'initiate-redemption',
        body,
        now,
      };
      const stored = await storedOutcome(db, idempotency);
      if (stored) return respond(c, stored);
      // Codes per staff member and per client address (decision 013), taken before any lookup.
      const limits = [
        [buckets.otpSend(user.id), OTP_SEND_LIMIT],
        [meta.ipAddress && buckets.otpSendIp(meta.ipAddress), OTP_SEND_IP_LIMIT],
      ] as const;
      const limit = await takeRateLimits(db, limits, now);
      await reportRateLimits(c, db, limits, now);
      if (limit.blocked) throw tooManyRequests(otpMessages.tooManySendsPrefix, limit.retryAfterSeconds);
      const code = generateOtp();
      let sent: { otp: OtpRow; mailId: number; row: RewardRow } | undefined;
      const outcome = await runIdempotent(db, idempotency, async (tx) => {
        // The reward row lock serialises code requests for one reward (the daily cap holds).
        const row = await scopedReward(tx, user, body.userId, body.code, true);
        await transactingPartner(tx, row.r.partnerId);
        if (row.customerStatus !== 'ACTIVE')
          throw fieldError('userId', vmsg.customerBlocked, 400, 'customer_blocked');
        const status = statusAt(row.r, now);
        if (status === 'Redeemed')
          throw new ApiError(409, rmsg.alreadyRedeemed, [], {}, 'reward_already_redeemed');
        if (status === 'Expired') throw new ApiError(409, rmsg.expired, [], {}, 'reward_expired');
        const cap = await dailyCapState(tx, row.r.id, now);
        if (cap.blocked) {
          reportLimits(c, [await dailyCapReport(tx, row.r.id, now)]);
          throw new ApiError(
            429,
            otpMessages.dailyCap,
            [],
            { 'Retry-After': String(cap.retryAfterSeconds) },
            'otp_daily_cap',
          );
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
        // The reward's codes of the day, with this one (decision 063): a limit the caller can see.
        reportLimits(c, [await dailyCapReport(tx, row.r.id, now)]);
        await recordEvent(tx, {
          actor,
          action: actions.sentRedemptionCode(row.r.code, fullName(row)),
          entity: 'reward',
          entityId: row.r.id,
          payload: { customerId: body.userId, sentTo: maskEmail(row.email) },
          meta,
          at: now,
        });
        sent = { otp, mailId, row };
        return success(
          { expiresAt: otp.expiresAt.toISOString(), sentTo: maskEmail(row.email) },
          rmsg.codeSent,
        );
      });
      // A concurrent request with the same key ran first: its answer, nothing sent.
      if (!sent) return respond(c, outcome);
      // Deliver now: a transport failure withdraws the code (the customer never got it).
      mailer.kick();
      await mailer.idle();
      const [mail] = await db
        .select({ sentAt: mailOutbox.sentAt, lastError: mailOutbox.lastError })
        .from(mailOutbox)
        .where(eq(mailOutbox.id, sent.mailId));
      if (mail && !mail.sentAt && mail.lastError) {
        await db.transaction(async (tx) => {
          await tx.update(redemptionOtps).set({ replacedAt: now }).where(eq(redemptionOtps.id, sent!.otp.id));
          // Never retried later: a late mail would carry a dead code.
          await tx
            .update(mailOutbox)
            .set({ attempts: 1_000_000, text: '(withdrawn: the code was not delivered)' })
            .where(eq(mailOutbox.id, sent!.mailId));
          // The stored answer names a code that is gone: a retry with the key sends a new one.
          await forgetIdempotencyKey(tx, user.id, idempotency.key);
          await recordEvent(tx, {
            actor,
            action: actions.redemptionCodeNotSent(sent!.row.r.code),
            entity: 'reward',
            entityId: sent!.row.r.id,
            payload: { customerId: body.userId },
            meta,
            at: now,
          });
        });
        throw new ApiError(503, otpMessages.notSent, [], {}, 'otp_not_delivered');
      }
      return respond(c, outcome);
    })
    .on('POST /partners/rewards/redemption-auth-otp-validity-check', async (c) => {
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
        const first = candidates[0];
        const blocker = otpBlocker(first?.otp, now)!;
        throw otpError(
          blocker,
          blocker.code === 'otp_locked' && first
            ? await lockedRetryAfter(db, first.reward.r.id, now)
            : undefined,
        );
      }
      const answer = await db.transaction((tx) =>
        countWrong(tx, {
          otpId: newest.otp.id,
          row: newest.reward,
          now,
          callerId: user.id,
          actor: actorOfAuthUser(user),
          meta,
        }),
      );
      return c.json(answer.body as object, answer.status as 400 | 429, answer.headers);
    })
    .on('POST /partners/rewards/redeem-giftcard', async (c) => {
      const body = c.req.valid('json');
      return redeemCall(c, 'redeem-giftcard', body, body.amountToRedeem);
    })
    .on('POST /partners/rewards/redeem-coupon', async (c) =>
      redeemCall(c, 'redeem-coupon', c.req.valid('json'), null),
    ).router;
}
