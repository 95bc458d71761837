import { type Context, Hono, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { z } from 'zod';
import {
  type ApiEndpoint,
  type ApiRouteAt,
  type ApiRouteKey,
  apiEndpoints,
  apiRoute,
  IMAGE_BODY_LIMIT,
} from '../../contract/api';
import { ApiError } from '../errors';
import type { AppEnv } from '../types';
import type { Guards } from './access';
import { jsonBody, pathParams, queryParams } from './validate';

/**
 * Routes mounted FROM their descriptors (contract/api.ts; docs/decisions/031-route-descriptors.md):
 * the descriptor names the path, the guard (access and scope), the schemas of the path parameters,
 * query and body and the body limit; a route module gives only the handler.
 */

export const API_BASE = '/api/v1';
export const DEFAULT_BODY_LIMIT = 1024 * 1024;
export const BODY_TOO_LARGE = 'Request body is too large';
export { IMAGE_BODY_LIMIT };
export const FILE_NOT_FOUND = 'File not found';

/** What a handler reads with `c.req.valid(...)`: the outputs of the descriptor's schemas. */
type Out<S, K extends string> = S extends z.core.$ZodType ? { [P in K]: z.output<S> } : object;
type In<S, K extends string> = S extends z.core.$ZodType ? { [P in K]: z.input<S> } : object;
type Field<E, F extends string> = E extends { [P in F]: infer S } ? S : undefined;
export type RouteInput<E> = {
  in: In<Field<E, 'body'>, 'json'> & In<Field<E, 'query'>, 'query'> & In<Field<E, 'params'>, 'param'>;
  out: Out<Field<E, 'body'>, 'json'> & Out<Field<E, 'query'>, 'query'> & Out<Field<E, 'params'>, 'param'>;
};

/** The handler of the route a key names, typed by its descriptor. */
export type RouteHandler<K extends ApiRouteKey> = (
  c: Context<AppEnv, string, RouteInput<ApiRouteAt<K>>>,
) => Response | Promise<Response>;

/** The router path of a descriptor: `/admin/partners/{partnerId}` → `/admin/partners/:partnerId{[0-9]+}`. */
export const routerPath = (e: ApiEndpoint): string =>
  e.path.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, e.numericIds ? ':$1{[0-9]+}' : ':$1');

/** The body limit of a call, in bytes. */
export const bodyLimitOf = (e: ApiEndpoint): number => e.bodyLimit ?? DEFAULT_BODY_LIMIT;

const tooLarge = (limit: number) => () => {
  throw new ApiError(413, `${BODY_TOO_LARGE} (at most ${Math.round(limit / 1024 / 1024)} MiB)`);
};

/** The guard a descriptor's access and scope name (the first middleware of every route). */
function guardOf(guards: Guards, e: ApiEndpoint): MiddlewareHandler<AppEnv> {
  if (e.access === 'public') return guards.publicRoute();
  if (e.scope === 'public') throw new Error(`${e.method} ${e.path}: a signed-in route needs a scope`);
  if (e.access === 'authenticated') return guards.authenticated(e.scope);
  return guards.requireAnyPermission(e.access, e.scope, { clubKey: e.clubKey === true });
}

/** The middleware a descriptor implies, in order: guard, path parameters, query, body. */
function middlewareOf(guards: Guards, e: ApiEndpoint): MiddlewareHandler<AppEnv>[] {
  const notFound = e.badParamsNotFound ? () => new ApiError(404, FILE_NOT_FOUND) : undefined;
  return [
    guardOf(guards, e),
    ...(e.params ? [pathParams(e.params, notFound)] : []),
    ...(e.query ? [queryParams(e.query)] : []),
    ...(e.body ? [jsonBody(e.body)] : []),
    ...(e.customer ? [guards.customerLinked(e.customer)] : []),
  ];
}

/**
 * A set of routes of one module: `routes.on('POST /admin/auth/login', handler)` mounts the handler
 * at the descriptor's path behind the guard and validators the descriptor names. The router it
 * fills is mounted at the API's root (app.ts), so paths are the descriptors' own.
 */
export function routeSet(guards: Guards) {
  const router = new Hono<AppEnv>();
  const set = {
    router,
    on<K extends ApiRouteKey>(key: K, handler: RouteHandler<K>) {
      const e: ApiEndpoint = apiRoute(key);
      (router.on as (method: string, path: string, ...h: MiddlewareHandler<AppEnv>[]) => unknown)(
        e.method.toUpperCase(),
        routerPath(e),
        ...middlewareOf(guards, e),
        handler as unknown as MiddlewareHandler<AppEnv>,
      );
      return set;
    },
  };
  return set;
}

/** The body limit of every call, from the descriptors: larger ones by `METHOD /api/v1/path`. */
export function bodyLimits(endpoints: readonly ApiEndpoint[] = apiEndpoints): MiddlewareHandler {
  const standard = bodyLimit({ maxSize: DEFAULT_BODY_LIMIT, onError: tooLarge(DEFAULT_BODY_LIMIT) });
  const large = endpoints
    .filter((e) => e.bodyLimit !== undefined)
    .map((e) => {
      const maxSize = bodyLimitOf(e);
      const method = e.method.toUpperCase();
      const pattern = new RegExp(`^${API_BASE}${e.path.replace(/\{[^}]+\}/g, '[^/]+')}$`);
      // A streamed body (an import file) is counted by its handler as it reads: hono's bodyLimit
      // would hold a chunked body whole in memory.
      const check: MiddlewareHandler = e.rawBody
        ? (_c, next) => next()
        : bodyLimit({ maxSize, onError: tooLarge(maxSize) });
      return { method, pattern, check };
    });
  return (c, next) => {
    const path = c.req.path.replace(/\/+$/, '') || '/';
    const hit = large.find((l) => l.method === c.req.method && l.pattern.test(path));
    return (hit?.check ?? standard)(c, next);
  };
}

/**
 * Whether a call's success may queue a webhook message (the sender is woken after it): `METHOD` and
 * path against the descriptors that say `webhookSource` (path parameters match any segment).
 */
export function webhookSourceMatcher(
  endpoints: readonly ApiEndpoint[] = apiEndpoints,
): (method: string, path: string) => boolean {
  const sources = endpoints
    .filter((e) => e.webhookSource)
    .map((e) => ({
      method: e.method.toUpperCase(),
      pattern: new RegExp(`^${API_BASE}${e.path.replace(/\{[^}]+\}/g, '[^/]+')}$`),
    }));
  return (method, path) => sources.some((s) => s.method === method && s.pattern.test(path));
}
