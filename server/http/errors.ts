import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { type ErrorCode, errorCodeOfStatus, type FieldError } from '../../contract/envelope';
import { humanDuration } from '../domain/rate-limit';

/**
 * An expected failure: mapped once, in the app's onError, to the response envelope. Its `code` is
 * derived from the status (errorCodeOfStatus) unless given.
 */
export class ApiError extends Error {
  readonly status: ContentfulStatusCode;
  readonly errors: FieldError[];
  readonly headers: Record<string, string>;
  readonly code: ErrorCode;

  constructor(
    status: ContentfulStatusCode,
    message: string,
    errors: FieldError[] = [],
    headers: Record<string, string> = {},
    code: ErrorCode = errorCodeOfStatus(status),
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.errors = errors;
    this.headers = headers;
    this.code = code;
  }
}

/** A 400 naming one field, e.g. `fieldError('oldPassword', 'Old password is incorrect')`. */
export const fieldError = (
  fieldName: string,
  message: string,
  status: ContentfulStatusCode = 400,
  code: ErrorCode = errorCodeOfStatus(status),
) => new ApiError(status, message, [{ fieldName, message }], {}, code);

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

/** A failure envelope: as `envelope`, with the error's `code` (the status's unless given). */
export const errorEnvelope = <T>(
  status: number,
  data: T | null,
  message: string,
  errors: FieldError[] = [],
  code: ErrorCode = errorCodeOfStatus(status),
) => ({ success: false as const, data, message, code, errors });

/** A success envelope. */
export const ok = <T>(c: Context, data: T, message = 'OK', status: ContentfulStatusCode = 200) =>
  c.json(envelope(true, data, message), status);
