import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Context, MiddlewareHandler } from 'hono';
import { authMessages } from '../../contract/auth';
import type { PermissionName } from '../../contract/permissions';
import { partners, roles, users } from '../db/schema';
import { permissionsOfRole } from '../domain/permissions';
import { verifyAccessToken } from '../domain/tokens';
import type { AppDeps, AppEnv, AuthUser } from './context';
import { ApiError } from './errors';

/**
 * What a route needs: nothing, a signed-in user, or a permission from the catalogue. `anyOf` holds
 * one permission for most routes; a route that several kinds of staff use (e.g. get-reward: viewers
 * and cashiers who redeem) accepts any one of several.
 */
export type Access =
  | { kind: 'public' }
  | { kind: 'authenticated' }
  | { kind: 'permission'; anyOf: readonly [PermissionName, ...PermissionName[]] };

/**
 * Every guard middleware is registered here with what it demands, so the router can be asked
 * (see `routeAccess` in app.ts) which access each route declares: the authorization matrix.
 */
export const accessRegistry = new WeakMap<object, Access>();

export const UNAUTHENTICATED = authMessages.unauthenticated;
export const SESSION_INVALID = authMessages.sessionInvalid;
export const FORBIDDEN = authMessages.forbidden;

function bearer(c: Context): string | null {
  const header = c.req.header('authorization');
  if (!header) return null;
  const match = /^Bearer\s+([A-Za-z0-9._~+/=-]+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}

/**
 * Loads the signed-in user for a bearer token: valid signature and expiry, user neither deleted nor
 * blocked, session (refresh-token family) not revoked. Permissions are read from the role each time,
 * so a role change applies at once; the built-in role holds them all.
 */
export async function authenticate(c: Context, deps: AppDeps): Promise<AuthUser> {
  const token = bearer(c);
  if (!token) throw new ApiError(401, UNAUTHENTICATED);
  const claims = await verifyAccessToken(token, {
    secret: deps.config.jwtSecret,
    now: deps.clock(),
    maxAgeSeconds: deps.config.accessTokenTtlSeconds,
  });
  if (!claims) throw new ApiError(401, SESSION_INVALID);
  const [row] = await deps.db
    .select({
      id: users.id,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
      imageUrl: users.imageUrl,
      userType: users.userType,
      partnerId: users.partnerId,
      organizationName: partners.organizationName,
      roleId: roles.id,
      roleName: roles.name,
      rolePermissions: roles.permissions,
      roleBuiltIn: roles.builtIn,
      sessionLive: sql<boolean>`exists (select 1 from refresh_tokens t where t.family_id = ${claims.sessionId} and t.user_id = ${users.id} and t.revoked_at is null)`,
    })
    .from(users)
    .leftJoin(roles, eq(roles.id, users.roleId))
    .leftJoin(partners, eq(partners.id, users.partnerId))
    .where(and(eq(users.id, claims.userId), isNull(users.deletedAt), eq(users.accountStatus, 'ACTIVE')))
    .limit(1);
  if (!row?.sessionLive) throw new ApiError(401, SESSION_INVALID);
  return {
    id: row.id,
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    imageUrl: row.imageUrl,
    userType: row.userType,
    partnerId: row.partnerId,
    organizationName: row.organizationName,
    role: row.roleId != null && row.roleName != null ? { id: row.roleId, name: row.roleName } : null,
    permissions: permissionsOfRole(
      row.roleBuiltIn ? { builtIn: true } : { permissions: row.rolePermissions ?? [] },
    ),
    sessionId: claims.sessionId,
  };
}

export type Guards = {
  publicRoute: () => MiddlewareHandler<AppEnv>;
  authenticated: () => MiddlewareHandler<AppEnv>;
  requirePermission: (permission: PermissionName) => MiddlewareHandler<AppEnv>;
  /** Signed in and holding at least one of `permissions` (403 when none). */
  requireAnyPermission: (
    ...permissions: readonly [PermissionName, ...PermissionName[]]
  ) => MiddlewareHandler<AppEnv>;
};

export function createGuards(deps: AppDeps): Guards {
  const register = (mw: MiddlewareHandler<AppEnv>, access: Access) => {
    accessRegistry.set(mw, access);
    return mw;
  };
  const anyPermission = (anyOf: readonly [PermissionName, ...PermissionName[]]) =>
    register(
      async (c, next) => {
        const user = await authenticate(c, deps);
        if (!anyOf.some((p) => user.permissions.includes(p))) throw new ApiError(403, FORBIDDEN);
        c.set('user', user);
        await next();
      },
      { kind: 'permission', anyOf: [...anyOf] as [PermissionName, ...PermissionName[]] },
    );
  return {
    publicRoute: () => register(async (_c, next) => next(), { kind: 'public' }),
    authenticated: () =>
      register(
        async (c, next) => {
          c.set('user', await authenticate(c, deps));
          await next();
        },
        { kind: 'authenticated' },
      ),
    requirePermission: (permission) => anyPermission([permission]),
    requireAnyPermission: (...permissions) => anyPermission(permissions),
  };
}

export const PARTNER_NOT_FOUND = 'Partner not found';

/**
 * THE partner-scope rule (DESIGN.md section 3, issue 5): partner staff (users tied to a partner) see
 * and act only at their own partner; admins see every partner. Another partner's data does not exist
 * for them: 404, by id, by list filter and by export, never a 403 that would confirm it exists.
 *
 * `partnerScope(user)`: null for every partner, else the one partner id.
 */
export const partnerScope = (user: AuthUser): number | null => user.partnerId ?? null;

/** Whether the partner is inside the user's scope. */
export const inPartnerScope = (user: AuthUser, partnerId: number): boolean => {
  const scope = partnerScope(user);
  return scope === null || scope === partnerId;
};

/** 404 (with `message`) when the partner is outside the user's scope. */
export function assertPartnerScope(
  user: AuthUser,
  partnerId: number,
  message: string = PARTNER_NOT_FOUND,
): void {
  if (!inPartnerScope(user, partnerId)) throw new ApiError(404, message);
}

/**
 * The partner a scoped call works on: partner staff always their own (a different `requested` is
 * 404), admins the one they name or, with `required: false`, every partner (null).
 */
export function scopedPartnerId(user: AuthUser, requested: number | undefined): number | null {
  const scope = partnerScope(user);
  if (scope === null) return requested ?? null;
  if (requested !== undefined && requested !== scope) throw new ApiError(404, PARTNER_NOT_FOUND);
  return scope;
}
