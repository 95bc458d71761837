import { and, asc, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import { customerRecordSchema } from '../../contract/customer-sync';
import type { Db } from '../db/client';
import { customerImportRejects, customerImportRows, customers } from '../db/schema';
import { planCustomerRecords, readSyncState, type SyncInput } from './customer-sync';

/** Staged rows decided per round of the dry run. */
const DRY_BATCH = 1000;
/** Emails on more than one row of a file held in memory at most (some MiB). */
const REPEATED_CAP = 20_000;

export type DryRunCounts = { created: number; updated: number; unchanged: number; rejected: number };

/**
 * The dry run of a staged import (docs/decisions/062): what the worker would do with the job's
 * staged rows, decided by the same rules (`planCustomerRecords`) without writing a customer.
 *
 * The rows are decided in file order, DRY_BATCH at a time, so memory stays flat. What the earlier
 * rows of the file would have changed is read back from the staging table itself: a rejected row
 * leaves it (into the rejects, like the worker), so the rows staged before the batch are exactly
 * the rows that would have been applied. Each external id appears once in a staged file, so a row
 * changes only its own customer; an email is held by the earlier applied row that names it, else
 * by the customer holding it now, unless an earlier applied row of that customer moved its email.
 */
export async function dryRunStaged(db: Db, importId: number): Promise<DryRunCounts> {
  const counts: DryRunCounts = { created: 0, updated: 0, unchanged: 0, rejected: 0 };
  const emailOf = sql<string>`lower(${customerImportRows.record} ->> 'email')`;
  // An earlier row can take a batch's email only if the email is on two rows of the file: the
  // emails on more than one staged row, read once (one pass), spare each round a pass over every
  // row before it (100,000 rows: 200 rounds of up to 100,000). Above REPEATED_CAP of them (a file
  // that repeats most of its emails) each round asks for all its emails, as before.
  const repeated = await db
    .select({ email: emailOf })
    .from(customerImportRows)
    .where(eq(customerImportRows.importId, importId))
    .groupBy(emailOf)
    .having(sql`count(*) > 1`)
    .limit(REPEATED_CAP + 1);
  const repeatedEmails = repeated.length > REPEATED_CAP ? null : new Set(repeated.map((r) => r.email));
  for (let next = 0; ; ) {
    const staged = await db
      .select()
      .from(customerImportRows)
      .where(and(eq(customerImportRows.importId, importId), gte(customerImportRows.rowNumber, next)))
      .orderBy(asc(customerImportRows.rowNumber))
      .limit(DRY_BATCH);
    if (staged.length === 0) return counts;
    const first = staged[0]!.rowNumber;
    const rows: SyncInput[] = staged.map((r) => ({
      externalId: r.externalId,
      record: customerRecordSchema.parse(r.record),
    }));
    const state = await readSyncState(db, rows);
    const emails = [...new Set(rows.map((r) => r.record.email.toLowerCase()))];
    const earlier = and(eq(customerImportRows.importId, importId), lt(customerImportRows.rowNumber, first));

    // Customers holding the batch's emails now whose own row came earlier: that row moved their email.
    const holders = await db
      .select({ email: customers.email, externalId: customers.externalId })
      .from(customers)
      .where(inArray(sql`lower(${customers.email})`, emails));
    const holderIds = holders.flatMap((h) => (h.externalId ? [h.externalId] : []));
    if (holderIds.length) {
      const moved = await db
        .select({ externalId: customerImportRows.externalId })
        .from(customerImportRows)
        .where(and(earlier, inArray(customerImportRows.externalId, holderIds)));
      const movedIds = new Set(moved.map((m) => m.externalId));
      for (const h of holders)
        if (h.externalId && movedIds.has(h.externalId)) state.emailOwner.delete(h.email.toLowerCase());
    }

    // Earlier applied rows that take one of the batch's emails: theirs now.
    const shared = repeatedEmails ? emails.filter((e) => repeatedEmails.has(e)) : emails;
    const takers = shared.length
      ? await db
          .select({ externalId: customerImportRows.externalId, email: emailOf })
          .from(customerImportRows)
          .where(and(earlier, inArray(emailOf, shared)))
      : [];
    if (takers.length) {
      const known = await db
        .select({ id: customers.id, externalId: customers.externalId })
        .from(customers)
        .where(
          inArray(
            customers.externalId,
            takers.map((t) => t.externalId),
          ),
        );
      const idOf = new Map(known.map((k) => [k.externalId!, k.id]));
      for (const t of takers) state.emailOwner.set(t.email, idOf.get(t.externalId) ?? t.externalId);
    }

    const plan = planCustomerRecords(rows, state);
    const rejects: (typeof customerImportRejects.$inferInsert)[] = [];
    plan.forEach((p, i) => {
      counts[p.result]++;
      if (p.result !== 'rejected') return;
      const r = staged[i]!;
      rejects.push({
        importId,
        rowNumber: r.rowNumber,
        externalId: r.externalId,
        reason: p.reason,
        raw: JSON.stringify({ externalId: r.externalId, ...r.record }),
      });
    });
    if (rejects.length) {
      await db.insert(customerImportRejects).values(rejects).onConflictDoNothing();
      await db.delete(customerImportRows).where(
        and(
          eq(customerImportRows.importId, importId),
          inArray(
            customerImportRows.rowNumber,
            rejects.map((r) => r.rowNumber),
          ),
        ),
      );
    }
    next = staged[staged.length - 1]!.rowNumber + 1;
  }
}
