import { and, eq, isNull, type SQL, sql } from 'drizzle-orm';
import {
  staffServerMessages as msg,
  type StaffUser,
  staffChangeRefusal,
  staffList as staffListDefinition,
} from '../../contract/staff';
import type { DbOrTx } from '../db/client';
import { FOREIGN_KEY_VIOLATION, sqlState, UNIQUE_VIOLATION } from '../db/errors';
import { executeRows } from '../db/rows';
import { partners, passwordResetCodes, roles, users } from '../db/schema';
import type { AuthUser } from '../http/context';
import type { CsvColumn } from '../http/csv-export';
import { ApiError, fieldError } from '../http/errors';
import type { ListSpec } from '../http/list';
import { permissionsOfRole } from './permissions';
import { missingPermissions } from './roles';
import { permissionsOf, type StaffRow } from './users';

/* The staff rules the staff routes apply: who outranks whom, which roles one may grant, the last
 * active Super Admin, and the staff list's search, sort and CSV columns. */

/** Kept equal to the expression of the trigram index users_search_trgm_idx (schema.ts). */
const staffSearch = sql`(${users.firstName} || ' ' || ${users.lastName} || ' ' || ${users.email})`;

export const staffList: ListSpec<'firstName' | 'lastName' | 'email' | 'role' | 'createdAt'> & {
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
  list: staffListDefinition,
  tieBreaker: users.id,
  searchTarget: staffSearch,
  dateColumn: users.createdAt,
};

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

/** Active, live members holding the built-in role: the ones who can still administer everything. */
export async function activeSuperAdmins(tx: DbOrTx): Promise<number> {
  const [row] = await executeRows<{ n: number }>(
    tx,
    sql`select count(*)::int as n from ${users} join ${roles} on ${roles.id} = ${users.roleId}
        where ${roles.builtIn} and ${users.deletedAt} is null and ${users.accountStatus} = 'ACTIVE'`,
  );
  return Number(row?.n ?? 0);
}

export const isActiveSuperAdmin = (row: StaffRow) =>
  row.roleBuiltIn === true && row.accountStatus === 'ACTIVE';

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

/** Partner staff see and manage only their own partner's staff (decision 023). */
export const staffInScope = (partnerId: number | null): SQL | undefined =>
  partnerId === null ? undefined : eq(users.partnerId, partnerId);

type RoleInfo = { id: number; name: string; builtIn: boolean; partnerRole: boolean; permissions: string[] };

/** The role a member is given: it must exist, and its permissions must all be the actor's own. */
export async function grantableRole(db: DbOrTx, roleId: number, actor: AuthUser): Promise<RoleInfo> {
  const [role] = await db
    .select({
      id: roles.id,
      name: roles.name,
      builtIn: roles.builtIn,
      partnerRole: roles.partnerRole,
      permissions: roles.permissions,
    })
    .from(roles)
    .where(eq(roles.id, roleId))
    .limit(1);
  if (!role) throw fieldError('roleId', msg.roleNotFound);
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

export const staffCsvColumns: CsvColumn<StaffUser>[] = [
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
