import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { z } from 'zod';
import { isDatabaseUnavailable } from './db/errors';
import { createPasswordHasher } from './domain/passwords';
import { ApiError, errorEnvelope, INTERNAL_ERROR, ROUTE_NOT_FOUND, SERVICE_UNAVAILABLE } from './errors';
import { type Access, accessRegistry, createGuards } from './http/access';
import { clientIp } from './http/client-address';
import type { AppDeps, RouteContext } from './http/context';
import { observeRequests } from './http/observe';
import { API_BASE, BODY_TOO_LARGE, bodyLimits, webhookSourceMatcher } from './http/route';
import { securityHeaders } from './http/security-headers';
import { INVALID_JSON, type ValidationTarget, validatorRegistry } from './http/validate';
import { describeError, silentLogger } from './log';
import { activityRoutes } from './routes/activities';
import { apiKeyRoutes } from './routes/api-keys';
import { API_REFERENCE_PATH, apiReferenceRoutes, openApiRoutes } from './routes/api-reference';
import { approvalRoutes } from './routes/approvals';
import { authRoutes } from './routes/auth';
import { campaignRoutes } from './routes/campaigns';
import { customerImportRoutes } from './routes/customer-imports';
import { customerLinkRoutes } from './routes/customer-links';
import { customerPrivacyRoutes } from './routes/customer-privacy';
import { customerSyncRoutes } from './routes/customer-sync';
import { clientInfoRoutes, customerRoutes } from './routes/customers';
import { extendedServiceRoutes } from './routes/extended-services';
import { fileRoutes } from './routes/files';
import { partnerListRoutes } from './routes/partner-list';
import { partnerStatsRoutes } from './routes/partner-stats';
import { partnerRoutes } from './routes/partners';
import { probeRoutes } from './routes/probes';
import { profileRoutes } from './routes/profile';
import { recordVisitRoutes } from './routes/record-visit';
import { redemptionRoutes } from './routes/redemption';
import { reversalRoutes } from './routes/reversal';
import { partnerRewardRoutes } from './routes/reward-list';
import { partnerSideRewardRoutes } from './routes/rewards';
import { roleRoutes } from './routes/roles';
import { staffRoutes } from './routes/staff';
import { staffListRoutes } from './routes/staff-list';
import { systemRoutes } from './routes/system';
import { visitEligibilityRoutes } from './routes/visit-eligibility';
import { visitReviewRoutes } from './routes/visit-reviews';
import { visitRoutes } from './routes/visits';
import { webhookDeliveryRoutes } from './routes/webhook-deliveries';
import { webhookRoutes } from './routes/webhooks';
import type { AppEnv } from './types';

export { API_BASE, DEFAULT_BODY_LIMIT, IMAGE_BODY_LIMIT } from './http/route';
/** Seconds a client should wait before retrying after a 503. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/** The calls whose change may queue a webhook message (`webhookSource` in their descriptors). */
const isWebhookSource = webhookSourceMatcher();

/** Builds the whole API (everything under /api/v1) from the route modules; no socket needed. */
export function createApp(deps: AppDeps) {
  const log = deps.log ?? silentLogger;
  const ctx: RouteContext = {
    ...deps,
    log,
    hasher: createPasswordHasher(deps.config.passwordHashing),
    guards: createGuards(deps),
  };

  const api = new Hono<AppEnv>()
    .use('*', async (c, next) => {
      await next();
      if (!c.res.headers.has('Cache-Control')) c.res.headers.set('Cache-Control', 'no-store');
    })
    .use('*', bodyLimits())
    .use('*', async (c, next) => {
      await next();
      if (
        deps.webhooks &&
        c.res.status < 300 &&
        isWebhookSource(c.req.method, c.req.path.replace(/\/+$/, ''))
      )
        deps.webhooks.kick();
    })
    .route('/', authRoutes(ctx))
    .route('/', systemRoutes(ctx))
    .route('/', openApiRoutes(ctx))
    .route('/', profileRoutes(ctx))
    .route('/', staffListRoutes(ctx))
    .route('/', staffRoutes(ctx))
    .route('/', roleRoutes(ctx))
    .route('/', activityRoutes(ctx))
    .route('/', extendedServiceRoutes(ctx))
    .route('/', visitRoutes(ctx))
    .route('/', visitEligibilityRoutes(ctx))
    .route('/', partnerRewardRoutes(ctx))
    .route('/', apiKeyRoutes(ctx))
    .route('/', partnerStatsRoutes(ctx))
    .route('/', partnerListRoutes(ctx))
    .route('/', partnerRoutes(ctx))
    .route('/', customerSyncRoutes(ctx))
    .route('/', customerPrivacyRoutes(ctx))
    .route('/', customerImportRoutes(ctx))
    .route('/', customerRoutes(ctx))
    .route('/', clientInfoRoutes(ctx))
    .route('/', recordVisitRoutes(ctx))
    .route('/', visitReviewRoutes(ctx))
    .route('/', customerLinkRoutes(ctx))
    .route('/', redemptionRoutes(ctx))
    .route('/', reversalRoutes(ctx))
    .route('/', partnerSideRewardRoutes(ctx))
    .route('/', campaignRoutes(ctx))
    .route('/', approvalRoutes(ctx))
    .route('/', webhookRoutes(ctx))
    .route('/', webhookDeliveryRoutes(ctx))
    .route('/', fileRoutes(ctx));

  // The security headers (CSP, HSTS over HTTPS, ...) wrap everything this app will ever serve: the
  // API, the API reference (which keeps its own, looser style policy for Swagger UI) and the SPA
  // files and pages that server/main.ts adds after it.
  // Request id and access log wrap everything, errors and 404s included (server/http/observe.ts).
  const app = new Hono<AppEnv>({ strict: false })
    .use(
      '*',
      observeRequests({
        log,
        onSample: deps.onRequest,
        clientAddress: (c) => clientIp(c, deps.config.trustProxy),
      }),
    )
    .use('*', securityHeaders({ trustProxy: deps.config.trustProxy }))
    .route('/', probeRoutes(deps))
    .route(API_BASE, api)
    .route(API_REFERENCE_PATH, apiReferenceRoutes());

  app.notFound((c) => c.json(errorEnvelope(404, null, ROUTE_NOT_FOUND, [], 'route_not_found'), 404));

  // The one error mapper: expected failures carry their status; anything else is a logged 500.
  app.onError((err, c) => {
    if (err instanceof ApiError) {
      return c.json(
        errorEnvelope(err.status, null, err.message, err.errors, err.code),
        err.status,
        err.headers,
      );
    }
    if (err instanceof HTTPException) {
      const status = err.status as ContentfulStatusCode;
      const message =
        status === 400 ? INVALID_JSON : status === 413 ? BODY_TOO_LARGE : err.message || 'Request failed';
      return c.json(
        errorEnvelope(status, null, message, [], status === 400 ? 'invalid_json' : undefined),
        status,
      );
    }
    if (isDatabaseUnavailable(err)) {
      // No stack, no SQL, no driver message to the client; the log names the cause.
      log.warn('database unavailable', {
        method: c.req.method,
        path: c.req.path,
        requestId: c.get('requestId'),
        error: describeError(err),
      });
      return c.json(errorEnvelope(503, null, SERVICE_UNAVAILABLE), 503, {
        'Retry-After': String(UNAVAILABLE_RETRY_AFTER_SECONDS),
      });
    }
    log.error('unhandled error', {
      method: c.req.method,
      path: c.req.path,
      requestId: c.get('requestId'),
      error: describeError(err),
      stack: err instanceof Error ? err.stack : undefined,
    });
    return c.json(errorEnvelope(500, null, INTERNAL_ERROR), 500);
  });

  return app;
}

export type App = ReturnType<typeof createApp>;

/**
 * Every API route with the access its guard declares (null: none declared, which a test forbids).
 * Derived from the router itself, for the authorization matrix.
 */
export function routeAccess(app: Hono<AppEnv>): { method: string; path: string; access: Access | null }[] {
  const byRoute = new Map<string, { method: string; path: string; access: Access | null }>();
  for (const r of app.routes) {
    if (r.method === 'ALL' || !r.path.startsWith(API_BASE)) continue;
    const key = `${r.method} ${r.path}`;
    const entry = byRoute.get(key) ?? { method: r.method, path: r.path, access: null };
    entry.access ??= accessRegistry.get(r.handler) ?? null;
    byRoute.set(key, entry);
  }
  return [...byRoute.values()];
}

/**
 * Every API route with the contract schemas its validators check (body, query, path parameters),
 * derived from the router itself: the OpenAPI test compares them with the documented ones.
 */
export function routeSchemas(
  app: Hono<AppEnv>,
): { method: string; path: string; schemas: Partial<Record<ValidationTarget, z.core.$ZodType>> }[] {
  const byRoute = new Map<
    string,
    { method: string; path: string; schemas: Partial<Record<ValidationTarget, z.core.$ZodType>> }
  >();
  for (const r of app.routes) {
    if (r.method === 'ALL' || !r.path.startsWith(API_BASE)) continue;
    const key = `${r.method} ${r.path}`;
    const entry = byRoute.get(key) ?? { method: r.method, path: r.path, schemas: {} };
    const validator = validatorRegistry.get(r.handler);
    if (validator) entry.schemas[validator.target] = validator.schema;
    byRoute.set(key, entry);
  }
  return [...byRoute.values()];
}
