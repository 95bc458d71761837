import { ERROR_CODES, type ErrorCode } from './error-codes';
import { z } from './zod';

/** One field-level problem, as the spec's `errors` items. */
export const fieldErrorSchema = z.object({ fieldName: z.string(), message: z.string() });
export type FieldError = z.infer<typeof fieldErrorSchema>;

/**
 * The stable, machine-readable `code` of every error envelope (docs/decisions/027, 063): one list,
 * the catalogue in contract/error-codes.ts. Derived from the status unless the server names a more
 * precise one (`partner_blocked`, `insufficient_balance` ...).
 */
export { ERROR_CODES, type ErrorCode } from './error-codes';

export const errorCodeSchema = z.enum(ERROR_CODES);

/** The code an error status means when the server names no other. */
export function errorCodeOfStatus(status: number): ErrorCode {
  switch (status) {
    case 400:
      return 'validation_failed';
    case 401:
      return 'unauthenticated';
    case 403:
      return 'forbidden';
    case 404:
      return 'not_found';
    case 409:
      return 'conflict';
    case 413:
      return 'payload_too_large';
    case 422:
      return 'idempotency_key_reused';
    case 429:
      return 'rate_limited';
    case 503:
      return 'service_unavailable';
    default:
      return status >= 500 ? 'internal_error' : 'bad_request';
  }
}

/**
 * Every response: `{ success, data, message, errors }` (docs/product.md#decided-rules), and on a failure a
 * `code` (one of ERROR_CODES; read as a string here so a newer server's code never fails a parse).
 */
export const envelopeSchema = <T extends z.core.$ZodType>(data: T) =>
  z.object({
    success: z.boolean(),
    data: z.nullable(data),
    message: z.string(),
    code: z.optional(z.string()),
    errors: z.array(fieldErrorSchema),
  });

/** A failure as the reference documents it: `code` always present and one of ERROR_CODES. */
export const errorEnvelopeSchema = <T extends z.core.$ZodType>(data: T) =>
  z.object({
    success: z.literal(false),
    data: z.nullable(data),
    message: z.string(),
    code: errorCodeSchema,
    errors: z.array(fieldErrorSchema),
  });

export type Envelope<T> = {
  success: boolean;
  data: T | null;
  message: string;
  code?: string;
  errors: FieldError[];
};

export const listMetaSchema = z.object({
  totalCount: z.int(),
  pageNumber: z.int(),
  pageSize: z.int(),
});

export const listSchema = <T extends z.core.$ZodType>(record: T) =>
  z.object({ records: z.array(record), meta: listMetaSchema });

export type ListData<T> = { records: T[]; meta: z.infer<typeof listMetaSchema> };

/**
 * The answer of a list that also pages by cursor (contract/list.ts `cursorQueryShape`, decision 066):
 * paged by number it has `meta` (totals, page) and `hasMore`; paged by cursor only `records` and
 * `hasMore` (no count: a till walks on until `hasMore` is false).
 */
export const cursorListSchema = <T extends z.core.$ZodType>(record: T) =>
  z.object({
    records: z.array(record),
    /** Paged by number (pageNumber/pageSize) only: the total and the page. Absent when paged by cursor. */
    meta: z.optional(listMetaSchema),
    hasMore: z.boolean().register(z.globalRegistry, {
      description:
        'More records follow this page: after its last record (by number, or with startingAfter or no cursor), or before its first (with endingBefore).',
    }),
  });

export type CursorListData<T> = { records: T[]; meta?: ListData<T>['meta']; hasMore: boolean };
