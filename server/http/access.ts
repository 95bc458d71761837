import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Context, MiddlewareHandler } from 'hono';
import { API_KEY_HEADER, API_KEY_PERMISSIONS } from '../../contract/api-keys';
import { authMessages } from '../../contract/auth';
import { customerLinkMessages } from '../../contract/customer-links';
import { CLUB_KEY_SCOPE_PERMISSIONS, CLUB_KEY_SCOPES, type ClubKeyScope } from '../../contract/customer-sync';
import type { PermissionName } from '../../contract/permissions';
import type { Db } from '../db/client';
import { clubApiKeys, partnerApiKeys, partners, roles, users } from '../db/schema';
import { apiKeySecretMatches, parseApiKey } from '../domain/api-keys';
import { isLinked } from '../domain/customer-links';
import { permissionsOfRole } from '../domain/permissions';
import { API_KEY_LIMIT, buckets, CLUB_KEY_LIMIT, takeRateLimits } from '../domain/rate-limit';
import { PARTNER_NOT_FOUND } from '../domain/scope';
import { verifyAccessToken } from '../domain/tokens';
import { ApiError, tooManyRequests } from '../errors';
import type { AppConfig, AppEnv, AuthUser } from '../types';
import { reportRateLimits } from './rate-limit-headers';

/**
 * Where a route works (docs/product.md#decided-rules, issue 16; docs/decisions/023-partner-tenant-scope.md):
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
      /** A club integration key may call it (decision 051): the customer sync routes only. */
      clubKey?: true;
    };

/** A signed-in route's scope (public routes have their own guard). */
export type SignedInScope = Exclude<Scope, 'public'>;

/**
 * Every guard middleware is registered here with what it demands, so the router can be asked
 * (see `routeAccess` in app.ts) which access each route declares: the authorization matrix.
 */
/** What the guards read: the database, the clock and the token settings (a part of AppDeps). */
export type GuardDeps = {
  db: Db;
  clock: () => Date;
  config: Pick<AppConfig, 'jwtSecret' | 'accessTokenTtlSeconds'>;
};

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
export async function authenticate(c: Context, deps: GuardDeps): Promise<AuthUser> {
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
      partnerStatus: partners.accountStatus,
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
    partnerBlocked: row.partnerStatus === 'BLOCKED',
  };
}

/**
 * A partner API key (X-Api-Key, docs/decisions/028-partner-api-keys.md): well formed, found by its
 * prefix, its secret's SHA-256 equal (constant-time), not revoked, its partner not deleted; else 401
 * (one message for every case). Every call counts against the key's rate limit (API_KEY_LIMIT, with
 * the RateLimit fields on the answer; 429 over it) and marks the key used. The principal acts as the
 * key's partner with the key's permissions (only those a key may hold), under the partner scope.
 */
async function authenticateApiKey(c: Context, deps: GuardDeps, header: string): Promise<AuthUser> {
  const parsed = parseApiKey(header);
  if (!parsed) throw new ApiError(401, API_KEY_INVALID);
  if (parsed.kind === 'club') return authenticateClubKey(c, deps, parsed);
  const [row] = await deps.db
    .select({
      id: partnerApiKeys.id,
      name: partnerApiKeys.name,
      secretHash: partnerApiKeys.secretHash,
      permissions: partnerApiKeys.permissions,
      partnerId: partnerApiKeys.partnerId,
      organizationName: partners.organizationName,
      partnerStatus: partners.accountStatus,
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
    apiKey: { id: row.id, name: row.name, kind: 'partner' },
    partnerBlocked: row.partnerStatus === 'BLOCKED',
  };
}

/**
 * A club integration key (`rcc_`, decision 051): found and checked like a partner key, rate limited
 * in its own bucket. The principal belongs to no partner and holds the permissions its scopes stand
 * for (CLUB_KEY_SCOPE_PERMISSIONS); `clubKeyMayCall` keeps it to the routes marked for club keys.
 */
async function authenticateClubKey(
  c: Context,
  deps: GuardDeps,
  parsed: { prefix: string; secret: string },
): Promise<AuthUser> {
  const [row] = await deps.db
    .select({
      id: clubApiKeys.id,
      name: clubApiKeys.name,
      secretHash: clubApiKeys.secretHash,
      scopes: clubApiKeys.scopes,
    })
    .from(clubApiKeys)
    .where(and(eq(clubApiKeys.prefix, parsed.prefix), isNull(clubApiKeys.revokedAt)))
    .limit(1);
  if (!row || !apiKeySecretMatches(parsed.secret, row.secretHash)) throw new ApiError(401, API_KEY_INVALID);
  const now = deps.clock();
  const limits = [[buckets.clubKey(row.id), CLUB_KEY_LIMIT]] as const;
  const taken = await takeRateLimits(deps.db, limits, now);
  await reportRateLimits(c, deps.db, limits, now);
  if (taken.blocked) throw tooManyRequests(API_KEY_RATE_LIMITED, taken.retryAfterSeconds);
  await deps.db.update(clubApiKeys).set({ lastUsedAt: now }).where(eq(clubApiKeys.id, row.id));
  const scopes = row.scopes.filter((s): s is ClubKeyScope =>
    (CLUB_KEY_SCOPES as readonly string[]).includes(s),
  );
  return {
    id: -row.id,
    email: '',
    firstName: 'API key',
    lastName: row.name,
    imageUrl: null,
    userType: 'ADMIN',
    partnerId: null,
    organizationName: null,
    role: null,
    superAdmin: false,
    permissions: [...new Set(scopes.flatMap((s) => CLUB_KEY_SCOPE_PERMISSIONS[s]))],
    sessionId: `club-key:${row.id}`,
    apiKey: { id: row.id, name: row.name, kind: 'club' },
  };
}

/**
 * THE club-key rule (decision 051), in one place: a club key calls only the routes whose descriptor
 * marks them for club keys (the customer sync), never a partner route or another admin route; a
 * partner key never calls those (they are club-scoped, which refuses it).
 */
export function clubKeyMayCall(user: AuthUser, route: { clubKey?: boolean }): boolean {
  return user.apiKey?.kind !== 'club' || route.clubKey === true;
}

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
    options?: { clubKey?: boolean },
  ) => MiddlewareHandler<AppEnv>;
  /**
   * The link gate (issue 28, decision 053), after the validators: partner staff and keys pass only
   * when the customer the request names (`where`) is linked to their partner. Club staff pass.
   */
  customerLinked: (where: CustomerField) => MiddlewareHandler<AppEnv>;
};

/** Where a request names a customer: the validated path parameters, JSON body or query, and the field. */
export type CustomerField = { in: 'param' | 'json' | 'query'; field: string };

/** THE answer for a customer a partner may not act for: unlinked, unknown or erased alike. */
export const customerNotLinked = () =>
  new ApiError(403, customerLinkMessages.notLinked, [], {}, 'customer_not_linked');

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
async function enforceScope(
  c: Context<AppEnv>,
  user: AuthUser,
  scope: SignedInScope,
  clubKey = false,
): Promise<void> {
  if (!clubKeyMayCall(user, { clubKey })) throw new ApiError(403, FORBIDDEN);
  if (user.apiKey?.kind === 'club') {
    c.set('partnerScope', null);
    return;
  }
  // A partner API key works only on partner routes: never club-wide (403) nor a person's own account (401).
  if (user.apiKey && scope === 'club') throw new ApiError(403, FORBIDDEN);
  if (user.apiKey && scope === 'self') throw new ApiError(401, API_KEY_NEEDS_PERSON);
  const own = user.partnerId;
  c.set('partnerScope', own);
  if (own === null) return;
  if (scope === 'club') throw new ApiError(403, FORBIDDEN);
  if (scope === 'partner' && (await requestedPartnerIds(c)).some((id) => id !== own)) {
    throw new ApiError(404, PARTNER_NOT_FOUND);
  }
  // A blocked partner's staff and keys read, and change nothing: no writes, no exports (issue 28).
  if (
    scope === 'partner' &&
    user.partnerBlocked &&
    (c.req.method !== 'GET' || c.req.path.endsWith('/export'))
  )
    throw new ApiError(403, PARTNER_BLOCKED, [], {}, 'partner_blocked');
}

export const PARTNER_BLOCKED =
  'Your partner is blocked by the club: you can still read, but not change anything or export. Ask the club to unblock it.';

export function createGuards(deps: GuardDeps): Guards {
  const register = (mw: MiddlewareHandler<AppEnv>, access: Access) => {
    accessRegistry.set(mw, access);
    return mw;
  };
  const anyPermission = (
    anyOf: readonly [PermissionName, ...PermissionName[]],
    scope: SignedInScope,
    clubKey = false,
  ) =>
    register(
      async (c, next) => {
        const user = await authenticate(c, deps);
        if (!anyOf.some((p) => user.permissions.includes(p))) throw new ApiError(403, FORBIDDEN);
        c.set('user', user);
        await enforceScope(c, user, scope, clubKey);
        await next();
      },
      {
        kind: 'permission',
        anyOf: [...anyOf] as [PermissionName, ...PermissionName[]],
        scope,
        ...(clubKey ? { clubKey: true as const } : {}),
      },
    );
  return {
    customerLinked: (where) => async (c, next) => {
      const user = c.get('user');
      if (user.partnerId === null) return next();
      const valid = (c.req.valid as unknown as (target: string) => Record<string, unknown> | undefined).bind(
        c.req,
      );
      const value = valid(where.in)?.[where.field];
      if (value === undefined) return next();
      if (typeof value !== 'number' || !(await isLinked(deps.db, user.partnerId, value)))
        throw customerNotLinked();
      return next();
    },
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
    requireAnyPermission: (permissions, scope, options) =>
      anyPermission(permissions, scope, options?.clubKey === true),
  };
}
