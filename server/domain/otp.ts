import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { and, desc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import { OTP_LOCKED_MESSAGE } from '../../contract/redemption';
import type { DbOrTx } from '../db/client';
import { redemptionOtps } from '../db/schema';
import type { LimitReport } from './rate-limit';

/**
 * Redemption codes (docs/product.md#decided-rules, docs/decisions/007-ledger-and-otp.md): six digits mailed to
 * the customer, valid 5 minutes, single use, at most 5 wrong tries, at most 10 codes per reward a day.
 * Only an HMAC of the code is stored (keyed with a server secret, so a database dump alone cannot
 * try the million codes); the code itself is never logged and leaves the outbox once delivered.
 */
export const OTP_TTL_MS = 5 * 60 * 1000;
export const OTP_MAX_ATTEMPTS = 5;
export const OTP_DAILY_CAP = 10;
export const OTP_DAY_MS = 24 * 60 * 60 * 1000;
export const OTP_MAIL_SUBJECT = 'Your Reward Club redemption code';

export const otpMessages = {
  wrong: (left: number) => `The code is not correct. ${left} attempt${left === 1 ? '' : 's'} left.`,
  locked: OTP_LOCKED_MESSAGE,
  expired: 'The code has expired. Send a new code.',
  used: 'The code was already used. Send a new code.',
  none: 'No code was sent for this reward. Send a code first.',
  dailyCap: 'Too many codes were sent for this reward today. Try again tomorrow.',
  notSent: 'The code could not be sent. Please try again.',
  /** Followed by ' Try again in 15 minutes.' (429, codes per staff member or client address). */
  tooManySendsPrefix: 'Too many codes were sent.',
  /** Followed by ' Try again in 12 minutes.' (429, wrong codes per staff member or client address). */
  tooManyGuessesPrefix: 'Too many wrong codes were tried.',
} as const;

/** A uniform 6-digit code (000000 to 999999). */
export const generateOtp = (): string => String(randomInt(0, 1_000_000)).padStart(6, '0');

/** HMAC-SHA256 of the code, bound to the customer, keyed with the server secret (the pepper). */
export function hashOtp(secret: string, customerId: number, code: string): string {
  const key = createHmac('sha256', secret).update('redemption-otp').digest();
  return createHmac('sha256', key).update(`${customerId}:${code}`).digest('hex');
}

export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

/** 'ada.obi@mail.ng' → 'a***@mail.ng'. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '***';
  return `${email[0]}***${email.slice(at)}`;
}

/** '08031234567' → '********567': the last three digits, what a counter needs to tell two customers apart. */
export function maskPhone(phone: string | null): string | null {
  if (phone === null || phone === '') return phone;
  const digits = phone.replace(/\D/g, '');
  return digits.length <= 3 ? '***' : `${'*'.repeat(digits.length - 3)}${digits.slice(-3)}`;
}

export const otpMail = (to: string, code: string, rewardTitle: string, partner: string) => ({
  to,
  subject: OTP_MAIL_SUBJECT,
  text: [
    'Hello,',
    '',
    `${partner} is redeeming your reward "${rewardTitle}".`,
    '',
    `Your redemption code is: ${code}`,
    '',
    'It is valid for 5 minutes and can be used once. If you are not at the counter, do not share it.',
    '',
    'Reward Club',
  ].join('\n'),
});

export type OtpRow = typeof redemptionOtps.$inferSelect;

/** Codes sent for a reward in the last 24 hours, and when the oldest of them leaves that window. */
export async function dailyCapState(db: DbOrTx, rewardId: number, now: Date) {
  const since = new Date(now.getTime() - OTP_DAY_MS);
  const rows = await db
    .select({ createdAt: redemptionOtps.createdAt })
    .from(redemptionOtps)
    .where(and(eq(redemptionOtps.rewardId, rewardId), gt(redemptionOtps.createdAt, since)))
    .orderBy(desc(redemptionOtps.createdAt))
    .limit(OTP_DAILY_CAP);
  if (rows.length < OTP_DAILY_CAP) return { blocked: false as const };
  const opensAt = rows[OTP_DAILY_CAP - 1]!.createdAt.getTime() + OTP_DAY_MS;
  return {
    blocked: true as const,
    retryAfterSeconds: Math.max(1, Math.ceil((opensAt - now.getTime()) / 1000)),
  };
}

/**
 * A new code for a reward: the earlier live code of that reward stops working; the customer's codes
 * for other rewards (at other partners, issue 16 defect 6) stay valid.
 */
export async function createOtp(
  tx: DbOrTx,
  o: { rewardId: number; customerId: number; codeHash: string; requestedBy: number | null; now: Date },
): Promise<OtpRow> {
  await tx
    .update(redemptionOtps)
    .set({ replacedAt: o.now })
    .where(
      and(
        eq(redemptionOtps.rewardId, o.rewardId),
        eq(redemptionOtps.customerId, o.customerId),
        isNull(redemptionOtps.usedAt),
        isNull(redemptionOtps.replacedAt),
      ),
    );
  const [row] = await tx
    .insert(redemptionOtps)
    .values({
      rewardId: o.rewardId,
      customerId: o.customerId,
      codeHash: o.codeHash,
      expiresAt: new Date(o.now.getTime() + OTP_TTL_MS),
      requestedBy: o.requestedBy,
      createdAt: o.now,
    })
    .returning();
  return row!;
}

/** The customer's current code (the newest not replaced), for a set of rewards or any. */
export async function currentOtp(
  db: DbOrTx,
  customerId: number,
  rewardId?: number,
): Promise<OtpRow | undefined> {
  const [row] = await db
    .select()
    .from(redemptionOtps)
    .where(
      and(
        eq(redemptionOtps.customerId, customerId),
        isNull(redemptionOtps.replacedAt),
        rewardId === undefined ? undefined : eq(redemptionOtps.rewardId, rewardId),
      ),
    )
    .orderBy(desc(redemptionOtps.id))
    .limit(1);
  return row;
}

/**
 * The customer's current codes (not replaced), newest first, each with its reward's partner: one per
 * reward at most (a new code replaces only its reward's code).
 */
export async function currentOtps(db: DbOrTx, customerId: number): Promise<OtpRow[]> {
  return db
    .select()
    .from(redemptionOtps)
    .where(and(eq(redemptionOtps.customerId, customerId), isNull(redemptionOtps.replacedAt)))
    .orderBy(desc(redemptionOtps.id))
    .limit(50);
}

/** Why a code cannot be used, with its catalogue code (contract/error-codes.ts). */
export type OtpBlocker = {
  status: 400 | 429;
  message: string;
  code: 'otp_missing' | 'otp_used' | 'otp_locked' | 'otp_expired';
};

/** Why a code cannot be used (null: it is usable, the hash decides). */
export function otpBlocker(row: OtpRow | undefined, now: Date): OtpBlocker | null {
  if (!row) return { status: 400, message: otpMessages.none, code: 'otp_missing' };
  if (row.usedAt) return { status: 400, message: otpMessages.used, code: 'otp_used' };
  if (row.attempts >= OTP_MAX_ATTEMPTS)
    return { status: 429, message: otpMessages.locked, code: 'otp_locked' };
  if (row.expiresAt.getTime() <= now.getTime())
    return { status: 400, message: otpMessages.expired, code: 'otp_expired' };
  return null;
}

/**
 * Counts one wrong try, atomically: of any number of concurrent wrong guesses only the first
 * OTP_MAX_ATTEMPTS get a row back (are evaluated); the rest are refused as locked. Returns the
 * attempts now counted, or null when the code was already locked.
 */
export async function countWrongAttempt(db: DbOrTx, otpId: number): Promise<number | null> {
  const [row] = await db
    .update(redemptionOtps)
    .set({ attempts: sql`${redemptionOtps.attempts} + 1` })
    .where(and(eq(redemptionOtps.id, otpId), lt(redemptionOtps.attempts, OTP_MAX_ATTEMPTS)))
    .returning({ attempts: redemptionOtps.attempts });
  return row ? row.attempts : null;
}

/**
 * Uses a code once: the one UPDATE that sets used_at only while it is unused, not replaced, not
 * expired, under the attempt cap and matching. Concurrent calls with the same code: one row back.
 */
export async function consumeOtp(
  tx: DbOrTx,
  o: { rewardId: number; customerId: number; codeHash: string; now: Date },
): Promise<number | null> {
  const [row] = await tx
    .update(redemptionOtps)
    .set({ usedAt: o.now })
    .where(
      and(
        eq(redemptionOtps.rewardId, o.rewardId),
        eq(redemptionOtps.customerId, o.customerId),
        eq(redemptionOtps.codeHash, o.codeHash),
        isNull(redemptionOtps.usedAt),
        isNull(redemptionOtps.replacedAt),
        gt(redemptionOtps.expiresAt, o.now),
        lt(redemptionOtps.attempts, OTP_MAX_ATTEMPTS),
      ),
    )
    .returning({ id: redemptionOtps.id });
  return row?.id ?? null;
}

/**
 * The reward's codes of the last 24 hours as a RateLimit member (`"otp-reward-day";q=10;w=86400`,
 * decision 063): how many more may be sent, and the seconds until the oldest leaves the window.
 */
export async function dailyCapReport(db: DbOrTx, rewardId: number, now: Date): Promise<LimitReport> {
  const since = new Date(now.getTime() - OTP_DAY_MS);
  const rows = await db
    .select({ createdAt: redemptionOtps.createdAt })
    .from(redemptionOtps)
    .where(and(eq(redemptionOtps.rewardId, rewardId), gt(redemptionOtps.createdAt, since)))
    .orderBy(desc(redemptionOtps.createdAt))
    .limit(OTP_DAILY_CAP);
  const oldest = rows.at(-1);
  return {
    name: 'otp-reward-day',
    rule: { limit: OTP_DAILY_CAP, windowMs: OTP_DAY_MS },
    remaining: Math.max(0, OTP_DAILY_CAP - rows.length),
    resetSeconds: oldest
      ? Math.max(0, Math.ceil((oldest.createdAt.getTime() + OTP_DAY_MS - now.getTime()) / 1000))
      : 0,
  };
}
