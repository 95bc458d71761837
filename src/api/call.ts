import type { ApiRouteAt, ApiRouteKey } from '../../contract/api';
import type { z } from '../../contract/zod';
import { ApiError, type Auth, api, NETWORK_ERROR, type Query, type Result } from './client';

/**
 * One typed call per endpoint, derived from the route registry (contract/api.ts, decision 057):
 *
 *   apiData('GET /admin/partners/{partnerId}', { params: { partnerId } })      // Promise<Partner>
 *   apiMessage('PATCH /admin/partners/update-status', { body: { partnerId, accountStatus } })
 *
 * The key names the endpoint as the server's route modules do (`METHOD /path`, OpenAPI form). Its
 * path parameters, query, body, the headers it reads and the type of its answer all come from the
 * registry's entry: a renamed field, a missing parameter or a header the endpoint does not read fails
 * the typecheck, and the answer is parsed with the entry's own `data` schema (never `z.unknown()`).
 */

type Route<K extends ApiRouteKey> = ApiRouteAt<K>;

/** Keys of `T` that may be left out (optional in the schema's input). */
type OptionalKeys<T> = { [P in keyof T]-?: object extends Pick<T, P> ? P : never }[keyof T];

/**
 * A query or path object as the caller writes it: the keys the schema requires, the others optional,
 * each with the type the server reads (the output type: `z.coerce.number()` takes a number here).
 */
type Values<S extends z.core.$ZodType> = {
  [P in Exclude<keyof z.input<S>, OptionalKeys<z.input<S>>>]: P extends keyof z.output<S>
    ? z.output<S>[P]
    : never;
} & {
  [P in OptionalKeys<z.input<S>>]?: P extends keyof z.output<S> ? z.output<S>[P] : never;
};

type ParamsPart<R> = R extends { params: infer S extends z.core.$ZodType } ? { params: Values<S> } : unknown;
type QueryPart<R> = R extends { query: infer S extends z.core.$ZodType }
  ? object extends Values<S>
    ? { query?: Values<S> }
    : { query: Values<S> }
  : unknown;
/** The body: each field with the type the server reads (a coerced id is a number, not `unknown`). */
type BodyPart<R> = R extends { body: infer S extends z.core.$ZodType } ? { body: Values<S> } : unknown;
/** A body the endpoint streams itself (an import file): the file and its media type. */
type FilePart<R> = R extends { rawBody: { contentTypes: readonly (infer T extends string)[] } }
  ? { file: { body: Blob; contentType: T } }
  : unknown;
/** Only the headers the endpoint reads (`Idempotency-Key`, `If-Match`): any other does not compile. */
type HeadersPart<R> = R extends { headers: readonly (infer H extends string)[] }
  ? { headers?: Partial<Record<H, string>> }
  : unknown;

/** What a call to the endpoint `K` takes. */
export type CallInput<K extends ApiRouteKey> = ParamsPart<Route<K>> &
  QueryPart<Route<K>> &
  BodyPart<Route<K>> &
  FilePart<Route<K>> &
  HeadersPart<Route<K>> & {
    /** 'session' (default), 'none' (sign-in, reset) or a given token (sign-out). */
    auth?: Auth;
    timeoutMs?: number;
  };

/**
 * The `data` of the endpoint's success envelope: for an endpoint that may also answer 202 (a reward
 * waiting for approval, decision 074), either shape.
 */
export type CallData<K extends ApiRouteKey> =
  | z.output<Route<K>['data']>
  | (Route<K> extends { accepted: { data: infer A extends z.core.$ZodType } } ? z.output<A> : never);

/** The input argument: optional when the endpoint needs nothing. */
type InputArg<K extends ApiRouteKey> =
  object extends CallInput<K> ? [input?: CallInput<K>] : [input: CallInput<K>];

/**
 * The registry, loaded on the first call: it holds every endpoint's documentation and classic zod
 * (decision 022 keeps both off the sign-in screen's first load). A chunk that cannot load is the
 * network's failure, like a call that got no answer.
 */
let registry: Promise<typeof import('../../contract/api')> | null = null;
const loadRegistry = () => {
  registry ??= import('../../contract/api').catch((error: unknown) => {
    registry = null;
    throw error;
  });
  return registry.catch(() => {
    throw new ApiError(0, NETWORK_ERROR);
  });
};

/** Loads the registry ahead of the first call (the app's idle-time loads, src/main.tsx). */
export const preloadApiRegistry = (): Promise<unknown> => loadRegistry().catch(() => undefined);

/** Fills `{name}` in an OpenAPI path from the params. */
export const fillPath = (path: string, params: Record<string, unknown> = {}): string =>
  path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined || value === null) throw new Error(`Missing path parameter ${name} of ${path}`);
    return encodeURIComponent(String(value));
  });

/** Calls the endpoint `key`: its answer's `data` (parsed by the registry's schema) and message. */
export async function apiCall<K extends ApiRouteKey>(
  key: K,
  ...[input]: InputArg<K>
): Promise<Result<CallData<K>>> {
  const { apiRoute, successDataOf } = await loadRegistry();
  const route = apiRoute(key);
  const { params, query, body, file, headers, auth, timeoutMs } = (input ?? {}) as {
    params?: Record<string, unknown>;
    query?: Query;
    body?: unknown;
    file?: { body: Blob; contentType: string };
    headers?: Record<string, string>;
    auth?: Auth;
    timeoutMs?: number;
  };
  const method = route.method.toUpperCase() as 'GET' | 'POST' | 'PATCH' | 'DELETE';
  return api().send(method, fillPath(route.path, params), successDataOf(route), {
    ...(query ? { query } : {}),
    ...(body !== undefined ? { body } : {}),
    ...(file ? { raw: file } : {}),
    ...(headers ? { headers } : {}),
    ...(auth ? { auth } : {}),
    ...(timeoutMs ? { timeoutMs } : {}),
  }) as Promise<Result<CallData<K>>>;
}

/** The `data` of the endpoint's answer. */
export const apiData = async <K extends ApiRouteKey>(key: K, ...input: InputArg<K>): Promise<CallData<K>> =>
  (await apiCall(key, ...input)).data;

/** The server's message of the endpoint's answer (a change that answers only a sentence to show). */
export const apiMessage = async <K extends ApiRouteKey>(key: K, ...input: InputArg<K>): Promise<string> =>
  (await apiCall(key, ...input)).message;
