import { and, eq, isNull, type SQL, sql } from 'drizzle-orm';
import type { SessionUser } from '../../contract/auth';
import { partnerInactiveMessages } from '../../contract/partners';
import type { Profile } from '../../contract/profile';
import type { StaffUser } from '../../contract/staff';
import type { DbOrTx } from '../db/client';
import { partners, roles, users } from '../db/schema';
import { permissionsOfRole } from './permissions';

/** A staff user with their role and partner, as sign-in and the profile need them. */
export type StaffRow = {
  id: number;
  email: string;
  passwordHash: string | null;
  firstName: string;
  lastName: string;
  phone: string | null;
  address: string | null;
  imageUrl: string | null;
  userType: 'ADMIN' | 'PARTNER';
  partnerId: number | null;
  organizationName: string | null;
  /** The partner's own status and deletion (partner staff only). */
  partnerStatus: 'ACTIVE' | 'BLOCKED' | null;
  partnerDeletedAt: Date | null;
  accountStatus: 'ACTIVE' | 'BLOCKED';
  createdAt: Date;
  updatedAt: Date;
  roleId: number | null;
  roleName: string | null;
  rolePermissions: string[] | null;
  roleBuiltIn: boolean | null;
  /** The role is for partner staff (roles.partner_role). */
  rolePartnerRole: boolean | null;
};

/** The columns of a staff member with role and partner (users ⟕ roles ⟕ partners). */
export const staffColumns = {
  id: users.id,
  email: users.email,
  passwordHash: users.passwordHash,
  firstName: users.firstName,
  lastName: users.lastName,
  phone: users.phone,
  address: users.address,
  imageUrl: users.imageUrl,
  userType: users.userType,
  partnerId: users.partnerId,
  organizationName: partners.organizationName,
  partnerStatus: partners.accountStatus,
  partnerDeletedAt: partners.deletedAt,
  accountStatus: users.accountStatus,
  createdAt: users.createdAt,
  updatedAt: users.updatedAt,
  roleId: roles.id,
  roleName: roles.name,
  rolePermissions: roles.permissions,
  roleBuiltIn: roles.builtIn,
  rolePartnerRole: roles.partnerRole,
};

async function findStaff(db: DbOrTx, where: SQL): Promise<StaffRow | undefined> {
  const [row] = await db
    .select(staffColumns)
    .from(users)
    .leftJoin(roles, eq(roles.id, users.roleId))
    .leftJoin(partners, eq(partners.id, users.partnerId))
    .where(and(where, isNull(users.deletedAt)))
    .limit(1);
  return row;
}

/** Not deleted; any status (the caller decides what BLOCKED means). */
export const findStaffByEmail = (db: DbOrTx, email: string) =>
  findStaff(db, sql`lower(${users.email}) = ${email.trim().toLowerCase()}`);

export const findStaffById = (db: DbOrTx, id: number) => findStaff(db, eq(users.id, id));

const roleOf = (row: StaffRow) =>
  row.roleId != null && row.roleName != null ? { id: row.roleId, name: row.roleName } : null;

const withRole = <T>(row: StaffRow, more: (role: { id: number; name: string }) => T): T | null => {
  const role = roleOf(row);
  return role ? more(role) : null;
};

export const permissionsOf = (row: StaffRow): string[] =>
  row.roleId == null
    ? []
    : permissionsOfRole(row.roleBuiltIn ? { builtIn: true } : { permissions: row.rolePermissions ?? [] });

/** The role as the session and the profile show it: `builtIn` says the Super Admin. */
const sessionRoleOf = (row: StaffRow) =>
  withRole(row, (role) => ({ ...role, builtIn: row.roleBuiltIn === true }));

export const toSessionUser = (row: StaffRow): SessionUser => ({
  id: row.id,
  email: row.email,
  firstName: row.firstName,
  lastName: row.lastName,
  userType: row.userType,
  partnerId: row.partnerId,
  role: sessionRoleOf(row),
  permissions: permissionsOf(row),
});

export const toProfile = (row: StaffRow): Profile => ({
  id: row.id,
  email: row.email,
  firstName: row.firstName,
  lastName: row.lastName,
  phone: row.phone,
  address: row.address,
  profileImage: row.imageUrl,
  imageUrl: row.imageUrl,
  userType: row.userType,
  role: sessionRoleOf(row),
  permissions: permissionsOf(row),
  partner: partnerOfProfile(row),
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/** Partner staff's partner as their profile shows it, with why it cannot transact (issue 16). */
function partnerOfProfile(row: StaffRow): Profile['partner'] {
  if (row.partnerId === null) return null;
  const status = row.partnerDeletedAt ? 'DELETED' : (row.partnerStatus ?? 'ACTIVE');
  return {
    id: row.partnerId,
    organizationName: row.organizationName ?? '',
    status,
    canTransact: status === 'ACTIVE',
    inactiveReason: status === 'ACTIVE' ? null : partnerInactiveMessages[status],
  };
}

/** A staff member on the wire (docs/product.md#entities 'Staff user'); never the password hash, only whether one is set. */
export const toStaffUser = (row: StaffRow): StaffUser => ({
  id: row.id,
  firstName: row.firstName,
  lastName: row.lastName,
  email: row.email,
  phone: row.phone,
  userRole: withRole(row, (role) => ({
    ...role,
    builtIn: row.roleBuiltIn === true,
    permissions: permissionsOf(row),
  })),
  imageUrl: row.imageUrl,
  userType: row.userType,
  partnerId: row.partnerId,
  organizationName: row.organizationName,
  accountStatus: row.accountStatus,
  hasPassword: row.passwordHash !== null,
  createdAt: row.createdAt.toISOString(),
});

export const fullName = (row: { firstName: string; lastName: string }): string =>
  `${row.firstName} ${row.lastName}`.trim();
