import { randomBytes } from 'node:crypto';
import { and, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { Reward } from '../../contract/rewards';
import type { DbOrTx } from '../db/client';
import { customers, partners, rewards } from '../db/schema';
import { RESET_CODE_ALPHABET } from './reset-codes';

export type RewardStatus = Reward['status'];

/** The status as of `now`: an Active reward past its expiry is Expired, whatever the row says. */
export function statusAt(row: { status: RewardStatus; expiryDate: Date | null }, now: Date): RewardStatus {
  if (row.status === 'Active' && row.expiryDate && row.expiryDate.getTime() <= now.getTime())
    return 'Expired';
  return row.status;
}

/** 'GC-7K3M9QXA' / 'CP-…': a prefix and 8 random characters of a 32-symbol alphabet (40 bits). */
export function generateRewardCode(type: 'GIFTCARD' | 'COUPON', bytes: Uint8Array = randomBytes(8)): string {
  let code = type === 'GIFTCARD' ? 'GC-' : 'CP-';
  for (let i = 0; i < 8; i++) code += RESET_CODE_ALPHABET[(bytes[i] ?? 0) & 31];
  return code;
}

/** What a person types: spaces around and letter case do not matter. */
export const normalizeRewardCode = (code: string) => code.trim().toUpperCase();

/**
 * The last moment a reward with expiry date D (YYYY-MM-DD) can be used: the end of that day in Lagos
 * (UTC+1, no daylight saving).
 */
export const expiryEndOfDay = (date: string) => new Date(`${date}T23:59:59.999+01:00`);

const rewardColumns = {
  r: rewards,
  firstName: customers.firstName,
  lastName: customers.lastName,
  email: customers.email,
  customerStatus: customers.accountStatus,
  organizationName: partners.organizationName,
};

export type RewardRow = {
  r: typeof rewards.$inferSelect;
  firstName: string;
  lastName: string;
  email: string;
  customerStatus: 'ACTIVE' | 'BLOCKED';
  organizationName: string;
};

/** The fields a reward's API shape is made of: the row and the names joined to it. */
export type RewardView = Pick<RewardRow, 'r' | 'firstName' | 'lastName' | 'organizationName'>;

export function toReward(row: RewardView, now: Date): Reward {
  return rewardWithStatus(row, statusAt(row.r, now));
}

/** The API shape with a status already worked out (lists compute it in SQL, to sort by it). */
export function rewardWithStatus(
  { r, firstName, lastName, organizationName }: RewardView,
  status: RewardStatus,
): Reward {
  return {
    id: r.id,
    user: { id: r.customerId, firstName, lastName },
    partner: { id: r.partnerId, organizationName },
    rewardType: r.rewardType,
    rewardTypeCategory: r.rewardTypeCategory,
    code: r.code,
    title: r.title,
    description: r.description,
    promotionalImage: r.promotionalImage,
    expiryDate: r.expiryDate?.toISOString() ?? null,
    issuedAmount: r.issuedAmount,
    percentageDiscount: r.percentageDiscount,
    balance: r.rewardType === 'GIFTCARD' ? r.balance : null,
    status,
    issuedTo: r.customerId,
    createdAt: r.createdAt.toISOString(),
  };
}

async function selectRewards(db: DbOrTx, where: SQL | undefined, lock = false): Promise<RewardRow[]> {
  const q = db
    .select(rewardColumns)
    .from(rewards)
    .innerJoin(customers, eq(customers.id, rewards.customerId))
    .innerJoin(partners, eq(partners.id, rewards.partnerId))
    .where(where)
    .limit(1);
  return lock ? q.for('update', { of: rewards }) : q;
}

export async function rewardById(db: DbOrTx, id: number): Promise<RewardRow | undefined> {
  return (await selectRewards(db, eq(rewards.id, id)))[0];
}

/**
 * A reward by its code and customer, inside a partner scope (null: every partner). Undefined when
 * the code is unknown, belongs to another customer, to another partner, or the customer is deleted:
 * the caller answers 404 for all of them alike.
 */
export async function findScopedReward(
  db: DbOrTx,
  o: { code: string; customerId: number; scope: number | null; lock?: boolean },
): Promise<RewardRow | undefined> {
  const where = and(
    // Issued codes are upper case; a code typed in lower case still finds them (older codes as stored).
    inArray(rewards.code, [...new Set([o.code.trim(), normalizeRewardCode(o.code)])]),
    eq(rewards.customerId, o.customerId),
    isNull(customers.deletedAt),
    // An erased customer redeems nothing (decision 054): their codes went with them.
    isNull(customers.erasedAt),
    o.scope === null ? undefined : eq(rewards.partnerId, o.scope),
  );
  return (await selectRewards(db, where, o.lock))[0];
}

/** Persists what reads already show: an Active reward past expiry becomes Expired. */
export async function markExpired(db: DbOrTx, rewardId: number, now: Date): Promise<boolean> {
  const rows = await db
    .update(rewards)
    .set({ status: 'Expired', updatedAt: now })
    .where(
      and(
        eq(rewards.id, rewardId),
        eq(rewards.status, 'Active'),
        sql`${rewards.expiryDate} <= ${now.toISOString()}::timestamptz`,
      ),
    )
    .returning({ id: rewards.id });
  return rows.length > 0;
}
