import { isIP } from 'node:net';
import { and, desc, eq, gt, inArray, lt, lte, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { rateLimitHits } from '../db/schema';

/**
 * Abuse limits (docs/decisions/013-abuse-limits.md). Every counted attempt is a row of
 * `rate_limit_hits` in the database, so several server instances on one database share the counts.
 * A limit allows `limit` hits of one bucket inside a sliding window of `windowMs`.
 */
export type RateLimit = { limit: number; windowMs: number };

const MINUTES_15 = 15 * 60 * 1000;

/** Sign-in: 5 failures per account (email, known or not) in 15 minutes. */
export const LOGIN_LIMIT: RateLimit = { limit: 5, windowMs: MINUTES_15 };
/** Sign-in: 20 failures per client address in 15 minutes (many accounts tried from one place). */
export const LOGIN_IP_LIMIT: RateLimit = { limit: 20, windowMs: MINUTES_15 };
/** Reset-code requests per email (known or not, so the answer tells nothing) in 15 minutes. */
export const RESET_REQUEST_LIMIT: RateLimit = { limit: 5, windowMs: MINUTES_15 };
/** Reset-code requests per client address in 15 minutes. */
export const RESET_REQUEST_IP_LIMIT: RateLimit = { limit: 10, windowMs: MINUTES_15 };
/** Wrong reset codes per client address in 15 minutes. */
export const RESET_CODE_IP_LIMIT: RateLimit = { limit: 10, windowMs: MINUTES_15 };
/** Redemption codes sent per staff member in 15 minutes (beside the 10 per reward a day). */
export const OTP_SEND_LIMIT: RateLimit = { limit: 30, windowMs: MINUTES_15 };
/** Redemption codes sent per client address in 15 minutes. */
export const OTP_SEND_IP_LIMIT: RateLimit = { limit: 60, windowMs: MINUTES_15 };
/** Wrong redemption codes per staff member in 15 minutes (beside the 5 per code). */
export const OTP_GUESS_LIMIT: RateLimit = { limit: 20, windowMs: MINUTES_15 };
/** Wrong redemption codes per client address in 15 minutes. */
export const OTP_GUESS_IP_LIMIT: RateLimit = { limit: 40, windowMs: MINUTES_15 };

/** Wrong old passwords in the change-password call, per account, in 15 minutes (like sign-in). */
export const PASSWORD_CHANGE_LIMIT: RateLimit = { limit: 5, windowMs: MINUTES_15 };

/** Calls per partner API key per minute, every call counted (RateLimit-Policy `"api-key";q=600;w=60`). */
export const API_KEY_LIMIT: RateLimit = { limit: 600, windowMs: 60 * 1000 };
/** A club integration key (decision 051): a subscriber system sends bursts of per-change calls. */
export const CLUB_KEY_LIMIT: RateLimit = { limit: 6000, windowMs: 60 * 1000 };

/** The bucket of a password attempt in flight (server/domain/password-attempts.ts). */
export const pendingBucket = (bucket: string) => `pending:${bucket}`;

/** The longest window above: older hits count for nothing and are purged. */
export const LONGEST_WINDOW_MS = MINUTES_15;

const email = (value: string) => value.trim().toLowerCase();

export const buckets = {
  login: (address: string) => `login:${email(address)}`,
  loginIp: (ip: string) => `login-ip:${ipKey(ip)}`,
  reset: (address: string) => `reset:${email(address)}`,
  resetIp: (ip: string) => `reset-ip:${ipKey(ip)}`,
  resetCodeIp: (ip: string) => `reset-code-ip:${ipKey(ip)}`,
  otpSend: (userId: number) => `otp-send:${userId}`,
  otpSendIp: (ip: string) => `otp-send-ip:${ipKey(ip)}`,
  otpGuess: (userId: number) => `otp-guess:${userId}`,
  otpGuessIp: (ip: string) => `otp-guess-ip:${ipKey(ip)}`,
  passwordChange: (userId: number) => `password-change:${userId}`,
  apiKey: (keyId: number) => `api-key:${keyId}`,
  clubKey: (keyId: number) => `club-key:${keyId}`,
};
export const loginBucket = buckets.login;

/**
 * The part of a client address a limit counts: an IPv4 address as it is, an IPv6 address by its /64
 * (one subscriber usually holds a whole /64, so counting single addresses would be no limit).
 */
export function ipKey(ip: string): string {
  if (isIP(ip) !== 6) return ip;
  const [head = '', tail] = ip.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups =
    tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

export type RateLimitState = { blocked: false } | { blocked: true; retryAfterSeconds: number };
export type Taken = { blocked: false; hitId: number } | { blocked: true; retryAfterSeconds: number };

/** The bucket's most recent hits inside the window, newest first, at most `limit`. */
const windowHits = (db: DbOrTx, bucket: string, rule: RateLimit, now: Date) =>
  db
    .select({ at: rateLimitHits.at })
    .from(rateLimitHits)
    .where(
      and(eq(rateLimitHits.bucket, bucket), gt(rateLimitHits.at, new Date(now.getTime() - rule.windowMs))),
    )
    .orderBy(desc(rateLimitHits.at))
    .limit(rule.limit);

/** When the bucket opens again: the `limit`-th most recent hit leaves the window. */
export async function retryAfter(db: DbOrTx, bucket: string, rule: RateLimit, now: Date) {
  const hits = await windowHits(db, bucket, rule, now);
  if (hits.length < rule.limit) return null;
  const opensAt = hits[rule.limit - 1]!.at.getTime() + rule.windowMs;
  return Math.max(1, Math.ceil((opensAt - now.getTime()) / 1000));
}

/**
 * Counts the bucket's hits inside the window, without counting one. Blocked while `limit` hits are
 * in the window. A check then a later `recordHit` is not atomic: parallel requests may all pass the
 * check; use it only where something else bounds the count (the 5 tries per redemption code).
 */
export async function checkRateLimit(
  db: DbOrTx,
  bucket: string,
  rule: RateLimit,
  now: Date,
): Promise<RateLimitState> {
  const seconds = await retryAfter(db, bucket, rule, now);
  return seconds === null ? { blocked: false } : { blocked: true, retryAfterSeconds: seconds };
}

/**
 * Takes one of the bucket's places before the work, atomically across instances: under a
 * transaction-scoped advisory lock on the bucket, the window is counted and, with a place free, the
 * hit is inserted. Parallel requests for one bucket queue on the lock, so exactly the first `limit`
 * get through, however many arrive at once. A refused request counts nothing (hammering does not
 * push the opening time further); a request whose attempt should not count (a successful sign-in)
 * gives its place back with `releaseHits`.
 */
export async function takeRateLimit(db: DbOrTx, bucket: string, rule: RateLimit, now: Date): Promise<Taken> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${bucket}, 0))`);
    const seconds = await retryAfter(tx, bucket, rule, now);
    if (seconds !== null) return { blocked: true as const, retryAfterSeconds: seconds };
    const [hit] = await tx
      .insert(rateLimitHits)
      .values({ bucket, at: now })
      .returning({ id: rateLimitHits.id });
    return { blocked: false as const, hitId: hit!.id };
  });
}

/**
 * Takes a place in each bucket (skipping those without a key, e.g. no client address known). Refused
 * by any: the places taken are given back, and the answer waits the longest Retry-After.
 */
export async function takeRateLimits(
  db: DbOrTx,
  limits: readonly (readonly [bucket: string | null, rule: RateLimit])[],
  now: Date,
): Promise<{ blocked: false; hitIds: number[] } | { blocked: true; retryAfterSeconds: number }> {
  const hitIds: number[] = [];
  let wait = 0;
  for (const [bucket, rule] of limits) {
    if (bucket === null) continue;
    const taken = await takeRateLimit(db, bucket, rule, now);
    if (taken.blocked) wait = Math.max(wait, taken.retryAfterSeconds);
    else hitIds.push(taken.hitId);
  }
  if (wait === 0) {
    await purgeOldHits(db, now);
    return { blocked: false, hitIds };
  }
  await releaseHits(db, hitIds);
  return { blocked: true, retryAfterSeconds: wait };
}

/** Whether any bucket is blocked (no hit counted), with the longest Retry-After. */
export async function checkRateLimits(
  db: DbOrTx,
  limits: readonly (readonly [bucket: string | null, rule: RateLimit])[],
  now: Date,
): Promise<RateLimitState> {
  let wait = 0;
  for (const [bucket, rule] of limits) {
    if (bucket === null) continue;
    const state = await checkRateLimit(db, bucket, rule, now);
    if (state.blocked) wait = Math.max(wait, state.retryAfterSeconds);
  }
  return wait === 0 ? { blocked: false } : { blocked: true, retryAfterSeconds: wait };
}

export async function releaseHits(db: DbOrTx, hitIds: readonly number[]): Promise<void> {
  if (hitIds.length > 0) await db.delete(rateLimitHits).where(inArray(rateLimitHits.id, [...hitIds]));
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

/**
 * Empties a bucket (a successful sign-in, a completed reset, an admin's unlock). Under the bucket's
 * advisory lock, as `takeRateLimit`: two requests clearing one bucket at once (parallel sign-ins of
 * one account) would otherwise each hold the row of its own hit and wait for the other's, a deadlock.
 * Call it before releasing any hit of the same transaction, so no row lock is held while waiting.
 */
export async function clearBucket(db: DbOrTx, bucket: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${bucket}, 0))`);
    await tx.delete(rateLimitHits).where(eq(rateLimitHits.bucket, bucket));
  });
}

const PURGE_EVERY_MS = 10 * 60 * 1000;
const PURGE_BATCH = 1000;
let lastPurge = 0;

/**
 * Drops hits older than the longest window (buckets never hit again, e.g. a sprayed email), 1,000 at
 * most, at most once per 10 minutes per process; nothing runs on an idle server.
 */
export async function purgeOldHits(db: DbOrTx, now: Date): Promise<void> {
  if (Math.abs(now.getTime() - lastPurge) < PURGE_EVERY_MS) return;
  lastPurge = now.getTime();
  const old = db
    .select({ id: rateLimitHits.id })
    .from(rateLimitHits)
    .where(lt(rateLimitHits.at, new Date(now.getTime() - LONGEST_WINDOW_MS)))
    .limit(PURGE_BATCH);
  await db.delete(rateLimitHits).where(inArray(rateLimitHits.id, old));
}

/** "15 minutes", "1 minute", "30 seconds". */
export function humanDuration(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

/**
 * Where one limit stands for the IETF RateLimit headers (server/http/rate-limit-headers.ts): the
 * policy's name (the bucket's kind: `login`, `otp-send-ip` ...), its quota and window, the places
 * left and the seconds until one more frees (the oldest counted hit leaves the window).
 */
export type LimitReport = { name: string; rule: RateLimit; remaining: number; resetSeconds: number };

/**
 * The status of each bucket with a key (one indexed query each, at most `limit` rows). Attempts in
 * flight (beginAttempt's places) count as used: the answer that carries these fields may be the
 * failure that keeps its place.
 */
export async function limitStatus(
  db: DbOrTx,
  limits: readonly (readonly [bucket: string | null, rule: RateLimit])[],
  now: Date,
): Promise<LimitReport[]> {
  const reports: LimitReport[] = [];
  for (const [bucket, rule] of limits) {
    if (bucket === null) continue;
    const hits = await db
      .select({ at: rateLimitHits.at })
      .from(rateLimitHits)
      .where(
        and(
          inArray(rateLimitHits.bucket, [bucket, pendingBucket(bucket)]),
          gt(rateLimitHits.at, new Date(now.getTime() - rule.windowMs)),
        ),
      )
      .orderBy(desc(rateLimitHits.at))
      .limit(rule.limit);
    const oldest = hits.at(-1);
    reports.push({
      name: bucket.slice(0, bucket.indexOf(':')),
      rule,
      remaining: Math.max(0, rule.limit - hits.length),
      resetSeconds: oldest
        ? Math.max(0, Math.ceil((oldest.at.getTime() + rule.windowMs - now.getTime()) / 1000))
        : 0,
    });
  }
  return reports;
}
