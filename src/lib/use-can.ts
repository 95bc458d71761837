import { useRouteContext } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { useMemo } from 'react';
import type { SessionUser } from '../../contract/auth';
import type { PermissionName } from '../../contract/permissions';
import type { StaffRuleParty } from '../../contract/staff';
import { can, canUse, ForbiddenError, isSuperAdmin, NotFoundError, ownPartnerId } from './permissions';

/**
 * `const can = useCan(); can('staff.create')`: whether the signed-in user (session actor) holds the
 * permission and what its screen needs (`canUse`), so a button it guards never leads to 'Not allowed'.
 */
export function useCan(): (permission: PermissionName) => boolean {
  const { session } = useRouteContext({ from: '__root__' });
  const permissions = useSelector(session, (s) => s.context.session?.user.permissions ?? null);
  return (permission) => canUse(permissions ? { permissions } : null, permission);
}

/** The signed-in user as the staff rules see them (contract/staff.ts `staffChangeRefusal`). */
export function useStaffActor(): StaffRuleParty | null {
  const { session } = useRouteContext({ from: '__root__' });
  const user = useSelector(session, (s) => s.context.session?.user ?? null);
  return useMemo(
    () =>
      user
        ? {
            id: user.id,
            permissions: user.permissions,
            superAdmin: user.role === null ? false : user.role.builtIn,
          }
        : null,
    [user],
  );
}

/** The signed-in user's permission names (empty when signed out). */
export function useOwnPermissions(): readonly string[] {
  const { session } = useRouteContext({ from: '__root__' });
  return useSelector(session, (s) => s.context.session?.user.permissions ?? NO_PERMISSIONS);
}
const NO_PERMISSIONS: readonly string[] = [];

/**
 * What a guard reads of the session actor (src/machines/session.machine.ts): the signed-in user of
 * its snapshot. Written here as a shape, so that lib does not import the machines (decision 032).
 */
interface SessionSource {
  getSnapshot(): {
    context: {
      session?: {
        user: Pick<SessionUser, 'permissions' | 'partnerId'> & Partial<Pick<SessionUser, 'role'>>;
      } | null;
    };
  };
}

/**
 * A route guard for `beforeLoad`: throws ForbiddenError (rendered as the 'Not allowed' state by
 * the route's errorComponent) when the signed-in user lacks every one of the permissions.
 */
export const requirePermission =
  (...permissions: [PermissionName, ...PermissionName[]]) =>
  ({ context }: { context: { session: SessionSource } }) => {
    const user = context.session.getSnapshot().context.session?.user;
    if (!permissions.some((p) => can(user, p))) throw new ForbiddenError(permissions[0]);
  };

/**
 * The guard of a Super Admin's screen (the club's integration keys): anyone else, partner staff
 * included, gets the 'Not allowed' state, whatever their role holds.
 */
export const requireSuperAdmin =
  (permission: PermissionName) =>
  ({ context }: { context: { session: SessionSource } }) => {
    const user = context.session.getSnapshot().context.session?.user;
    if (!isSuperAdmin(user)) throw new ForbiddenError(permission, true);
    if (!can(user, permission)) throw new ForbiddenError(permission);
  };

/** The signed-in user's own partner (partner staff), or null for club staff. */
export function useOwnPartnerId(): number | null {
  const { session } = useRouteContext({ from: '__root__' });
  return useSelector(session, (s) => ownPartnerId(s.context.session?.user));
}

/**
 * The guard of a partner's pages: partner staff open their own partner only (another partner's
 * URL is 'not found', before anything of it is fetched); club staff need one of the permissions.
 */
export const requirePartnerAccess =
  (...permissions: [PermissionName, ...PermissionName[]]) =>
  ({ context, params }: { context: { session: SessionSource }; params: { partnerId: number } }) => {
    const own = ownPartnerId(context.session.getSnapshot().context.session?.user);
    if (own === null) return requirePermission(...permissions)({ context });
    if (params.partnerId !== own) throw new NotFoundError('Partner not found');
  };
