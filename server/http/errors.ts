import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { FieldError } from '../../contract/envelope';
import { humanDuration } from '../domain/rate-limit';

/** An expected failure: mapped once, in the app's onError, to the response envelope. */
export class ApiError extends Error {
  readonly status: ContentfulStatusCode;
  readonly errors: FieldError[];
  readonly headers: Record<string, string>;

  constructor(
    status: ContentfulStatusCode,
    message: string,
    errors: FieldError[] = [],
    headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.errors = errors;
    this.headers = headers;
  }
}

/** A 400 naming one field, e.g. `fieldError('oldPassword', 'Old password is incorrect')`. */
export const fieldError = (fieldName: string, message: string, status: ContentfulStatusCode = 400) =>
  new ApiError(status, message, [{ fieldName, message }]);

/**
 * 429 for an abuse limit (docs/decisions/013-abuse-limits.md): '<prefix> Try again in 15 minutes.'
 * with a Retry-After header in seconds.
 */
export function tooManyRequests(prefix: string, retryAfterSeconds: number, fieldName?: string) {
  const message = `${prefix} Try again in ${humanDuration(retryAfterSeconds)}.`;
  return new ApiError(429, message, fieldName ? [{ fieldName, message }] : [], {
    'Retry-After': String(retryAfterSeconds),
  });
}

export const envelope = <T>(
  success: boolean,
  data: T | null,
  message: string,
  errors: FieldError[] = [],
) => ({
  success,
  data,
  message,
  errors,
});

/** A success envelope. */
export const ok = <T>(c: Context, data: T, message = 'OK', status: ContentfulStatusCode = 200) =>
  c.json(envelope(true, data, message), status);
