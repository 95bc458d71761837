import { eq } from 'drizzle-orm';
import { apiRoute } from '../../contract/api';
import { authMessages } from '../../contract/auth';
import type { DbOrTx } from '../db/client';
import { users } from '../db/schema';
import { actions, actorOfAuthUser, recordEvent } from '../domain/events';
import { runIdempotent, success } from '../domain/idempotency';
import { decodeImage, storeFile } from '../domain/images';
import { beginAttempt, settleAttempt } from '../domain/password-attempts';
import { buckets, clearBucket, PASSWORD_CHANGE_LIMIT } from '../domain/rate-limit';
import { revokeAllForUser } from '../domain/sessions';
import { findStaffById, toProfile } from '../domain/users';
import { ApiError, fieldError, tooManyRequests } from '../errors';
import { requestMeta } from '../http/client-address';
import type { RouteContext } from '../http/context';
import { ok } from '../http/errors';
import { idempotencyKeyOf, respond } from '../http/idempotency';
import { routeSet } from '../http/route';
import { conflict, expectedVersionOf, isStale } from '../http/versions';

/** The profile update's body limit (its descriptor's `bodyLimit`: one base64 image). */
export const PROFILE_BODY_LIMIT = apiRoute('PATCH /user/profile').bodyLimit;

/** The signed-in user's own profile and password (authentication only, no permission). */
export function profileRoutes(ctx: RouteContext) {
  const { db, clock, config, hasher, guards } = ctx;

  const load = async (id: number, tx: DbOrTx = db) => {
    const row = await findStaffById(tx, id);
    if (!row) throw new ApiError(401, authMessages.sessionInvalid);
    return row;
  };

  return routeSet(guards)
    .on('GET /user/profile', async (c) => ok(c, toProfile(await load(c.get('user').id))))
    .on('PATCH /user/profile', async (c) => {
      const user = c.get('user');
      const body = c.req.valid('json');
      const key = idempotencyKeyOf(c);
      const expected = expectedVersionOf(c);
      const now = clock();
      const changes: Partial<typeof users.$inferInsert> = {};
      if (body.firstName !== undefined) changes.firstName = body.firstName;
      if (body.lastName !== undefined) changes.lastName = body.lastName;
      if (body.address !== undefined) changes.address = body.address === '' ? null : body.address;
      let image: { bytes: Buffer; mime: string } | undefined;
      if (body.profileImage !== undefined) {
        const decoded = decodeImage(body.profileImage);
        if (!decoded.ok)
          throw fieldError('profileImage', decoded.message, decoded.reason === 'size' ? 413 : 400);
        image = decoded;
      }
      const fields = [...Object.keys(changes), ...(image ? ['profileImage'] : [])];
      const route = 'profile-update';
      const outcome = await runIdempotent(db, { key, userId: user.id, route, body, now }, async (tx) => {
        // The row lock orders this edit after any other change to the user in flight.
        const [locked] = await tx
          .select({ updatedAt: users.updatedAt })
          .from(users)
          .where(eq(users.id, user.id))
          .for('update');
        if (!locked) throw new ApiError(401, authMessages.sessionInvalid);
        if (isStale(expected, locked.updatedAt)) return conflict(toProfile(await load(user.id, tx)));
        if (fields.length > 0) {
          if (image) changes.imageUrl = await storeFile(tx, image.bytes, image.mime, now);
          await tx
            .update(users)
            .set({ ...changes, updatedAt: now })
            .where(eq(users.id, user.id));
          await recordEvent(tx, {
            // The actor as they are after the change.
            actor: actorOfAuthUser({
              ...user,
              firstName: changes.firstName ?? user.firstName,
              lastName: changes.lastName ?? user.lastName,
              imageUrl: changes.imageUrl ?? user.imageUrl,
            }),
            action: actions.profileUpdated,
            entity: 'user',
            entityId: user.id,
            payload: { fields, ...(changes.imageUrl ? { imageUrl: changes.imageUrl } : {}) },
            meta: requestMeta(c, config.trustProxy),
            at: now,
          });
        }
        return success(toProfile(await load(user.id, tx)), 'Profile updated successfully');
      });
      return respond(c, outcome);
    })
    .on('PATCH /user/profile/update-password', async (c) => {
      const user = c.get('user');
      const { oldPassword, newPassword } = c.req.valid('json');
      const now = clock();
      // Wrong old passwords are limited like sign-in failures (5 per account in 15 minutes, 429 with
      // Retry-After): a stolen token alone cannot guess the password (issue 16 defect 7).
      const attempt = await beginAttempt(db, [[buckets.passwordChange(user.id), PASSWORD_CHANGE_LIMIT]], now);
      if (attempt.blocked) {
        throw tooManyRequests(
          authMessages.tooManyPasswordAttemptsPrefix,
          attempt.retryAfterSeconds,
          'oldPassword',
        );
      }
      const row = await load(user.id);
      if (!row.passwordHash || !(await hasher.verify(row.passwordHash, oldPassword))) {
        await settleAttempt(db, attempt, true);
        throw fieldError('oldPassword', authMessages.oldPasswordIncorrect);
      }
      await settleAttempt(db, attempt, false);
      const passwordHash = await hasher.hash(newPassword);
      await db.transaction(async (tx) => {
        await clearBucket(tx, buckets.passwordChange(user.id));
        await tx.update(users).set({ passwordHash, updatedAt: now }).where(eq(users.id, user.id));
        // Other sessions end; this one goes on.
        await revokeAllForUser(tx, user.id, now, user.sessionId);
        await recordEvent(tx, {
          actor: actorOfAuthUser(user),
          action: actions.passwordChanged,
          entity: 'user',
          entityId: user.id,
          meta: requestMeta(c, config.trustProxy),
          at: now,
        });
      });
      return ok(c, null, authMessages.passwordUpdated);
    }).router;
}
