import type { Context } from 'hono';
import type { DbOrTx } from '../db/client';
import { type LimitReport, limitStatus, type RateLimit } from '../domain/rate-limit';

/**
 * The IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers, structured fields):
 * `RateLimit-Policy: "login";q=5;w=900` names each policy with its quota and window (seconds), and
 * `RateLimit: "login";r=3;t=120` what is left of it and the seconds until it grows. Several limits
 * on one call are list members of both fields. Reusable for any limit (a per-API-key one next).
 */
export function rateLimitHeaders(reports: readonly LimitReport[]): Record<string, string> {
  if (reports.length === 0) return {};
  return {
    'RateLimit-Policy': reports
      .map((r) => `"${r.name}";q=${r.rule.limit};w=${Math.round(r.rule.windowMs / 1000)}`)
      .join(', '),
    RateLimit: reports.map((r) => `"${r.name}";r=${r.remaining};t=${r.resetSeconds}`).join(', '),
  };
}

/**
 * Puts the RateLimit fields of `limits` on the answer of `c`. Call it before the answer is built:
 * the fields then go on a success and on the error envelope onError builds from the same context.
 */
export async function reportRateLimits(
  c: Context,
  db: DbOrTx,
  limits: readonly (readonly [bucket: string | null, rule: RateLimit])[],
  now: Date,
): Promise<void> {
  for (const [name, value] of Object.entries(rateLimitHeaders(await limitStatus(db, limits, now)))) {
    c.header(name, value);
  }
}
