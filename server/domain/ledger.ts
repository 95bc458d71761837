import { and, eq, gt, gte, isNull, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { executeRows } from '../db/rows';
import { rewardLedger, rewards } from '../db/schema';

/**
 * The gift-card money ledger (docs/product.md#data): ISSUE (+issued amount), REDEEM (-amount) and
 * REVERSAL (+amount given back) rows; the balance on the reward row is a cache of their sum, changed
 * only by the guarded UPDATEs below in the same transaction as the ledger row, so concurrent
 * redemptions can never overspend (the row lock serialises them and the guard re-checks).
 */

const notExpired = (now: Date) => or(isNull(rewards.expiryDate), gt(rewards.expiryDate, now));

/** An Active, unexpired gift card with at least `amount` left: take it. Null when the guard refuses. */
export async function debitGiftcard(
  tx: DbOrTx,
  o: { rewardId: number; amount: number; actorId: number | null; now: Date },
): Promise<{ balance: number; status: 'Active' | 'Redeemed'; ledgerEntryId: number } | null> {
  const amount = o.amount.toFixed(2);
  const [row] = await tx
    .update(rewards)
    .set({
      balance: sql`${rewards.balance} - ${amount}::numeric`,
      status: sql`case when ${rewards.balance} - ${amount}::numeric = 0 then 'Redeemed' else 'Active' end`,
      redeemedAt: sql`case when ${rewards.balance} - ${amount}::numeric = 0 then ${o.now.toISOString()}::timestamptz else ${rewards.redeemedAt} end`,
      updatedAt: o.now,
    })
    .where(
      and(
        eq(rewards.id, o.rewardId),
        eq(rewards.rewardType, 'GIFTCARD'),
        eq(rewards.status, 'Active'),
        gte(rewards.balance, o.amount),
        notExpired(o.now),
      ),
    )
    .returning({ balance: rewards.balance, status: rewards.status });
  if (!row) return null;
  const [entry] = await tx
    .insert(rewardLedger)
    .values({ rewardId: o.rewardId, kind: 'REDEEM', amount: -o.amount, actorId: o.actorId, at: o.now })
    .returning({ id: rewardLedger.id });
  return {
    balance: row.balance ?? 0,
    status: row.status === 'Redeemed' ? 'Redeemed' : 'Active',
    ledgerEntryId: entry!.id,
  };
}

/** An Active, unexpired coupon: mark it Redeemed (a zero REDEEM row keeps it reversible). */
export async function redeemCouponRow(
  tx: DbOrTx,
  o: { rewardId: number; actorId: number | null; now: Date },
): Promise<{ ledgerEntryId: number } | null> {
  const [row] = await tx
    .update(rewards)
    .set({ status: 'Redeemed', redeemedAt: o.now, updatedAt: o.now })
    .where(
      and(
        eq(rewards.id, o.rewardId),
        eq(rewards.rewardType, 'COUPON'),
        eq(rewards.status, 'Active'),
        notExpired(o.now),
      ),
    )
    .returning({ id: rewards.id });
  if (!row) return null;
  const [entry] = await tx
    .insert(rewardLedger)
    .values({ rewardId: o.rewardId, kind: 'REDEEM', amount: 0, actorId: o.actorId, at: o.now })
    .returning({ id: rewardLedger.id });
  return { ledgerEntryId: entry!.id };
}

/**
 * Gives one REDEEM row back: a REVERSAL row (+amount, naming it; the partial unique index on
 * reverses_id makes a second reversal fail), the balance returns, and a Redeemed reward is Active
 * again. The caller maps a unique violation to 409.
 */
export async function reverseEntry(
  tx: DbOrTx,
  o: { entryId: number; rewardId: number; amount: number; reason: string; actorId: number | null; now: Date },
): Promise<{ ledgerEntryId: number; balance: number | null; status: 'Active' | 'Redeemed' | 'Expired' }> {
  const [entry] = await tx
    .insert(rewardLedger)
    .values({
      rewardId: o.rewardId,
      kind: 'REVERSAL',
      amount: o.amount,
      reason: o.reason,
      actorId: o.actorId,
      reversesId: o.entryId,
      at: o.now,
    })
    .returning({ id: rewardLedger.id });
  const amount = o.amount.toFixed(2);
  const [row] = await tx
    .update(rewards)
    .set({
      balance: sql`case when ${rewards.rewardType} = 'GIFTCARD' then ${rewards.balance} + ${amount}::numeric else ${rewards.balance} end`,
      status: sql`case when ${rewards.status} = 'Redeemed' then 'Active' else ${rewards.status} end`,
      redeemedAt: sql`case when ${rewards.status} = 'Redeemed' then null else ${rewards.redeemedAt} end`,
      updatedAt: o.now,
    })
    .where(eq(rewards.id, o.rewardId))
    .returning({ balance: rewards.balance, status: rewards.status });
  return { ledgerEntryId: entry!.id, balance: row?.balance ?? null, status: row!.status };
}

/** The balance the ledger gives (the sum of its rows), to check the cache against. */
export async function ledgerBalance(db: DbOrTx, rewardId: number): Promise<number> {
  const [row] = await executeRows<{ total: string }>(
    db,
    sql`select coalesce(sum(amount), 0)::text as total from reward_ledger where reward_id = ${rewardId}`,
  );
  return Number(row?.total ?? 0);
}
