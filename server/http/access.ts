import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Context, MiddlewareHandler } from 'hono';
import { API_KEY_HEADER, API_KEY_PERMISSIONS } from '../../contract/api-keys';
import { authMessages } from '../../contract/auth';
import type { PermissionName } from '../../contract/permissions';
import { partnerApiKeys, partners, roles, users } from '../db/schema';
import { apiKeySecretMatches, parseApiKey } from '../domain/api-keys';
import { permissionsOfRole } from '../domain/permissions';
import { API_KEY_LIMIT, buckets, takeRateLimits } from '../domain/rate-limit';
import { verifyAccessToken } from '../domain/tokens';
import type { AppDeps, AppEnv, AuthUser } from './context';
import { ApiError, tooManyRequests } from './errors';
import { reportRateLimits } from './rate-limit-headers';

/**
 * Where a route works (DESIGN.md section 3, issue 16; docs/decisions/023-partner-tenant-scope.md):
 * - `club`: club-wide (roles, partner management, the club's figures, extended services). A
 *   partner-scoped user (users.partner_id set) is refused (403) whatever their role holds.
 * - `partner`: one partner's data. Partner staff work at their own partner only: a foreign
 *   `partnerId` in the path, query or body is refused (404 'Partner not found') before the handler
 *   runs, and the handler reads the effective scope from `c.get('partnerScope')` (null: club staff,
 *   every partner) to filter its lists and detail reads.
 * - `self`: the caller's own account (profile, password, sign-out).
 * - `public`: no token.
 */
export type Scope = 'club' | 'partner' | 'self' | 'public';

/**
 * What a route needs: nothing, a signed-in user, or a permission from the catalogue, and the scope
 * it works in. `anyOf` holds one permission for most routes; a route that several kinds of staff use
 * (e.g. get-reward: viewers and cashiers who redeem) accepts any one of several.
 */
export type Access =
  | { kind: 'public'; scope: 'public' }
  | { kind: 'authenticated'; scope: Exclude<Scope, 'public'> }
  | {
      kind: 'permission';
      anyOf: readonly [PermissionName, ...PermissionName[]];
      scope: Exclude<Scope, 'public'>;
    };

/** A signed-in route's scope (public routes have their own guard). */
export type SignedInScope = Exclude<Scope, 'public'>;

/**
 * Every guard middleware is registered here with what it demands, so the router can be asked
 * (see `routeAccess` in app.ts) which access each route declares: the authorization matrix.
 */
export const accessRegistry = new WeakMap<object, Access>();

export const UNAUTHENTICATED = authMessages.unauthenticated;
export const SESSION_INVALID = authMessages.sessionInvalid;
export const FORBIDDEN = authMessages.forbidden;
export const API_KEY_INVALID = 'Invalid or revoked API key';
export const API_KEY_NEEDS_PERSON = 'This call needs a signed-in person, not an API key';
export const API_KEY_RATE_LIMITED = 'Too many calls with this API key.';

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
  const apiKey = c.req.header(API_KEY_HEADER);
  if (apiKey !== undefined) return authenticateApiKey(c, deps, apiKey);
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
    superAdmin: row.roleBuiltIn === true,
    permissions: permissionsOfRole(
      row.roleBuiltIn ? { builtIn: true } : { permissions: row.rolePermissions ?? [] },
    ),
    sessionId: claims.sessionId,
  };
}

/**
 * A partner API key (X-Api-Key, docs/decisions/028-partner-api-keys.md): well formed, found by its
 * prefix, its secret's SHA-256 equal (constant-time), not revoked, its partner not deleted; else 401
 * (one message for every case). Every call counts against the key's rate limit (API_KEY_LIMIT, with
 * the RateLimit fields on the answer; 429 over it) and marks the key used. The principal acts as the
 * key's partner with the key's permissions (only those a key may hold), under the partner scope.
 */
async function authenticateApiKey(c: Context, deps: AppDeps, header: string): Promise<AuthUser> {
  const parsed = parseApiKey(header);
  if (!parsed) throw new ApiError(401, API_KEY_INVALID);
  const [row] = await deps.db
    .select({
      id: partnerApiKeys.id,
      name: partnerApiKeys.name,
      secretHash: partnerApiKeys.secretHash,
      permissions: partnerApiKeys.permissions,
      partnerId: partnerApiKeys.partnerId,
      organizationName: partners.organizationName,
    })
    .from(partnerApiKeys)
    .innerJoin(partners, eq(partners.id, partnerApiKeys.partnerId))
    .where(
      and(
        eq(partnerApiKeys.prefix, parsed.prefix),
        isNull(partnerApiKeys.revokedAt),
        isNull(partners.deletedAt),
      ),
    )
    .limit(1);
  if (!row || !apiKeySecretMatches(parsed.secret, row.secretHash)) throw new ApiError(401, API_KEY_INVALID);
  const now = deps.clock();
  const limits = [[buckets.apiKey(row.id), API_KEY_LIMIT]] as const;
  const taken = await takeRateLimits(deps.db, limits, now);
  await reportRateLimits(c, deps.db, limits, now);
  if (taken.blocked) throw tooManyRequests(API_KEY_RATE_LIMITED, taken.retryAfterSeconds);
  await deps.db.update(partnerApiKeys).set({ lastUsedAt: now }).where(eq(partnerApiKeys.id, row.id));
  const allowed: readonly string[] = API_KEY_PERMISSIONS;
  return {
    id: -row.id,
    email: '',
    firstName: 'API key',
    lastName: row.name,
    imageUrl: null,
    userType: 'PARTNER',
    partnerId: row.partnerId,
    organizationName: row.organizationName,
    role: null,
    superAdmin: false,
    permissions: row.permissions.filter((p) => allowed.includes(p)),
    sessionId: `api-key:${row.id}`,
    apiKey: { id: row.id, name: row.name },
  };
}

/** The users row behind the caller, for "done by" columns: null when a partner API key calls. */
export const staffUserId = (user: AuthUser): number | null => (user.apiKey ? null : user.id);

/**
 * The guards: every route's first middleware, each declaring what the route needs and its scope
 * (the scope is a required argument, so no signed-in route can be mounted without one).
 */
export type Guards = {
  publicRoute: () => MiddlewareHandler<AppEnv>;
  authenticated: (scope: SignedInScope) => MiddlewareHandler<AppEnv>;
  requirePermission: (permission: PermissionName, scope: SignedInScope) => MiddlewareHandler<AppEnv>;
  /** Signed in and holding at least one of `permissions` (403 when none). */
  requireAnyPermission: (
    permissions: readonly [PermissionName, ...PermissionName[]],
    scope: SignedInScope,
  ) => MiddlewareHandler<AppEnv>;
};

/** The integer a `partnerId` field holds, or undefined (absent or not an integer: the validator's 400). */
function partnerIdValue(value: unknown): number | undefined {
  const n =
    typeof value === 'number' ? value : typeof value === 'string' && value !== '' ? Number(value) : NaN;
  return Number.isSafeInteger(n) ? n : undefined;
}

/**
 * Every `partnerId` a request names: the path parameter, the query parameter(s) and a JSON body's
 * top-level field. The body is read through Hono's cache, so the route's validator reads it again.
 */
async function requestedPartnerIds(c: Context): Promise<number[]> {
  const found: unknown[] = [c.req.param('partnerId'), ...(c.req.queries('partnerId') ?? [])];
  if (c.req.header('content-type')?.toLowerCase().includes('application/json')) {
    const body = await c.req.json().catch(() => undefined);
    if (body && typeof body === 'object' && !Array.isArray(body))
      found.push((body as Record<string, unknown>).partnerId);
  }
  return found.map(partnerIdValue).filter((n): n is number => n !== undefined);
}

/**
 * The scope rule, applied by the guard itself after the permission check: club routes refuse
 * partner staff; partner routes refuse a foreign partner (404) and publish the effective scope.
 */
async function enforceScope(c: Context<AppEnv>, user: AuthUser, scope: SignedInScope): Promise<void> {
  // An API key works only on partner routes: never club-wide (403) nor a person's own account (401).
  if (user.apiKey && scope === 'club') throw new ApiError(403, FORBIDDEN);
  if (user.apiKey && scope === 'self') throw new ApiError(401, API_KEY_NEEDS_PERSON);
  const own = user.partnerId;
  c.set('partnerScope', own);
  if (own === null) return;
  if (scope === 'club') throw new ApiError(403, FORBIDDEN);
  if (scope === 'partner' && (await requestedPartnerIds(c)).some((id) => id !== own)) {
    throw new ApiError(404, PARTNER_NOT_FOUND);
  }
}

export function createGuards(deps: AppDeps): Guards {
  const register = (mw: MiddlewareHandler<AppEnv>, access: Access) => {
    accessRegistry.set(mw, access);
    return mw;
  };
  const anyPermission = (anyOf: readonly [PermissionName, ...PermissionName[]], scope: SignedInScope) =>
    register(
      async (c, next) => {
        const user = await authenticate(c, deps);
        if (!anyOf.some((p) => user.permissions.includes(p))) throw new ApiError(403, FORBIDDEN);
        c.set('user', user);
        await enforceScope(c, user, scope);
        await next();
      },
      { kind: 'permission', anyOf: [...anyOf] as [PermissionName, ...PermissionName[]], scope },
    );
  return {
    publicRoute: () => register(async (_c, next) => next(), { kind: 'public', scope: 'public' }),
    authenticated: (scope) =>
      register(
        async (c, next) => {
          const user = await authenticate(c, deps);
          c.set('user', user);
          await enforceScope(c, user, scope);
          await next();
        },
        { kind: 'authenticated', scope },
      ),
    requirePermission: (permission, scope) => anyPermission([permission], scope),
    requireAnyPermission: (permissions, scope) => anyPermission(permissions, scope),
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
