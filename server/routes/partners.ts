import { and, eq, isNull } from 'drizzle-orm';
import { partnerServerMessages as msg, partnerMessages } from '../../contract/partners';
import type { DbOrTx } from '../db/client';
import { partnerExtendedServices, partners, passwordResetCodes, users } from '../db/schema';
import { changedFields } from '../domain/changes';
import { accountStatusEvent, actions } from '../domain/events';
import { runIdempotent, success } from '../domain/idempotency';
import { storeFile } from '../domain/images';
import {
  assertEmailFree,
  assertServices,
  findLivePartner,
  type PartnerRow,
  partnerWelcomeMail,
  partnerWithServices,
  servicesOf,
  uniqueEmail,
} from '../domain/partners';
import { assertPartnerScope } from '../domain/scope';
import { revokeAllForUser } from '../domain/sessions';
import { partnerStatusMessage } from '../domain/status-webhooks';
import { fullName } from '../domain/users';
import { ApiError } from '../errors';
import { callerChange } from '../http/change';
import type { RouteContext } from '../http/context';
import { ok } from '../http/errors';
import { idempotencyKeyOf, respond } from '../http/idempotency';
import { imageField } from '../http/images';
import { routeSet } from '../http/route';
import { conflict, expectedVersionOf, isStale } from '../http/versions';

/** /admin/partners: partners, their figures, and the partner's analytics. */
export function partnerRoutes(ctx: RouteContext) {
  const { db, guards, mailer } = ctx;
  const notFound = () => new ApiError(404, msg.notFound);
  const load = async (tx: DbOrTx, id: number, lock = false): Promise<PartnerRow> => {
    const row = await findLivePartner(tx, id, lock);
    if (!row) throw notFound();
    return row;
  };

  return routeSet(guards)
    .on('GET /admin/partners/{partnerId}', async (c) => {
      const { partnerId } = c.req.valid('param');
      assertPartnerScope(c.get('user'), partnerId, msg.notFound);
      return ok(c, await partnerWithServices(db, await load(db, partnerId)));
    })
    .on('POST /admin/partners/invite', async (c) => {
      const body = c.req.valid('json');
      const { now, record } = callerChange(c, ctx);
      const cover = imageField('coverImage', body.coverImage, partnerMessages.coverImageNotImage);
      await assertEmailFree(db, body.email);
      // Everything or nothing: the file, the partner, its services, the mail and the event.
      const id = await uniqueEmail(() =>
        db.transaction(async (tx) => {
          await assertServices(tx, body.extendedServiceIds);
          const coverImage = await storeFile(tx, cover.bytes, cover.mime, now);
          const [created] = await tx
            .insert(partners)
            .values({
              firstName: body.firstName,
              lastName: body.lastName,
              email: body.email,
              phone: body.phone,
              organizationName: body.organizationName,
              address: body.address,
              coverImage,
              minSpendToQualify: body.minSpendToQualify,
              createdAt: now,
              updatedAt: now,
            })
            .returning({ id: partners.id });
          const partnerId = created!.id;
          await tx.insert(partnerExtendedServices).values(
            [...new Set(body.extendedServiceIds)].map((extendedServiceId) => ({
              partnerId,
              extendedServiceId,
            })),
          );
          await mailer.enqueue(tx, partnerWelcomeMail(body), now);
          await record(tx, {
            action: actions.addedPartner(body.organizationName),
            entity: 'partner',
            entityId: partnerId,
            payload: {
              email: body.email,
              minSpendToQualify: body.minSpendToQualify,
              extendedServiceIds: body.extendedServiceIds,
              coverImage,
            },
          });
          return partnerId;
        }),
      );
      mailer.kick();
      return ok(c, await partnerWithServices(db, await load(db, id)), partnerMessages.added, 201);
    })
    .on('PATCH /admin/partners/update-record', async (c) => {
      const body = c.req.valid('json');
      const { user: actor, now, record } = callerChange(c, ctx);
      const cover =
        body.coverImage !== undefined
          ? imageField('coverImage', body.coverImage, partnerMessages.coverImageNotImage)
          : undefined;
      const key = idempotencyKeyOf(c);
      const expected = expectedVersionOf(c);
      await load(db, body.partnerId);
      const route = 'partner-update';
      const outcome = await runIdempotent(db, { key, userId: actor.id, route, body, now }, async (tx) => {
        const before = await load(tx, body.partnerId, true);
        if (isStale(expected, before.updatedAt)) return conflict(await partnerWithServices(tx, before));
        const edited = changedFields(
          before,
          {
            firstName: body.firstName,
            lastName: body.lastName,
            organizationName: body.organizationName,
            address: body.address,
            phone: body.phone,
            minSpendToQualify: body.minSpendToQualify,
          },
          {
            firstName: 'first name',
            lastName: 'last name',
            organizationName: 'organization name',
            address: 'address',
            phone: 'phone',
            minSpendToQualify: 'minimum spend',
          },
        );
        const changes: Partial<typeof partners.$inferInsert> = edited.changes;
        const { changed } = edited;
        if (cover) {
          const url = await storeFile(tx, cover.bytes, cover.mime, now);
          if (url !== before.coverImage) {
            changes.coverImage = url;
            changed.push('cover image');
          }
        }
        if (body.extendedServiceIds !== undefined) {
          const next = [...new Set(body.extendedServiceIds)].sort((a, b) => a - b);
          const current = ((await servicesOf(tx, [before.id])).get(before.id) ?? []).map((x) => x.id);
          if (next.join(',') !== current.join(',')) {
            await assertServices(tx, next);
            await tx.delete(partnerExtendedServices).where(eq(partnerExtendedServices.partnerId, before.id));
            await tx
              .insert(partnerExtendedServices)
              .values(next.map((extendedServiceId) => ({ partnerId: before.id, extendedServiceId })));
            changed.push('extended services');
          }
        }
        if (changed.length > 0) {
          await tx
            .update(partners)
            .set({ ...changes, updatedAt: now })
            .where(eq(partners.id, before.id));
          await record(tx, {
            action: actions.updatedPartner(changes.organizationName ?? before.organizationName, changed),
            entity: 'partner',
            entityId: before.id,
            payload: {
              fields: changed,
              ...(changes.organizationName ? { previousName: before.organizationName } : {}),
              ...(body.extendedServiceIds ? { extendedServiceIds: body.extendedServiceIds } : {}),
            },
          });
        }
        return success(await partnerWithServices(tx, await load(tx, before.id)), msg.updated);
      });
      return respond(c, outcome);
    })
    .on('PATCH /admin/partners/update-status', async (c) => {
      const { partnerId, accountStatus } = c.req.valid('json');
      const { now, commit } = callerChange(c, ctx);
      await commit(async (tx) => {
        const before = await load(tx, partnerId, true);
        if (before.accountStatus === accountStatus) return undefined;
        await tx.update(partners).set({ accountStatus, updatedAt: now }).where(eq(partners.id, partnerId));
        return {
          ...accountStatusEvent('partner', before, before.organizationName, accountStatus),
          webhook: partnerStatusMessage(partnerId, accountStatus, now),
        };
      });
      return ok(
        c,
        await partnerWithServices(db, await load(db, partnerId)),
        accountStatus === 'BLOCKED' ? msg.blocked : msg.unblocked,
      );
    })
    .on('DELETE /admin/partners/{partnerId}', async (c) => {
      const { partnerId } = c.req.valid('param');
      const { now, commit } = callerChange(c, ctx);
      await commit(async (tx) => {
        const partner = await load(tx, partnerId, true);
        // Soft delete: hidden from lists and figures; visits, rewards and the event log keep it.
        await tx.update(partners).set({ deletedAt: now, updatedAt: now }).where(eq(partners.id, partnerId));
        // Its staff go with it: their accounts end, their sessions and unused codes stop working.
        const staff = await tx
          .update(users)
          .set({ deletedAt: now, updatedAt: now })
          .where(and(eq(users.partnerId, partnerId), isNull(users.deletedAt)))
          .returning({ id: users.id, firstName: users.firstName, lastName: users.lastName });
        for (const s of staff) {
          await revokeAllForUser(tx, s.id, now);
          await tx
            .update(passwordResetCodes)
            .set({ usedAt: now })
            .where(and(eq(passwordResetCodes.userId, s.id), isNull(passwordResetCodes.usedAt)));
        }
        return {
          action: actions.deletedPartner(partner.organizationName),
          entity: 'partner',
          entityId: partnerId,
          payload: {
            email: partner.email,
            staffRemoved: staff.map((s) => ({ id: s.id, name: fullName(s) })),
          },
        };
      });
      return ok(c, null, msg.deleted);
    }).router;
}
