import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { envelope } from '../errors';

/** A success envelope. */
export const ok = <T>(c: Context, data: T, message = 'OK', status: ContentfulStatusCode = 200) =>
  c.json(envelope(true, data, message), status);
