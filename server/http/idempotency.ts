import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import {
  IDEMPOTENCY_HEADER,
  type IdempotencyOutcome,
  idempotencyMessages,
  isValidIdempotencyKey,
} from '../domain/idempotency';
import { ApiError } from '../errors';

/** The request's Idempotency-Key (optional); a malformed one is a 400. */
export function idempotencyKeyOf(c: Context): string | undefined {
  const key = c.req.header(IDEMPOTENCY_HEADER);
  if (key === undefined) return undefined;
  if (!isValidIdempotencyKey(key)) {
    throw new ApiError(400, idempotencyMessages.invalid, [
      { fieldName: IDEMPOTENCY_HEADER, message: idempotencyMessages.invalid },
    ]);
  }
  return key;
}

/** The HTTP answer of an idempotent call: the fresh answer, the stored one (marked), or 422/409. */
export function respond(c: Context, outcome: IdempotencyOutcome): Response {
  switch (outcome.kind) {
    case 'fresh':
      return c.json(
        outcome.answer.body as object,
        outcome.answer.status as ContentfulStatusCode,
        outcome.answer.headers,
      );
    case 'replay':
      return c.json(outcome.body as object, outcome.status as ContentfulStatusCode, {
        'Idempotent-Replayed': 'true',
      });
    case 'mismatch':
      throw new ApiError(422, idempotencyMessages.mismatch);
    case 'inProgress':
      throw new ApiError(409, idempotencyMessages.inProgress, [], {}, 'idempotency_in_progress');
  }
}
