import type { PasswordHashingOptions } from './domain/passwords';
import type { TrustProxy } from './http/trust-proxy';

/*
 * The leaf types every layer shares (docs/decisions/055-server-layers.md): what the app is configured
 * with, who calls, from where. This module imports no service, so anything may import it.
 */

/** What the app needs from its environment; `createApp` never reads `process.env`. */
export type AppConfig = {
  /** HS256 key for access tokens (from JWT_SECRET, or generated once and kept in app_settings). */
  jwtSecret: string;
  accessTokenTtlSeconds: number;
  refreshTokenTtlDays: number;
  /** Which peers' X-Forwarded-For / -Proto count (server/http/trust-proxy.ts); false: none. */
  trustProxy: TrustProxy;
  /** argon2id cost; tests lower it, production keeps the defaults. */
  passwordHashing?: PasswordHashingOptions;
  /** Rows per CSV export batch (default 2,000); tests lower it to cross many batch boundaries. */
  exportBatchSize?: number;
  /** The largest customer import file (default MAX_IMPORT_BYTES, 200 MiB); tests lower it. */
  importMaxBytes?: number;
  /** WEBHOOK_ALLOW_PRIVATE: webhook URLs may name private, loopback or link-local hosts (tests, a LAN receiver). */
  webhookAllowPrivate?: boolean;
  /**
   * The console's public address, the origin of the links in mails (APP_URL; server/env.ts defaults
   * it to the server's own address). Unset here (tests): http://localhost:3000.
   */
  appUrl?: string;
  /** What GET /health reports as `environment` (NODE_ENV; 'development' when not given). */
  environment?: string;
};

/** The signed-in staff member of a request, loaded from the database on every request. */
export type AuthUser = {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  imageUrl: string | null;
  userType: 'ADMIN' | 'PARTNER';
  partnerId: number | null;
  organizationName: string | null;
  role: { id: number; name: string } | null;
  /** Holds the built-in Super Admin role (only a Super Admin manages a Super Admin). */
  superAdmin: boolean;
  permissions: string[];
  /** The refresh-token family of this session (the access token's `sid` claim). */
  sessionId: string;
  /**
   * Set when a partner API key (X-Api-Key) makes the call, not a person: then `id` is the key's
   * principal id (minus the key id: never a users row, see `staffUserId`), `partnerId` the key's
   * partner and `permissions` the key's (docs/decisions/028-partner-api-keys.md). A club key
   * (`kind: 'club'`, decision 051) has no partner and the permissions its scopes stand for.
   */
  apiKey?: { id: number; name: string; kind: 'partner' | 'club' };
  /** The caller's partner is blocked (issue 28): they read, and change nothing (403 partner_blocked). */
  partnerBlocked?: boolean;
};

export type RequestMeta = { ipAddress: string | null; userAgent: string | null };

export type AppEnv = {
  Variables: {
    user: AuthUser;
    /**
     * Set by every signed-in guard (server/http/access.ts): the one partner a partner-scoped user
     * works at, or null for club staff (every partner). Partner routes filter by it.
     */
    partnerScope: number | null;
    /** X-Request-Id of this request (server/http/observe.ts). */
    requestId: string;
  };
};
