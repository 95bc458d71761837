import { eq, sql } from 'drizzle-orm';
import type { ReviewRules } from '../../contract/partners';
import type { VisitReviewFlag } from '../../contract/visits';
import type { DbOrTx } from '../db/client';
import { executeRows } from '../db/rows';
import { partners } from '../db/schema';
import { lagosDate, lagosDayStart, toKobo } from './eligibility';

/**
 * Visit review (issue 35, docs/decisions/075-visit-review.md): which rules flag a visit when it is
 * recorded. A flagged visit waits (`review_state = 'waiting'`) and counts towards eligibility and
 * points only once a club admin approves it.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

/** Advisory lock class of "a receipt hash is being checked" (the key is the hash's first 32 bits). */
const RECEIPT_LOCK_CLASS = 75_001;

export const reviewRulesColumns = {
  amountAbove: partners.reviewAmountAbove,
  requireReceipt: partners.reviewRequireReceipt,
  maxVisitsPerDay: partners.reviewMaxVisitsPerDay,
};

export const toReviewRules = (r: {
  amountAbove: number | string | null;
  requireReceipt: boolean;
  maxVisitsPerDay: number | null;
}): ReviewRules => ({
  amountAbove: r.amountAbove === null ? null : Number(r.amountAbove),
  requireReceipt: r.requireReceipt,
  maxVisitsPerDay: r.maxVisitsPerDay,
});

/** A partner's rules (a partner that does not exist has none). */
export async function reviewRulesOf(db: DbOrTx, partnerId: number): Promise<ReviewRules> {
  const [row] = await db.select(reviewRulesColumns).from(partners).where(eq(partners.id, partnerId));
  return row ? toReviewRules(row) : { amountAbove: null, requireReceipt: false, maxVisitsPerDay: null };
}

export type VisitToReview = {
  partnerId: number;
  customerId: number;
  visitDate: Date;
  totalKobo: bigint;
  /** SHA-256 hex of the receipt image's bytes, or null without one. */
  receiptHash: string | null;
};

/**
 * The flags of a visit about to be inserted, in the transaction that inserts it. The caller holds the
 * customer's row lock in `update` mode when the partner limits visits per day, so two visits of one
 * customer are counted one after the other; a receipt hash is checked under a transaction-level
 * advisory lock on the hash, so the same receipt sent twice at once is still flagged once.
 */
export async function reviewFlags(
  tx: DbOrTx,
  rules: ReviewRules,
  v: VisitToReview,
): Promise<VisitReviewFlag[]> {
  const flags: VisitReviewFlag[] = [];
  if (rules.amountAbove !== null && v.totalKobo > BigInt(toKobo(rules.amountAbove)))
    flags.push('amount_above');
  if (v.receiptHash !== null) {
    const key = Number.parseInt(v.receiptHash.slice(0, 8), 16) | 0;
    await executeRows(tx, sql`select pg_advisory_xact_lock(${RECEIPT_LOCK_CLASS}::int, ${key}::int)`);
    const [seen] = await executeRows<{ n: number }>(
      tx,
      sql`select count(*)::int as n from (select 1 from visits where receipt_hash = ${v.receiptHash} limit 1) s`,
    );
    if (Number(seen?.n ?? 0) > 0) flags.push('receipt_reused');
  } else if (rules.requireReceipt) {
    flags.push('receipt_missing');
  }
  if (rules.maxVisitsPerDay !== null) {
    const dayStart = lagosDayStart(lagosDate(v.visitDate));
    const [row] = await executeRows<{ n: number }>(
      tx,
      sql`select count(*)::int as n from visits where partner_id = ${v.partnerId} and customer_id = ${v.customerId}
        and visit_date >= ${dayStart.toISOString()}::timestamptz
        and visit_date < ${new Date(dayStart.getTime() + DAY_MS).toISOString()}::timestamptz`,
    );
    // This visit is one more: more than N in the day waits.
    if (Number(row?.n ?? 0) + 1 > rules.maxVisitsPerDay) flags.push('too_many_visits');
  }
  return flags;
}
