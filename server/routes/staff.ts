import { and, eq, isNull } from 'drizzle-orm';
import { staffServerMessages as msg } from '../../contract/staff';
import type { DbOrTx } from '../db/client';
import { passwordResetCodes, users } from '../db/schema';
import { changedFields } from '../domain/changes';
import { actions } from '../domain/events';
import { clearBucket, loginBucket } from '../domain/rate-limit';
import { generateResetCode, INVITE_CODE_TTL_MS } from '../domain/reset-codes';
import { revokeAllForUser } from '../domain/sessions';
import {
  activeSuperAdmins,
  assertOutranks,
  grantableRole,
  isActiveSuperAdmin,
  lockSuperAdminRole,
  mapConstraintErrors,
  placement,
  voidCodes,
} from '../domain/staff';
import { sha256Hex } from '../domain/tokens';
import { findStaffByEmail, findStaffById, fullName, toStaffUser } from '../domain/users';
import { ApiError, fieldError } from '../errors';
import { callerChange } from '../http/change';
import type { RouteContext } from '../http/context';
import { ok } from '../http/errors';
import { routeSet } from '../http/route';
import { appUrl, inviteMail } from '../mail-templates';

/** A staff member: detail, invitation, edit, deletion. The list and its export: staff-list.ts. */
export function staffRoutes(ctx: RouteContext) {
  const { db, config, guards, hasher, mailer } = ctx;
  const notFound = () => new ApiError(404, msg.notFound);
  /** A live member inside the caller's scope (another partner's staff, or club staff, are 404). */
  const load = async (tx: DbOrTx, id: number, scope: number | null = null) => {
    const row = await findStaffById(tx, id);
    if (!row || (scope !== null && row.partnerId !== scope)) throw notFound();
    return row;
  };

  return routeSet(guards)
    .on('GET /admin/user/admin-detail', async (c) => {
      const q = c.req.valid('query');
      return ok(c, toStaffUser(await load(db, (q.userId ?? q.staffId)!, c.get('partnerScope'))));
    })
    .on('POST /admin/user/new-admin-user', async (c) => {
      const body = c.req.valid('json');
      const { user: actor, now, record } = callerChange(c, ctx);
      const role = await grantableRole(db, body.roleId, actor);
      // Partner staff invite to their own partner, whatever the body says (the guard refused a
      // foreign partnerId already): never an unscoped admin. A partner role needs a partner.
      const { partnerId, organizationName } = await placement(db, {
        scope: c.get('partnerScope'),
        requested: body.partnerId,
        current: null,
        partnerRole: role.partnerRole,
      });
      if (await findStaffByEmail(db, body.email)) throw fieldError('email', msg.emailTaken, 409);
      const code = generateResetCode();
      const id = await mapConstraintErrors(() =>
        db.transaction(async (tx) => {
          const [created] = await tx
            .insert(users)
            .values({
              email: body.email,
              passwordHash: null,
              firstName: body.firstName,
              lastName: body.lastName,
              userType: partnerId != null ? 'PARTNER' : 'ADMIN',
              roleId: role.id,
              partnerId,
              createdAt: now,
              updatedAt: now,
            })
            .returning({ id: users.id });
          const mailId = await mailer.enqueue(
            tx,
            inviteMail({
              to: body.email,
              firstName: body.firstName,
              inviter: fullName(actor),
              roleName: role.name,
              organizationName,
              code,
              appUrl: appUrl(config),
            }),
            now,
          );
          await tx.insert(passwordResetCodes).values({
            userId: created!.id,
            codeHash: sha256Hex(code),
            purpose: 'INVITE',
            expiresAt: new Date(now.getTime() + INVITE_CODE_TTL_MS),
            mailId,
            createdAt: now,
          });
          await record(tx, {
            action: actions.invitedStaff(fullName(body)),
            entity: 'user',
            entityId: created!.id,
            payload: {
              email: body.email,
              roleId: role.id,
              role: role.name,
              partnerId,
            },
          });
          return created!.id;
        }),
      );
      mailer.kick();
      return ok(c, toStaffUser(await load(db, id)), msg.invited, 201);
    })
    .on('PATCH /admin/user/update-admin-user', async (c) => {
      const body = c.req.valid('json');
      const { user: actor, now, record } = callerChange(c, ctx);
      // One's own password only with the current one (PATCH /user/profile/update-password): a
      // signed-in console left open must not let anyone set it. The whole call is refused.
      if (body.password !== undefined && body.userId === actor.id) {
        throw fieldError('password', msg.ownPasswordInProfile);
      }
      const target = await load(db, body.userId, c.get('partnerScope'));
      assertOutranks(actor, target, 'update');
      const role = body.roleId !== undefined ? await grantableRole(db, body.roleId, actor) : undefined;
      const placed = await placement(db, {
        scope: c.get('partnerScope'),
        requested: body.partnerId,
        current: target.partnerId,
        partnerRole: role ? role.partnerRole : target.rolePartnerRole === true,
      });
      const passwordHash = body.password !== undefined ? await hasher.hash(body.password) : undefined;

      const edited = changedFields(
        target,
        // An empty phone clears it (issue 22).
        { firstName: body.firstName, lastName: body.lastName, phone: body.phone === '' ? null : body.phone },
        { firstName: 'first name', lastName: 'last name', phone: 'phone' },
      );
      const changes: Partial<typeof users.$inferInsert> = edited.changes;
      const { changed } = edited;
      if (role && role.id !== target.roleId) {
        changes.roleId = role.id;
        changed.push(`role ${role.name}`);
      }
      if (placed.partnerId !== target.partnerId) {
        changes.partnerId = placed.partnerId;
        changes.userType = placed.partnerId === null ? 'ADMIN' : 'PARTNER';
        changed.push(placed.organizationName ? `partner ${placed.organizationName}` : 'partner (club staff)');
      }
      if (passwordHash) {
        changes.passwordHash = passwordHash;
        changed.push('password');
      }
      if (changed.length > 0) {
        await mapConstraintErrors(() =>
          db.transaction(async (tx) => {
            if (changes.roleId !== undefined) {
              await lockSuperAdminRole(tx);
              const current = await load(tx, target.id);
              if (isActiveSuperAdmin(current) && !role?.builtIn && (await activeSuperAdmins(tx)) <= 1) {
                throw new ApiError(409, msg.lastSuperAdminRole);
              }
            }
            const [updated] = await tx
              .update(users)
              .set({ ...changes, updatedAt: now })
              .where(and(eq(users.id, target.id), isNull(users.deletedAt)))
              .returning({ id: users.id });
            if (!updated) throw notFound();
            if (passwordHash) {
              // Their sessions end (never the actor's own: their own password is refused above).
              await revokeAllForUser(tx, target.id, now);
              await voidCodes(tx, target.id, now);
              await clearBucket(tx, loginBucket(target.email));
            }
            await record(tx, {
              action: actions.updatedStaff(fullName({ ...target, ...changes }), changed),
              entity: 'user',
              entityId: target.id,
              payload: {
                fields: Object.keys(changes),
                ...(role ? { roleId: role.id, role: role.name } : {}),
              },
            });
          }),
        );
      }
      return ok(c, toStaffUser(await load(db, target.id)), msg.updated);
    })
    .on('DELETE /admin/user/delete-admin-user/{staffId}', async (c) => {
      const { staffId } = c.req.valid('param');
      const { user: actor, now, commit } = callerChange(c, ctx);
      assertOutranks(actor, await load(db, staffId, c.get('partnerScope')), 'delete');
      await commit(async (tx) => {
        // Serialises deletions of Super Admins: two of them deleting each other cannot leave none.
        await lockSuperAdminRole(tx);
        const target = await load(tx, staffId);
        if (isActiveSuperAdmin(target) && (await activeSuperAdmins(tx)) <= 1) {
          throw new ApiError(409, msg.lastSuperAdminDelete);
        }
        await tx.update(users).set({ deletedAt: now, updatedAt: now }).where(eq(users.id, staffId));
        await revokeAllForUser(tx, staffId, now);
        await voidCodes(tx, staffId, now);
        return {
          action: actions.deletedStaff(fullName(target)),
          entity: 'user',
          entityId: staffId,
          payload: { email: target.email },
        };
      });
      return ok(c, null, msg.deleted);
    }).router;
}
