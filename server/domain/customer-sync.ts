import { inArray, sql } from 'drizzle-orm';
import {
  type CustomerRecord,
  customerSyncMessages as msg,
  type SyncedCustomer,
  type SyncResult,
} from '../../contract/customer-sync';
import type { Customer } from '../../contract/customers';
import type { DbOrTx, Tx } from '../db/client';
import { customers } from '../db/schema';
import type { ChangeEvent } from './events';
import { actions } from './events';
import { fullName } from './users';
import type { WebhookEvent } from './webhooks';

/**
 * The one place a subscriber record becomes a customer (issue 27, docs/decisions/051): the PUT by
 * external id, the import worker and Add customer all call `applyCustomerRecords`. Every call runs
 * under one transaction-scoped advisory lock, so two imports, a PUT and a form never race on the
 * same external id or email (an email taken by another external id is a rejected row, never a merge).
 */

/** Arbitrary key of the advisory lock that serialises customer sync writes. */
const CUSTOMER_SYNC_LOCK = 72_201;

/** Takes the sync's lock for the rest of `tx` (a restore takes it too). */
export const lockCustomerSync = async (tx: Tx) => {
  await tx.execute(sql`select pg_advisory_xact_lock(${CUSTOMER_SYNC_LOCK})`);
};

export type CustomerRow = typeof customers.$inferSelect;

export type SyncInput = { externalId: string; record: CustomerRecord };

export type SyncOutcome =
  | { result: SyncResult; customer: CustomerRow; changed: string[]; blockedNow: boolean }
  | { result: 'rejected'; reason: string };

/** The customer columns a record sets. */
type Values = Pick<
  CustomerRow,
  'firstName' | 'lastName' | 'email' | 'phone' | 'address' | 'accountStatus' | 'internetAccountNumber'
>;

const FIELD_WORDS: Record<keyof Values, string> = {
  firstName: 'first name',
  lastName: 'last name',
  email: 'email',
  phone: 'phone',
  address: 'address',
  accountStatus: 'status',
  internetAccountNumber: 'internet account number',
};

const blankToNull = (v: string | null | undefined): string | null => (v == null || v === '' ? null : v);

/** The columns a record sets: PUT replaces the record, so a field left out is cleared. */
export const valuesOf = (r: CustomerRecord): Values => ({
  firstName: r.firstName,
  lastName: r.lastName,
  email: r.email,
  phone: blankToNull(r.phone),
  address: blankToNull(r.address),
  accountStatus: r.status ?? 'ACTIVE',
  internetAccountNumber: blankToNull(r.internetAccountNumber),
});

/**
 * Why an existing customer may not be synced, or null. THE place for such checks: a customer
 * erased (issue 28: their right to erasure) or deleted in the console is not brought back nor
 * re-created under the same external id by a sync; an admin restores it first
 * (POST /admin/user/customers/{customerId}/restore).
 */
export function syncRefusal(existing: CustomerRow): string | null {
  if (existing.erasedAt) return msg.erased;
  if (existing.deletedAt) return msg.deleted;
  return null;
}

/** What the customers table holds for a batch: customers by external id, and who holds each email. */
export type SyncState = {
  existing: Map<string, CustomerRow>;
  /** Who holds each email (lower case) now: a customer id, or the external id of a row created earlier. */
  emailOwner: Map<string, number | string>;
};

/** The customers a batch names (by external id and by email), read in two queries. */
export async function readSyncState(tx: DbOrTx, rows: readonly SyncInput[]): Promise<SyncState> {
  if (rows.length === 0) return { existing: new Map(), emailOwner: new Map() };
  const externalIds = [...new Set(rows.map((r) => r.externalId))];
  const emails = [...new Set(rows.map((r) => r.record.email.toLowerCase()))];
  const [byExternal, byEmail] = await Promise.all([
    tx.select().from(customers).where(inArray(customers.externalId, externalIds)),
    tx
      .select({ id: customers.id, email: customers.email })
      .from(customers)
      .where(inArray(sql`lower(${customers.email})`, emails)),
  ]);
  return {
    existing: new Map(byExternal.map((c) => [c.externalId!, c])),
    emailOwner: new Map<string, number | string>(byEmail.map((c) => [c.email.toLowerCase(), c.id])),
  };
}

/** What applying one record does, decided before anything is written. */
export type PlannedRecord =
  | { result: 'rejected'; reason: string }
  | { result: 'unchanged'; before: CustomerRow }
  | { result: 'updated'; before: CustomerRow; values: Values; changed: (keyof Values)[] }
  | { result: 'created'; values: Values & { externalId: string } };

/**
 * THE rules of a sync, without writing: each record in order is created, updated, unchanged or
 * rejected with a reason a person can act on. `state` moves as the records are decided (an email
 * a row takes is no longer free for the next), so the import's dry run (server/domain/
 * customer-import-dry-run.ts) and the real apply decide the same.
 */
export function planCustomerRecords(rows: readonly SyncInput[], state: SyncState): PlannedRecord[] {
  const { existing, emailOwner } = state;
  const created = new Set<string>();
  return rows.map((row): PlannedRecord => {
    const values = valuesOf(row.record);
    const email = values.email.toLowerCase();
    const before = existing.get(row.externalId);
    const refusal = before ? syncRefusal(before) : null;
    if (refusal) return { result: 'rejected', reason: refusal };
    const owner = emailOwner.get(email);
    if (owner !== undefined && owner !== (before?.id ?? row.externalId))
      return { result: 'rejected', reason: msg.emailTaken };
    if (!before) {
      if (created.has(row.externalId)) return { result: 'rejected', reason: msg.externalIdTaken };
      created.add(row.externalId);
      emailOwner.set(email, row.externalId);
      return { result: 'created', values: { ...values, externalId: row.externalId } };
    }
    const changed = (Object.keys(FIELD_WORDS) as (keyof Values)[]).filter((k) => before[k] !== values[k]);
    if (changed.length === 0) return { result: 'unchanged', before };
    if (before.email.toLowerCase() !== email) {
      emailOwner.delete(before.email.toLowerCase());
      emailOwner.set(email, before.id);
    }
    existing.set(row.externalId, { ...before, ...values });
    return { result: 'updated', before, values, changed };
  });
}

/**
 * Applies records in order inside `tx` (the caller's transaction): each is created, updated,
 * unchanged or rejected with a reason a person can act on (`planCustomerRecords`). Reads the
 * customers the batch names in two queries, inserts the new ones in one.
 */
export async function applyCustomerRecords(tx: Tx, rows: SyncInput[], now: Date): Promise<SyncOutcome[]> {
  await lockCustomerSync(tx);
  if (rows.length === 0) return [];
  const plan = planCustomerRecords(rows, await readSyncState(tx, rows));
  const inserts = plan.flatMap((p) => (p.result === 'created' ? [p.values] : []));
  const outcomes: (SyncOutcome | { pending: number })[] = [];
  let pending = 0;
  for (const p of plan) {
    if (p.result === 'rejected') outcomes.push(p);
    else if (p.result === 'unchanged')
      outcomes.push({ result: 'unchanged', customer: p.before, changed: [], blockedNow: false });
    else if (p.result === 'created') outcomes.push({ pending: pending++ });
    else {
      const [after] = await tx
        .update(customers)
        .set({ ...p.values, updatedAt: now })
        .where(sql`${customers.id} = ${p.before.id}`)
        .returning();
      outcomes.push({
        result: 'updated',
        customer: after!,
        changed: p.changed.map((k) => FIELD_WORDS[k]),
        blockedNow: p.before.accountStatus !== 'BLOCKED' && p.values.accountStatus === 'BLOCKED',
      });
    }
  }
  const created =
    inserts.length === 0
      ? []
      : await tx
          .insert(customers)
          .values(inserts.map((v) => ({ ...v, createdAt: now, updatedAt: now })))
          .returning();
  // `returning` keeps the order of the values.
  return outcomes.map((o) =>
    'pending' in o ? { result: 'created', customer: created[o.pending]!, changed: [], blockedNow: false } : o,
  );
}

/** A customer as club staff see them (the admin client screens). */
export const toCustomer = (r: CustomerRow): Customer => ({
  id: r.id,
  firstName: r.firstName,
  lastName: r.lastName,
  email: r.email,
  phone: r.phone,
  address: r.address,
  imageUrl: r.imageUrl,
  accountStatus: r.accountStatus,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
  ...(r.erasedAt ? { erasedAt: r.erasedAt.toISOString() } : {}),
});

/** The same with what the subscriber sync keeps: its external id and internet account number. */
export const toSyncedCustomer = (r: CustomerRow): SyncedCustomer => ({
  ...toCustomer(r),
  externalId: r.externalId,
  internetAccountNumber: r.internetAccountNumber,
});

/** The club-wide message of a customer's change: their record as the sync keeps it (club-wide endpoints only). */
export const customerRecordMessage = (
  type: 'customer.created' | 'customer.updated' | 'customer.blocked' | 'customer.unblocked',
  c: CustomerRow,
  changed: string[],
  now: Date,
): WebhookEvent => ({
  type,
  partnerId: null,
  data: {
    customerId: c.id,
    externalId: c.externalId,
    firstName: c.firstName,
    lastName: c.lastName,
    email: c.email,
    phone: c.phone,
    address: c.address,
    accountStatus: c.accountStatus,
    internetAccountNumber: c.internetAccountNumber,
    changed,
    changedAt: now.toISOString(),
  },
});

/** Whether an applied record changed the customer's status (so linked partners hear of it). */
export const statusChanged = (outcome: SyncOutcome): boolean =>
  outcome.result === 'updated' && outcome.changed.includes(FIELD_WORDS.accountStatus);

/** The event (and club-wide webhook) of one applied record; none when nothing changed. */
export function syncEvent(outcome: SyncOutcome, now: Date): ChangeEvent | undefined {
  if (outcome.result === 'rejected' || outcome.result === 'unchanged') return undefined;
  const c = outcome.customer;
  const name = fullName(c);
  const unblockedNow = statusChanged(outcome) && c.accountStatus === 'ACTIVE';
  const type =
    outcome.result === 'created'
      ? 'customer.created'
      : outcome.blockedNow
        ? 'customer.blocked'
        : unblockedNow
          ? 'customer.unblocked'
          : 'customer.updated';
  const changed = outcome.result === 'created' ? Object.values(FIELD_WORDS) : outcome.changed;
  return {
    action:
      outcome.result === 'created'
        ? actions.addedClient(name, c.externalId ?? '')
        : outcome.blockedNow
          ? actions.blockedClient(name)
          : actions.updatedClient(name, outcome.changed),
    entity: 'customer',
    entityId: c.id,
    payload: { externalId: c.externalId, result: outcome.result, fields: changed },
    webhook: customerRecordMessage(type, c, changed, now),
  };
}
