import { and, eq, gt, inArray, isNull } from 'drizzle-orm';
import { authMessages } from '../../contract/auth';
import { passwordResetCodes, users } from '../db/schema';
import { actions, actorOf, actorOfAuthUser, recordEvent } from '../domain/events';
import { beginAttempt, settleAttempt } from '../domain/password-attempts';
import {
  buckets,
  clearBucket,
  LOGIN_IP_LIMIT,
  LOGIN_LIMIT,
  RESET_CODE_IP_LIMIT,
  RESET_REQUEST_IP_LIMIT,
  RESET_REQUEST_LIMIT,
  releaseHits,
  takeRateLimits,
} from '../domain/rate-limit';
import { generateResetCode, normalizeResetCode, RESET_CODE_TTL_MS } from '../domain/reset-codes';
import { issueRefreshToken, revokeAllForUser, revokeFamily, rotateRefreshToken } from '../domain/sessions';
import { sha256Hex, signAccessToken } from '../domain/tokens';
import { findStaffByEmail, findStaffById, toSessionUser } from '../domain/users';
import { ApiError, fieldError, tooManyRequests } from '../errors';
import { requestMeta } from '../http/client-address';
import type { RouteContext } from '../http/context';
import { ok } from '../http/errors';
import { reportRateLimits } from '../http/rate-limit-headers';
import { routeSet } from '../http/route';
import { appUrl, resetMail } from '../mail-templates';

/** Sign-in, token refresh, sign-out and password reset (docs/product.md#calls, docs/product.md#decided-rules). */
export function authRoutes(ctx: RouteContext) {
  const { db, clock, config, hasher, mailer, log, guards } = ctx;
  const accessToken = (userId: number, sessionId: string, now: Date) =>
    signAccessToken(
      { userId, sessionId },
      { secret: config.jwtSecret, ttlSeconds: config.accessTokenTtlSeconds, now },
    );

  return routeSet(guards)
    .on('POST /admin/auth/login', async (c) => {
      const { email, password } = c.req.valid('json');
      const now = clock();
      const meta = requestMeta(c, config.trustProxy);
      // Before any work, the same for known and unknown emails: a place in flight in the account's and
      // the client address's failure count (a failure keeps it, a success gives it back; correct
      // sign-ins wait for attempts in flight instead of being refused, password-attempts.ts beginAttempt).
      const limits = [
        [buckets.login(email), LOGIN_LIMIT],
        [meta.ipAddress && buckets.loginIp(meta.ipAddress), LOGIN_IP_LIMIT],
      ] as const;
      const limit = await beginAttempt(db, limits, now);
      await reportRateLimits(c, db, limits, now);
      if (limit.blocked) throw tooManyRequests(authMessages.tooManyAttemptsPrefix, limit.retryAfterSeconds);

      const user = await findStaffByEmail(db, email);
      let verified = false;
      if (user?.passwordHash) verified = await hasher.verify(user.passwordHash, password);
      else await hasher.verifyDummy(password); // same work for unknown or invited accounts

      if (!user || !verified) {
        // The places taken count this failure.
        await settleAttempt(db, limit, true);
        await recordEvent(db, {
          actor: user ? actorOf(user) : { id: null, type: 'ADMIN', name: email },
          action: actions.failedSignIn,
          entity: 'user',
          entityId: user?.id,
          payload: { email },
          meta,
          at: now,
        });
        throw new ApiError(401, authMessages.invalidCredentials);
      }
      if (user.accountStatus !== 'ACTIVE') {
        await settleAttempt(db, limit, false);
        await recordEvent(db, {
          actor: actorOf(user),
          action: actions.blockedSignIn,
          entity: 'user',
          entityId: user.id,
          meta,
          at: now,
        });
        throw new ApiError(403, authMessages.accountBlocked);
      }

      const session = await db.transaction(async (tx) => {
        await clearBucket(tx, buckets.login(email));
        await settleAttempt(tx, limit, false);
        const issued = await issueRefreshToken(tx, {
          userId: user.id,
          now,
          ttlDays: config.refreshTokenTtlDays,
        });
        await recordEvent(tx, {
          actor: actorOf(user),
          action: actions.signedIn,
          entity: 'user',
          entityId: user.id,
          meta,
          at: now,
        });
        return issued;
      });
      return ok(
        c,
        {
          accessToken: await accessToken(user.id, session.familyId, now),
          refreshToken: session.token,
          user: toSessionUser(user),
        },
        authMessages.loginSuccess,
      );
    })
    .on('POST /auth/refresh-token', async (c) => {
      const { refreshToken } = c.req.valid('json');
      const now = clock();
      const meta = requestMeta(c, config.trustProxy);
      const outcome = await db.transaction(async (tx) => {
        const result = await rotateRefreshToken(tx, refreshToken, {
          now,
          ttlDays: config.refreshTokenTtlDays,
          secret: config.jwtSecret,
        });
        if (result.kind === 'invalid') return result;
        const user = await findStaffById(tx, result.userId);
        if (result.kind === 'reused') {
          await revokeFamily(tx, result.familyId, now);
          if (user) {
            await recordEvent(tx, {
              actor: actorOf(user),
              action: actions.tokenReuse,
              entity: 'session',
              entityId: result.familyId,
              meta,
              at: now,
            });
          }
          return result;
        }
        if (user?.accountStatus !== 'ACTIVE') {
          await revokeFamily(tx, result.familyId, now);
          return { kind: 'invalid' as const };
        }
        return result;
      });
      if (outcome.kind !== 'rotated') {
        if (outcome.kind === 'reused') log.warn('refresh token reuse detected', { userId: outcome.userId });
        throw new ApiError(401, authMessages.refreshInvalid);
      }
      return ok(
        c,
        {
          accessToken: await accessToken(outcome.userId, outcome.familyId, now),
          refreshToken: outcome.token,
        },
        authMessages.refreshed,
      );
    })
    .on('POST /auth/logout', async (c) => {
      const user = c.get('user');
      const now = clock();
      const meta = requestMeta(c, config.trustProxy);
      await db.transaction(async (tx) => {
        await revokeFamily(tx, user.sessionId, now);
        await recordEvent(tx, {
          actor: actorOfAuthUser(user),
          action: actions.signedOut,
          entity: 'user',
          entityId: user.id,
          meta,
          at: now,
        });
      });
      // The browser drops its HTTP cache of this origin. Not "storage": the SPA wipes its own data
      // and keeps the app shell's precache (decisions 008, 009, 015).
      c.header('Clear-Site-Data', '"cache"');
      return ok(c, null, authMessages.loggedOut);
    })
    .on('POST /auth/password-reset-request', async (c) => {
      const { email } = c.req.valid('json');
      const now = clock();
      const meta = requestMeta(c, config.trustProxy);
      // Counted per email whether or not it is registered, so a 429 tells nothing either.
      const limits = [
        [buckets.reset(email), RESET_REQUEST_LIMIT],
        [meta.ipAddress && buckets.resetIp(meta.ipAddress), RESET_REQUEST_IP_LIMIT],
      ] as const;
      const limit = await takeRateLimits(db, limits, now);
      await reportRateLimits(c, db, limits, now);
      if (limit.blocked) {
        throw tooManyRequests(authMessages.tooManyResetRequestsPrefix, limit.retryAfterSeconds);
      }
      // The lookup, the code and the mail happen after the answer, which is the same (in content
      // and in time) whether or not the email is registered.
      mailer.defer(async () => {
        const user = await findStaffByEmail(db, email);
        if (user?.accountStatus !== 'ACTIVE') return;
        const code = generateResetCode();
        await db.transaction(async (tx) => {
          // A newer code replaces older ones.
          await tx
            .update(passwordResetCodes)
            .set({ usedAt: now })
            .where(
              and(
                eq(passwordResetCodes.userId, user.id),
                eq(passwordResetCodes.purpose, 'RESET'),
                isNull(passwordResetCodes.usedAt),
              ),
            );
          const mailId = await mailer.enqueue(
            tx,
            resetMail({ to: user.email, firstName: user.firstName, code, appUrl: appUrl(config) }),
            now,
          );
          await tx.insert(passwordResetCodes).values({
            userId: user.id,
            codeHash: sha256Hex(code),
            purpose: 'RESET',
            expiresAt: new Date(now.getTime() + RESET_CODE_TTL_MS),
            mailId,
            createdAt: now,
          });
          await recordEvent(tx, {
            actor: actorOf(user),
            action: actions.resetRequested,
            entity: 'user',
            entityId: user.id,
            meta,
            at: now,
          });
        });
      });
      return ok(c, null, authMessages.resetRequested);
    })
    .on('PATCH /auth/update-password', async (c) => {
      const { resetCode, newPassword } = c.req.valid('json');
      const now = clock();
      const meta = requestMeta(c, config.trustProxy);
      const limits = [[meta.ipAddress && buckets.resetCodeIp(meta.ipAddress), RESET_CODE_IP_LIMIT]] as const;
      const limit = await takeRateLimits(db, limits, now);
      await reportRateLimits(c, db, limits, now);
      if (limit.blocked) {
        throw tooManyRequests(authMessages.tooManyResetCodesPrefix, limit.retryAfterSeconds);
      }
      const passwordHash = await hasher.hash(newPassword);
      const done = await db.transaction(async (tx) => {
        const [claimed] = await tx
          .update(passwordResetCodes)
          .set({ usedAt: now })
          .where(
            and(
              eq(passwordResetCodes.codeHash, sha256Hex(normalizeResetCode(resetCode))),
              // A reset code, or the set-password code of a staff invitation (72 hours).
              inArray(passwordResetCodes.purpose, ['RESET', 'INVITE']),
              isNull(passwordResetCodes.usedAt),
              gt(passwordResetCodes.expiresAt, now),
            ),
          )
          .returning({ userId: passwordResetCodes.userId, purpose: passwordResetCodes.purpose });
        if (!claimed) return false;
        const user = await findStaffById(tx, claimed.userId);
        if (!user) return false;
        await tx.update(users).set({ passwordHash, updatedAt: now }).where(eq(users.id, user.id));
        await revokeAllForUser(tx, user.id, now);
        // Any other code of theirs (an older invitation, a reset) stops working too.
        await tx
          .update(passwordResetCodes)
          .set({ usedAt: now })
          .where(and(eq(passwordResetCodes.userId, user.id), isNull(passwordResetCodes.usedAt)));
        // A locked-out account is open again: the reset proved the owner (decision 013).
        await clearBucket(tx, buckets.login(user.email));
        await releaseHits(tx, limit.hitIds);
        await recordEvent(tx, {
          actor: actorOf(user),
          action: claimed.purpose === 'INVITE' ? actions.invitationAccepted : actions.resetCompleted,
          entity: 'user',
          entityId: user.id,
          meta,
          at: now,
        });
        return true;
      });
      if (!done) throw fieldError('resetCode', authMessages.resetCodeInvalid);
      return ok(c, null, authMessages.passwordUpdated);
    }).router;
}
