import { and, desc, eq, gt, lte } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { rateLimitHits } from '../db/schema';

export type RateLimit = { limit: number; windowMs: number };

/** Sign-in: 5 failures per account in 15 minutes. */
export const LOGIN_LIMIT: RateLimit = { limit: 5, windowMs: 15 * 60 * 1000 };
/** Reset-code mails per account in 15 minutes (beyond that the request still answers the same). */
export const RESET_REQUEST_LIMIT: RateLimit = { limit: 5, windowMs: 15 * 60 * 1000 };

export const loginBucket = (email: string) => `login:${email.trim().toLowerCase()}`;
export const resetBucket = (email: string) => `reset:${email.trim().toLowerCase()}`;

export type RateLimitState = { blocked: false } | { blocked: true; retryAfterSeconds: number };

/**
 * Counts the bucket's hits inside the window (in the database, so every instance sees them). Blocked
 * while `limit` hits are in the window; it opens again when the `limit`-th most recent one leaves it.
 */
export async function checkRateLimit(
  db: DbOrTx,
  bucket: string,
  rule: RateLimit,
  now: Date,
): Promise<RateLimitState> {
  const windowStart = new Date(now.getTime() - rule.windowMs);
  const hits = await db
    .select({ at: rateLimitHits.at })
    .from(rateLimitHits)
    .where(and(eq(rateLimitHits.bucket, bucket), gt(rateLimitHits.at, windowStart)))
    .orderBy(desc(rateLimitHits.at))
    .limit(rule.limit);
  if (hits.length < rule.limit) return { blocked: false };
  const opensAt = hits[rule.limit - 1]!.at.getTime() + rule.windowMs;
  return { blocked: true, retryAfterSeconds: Math.max(1, Math.ceil((opensAt - now.getTime()) / 1000)) };
}

/** Counts one attempt, and drops the bucket's hits that have left the window. */
export async function recordHit(db: DbOrTx, bucket: string, rule: RateLimit, now: Date): Promise<void> {
  await db
    .delete(rateLimitHits)
    .where(
      and(eq(rateLimitHits.bucket, bucket), lte(rateLimitHits.at, new Date(now.getTime() - rule.windowMs))),
    );
  await db.insert(rateLimitHits).values({ bucket, at: now });
}

export async function clearBucket(db: DbOrTx, bucket: string): Promise<void> {
  await db.delete(rateLimitHits).where(eq(rateLimitHits.bucket, bucket));
}

/** "15 minutes", "1 minute", "30 seconds". */
export function humanDuration(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}
