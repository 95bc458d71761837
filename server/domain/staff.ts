import { and, eq, isNull, sql } from 'drizzle-orm';
import { staffServerMessages as msg, staffChangeRefusal } from '../../contract/staff';
import type { DbOrTx } from '../db/client';
import { FOREIGN_KEY_VIOLATION, sqlState, UNIQUE_VIOLATION } from '../db/errors';
import { executeRows } from '../db/rows';
import { partners, passwordResetCodes, roles, users } from '../db/schema';
import { ApiError, fieldError } from '../errors';
import type { AuthUser } from '../types';
import { permissionsOfRole } from './permissions';
import { findRole, missingPermissions, type RoleRow } from './roles';
import { permissionsOf, type StaffRow } from './users';

/* The staff rules the staff routes apply: who outranks whom, which roles one may grant, the last
 * active Super Admin, where a member works. The list and its export: routes/staff-list.ts. */

/** Role id of the built-in Super Admin role, locked for the rest of the transaction. */
export async function lockSuperAdminRole(tx: DbOrTx): Promise<number | undefined> {
  const [row] = await tx
    .select({ id: roles.id })
    .from(roles)
    .where(eq(roles.builtIn, true))
    .limit(1)
    .for('update');
  return row?.id;
}

/**
 * Active, live club members holding the built-in role: the ones who can still administer everything
 * (partner staff never count: a partner's user is bound to one partner, issue 28).
 */
export async function activeSuperAdmins(tx: DbOrTx): Promise<number> {
  const [row] = await executeRows<{ n: number }>(
    tx,
    sql`select count(*)::int as n from ${users} join ${roles} on ${roles.id} = ${users.roleId}
        where ${roles.builtIn} and ${users.deletedAt} is null and ${users.accountStatus} = 'ACTIVE'
          and ${users.partnerId} is null`,
  );
  return Number(row?.n ?? 0);
}

export const isActiveSuperAdmin = (row: StaffRow) =>
  row.roleBuiltIn === true && row.accountStatus === 'ACTIVE' && row.partnerId === null;

/**
 * Nobody manages a member who holds permissions they lack themselves (no way round the roles), and
 * only a Super Admin touches a Super Admin (a custom role holding every permission does not).
 */
export function assertOutranks(actor: AuthUser, target: StaffRow, action: 'update' | 'delete') {
  const refusal = staffChangeRefusal(
    actor,
    { id: target.id, permissions: permissionsOf(target), superAdmin: target.roleBuiltIn === true },
    action,
  );
  if (refusal) throw new ApiError(refusal.status, refusal.message);
}

/** The role a member is given: it must exist, and its permissions must all be the actor's own. */
export async function grantableRole(db: DbOrTx, roleId: number, actor: AuthUser): Promise<RoleRow> {
  const role = await findRole(db, roleId);
  if (!role) throw fieldError('roleId', msg.roleNotFound);
  // Partner staff give partner roles only: a club role (the Super Admin's too) is refused whatever
  // permissions they hold (issue 28).
  if (actor.partnerId !== null && !role.partnerRole) throw new ApiError(403, msg.clubRoleByPartner);
  const granted = permissionsOfRole(role.builtIn ? { builtIn: true } : { permissions: role.permissions });
  if (missingPermissions(granted, actor.permissions).length) throw new ApiError(403, msg.cannotGrant);
  return role;
}

/**
 * Where a member works (issue 22): partner staff place whom they invite or edit at their own
 * partner, whatever was sent; otherwise the partner asked for (`current` when none was sent). A
 * partner role needs a partner; a partner newly named must exist.
 */
export async function placement(
  db: DbOrTx,
  o: {
    scope: number | null;
    requested: number | null | undefined;
    current: number | null;
    partnerRole: boolean;
  },
): Promise<{ partnerId: number | null; organizationName: string | null }> {
  const partnerId = o.scope ?? (o.requested === undefined ? o.current : o.requested);
  if (partnerId === null) {
    if (o.partnerRole) throw fieldError('partnerId', msg.partnerRequired);
    return { partnerId, organizationName: null };
  }
  const [partner] = await db
    .select({ organizationName: partners.organizationName, deletedAt: partners.deletedAt })
    .from(partners)
    .where(eq(partners.id, partnerId));
  if (!partner || (partner.deletedAt && partnerId !== o.current)) {
    throw fieldError('partnerId', msg.partnerNotFound);
  }
  return { partnerId, organizationName: partner.organizationName };
}

/** Unique and foreign-key races (the same email twice; a role deleted meanwhile) as 409 / 400. */
export async function mapConstraintErrors<T>(work: () => Promise<T>): Promise<T> {
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
export const voidCodes = (tx: DbOrTx, userId: number, now: Date) =>
  tx
    .update(passwordResetCodes)
    .set({ usedAt: now })
    .where(and(eq(passwordResetCodes.userId, userId), isNull(passwordResetCodes.usedAt)));
