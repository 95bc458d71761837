import type { Context } from 'hono';
import type { DbOrTx } from '../db/client';
import { type LimitReport, limitStatus, type RateLimit } from '../domain/rate-limit';

/**
 * The IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers, structured fields):
 * `RateLimit-Policy: "login";q=5;w=900` names each policy with its quota and window (seconds), and
 * `RateLimit: "login";r=3;t=120` what is left of it and the seconds until it grows. Several limits
 * on one call are list members of both fields, the tightest (fewest left) first.
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

/** The limits reported so far on each request's answer (the guard's API key limit, then the route's). */
const reported = new WeakMap<Context, LimitReport[]>();

/**
 * Adds `reports` to the RateLimit fields of the answer of `c` (decision 063): a limit reported
 * again replaces its earlier report, the others stay, so a route's limits never hide the API key's.
 * Members are ordered tightest first (fewest left; a stable sort keeps the order of equals).
 */
export function reportLimits(c: Context, reports: readonly LimitReport[]): void {
  const merged = [...(reported.get(c) ?? [])];
  for (const r of reports) {
    const at = merged.findIndex((m) => m.name === r.name);
    if (at >= 0) merged[at] = r;
    else merged.push(r);
  }
  merged.sort((a, b) => a.remaining - b.remaining);
  reported.set(c, merged);
  for (const [name, value] of Object.entries(rateLimitHeaders(merged))) c.header(name, value);
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
  reportLimits(c, await limitStatus(db, limits, now));
}
