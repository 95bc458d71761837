import { useRouteContext } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import type { PermissionName } from '../../contract/permissions';
import type { SessionActor } from '../machines/session.machine';
import { can, ForbiddenError } from './permissions';

/** `const can = useCan(); can('staff.create')`: the signed-in user's permissions (session actor). */
export function useCan(): (permission: PermissionName) => boolean {
  const { session } = useRouteContext({ from: '__root__' });
  const permissions = useSelector(session, (s) => s.context.session?.user.permissions ?? null);
  return (permission) => can(permissions ? { permissions } : null, permission);
}

/**
 * A route guard for `beforeLoad`: throws ForbiddenError (rendered as the 'Not allowed' state by
 * the route's errorComponent) when the signed-in user lacks every one of the permissions.
 */
export const requirePermission =
  (...permissions: [PermissionName, ...PermissionName[]]) =>
  ({ context }: { context: { session: Pick<SessionActor, 'getSnapshot'> } }) => {
    const user = context.session.getSnapshot().context.session?.user;
    if (!permissions.some((p) => can(user, p))) throw new ForbiddenError(permissions[0]);
  };
