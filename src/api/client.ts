import wretch from 'wretch';
import { type FieldError, fieldErrorSchema } from '../../contract/envelope';
import { z } from '../../contract/zod';
import { ApiError, NETWORK_ERROR } from '../lib/api-error';
import { ERROR_FALLBACK } from '../lib/error-fallback';

/** The one HTTP client of the SPA: base /api/v1, JSON, bearer token, envelope unwrapped. */

/** Its failures are ApiErrors (defined in lib so that lib's error readers need not import the client). */
export { ApiError, NETWORK_ERROR };

export const SESSION_EXPIRED = 'Session expired. Please log in again.';

/**
 * Where the client gets its bearer token. The session actor is the only owner of tokens;
 * the client asks it and, on a 401, reports the rejected token and waits for the outcome.
 */
export interface TokenSource {
  /** The current access token (after any refresh in flight), or null when signed out. */
  accessToken(): Promise<string | null>;
  /**
   * Report a 401 for `token`; resolves with the token to retry with, null when the session ended, or
   * 'offline' when the refresh got no answer (the session goes on; the call fails as unanswered).
   */
  rejected(token: string): Promise<string | null | 'offline'>;
  /**
   * Changes whenever a session ends. A response to a call made in an earlier session is dropped
   * (as a 401): after sign-out no data of the signed-out user reaches the caches again.
   */
  epoch?(): number;
}

/** 'session' (default): token from the session, 401 → refresh → retry once. */
export type Auth = 'session' | 'none' | { token: string };
export type Query = Record<string, string | number | boolean | null | undefined>;

export interface RequestOptions {
  body?: unknown;
  /** A body sent as it is, not JSON (a chosen file: the browser streams a File from disk). */
  raw?: { body: Blob; contentType: string };
  query?: Query;
  auth?: Auth;
  /** Extra request headers (e.g. `Idempotency-Key` on money calls). */
  headers?: Record<string, string>;
  /** This call's time limit (default: the client's). */
  timeoutMs?: number;
}

export interface Result<T> {
  data: T;
  message: string;
}

export interface ApiClient {
  send<S extends z.core.$ZodType>(
    method: Method,
    path: string,
    schema: S,
    options?: RequestOptions,
  ): Promise<Result<z.output<S>>>;
  get<S extends z.core.$ZodType>(
    path: string,
    schema: S,
    options?: Omit<RequestOptions, 'body'>,
  ): Promise<z.output<S>>;
  post<S extends z.core.$ZodType>(path: string, schema: S, options?: RequestOptions): Promise<z.output<S>>;
  patch<S extends z.core.$ZodType>(path: string, schema: S, options?: RequestOptions): Promise<z.output<S>>;
  delete<S extends z.core.$ZodType>(path: string, schema: S, options?: RequestOptions): Promise<z.output<S>>;
  /**
   * A GET whose answer is a file (a CSV export): the response itself, its body not yet read, after
   * the same bearer token and one refresh on 401. A failed call throws the envelope's ApiError.
   */
  download(path: string, options?: { query?: Query; signal?: AbortSignal }): Promise<Response>;
}

export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export interface ApiClientOptions {
  tokens: TokenSource;
  baseUrl?: string;
  /** The network boundary; defaults to the global fetch. */
  fetch?: typeof fetch;
  /**
   * How long one call may wait for its answer (issue 17): on a stalled link a call fails as
   * unanswered (status 0) instead of hanging, so nothing waiting on it (the outbox) is blocked.
   */
  timeoutMs?: number;
}

/** Default time a call waits for its answer. */
export const REQUEST_TIMEOUT_MS = 15_000;

interface Envelope {
  success?: boolean;
  data?: unknown;
  message?: string;
  code?: unknown;
  errors?: unknown;
}

const asEnvelope = (value: unknown): Envelope | null =>
  value !== null && typeof value === 'object' ? (value as Envelope) : null;

const fieldErrors = (value: unknown): FieldError[] =>
  Array.isArray(value)
    ? value.flatMap((e) => (fieldErrorSchema.safeParse(e).success ? [e as FieldError] : []))
    : [];

/** Turns whatever a call threw into an ApiError. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof wretch.WretchError) {
    const env = asEnvelope(error.json);
    const message = env?.message || `Request failed with status code ${error.status}`;
    const code = typeof env?.code === 'string' ? env.code : undefined;
    return new ApiError(error.status, message, fieldErrors(env?.errors), code);
  }
  // fetch rejects (TypeError) when the network is down or the request was blocked.
  return new ApiError(0, NETWORK_ERROR);
}

const queryString = (query?: Query): string => {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue; // docs/product.md#calls: empty values omitted
    params.append(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
};

export function createApiClient({
  tokens,
  baseUrl = '/api/v1',
  fetch: fetchImpl,
  timeoutMs = REQUEST_TIMEOUT_MS,
}: ApiClientOptions): ApiClient {
  let base = wretch(baseUrl).options({ credentials: 'include' }).headers({ Accept: 'application/json' });
  if (fetchImpl) base = base.polyfills({ fetch: fetchImpl });

  async function once(method: Method, path: string, options: RequestOptions, token: string | null) {
    let w = base.url(path + queryString(options.query));
    if (token) w = w.auth(`Bearer ${token}`);
    if (options.headers) w = w.headers(options.headers);
    if (options.body !== undefined) w = w.json(options.body as object);
    if (options.raw) w = w.content(options.raw.contentType).body(options.raw.body);
    if (typeof AbortSignal.timeout === 'function') {
      w = w.options({ signal: AbortSignal.timeout(options.timeoutMs ?? timeoutMs) });
    }
    try {
      const text = await w.fetch(method).text();
      return asEnvelope(text ? JSON.parse(text) : null);
    } catch (error) {
      throw toApiError(error);
    }
  }

  async function send<S extends z.core.$ZodType>(
    method: Method,
    path: string,
    schema: S,
    options: RequestOptions = {},
  ) {
    const auth = options.auth ?? 'session';
    const token = auth === 'session' ? await tokens.accessToken() : auth === 'none' ? null : auth.token;
    const epoch = tokens.epoch?.();
    const sessionEnded = () => auth === 'session' && token !== null && tokens.epoch?.() !== epoch;
    let env: Envelope | null;
    try {
      env = await once(method, path, options, token);
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 401 || auth !== 'session' || !token) throw error;
      const next = await tokens.rejected(token);
      if (next === 'offline') throw new ApiError(0, NETWORK_ERROR);
      if (!next) throw new ApiError(401, SESSION_EXPIRED);
      env = await once(method, path, options, next);
    }
    if (sessionEnded()) throw new ApiError(401, SESSION_EXPIRED);
    if (!env || env.success === false) {
      throw new ApiError(200, env?.message || ERROR_FALLBACK, fieldErrors(env?.errors));
    }
    const parsed = z.safeParse(schema, env.data ?? null);
    if (!parsed.success) throw new ApiError(200, 'Unexpected response from the server');
    return { data: parsed.data as z.output<S>, message: env.message ?? '' };
  }

  async function download(path: string, options: { query?: Query; signal?: AbortSignal } = {}) {
    const once = async (token: string | null) => {
      let w = base.url(path + queryString(options.query)).headers({ Accept: 'text/csv, application/json' });
      if (token) w = w.auth(`Bearer ${token}`);
      if (options.signal) w = w.options({ signal: options.signal });
      try {
        return await w.get().res();
      } catch (error) {
        throw toApiError(error);
      }
    };
    const token = await tokens.accessToken();
    try {
      return await once(token);
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 401 || !token) throw error;
      const next = await tokens.rejected(token);
      if (next === 'offline') throw new ApiError(0, NETWORK_ERROR);
      if (!next) throw new ApiError(401, SESSION_EXPIRED);
      return once(next);
    }
  }

  return {
    send,
    download,
    get: async (path, schema, options) => (await send('GET', path, schema, options)).data,
    post: async (path, schema, options) => (await send('POST', path, schema, options)).data,
    patch: async (path, schema, options) => (await send('PATCH', path, schema, options)).data,
    delete: async (path, schema, options) => (await send('DELETE', path, schema, options)).data,
  };
}

let current: ApiClient | null = null;

/** Boot wires the app-wide client once (src/main.tsx); API modules reach it through `api()`. */
export function setApiClient(client: ApiClient | null): void {
  current = client;
}

export function api(): ApiClient {
  if (!current) throw new Error('API client is not configured');
  return current;
}
