import { eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { rateLimitHits } from '../db/schema';
import { pendingBucket, purgeOldHits, type RateLimit, releaseHits, retryAfter } from './rate-limit';

/**
 * Password attempts (sign-in, change password): only failures count, and correct passwords never
 * wait on a limit, yet a burst of wrong guesses is still bounded (issue 16 defect 7).
 *
 * An attempt in flight holds a place in `pending:<bucket>` (taken under the bucket's advisory lock,
 * like `takeRateLimit`): failures plus attempts in flight never exceed the limit, so a burst of wrong
 * guesses has at most `limit` of them checked. When the limit is reached only by attempts in flight,
 * the request waits for them to settle (a failure turns its place into a counted hit; a success gives
 * it back) instead of being refused, so eight parallel correct sign-ins of one account all succeed.
 * A place left by a crashed process stops counting after PENDING_TTL_MS.
 */
export const PENDING_TTL_MS = 60 * 1000;
/** How long a request waits for attempts in flight before it is refused (1 s Retry-After). */
export const PENDING_WAIT_MS = 15 * 1000;
const PENDING_POLL_MS = 20;

type AttemptLimits = readonly (readonly [bucket: string | null, rule: RateLimit])[];
export type Attempt = { buckets: string[]; hitIds: number[] };

async function takePending(
  db: DbOrTx,
  bucket: string,
  rule: RateLimit,
  now: Date,
): Promise<
  { kind: 'taken'; hitId: number } | { kind: 'busy' } | { kind: 'blocked'; retryAfterSeconds: number }
> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${bucket}, 0))`);
    const seconds = await retryAfter(tx, bucket, rule, now);
    if (seconds !== null) return { kind: 'blocked' as const, retryAfterSeconds: seconds };
    const [row] = await tx
      .select({
        failures: sql<number>`count(*) filter (where ${rateLimitHits.bucket} = ${bucket} and ${rateLimitHits.at} > ${new Date(now.getTime() - rule.windowMs).toISOString()}::timestamptz)::int`,
        pending: sql<number>`count(*) filter (where ${rateLimitHits.bucket} = ${pendingBucket(bucket)} and ${rateLimitHits.at} > ${new Date(now.getTime() - PENDING_TTL_MS).toISOString()}::timestamptz)::int`,
      })
      .from(rateLimitHits)
      .where(inArray(rateLimitHits.bucket, [bucket, pendingBucket(bucket)]));
    if (Number(row?.failures ?? 0) + Number(row?.pending ?? 0) >= rule.limit)
      return { kind: 'busy' as const };
    const [hit] = await tx
      .insert(rateLimitHits)
      .values({ bucket: pendingBucket(bucket), at: now })
      .returning({ id: rateLimitHits.id });
    return { kind: 'taken' as const, hitId: hit!.id };
  });
}

/**
 * Starts a password attempt: a place in flight in each bucket (skipping those without a key), or
 * blocked (counted failures fill a bucket) with the longest Retry-After. Waits while only attempts
 * in flight fill a bucket. Settle it with `settleAttempt`.
 */
export async function beginAttempt(
  db: DbOrTx,
  limits: AttemptLimits,
  now: Date,
): Promise<({ blocked: false } & Attempt) | { blocked: true; retryAfterSeconds: number }> {
  const deadline = Date.now() + PENDING_WAIT_MS;
  for (;;) {
    const taken: Attempt = { buckets: [], hitIds: [] };
    let wait = 0;
    let busy = false;
    for (const [bucket, rule] of limits) {
      if (bucket === null) continue;
      const got = await takePending(db, bucket, rule, now);
      if (got.kind === 'taken') {
        taken.buckets.push(bucket);
        taken.hitIds.push(got.hitId);
      } else if (got.kind === 'blocked') wait = Math.max(wait, got.retryAfterSeconds);
      else busy = true;
      // No break on a refusal: a later bucket may be blocked for longer, and the answer waits the
      // longest Retry-After (a shorter one would only earn the client another 429).
    }
    if (wait === 0 && !busy) {
      await purgeOldHits(db, now);
      return { blocked: false, ...taken };
    }
    await releaseHits(db, taken.hitIds);
    if (wait > 0) return { blocked: true, retryAfterSeconds: wait };
    if (Date.now() >= deadline) return { blocked: true, retryAfterSeconds: 1 };
    await new Promise((resolve) => setTimeout(resolve, PENDING_POLL_MS));
  }
}

/**
 * Ends a password attempt: a failure turns each place in flight into a counted hit of its bucket (at
 * the attempt's time); anything else (a success, a blocked account) gives the places back.
 */
export async function settleAttempt(db: DbOrTx, attempt: Attempt, failed: boolean): Promise<void> {
  if (!failed) return releaseHits(db, attempt.hitIds);
  for (const [i, bucket] of attempt.buckets.entries()) {
    await db.update(rateLimitHits).set({ bucket }).where(eq(rateLimitHits.id, attempt.hitIds[i]!));
  }
}
