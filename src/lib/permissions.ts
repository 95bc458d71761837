import type { SessionUser } from '../../contract/auth';
import type { PermissionName } from '../../contract/permissions';

export const can = (
  user: Pick<SessionUser, 'permissions'> | null | undefined,
  permission: PermissionName,
): boolean => Boolean(user?.permissions.includes(permission));
