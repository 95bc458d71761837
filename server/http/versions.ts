import type { Context } from 'hono';
import { concurrencyMessages, parseVersionTag, VERSION_HEADER } from '../../contract/concurrency';
import type { Answer } from '../domain/idempotency';
import { ApiError, errorEnvelope } from '../errors';

/**
 * The version the client edited (`If-Match`, see contract/concurrency.ts): ms since epoch, or
 * undefined when the client sent none (no check). A malformed value is a 400.
 */
export function expectedVersionOf(c: Context): number | undefined {
  const version = parseVersionTag(c.req.header(VERSION_HEADER));
  if (version === null) return undefined;
  if (Number.isNaN(version)) {
    throw new ApiError(400, concurrencyMessages.invalidVersion, [
      { fieldName: VERSION_HEADER, message: concurrencyMessages.invalidVersion },
    ]);
  }
  return version;
}

/** True when the client named a version and the record (read under lock) is no longer at it. */
export const isStale = (expected: number | undefined, updatedAt: Date): boolean =>
  expected !== undefined && updatedAt.getTime() !== expected;

/**
 * The 409 answer: the current record in `data`, so the client can show theirs against its own.
 * Not stored under the Idempotency-Key: the same key may be sent again after the user decides.
 */
export const conflict = (current: unknown): Answer => ({
  status: 409,
  body: errorEnvelope(409, current, concurrencyMessages.recordChanged, [], 'version_conflict'),
  store: false,
});
