import type { SessionUser } from '../../contract/auth';
import type { PermissionName } from '../../contract/permissions';

export const can = (
  user: Pick<SessionUser, 'permissions'> | null | undefined,
  permission: PermissionName,
): boolean => Boolean(user?.permissions.includes(permission));

/** Thrown by a route's beforeLoad when the signed-in user lacks the permission the screen needs. */
export class ForbiddenError extends Error {
  override readonly name = 'ForbiddenError';
  constructor(readonly permission: PermissionName) {
    super(`Missing permission ${permission}`);
  }
}
