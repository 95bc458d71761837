import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { type ErrorCode, errorCodeOfStatus, type FieldError } from '../contract/envelope';
import { humanDuration } from './domain/rate-limit';

/*
 * The failures and the response envelope every layer uses (docs/decisions/055-server-layers.md): the
 * domain throws an ApiError, the app's onError (server/app.ts) answers it.
 */

export const ROUTE_NOT_FOUND = 'Route not found';
export const INTERNAL_ERROR = 'Internal server error';
/** The database cannot be reached: the same words for every request, nothing about why. */
export const SERVICE_UNAVAILABLE = 'The service is temporarily unavailable. Please try again in a moment.';

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
