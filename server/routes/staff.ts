import { and, eq, isNull, type SQL, sql } from 'drizzle-orm';
import { Hono } from 'hono';
import { createFactory } from 'hono/factory';
import {
  INVITE_MAIL_SUBJECT,
  inviteStaffBodySchema,
  staffServerMessages as msg,
  type StaffUser,
  staffDetailQuerySchema,
  staffIdParamSchema,
  staffListQuerySchema,
  updateStaffBodySchema,
} from '../../contract/staff';
import type { UserStats } from '../../contract/stats';
import type { DbOrTx } from '../db/client';
import { FOREIGN_KEY_VIOLATION, sqlState, UNIQUE_VIOLATION } from '../db/errors';
import { executeRows } from '../db/rows';
import { partners, passwordResetCodes, roles, users } from '../db/schema';
import { liveStaffCount, userStats } from '../domain/counts';
import { actions, actorOfAuthUser, recordEvent, requestMeta } from '../domain/events';
import { permissionsOfRole } from '../domain/permissions';
import { clearBucket, loginBucket } from '../domain/rate-limit';
import { generateResetCode, INVITE_CODE_TTL_MS } from '../domain/reset-codes';
import { missingPermissions } from '../domain/roles';
import { revokeAllForUser } from '../domain/sessions';
import { sha256Hex } from '../domain/tokens';
import {
  findStaffByEmail,
  findStaffById,
  fullName,
  permissionsOf,
  type StaffRow,
  staffColumns,
  toStaffUser,
} from '../domain/users';
import type { AppEnv, AuthUser, RouteContext } from '../http/context';
import { type CsvColumn, exportCsv } from '../http/csv-export';
import { ApiError, fieldError, ok } from '../http/errors';
import { type ListSpec, listPage } from '../http/list';
import { jsonBody, pathParams, queryParams } from '../http/validate';

/** Kept equal to the expression of the trigram index users_search_trgm_idx (schema.ts). */
const staffSearch = sql`(${users.firstName} || ' ' || ${users.lastName} || ' ' || ${users.email})`;

const staffList: ListSpec<'firstName' | 'lastName' | 'email' | 'role' | 'createdAt'> & {
  nullableSorts: 'role'[];
} = {
  // A member without a role sorts by NULL (last ascending, first descending).
  nullableSorts: ['role'],
  sortColumns: {
    firstName: sql`lower(${users.firstName})`,
    lastName: sql`lower(${users.lastName})`,
    email: sql`lower(${users.email})`,
    role: sql`lower(${roles.name})`,
    createdAt: users.createdAt,
  },
  defaultSort: { by: 'createdAt', order: 'desc' },
  tieBreaker: users.id,
  searchTarget: staffSearch,
  dateColumn: users.createdAt,
};

/** Role id of the built-in Super Admin role, locked for the rest of the transaction. */
async function lockSuperAdminRole(tx: DbOrTx): Promise<number | undefined> {
  const [row] = await tx
    .select({ id: roles.id })
    .from(roles)
    .where(eq(roles.builtIn, true))
    .limit(1)
    .for('update');
  return row?.id;
}

/** Active, live members holding the built-in role: the ones who can still administer everything. */
async function activeSuperAdmins(tx: DbOrTx): Promise<number> {
  const [row] = await executeRows<{ n: number }>(
    tx,
    sql`select count(*)::int as n from ${users} join ${roles} on ${roles.id} = ${users.roleId}
        where ${roles.builtIn} and ${users.deletedAt} is null and ${users.accountStatus} = 'ACTIVE'`,
  );
  return Number(row?.n ?? 0);
}

const isActiveSuperAdmin = (row: StaffRow) => row.roleBuiltIn === true && row.accountStatus === 'ACTIVE';

/**
 * Nobody manages a member who holds permissions they lack themselves (no way round the roles), and
 * only a Super Admin touches a Super Admin (a custom role holding every permission does not).
 */
function assertOutranks(actor: AuthUser, target: StaffRow) {
  if (actor.id === target.id) return;
  if (missingPermissions(permissionsOf(target), actor.permissions).length) {
    throw new ApiError(403, msg.outranked);
  }
  if (target.roleBuiltIn === true && !actor.superAdmin) throw new ApiError(403, msg.superAdminOnly);
}

/** Partner staff see and manage only their own partner's staff (decision 023). */
const staffInScope = (partnerId: number | null): SQL | undefined =>
  partnerId === null ? undefined : eq(users.partnerId, partnerId);

type RoleInfo = { id: number; name: string; builtIn: boolean; permissions: string[] };

/** The role a member is given: it must exist, and its permissions must all be the actor's own. */
async function grantableRole(db: DbOrTx, roleId: number, actor: AuthUser): Promise<RoleInfo> {
  const [role] = await db
    .select({ id: roles.id, name: roles.name, builtIn: roles.builtIn, permissions: roles.permissions })
    .from(roles)
    .where(eq(roles.id, roleId))
    .limit(1);
  if (!role) throw fieldError('roleId', msg.roleNotFound);
  const granted = permissionsOfRole(role.builtIn ? { builtIn: true } : { permissions: role.permissions });
  if (missingPermissions(granted, actor.permissions).length) throw new ApiError(403, msg.cannotGrant);
  return role;
}

const staffCsvColumns: CsvColumn<StaffUser>[] = [
  { header: 'ID', value: (r) => r.id },
  { header: 'First name', value: (r) => r.firstName },
  { header: 'Last name', value: (r) => r.lastName },
  { header: 'Email', value: (r) => r.email },
  { header: 'Phone', value: (r) => r.phone },
  { header: 'Role', value: (r) => r.userRole?.name },
  { header: 'Type', value: (r) => r.userType },
  { header: 'Organization', value: (r) => r.organizationName },
  { header: 'Status', value: (r) => r.accountStatus },
  { header: 'Password set', value: (r) => (r.hasPassword ? 'Yes' : 'No') },
  { header: 'Created', value: (r) => r.createdAt },
];

/** Unique and foreign-key races (the same email twice; a role deleted meanwhile) as 409 / 400. */
async function mapConstraintErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    const state = sqlState(err);
    if (state === UNIQUE_VIOLATION) throw fieldError('email', msg.emailTaken, 409);
    if (state === FOREIGN_KEY_VIOLATION) throw fieldError('roleId', msg.roleNotFound);
    throw err;
  }
}

/** Unused set-password and reset codes of a member stop working. */
const voidCodes = (tx: DbOrTx, userId: number, now: Date) =>
  tx
    .update(passwordResetCodes)
    .set({ usedAt: now })
    .where(and(eq(passwordResetCodes.userId, userId), isNull(passwordResetCodes.usedAt)));

export function inviteMail(opts: {
  to: string;
  firstName: string;
  inviter: string;
  roleName: string;
  code: string;
}) {
  return {
    to: opts.to,
    subject: INVITE_MAIL_SUBJECT,
    text: [
      `Hello ${opts.firstName},`,
      '',
      `${opts.inviter} invited you to Reward Club Admin as ${opts.roleName}.`,
      '',
      `Your set-password code is: ${opts.code}`,
      '',
      'Open the console, choose to set a password with a code, and enter this code with a password of',
      'your choice. Then sign in with this email address. The code is valid for 72 hours and can be used',
      'once; after that, ask for a password reset code on the sign-in screen.',
      '',
      'Reward Club',
    ].join('\n'),
  };
}

/** /admin: staff members (both list paths of SPEC section 7) and club-wide user figures. */
export function staffRoutes(ctx: RouteContext) {
  const { db, clock, config, guards, hasher, mailer } = ctx;
  const factory = createFactory<AppEnv>();
  const notFound = () => new ApiError(404, msg.notFound);
  /** A live member inside the caller's scope (another partner's staff, or club staff, are 404). */
  const load = async (tx: DbOrTx, id: number, scope: number | null = null) => {
    const row = await findStaffById(tx, id);
    if (!row || (scope !== null && row.partnerId !== scope)) throw notFound();
    return row;
  };

  const listStaff = factory.createHandlers(
    guards.requirePermission('staff.view', 'partner'),
    queryParams(staffListQuerySchema),
    async (c) => {
      const q = c.req.valid('query');
      const scope = c.get('partnerScope');
      const data = await listPage(staffList, q, {
        filters: [isNull(users.deletedAt), staffInScope(scope)],
        rows: async (p) =>
          (
            await db
              .select(staffColumns)
              .from(users)
              .leftJoin(roles, eq(roles.id, users.roleId))
              .leftJoin(partners, eq(partners.id, users.partnerId))
              .where(p.where)
              .orderBy(...p.orderBy)
              .limit(p.limit)
              .offset(p.offset)
          ).map(toStaffUser),
        count: async (where: SQL | undefined) => {
          const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(users).where(where);
          return Number(row?.n ?? 0);
        },
        total: scope === null ? () => liveStaffCount(db) : undefined,
      });
      return ok(c, data);
    },
  );

  const exportStaff = factory.createHandlers(
    guards.requirePermission('staff.view', 'partner'),
    queryParams(staffListQuerySchema),
    async (c) => {
      const q = c.req.valid('query');
      const scope = c.get('partnerScope');
      return exportCsv(c, {
        name: 'staff',
        spec: staffList,
        query: q,
        filters: [isNull(users.deletedAt), staffInScope(scope)],
        columns: staffCsvColumns,
        clock,
        log: ctx.log,
        batchSize: ctx.config.exportBatchSize,
        count: async (where) => {
          const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(users).where(where);
          return Number(row?.n ?? 0);
        },
        total: scope === null ? () => liveStaffCount(db) : undefined,
        batch: async (p) => {
          const raw = await db
            .select({ ...staffColumns, ...p.keyFields })
            .from(users)
            .leftJoin(roles, eq(roles.id, users.roleId))
            .leftJoin(partners, eq(partners.id, users.partnerId))
            .where(p.where)
            .orderBy(...p.orderBy)
            .limit(p.limit);
          return { records: raw.map(toStaffUser), last: raw.at(-1) };
        },
      });
    },
  );

  return new Hono<AppEnv>()
    .get('/user/stats', guards.requirePermission('dashboard.view', 'club'), async (c) => {
      // Live partners, customers and staff, from the counters of migration 0012 (decision 011).
      const stats: UserStats = await userStats(db);
      return ok(c, stats);
    })
    .get('/user/admin-users', ...listStaff)
    .get('/admin-users', ...listStaff)
    .get('/user/admin-users/export', ...exportStaff)
    .get('/admin-users/export', ...exportStaff)
    .get(
      '/user/admin-detail',
      guards.requirePermission('staff.view', 'partner'),
      queryParams(staffDetailQuerySchema),
      async (c) => {
        const q = c.req.valid('query');
        return ok(c, toStaffUser(await load(db, (q.userId ?? q.staffId)!, c.get('partnerScope'))));
      },
    )
    .post(
      '/user/new-admin-user',
      guards.requirePermission('staff.create', 'partner'),
      jsonBody(inviteStaffBodySchema),
      async (c) => {
        const actor = c.get('user');
        const body = c.req.valid('json');
        const now = clock();
        const meta = requestMeta(c, config.trustProxy);
        const role = await grantableRole(db, body.roleId, actor);
        // Partner staff invite to their own partner, whatever the body says (the guard refused a
        // foreign partnerId already): never an unscoped admin.
        const partnerId = c.get('partnerScope') ?? body.partnerId ?? null;
        if (partnerId != null) {
          const [partner] = await db
            .select({ id: partners.id })
            .from(partners)
            .where(and(eq(partners.id, partnerId), isNull(partners.deletedAt)));
          if (!partner) throw fieldError('partnerId', msg.partnerNotFound);
        }
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
            await tx.insert(passwordResetCodes).values({
              userId: created!.id,
              codeHash: sha256Hex(code),
              purpose: 'INVITE',
              expiresAt: new Date(now.getTime() + INVITE_CODE_TTL_MS),
              createdAt: now,
            });
            await mailer.enqueue(
              tx,
              inviteMail({
                to: body.email,
                firstName: body.firstName,
                inviter: fullName(actor),
                roleName: role.name,
                code,
              }),
              now,
            );
            await recordEvent(tx, {
              actor: actorOfAuthUser(actor),
              action: actions.invitedStaff(fullName(body)),
              entity: 'user',
              entityId: created!.id,
              payload: {
                email: body.email,
                roleId: role.id,
                role: role.name,
                partnerId,
              },
              meta,
              at: now,
            });
            return created!.id;
          }),
        );
        mailer.kick();
        return ok(c, toStaffUser(await load(db, id)), msg.invited, 201);
      },
    )
    .patch(
      '/user/update-admin-user',
      guards.requirePermission('staff.update', 'partner'),
      jsonBody(updateStaffBodySchema),
      async (c) => {
        const actor = c.get('user');
        const body = c.req.valid('json');
        const now = clock();
        const meta = requestMeta(c, config.trustProxy);
        const target = await load(db, body.userId, c.get('partnerScope'));
        assertOutranks(actor, target);
        const role = body.roleId !== undefined ? await grantableRole(db, body.roleId, actor) : undefined;
        const passwordHash = body.password !== undefined ? await hasher.hash(body.password) : undefined;

        const changes: Partial<typeof users.$inferInsert> = {};
        const changed: string[] = [];
        if (body.firstName !== undefined && body.firstName !== target.firstName) {
          changes.firstName = body.firstName;
          changed.push('first name');
        }
        if (body.lastName !== undefined && body.lastName !== target.lastName) {
          changes.lastName = body.lastName;
          changed.push('last name');
        }
        if (body.phone !== undefined && body.phone !== target.phone) {
          changes.phone = body.phone;
          changed.push('phone');
        }
        if (role && role.id !== target.roleId) {
          changes.roleId = role.id;
          changed.push(`role ${role.name}`);
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
                // Their sessions end (the actor's own session goes on when they change themselves).
                await revokeAllForUser(
                  tx,
                  target.id,
                  now,
                  target.id === actor.id ? actor.sessionId : undefined,
                );
                await voidCodes(tx, target.id, now);
                await clearBucket(tx, loginBucket(target.email));
              }
              await recordEvent(tx, {
                actor: actorOfAuthUser(actor),
                action: actions.updatedStaff(fullName({ ...target, ...changes }), changed),
                entity: 'user',
                entityId: target.id,
                payload: {
                  fields: Object.keys(changes),
                  ...(role ? { roleId: role.id, role: role.name } : {}),
                },
                meta,
                at: now,
              });
            }),
          );
        }
        return ok(c, toStaffUser(await load(db, target.id)), msg.updated);
      },
    )
    .delete(
      '/user/delete-admin-user/:staffId',
      guards.requirePermission('staff.delete', 'partner'),
      pathParams(staffIdParamSchema),
      async (c) => {
        const actor = c.get('user');
        const { staffId } = c.req.valid('param');
        const now = clock();
        const meta = requestMeta(c, config.trustProxy);
        if (staffId === actor.id) throw new ApiError(409, msg.cannotDeleteSelf);
        assertOutranks(actor, await load(db, staffId, c.get('partnerScope')));
        await db.transaction(async (tx) => {
          // Serialises deletions of Super Admins: two of them deleting each other cannot leave none.
          await lockSuperAdminRole(tx);
          const target = await load(tx, staffId);
          if (isActiveSuperAdmin(target) && (await activeSuperAdmins(tx)) <= 1) {
            throw new ApiError(409, msg.lastSuperAdminDelete);
          }
          await tx.update(users).set({ deletedAt: now, updatedAt: now }).where(eq(users.id, staffId));
          await revokeAllForUser(tx, staffId, now);
          await voidCodes(tx, staffId, now);
          await recordEvent(tx, {
            actor: actorOfAuthUser(actor),
            action: actions.deletedStaff(fullName(target)),
            entity: 'user',
            entityId: staffId,
            payload: { email: target.email },
            meta,
            at: now,
          });
        });
        return ok(c, null, msg.deleted);
      },
    );
}
