import type { MiddlewareHandler } from 'hono';
import { z } from 'zod';
import type { FieldError } from '../../contract/envelope';
import { IMAGE_TOO_LARGE } from '../../contract/images';
import { ApiError } from '../errors';

export const INVALID_JSON = 'Invalid JSON body';
export const VALIDATION_FAILED = 'Validation failed';

/** Where a validator reads: the JSON body, the query string or the path parameters. */
export type ValidationTarget = 'json' | 'query' | 'param';

/**
 * Every validator middleware with the contract schema it checks, so the router can be asked which
 * schema each route really validates with (see `routeSchemas` in app.ts): the OpenAPI document's
 * request schemas are tested to be these very objects.
 */
export const validatorRegistry = new WeakMap<object, { target: ValidationTarget; schema: z.core.$ZodType }>();

const registered = <M extends object>(mw: M, target: ValidationTarget, schema: z.core.$ZodType): M => {
  validatorRegistry.set(mw, { target, schema });
  return mw;
};

/** zod issues → the envelope's `errors`: dotted path as fieldName, first message per field. */
export function toFieldErrors(error: z.ZodError): FieldError[] {
  const out: FieldError[] = [];
  const seen = new Set<string>();
  const push = (fieldName: string, message: string) => {
    if (seen.has(fieldName)) return;
    seen.add(fieldName);
    out.push({ fieldName, message });
  };
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      const prefix = issue.path.length ? `${issue.path.join('.')}.` : '';
      for (const key of issue.keys) push(`${prefix}${key}`, 'Unknown field');
      continue;
    }
    push(issue.path.length ? issue.path.map(String).join('.') : 'body', issue.message);
  }
  return out;
}

export const NUL_CHARACTER = 'Must not contain the NUL character';
export const LONE_SURROGATE = 'Must be valid Unicode text';

/** Half of a UTF-16 surrogate pair, alone: JSON can carry it (`"\ud800"`), Unicode text cannot. */
const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * The first string PostgreSQL cannot store, with why: U+0000 (text refuses it) or a lone surrogate
 * (jsonb refuses its escape, e.g. in the event log's payload); null when there is none. Either would
 * be a 500 at the database.
 */
export function findUnstorableText(value: unknown, path: string[] = [], depth = 0): FieldError | null {
  if (typeof value === 'string') {
    const fieldName = path.join('.') || 'body';
    if (value.includes('\u0000')) return { fieldName, message: NUL_CHARACTER };
    if (loneSurrogate.test(value)) return { fieldName, message: LONE_SURROGATE };
    return null;
  }
  if (depth > 32 || !value || typeof value !== 'object') return null;
  for (const [key, inner] of Object.entries(value)) {
    const hit = findUnstorableText(inner, [...path, key], depth + 1);
    if (hit) return hit;
  }
  return null;
}

const rejectUnstorable = (value: unknown) => {
  const hit = findUnstorableText(value);
  if (hit) throw new ApiError(400, VALIDATION_FAILED, [hit]);
};

/**
 * 413 when an image field is too large (the same status the decoder gives a 5 MiB image that slips
 * under the text cap), else 400. The other field errors still travel with it.
 */
const statusOf = (error: z.ZodError) =>
  error.issues.some((i) => i.code === 'too_big' && i.message === IMAGE_TOO_LARGE) ? 413 : 400;

const jsonMedia = /^application\/([\w.-]+\+)?json$/i;

/**
 * Parses and validates a JSON body with a contract schema. An empty body counts as `{}` so that each
 * missing field gets its own message; a non-JSON content type or unparsable text is 400 'Invalid JSON body'.
 */
export const jsonBody = <S extends z.core.$ZodType>(
  schema: S,
): MiddlewareHandler<
  // biome-ignore lint/suspicious/noExplicitAny: any Env; the validated data is what is typed
  any,
  string,
  { in: { json: z.input<S> }; out: { json: z.output<S> } }
> =>
  registered(
    async (c, next) => {
      const contentType = c.req.header('content-type');
      const text = await c.req.text();
      let value: unknown = {};
      if (text.trim() !== '') {
        const media = contentType?.split(';')[0]?.trim() ?? '';
        if (!jsonMedia.test(media)) throw new ApiError(400, INVALID_JSON, [], {}, 'invalid_json');
        try {
          value = JSON.parse(text);
        } catch {
          throw new ApiError(400, INVALID_JSON, [], {}, 'invalid_json');
        }
      }
      rejectUnstorable(value);
      const result = z.safeParse(schema, value);
      if (!result.success) {
        throw new ApiError(statusOf(result.error), VALIDATION_FAILED, toFieldErrors(result.error));
      }
      c.req.addValidatedData('json', result.data as object);
      await next();
    },
    'json',
    schema,
  );

/** Validates the query string (single values as strings, repeated keys as arrays). */
export const queryParams = <S extends z.core.$ZodType>(
  schema: S,
): MiddlewareHandler<
  // biome-ignore lint/suspicious/noExplicitAny: any Env; the validated data is what is typed
  any,
  string,
  { in: { query: z.input<S> }; out: { query: z.output<S> } }
> =>
  registered(
    async (c, next) => {
      const value = Object.fromEntries(
        Object.entries(c.req.queries()).map(([k, v]) => [k, v.length === 1 ? v[0] : v]),
      );
      rejectUnstorable(value);
      const result = z.safeParse(schema, value);
      if (!result.success) throw new ApiError(400, VALIDATION_FAILED, toFieldErrors(result.error));
      c.req.addValidatedData('query', result.data as object);
      await next();
    },
    'query',
    schema,
  );

/**
 * Validates the path parameters (e.g. `/delete-role/:roleId`); a bad id is a 400, never a 500, unless
 * `invalid` names another answer (a malformed file hash is simply not found).
 */
export const pathParams = <S extends z.core.$ZodType>(
  schema: S,
  invalid?: () => ApiError,
): MiddlewareHandler<
  // biome-ignore lint/suspicious/noExplicitAny: any Env; the validated data is what is typed
  any,
  string,
  { in: { param: z.input<S> }; out: { param: z.output<S> } }
> =>
  registered(
    async (c, next) => {
      const result = z.safeParse(schema, c.req.param());
      if (!result.success) {
        throw invalid?.() ?? new ApiError(400, VALIDATION_FAILED, toFieldErrors(result.error));
      }
      c.req.addValidatedData('param', result.data as object);
      await next();
    },
    'param',
    schema,
  );
