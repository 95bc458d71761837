import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import type { Logger } from '../log';
import type { AppEnv } from '../types';

export const REQUEST_ID_HEADER = 'X-Request-Id';

/**
 * A caller's request id is kept when it is sane: 1 to 128 characters of letters, digits and
 * `. _ : -` (a UUID, a proxy's `$request_id`, a trace id). Anything else is replaced by a UUID, so
 * nothing a client sends can break a log line or a header.
 */
const SANE_REQUEST_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

export function requestIdOf(header: string | undefined): string {
  return header && SANE_REQUEST_ID.test(header) ? header : randomUUID();
}

/** One answered request, as the access log and the metrics see it. */
export type RequestSample = {
  method: string;
  /** The route pattern (`/api/v1/admin/partners/:id`), never the raw path: no ids or codes in it. */
  route: string;
  status: number;
  durationMs: number;
  userId: number | null;
  requestId: string;
};

/** The label of a request that matched no route (a 404), so unknown paths do not grow the metrics. */
export const UNMATCHED_ROUTE = '(unmatched)';

/** The pattern of the route that answered: the handler's path, else the middleware's (static files). */
function routePattern(c: Parameters<MiddlewareHandler<AppEnv>>[0], status: number): string {
  const routes = matchedRoutes(c);
  const answered = routes[c.req.routeIndex];
  const handler = answered && answered.method !== 'ALL' ? answered : undefined;
  // A catch-all that answered 404 (the SPA's history fallback refusing /api/...) matched nothing real.
  if (handler) return status === 404 && handler.path.endsWith('*') ? UNMATCHED_ROUTE : handler.path;
  if (status === 404 || !answered) return UNMATCHED_ROUTE;
  return answered.path;
}

/**
 * First middleware of the app: the request id (taken or made, echoed as X-Request-Id, available as
 * `c.get('requestId')`), then after the answer one JSON access-log line (method, route pattern,
 * status, duration, user id, request id, the client's address through TRUST_PROXY; never a header, a query string, a body, a token or a code)
 * and the sample for the metrics.
 */
export function observeRequests(o: {
  log: Logger;
  onSample?: (s: RequestSample) => void;
  /** The client's address as resolved through TRUST_PROXY (for the access line; not a metric label). */
  clientAddress?: (c: Parameters<MiddlewareHandler<AppEnv>>[0]) => string | null;
}): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    const requestId = requestIdOf(c.req.header(REQUEST_ID_HEADER));
    c.set('requestId', requestId);
    try {
      await next();
    } finally {
      c.res.headers.set(REQUEST_ID_HEADER, requestId);
      const sample: RequestSample = {
        method: c.req.method,
        route: routePattern(c, c.res.status),
        status: c.res.status,
        durationMs: Math.round((performance.now() - started) * 10) / 10,
        userId: c.get('user')?.id ?? null,
        requestId,
      };
      o.log.info('request', { ...sample, clientAddress: o.clientAddress?.(c) ?? null });
      o.onSample?.(sample);
    }
  };
}
