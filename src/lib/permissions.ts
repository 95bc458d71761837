import type { SessionUser } from '../../contract/auth';
import { needsOf, type PermissionName } from '../../contract/permissions';

export const can = (
  user: Pick<SessionUser, 'permissions'> | null | undefined,
  permission: PermissionName,
): boolean => Boolean(user?.permissions.includes(permission));

/**
 * The permission and everything its screen needs (contract/permissions.ts `PERMISSION_NEEDS`): an
 * action offered only on this never leads to 'Not allowed' ('Add Staff' without roles.view is hidden).
 */
export const canUse = (
  user: Pick<SessionUser, 'permissions'> | null | undefined,
  permission: PermissionName,
): boolean => can(user, permission) && needsOf(permission).every((need) => can(user, need));

/**
 * The Super Admin: club staff (no partner) holding the built-in role. A session stored before the
 * role's `builtIn` was sent counts as not (the next sign-in tells).
 */
export const isSuperAdmin = (
  user: Partial<Pick<SessionUser, 'role' | 'partnerId'>> | null | undefined,
): boolean => user?.partnerId == null && user?.role?.builtIn === true;

/** Thrown by a route's beforeLoad when the signed-in user lacks the permission the screen needs. */
export class ForbiddenError extends Error {
  override readonly name = 'ForbiddenError';
  constructor(
    readonly permission: PermissionName,
    /** The screen is the Super Admin's alone: no permission a role can be given opens it. */
    readonly superAdminOnly = false,
  ) {
    super(`Missing permission ${permission}`);
  }
}

/**
 * Thrown by a route's beforeLoad for a record the signed-in user may not know exists (another
 * partner's pages for partner staff): rendered as 'not found', never with the record's name or data.
 */
export class NotFoundError extends Error {
  override readonly name = 'NotFoundError';
}

/** The partner a partner-staff user works at (null: club staff, every partner). */
export const ownPartnerId = (user: Pick<SessionUser, 'partnerId'> | null | undefined): number | null =>
  user?.partnerId ?? null;
