import { and, asc, count, eq, gt, inArray, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import {
  type CustomerDataExport,
  type ErasedCustomer,
  customerPrivacyMessages as msg,
} from '../../contract/customer-privacy';
import { customerServerMessages } from '../../contract/customers';
import type { DbOrTx, Tx } from '../db/client';
import {
  customerImportRejects,
  customerLinks,
  customers,
  events,
  files,
  mailOutbox,
  partners,
  redemptionOtps,
  rewardLedger,
  rewards,
  users,
  visitItems,
  visits,
  webhookDeliveries,
} from '../db/schema';
import { ApiError } from '../errors';
import { actions, type ChangeEvent } from './events';
import { OTP_MAX_ATTEMPTS } from './otp';
import { fullName } from './users';
import { enqueueWebhooks } from './webhooks';

/*
 * The customer's rights (issue 28, docs/decisions/054-customer-erasure.md): what the club holds
 * about a customer (their data export) and their erasure, which leaves a tombstone that keeps the
 * books (visits, rewards, ledger amounts) and replaces the person with a pseudonymous reference.
 */

/** The tombstone's name and address: nothing of the person, unique per customer (the email index). */
export const ERASED_NAME = { firstName: 'Erased', lastName: 'Customer' } as const;
export const erasedEmail = (customerId: number) => `erased-${customerId}@erased.invalid`;
/** What the activity log says instead of the customer's name once they are erased. */
export const erasedRef = (customerId: number) => `erased customer #${customerId}`;

/** Payload keys that carry a person's details; an erasure drops them from the events naming them. */
const PERSONAL_PAYLOAD_KEYS = [
  'email',
  'sentTo',
  'firstName',
  'lastName',
  'phone',
  'address',
  'name',
] as const;

/**
 * The events that name the customer: about them (entity customer), made by them (a CUSTOMER actor),
 * carrying their id (visits, rewards, codes, links), or about one of their visits, rewards or links.
 */
export const eventsNaming = (customerId: number): SQL => {
  const id = String(customerId);
  return sql`(
    (${events.entity} = 'customer' and ${events.entityId} = ${id})
    or (${events.actorType} = 'CUSTOMER' and ${events.actorId} = ${customerId})
    or (${events.payload}->>'customerId') = ${id}
    or (${events.entity} = 'visit' and ${events.entityId} in (select ${visits.id}::text from ${visits} where ${visits.customerId} = ${customerId}))
    or (${events.entity} = 'reward' and ${events.entityId} in (select ${rewards.id}::text from ${rewards} where ${rewards.customerId} = ${customerId}))
    or (${events.entity} = 'customer_link' and ${events.entityId} in (select ${customerLinks.id}::text from ${customerLinks} where ${customerLinks.customerId} = ${customerId}))
  )`;
};

/**
 * A redemption of the customer in flight: a code sent and still usable (not used, not replaced, not
 * expired, under the wrong-try cap). Locked, so a redemption finishing meanwhile is waited for and
 * then seen as done.
 */
export async function redemptionInFlight(tx: Tx, customerId: number, now: Date): Promise<boolean> {
  const rows = await tx
    .select({ id: redemptionOtps.id })
    .from(redemptionOtps)
    .where(
      and(
        eq(redemptionOtps.customerId, customerId),
        isNull(redemptionOtps.usedAt),
        isNull(redemptionOtps.replacedAt),
        gt(redemptionOtps.expiresAt, now),
        lt(redemptionOtps.attempts, OTP_MAX_ATTEMPTS),
      ),
    )
    .for('update');
  return rows.length > 0;
}

/** Deletes a stored image when nothing else shows it (files are shared by content hash). */
async function dropImageIfUnused(tx: Tx, url: string | null, customerId: number): Promise<void> {
  const hash = /\/files\/([0-9a-f]{64})$/i.exec(url ?? '')?.[1];
  if (!url || !hash) return;
  const used = await tx.execute(sql`select 1 from (
      select 1 from ${customers} where ${customers.imageUrl} = ${url} and ${customers.id} <> ${customerId}
      union all select 1 from ${users} where ${users.imageUrl} = ${url}
      union all select 1 from ${partners} where ${partners.coverImage} = ${url}
      union all select 1 from ${visits} where ${visits.receiptImage} = ${url}
      union all select 1 from ${rewards} where ${rewards.promotionalImage} = ${url}
      union all select 1 from ${events} where ${events.actorImageUrl} = ${url}
    ) used limit 1`);
  const rows = Array.isArray(used) ? used : ((used as { rows?: unknown[] }).rows ?? []);
  if (rows.length === 0) await tx.delete(files).where(eq(files.hash, hash));
}

/**
 * Erases the customer inside `tx` (the caller records the returned event): refused while a
 * redemption of theirs is in flight (409 redemption_in_flight) or when already erased (409
 * customer_erased). What goes and what stays: docs/decisions/054-customer-erasure.md.
 */
export async function eraseCustomer(
  tx: Tx,
  customerId: number,
  now: Date,
): Promise<{ answer: ErasedCustomer; event: ChangeEvent }> {
  const [row] = await tx.select().from(customers).where(eq(customers.id, customerId)).for('update');
  if (!row) throw new ApiError(404, customerServerMessages.notFound);
  if (row.erasedAt) throw new ApiError(409, msg.alreadyErased, [], {}, 'customer_erased');
  // The customer's rewards, locked: a redemption holds its reward row while it runs.
  await tx.select({ id: rewards.id }).from(rewards).where(eq(rewards.customerId, customerId)).for('update');
  if (await redemptionInFlight(tx, customerId, now)) {
    throw new ApiError(409, msg.redemptionInFlight, [], {}, 'redemption_in_flight');
  }
  const ref = erasedRef(customerId);
  const name = fullName(row);

  // 1. The event log keeps each event, naming the pseudonymous reference instead of the person. The
  //    append-only trigger lets exactly this through while app.erasing_customer is set (migration
  //    0019_customer_erasure), for these columns only.
  await tx.execute(sql`select set_config('app.erasing_customer', ${String(customerId)}, true)`);
  const own = sql`(${events.actorType} = 'CUSTOMER' and ${events.actorId} = ${customerId})`;
  const stripped = PERSONAL_PAYLOAD_KEYS.reduce<SQL>(
    (acc, k) => sql`${acc} - ${k}::text`,
    sql`${events.payload}`,
  );
  const rewritten = await tx
    .update(events)
    .set({
      action: sql`replace(replace(${events.action}, ${name}, ${ref}), ${row.email}, ${ref})`,
      actorName: sql`case when ${own} then ${ref} else ${events.actorName} end`,
      actorImageUrl: sql`case when ${own} then null else ${events.actorImageUrl} end`,
      ipAddress: sql`case when ${own} then null else ${events.ipAddress} end`,
      ipLocation: sql`case when ${own} then null else ${events.ipLocation} end`,
      userAgent: sql`case when ${own} then null else ${events.userAgent} end`,
      payload: stripped,
    })
    .where(eventsNaming(customerId))
    .returning({ id: events.id });
  await tx.execute(sql`select set_config('app.erasing_customer', '', true)`);

  // 2. Links: gone, every request that named them too; each partner that held a link is told.
  const linked = await tx
    .selectDistinct({ partnerId: customerLinks.partnerId })
    .from(customerLinks)
    .where(and(eq(customerLinks.customerId, customerId), eq(customerLinks.state, 'CONFIRMED')));
  const email = row.email.trim().toLowerCase();
  await tx
    .delete(customerLinks)
    .where(
      or(
        eq(customerLinks.customerId, customerId),
        eq(customerLinks.requested, `email:${email}`),
        eq(customerLinks.requested, `member:${customerId}`),
      ),
    );

  // 3. Mail to them: what is still waiting goes; what went keeps only the tombstone address.
  const to = sql`lower(${mailOutbox.to}) = ${email}`;
  await tx.delete(mailOutbox).where(and(to, isNull(mailOutbox.sentAt)));
  await tx
    .update(mailOutbox)
    .set({ to: erasedEmail(customerId), subject: '(erased)', text: '', html: null })
    .where(to);

  // 4. Webhook messages that carried their record (customer.created/updated/blocked/unblocked; a
  //    partner's blocked/unblocked messages carry ids only).
  await tx.execute(sql`update ${webhookDeliveries}
    set payload = jsonb_set(payload, '{data}', (payload->'data') || ${JSON.stringify({
      firstName: ERASED_NAME.firstName,
      lastName: ERASED_NAME.lastName,
      email: erasedEmail(customerId),
      phone: null,
      address: null,
      internetAccountNumber: null,
    })}::jsonb)
    where ${webhookDeliveries.eventType} in ('customer.created', 'customer.updated', 'customer.blocked', 'customer.unblocked')
      and payload->'data'->>'customerId' = ${String(customerId)}
      and jsonb_typeof(payload->'data'->'email') = 'string'`);

  // 5. Import rejects kept the rows as sent.
  if (row.externalId !== null) {
    await tx.delete(customerImportRejects).where(eq(customerImportRejects.externalId, row.externalId));
  }

  // 6. The record becomes the tombstone; its external id stays so no sync brings them back
  //    (POST .../restore frees it). Status and dates stay: the club's counts do not move.
  await tx
    .update(customers)
    .set({
      ...ERASED_NAME,
      email: erasedEmail(customerId),
      phone: null,
      address: null,
      imageUrl: null,
      internetAccountNumber: null,
      fiberRenewalDate: null,
      erasedAt: now,
      updatedAt: now,
    })
    .where(eq(customers.id, customerId));
  await dropImageIfUnused(tx, row.imageUrl, customerId);

  const [kept] = await tx
    .select({
      visits: sql<number>`(select count(*) from ${visits} where ${visits.customerId} = ${customerId})::int`,
      rewards: sql<number>`(select count(*) from ${rewards} where ${rewards.customerId} = ${customerId})::int`,
      ledgerEntries: count(rewardLedger.id),
    })
    .from(rewardLedger)
    .where(
      inArray(
        rewardLedger.rewardId,
        tx.select({ id: rewards.id }).from(rewards).where(eq(rewards.customerId, customerId)),
      ),
    );

  // 7. customer.erased: to the partners that held a link (each its own), and club-wide.
  const erasedAt = now.toISOString();
  for (const { partnerId } of linked) {
    await enqueueWebhooks(
      tx,
      { type: 'customer.erased', partnerId, partnerOnly: true, data: { partnerId, customerId, erasedAt } },
      now,
    );
  }
  const answer: ErasedCustomer = {
    customerId,
    erasedAt,
    linksRemoved: linked.length,
    eventsPseudonymised: rewritten.length,
    kept: {
      visits: Number(kept?.visits ?? 0),
      rewards: Number(kept?.rewards ?? 0),
      ledgerEntries: Number(kept?.ledgerEntries ?? 0),
    },
  };
  return {
    answer,
    event: {
      action: actions.erasedCustomer(`#${customerId}`),
      entity: 'customer',
      entityId: customerId,
      payload: {
        linksRemoved: answer.linksRemoved,
        eventsPseudonymised: answer.eventsPseudonymised,
        kept: answer.kept,
      },
      webhook: { type: 'customer.erased', partnerId: null, data: { partnerId: null, customerId, erasedAt } },
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The data export

const EXPORT_BATCH = 500;
const iso = (d: Date | null) => (d === null ? null : d.toISOString());

type CustomerRow = typeof customers.$inferSelect;

/** The profile as the export shows it: every column the club keeps of the customer. */
const profileOf = (r: CustomerRow): CustomerDataExport['profile'] => ({
  id: r.id,
  externalId: r.externalId,
  firstName: r.firstName,
  lastName: r.lastName,
  email: r.email,
  phone: r.phone,
  address: r.address,
  imageUrl: r.imageUrl,
  accountStatus: r.accountStatus,
  internetAccountNumber: r.internetAccountNumber,
  fiberPlan: r.fiberPlan,
  fiberSpeedMbps: r.fiberSpeedMbps,
  fiberMonthlyFee: r.fiberMonthlyFee,
  fiberStatus: r.fiberStatus,
  fiberRenewalDate: iso(r.fiberRenewalDate),
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
  deletedAt: iso(r.deletedAt),
});

/** Every row of a list, `EXPORT_BATCH` at a time by id (memory stays bounded whatever the history). */
async function* batches<T extends { id: number }>(read: (afterId: number) => Promise<T[]>) {
  let last = 0;
  for (;;) {
    const rows = await read(last);
    if (rows.length === 0) return;
    yield rows;
    if (rows.length < EXPORT_BATCH) return;
    last = rows[rows.length - 1]!.id;
  }
}

/** A JSON array written batch by batch. */
async function* jsonArray<T extends { id: number }, O>(
  read: (afterId: number) => Promise<T[]>,
  map: (rows: T[]) => Promise<O[]> | O[],
): AsyncGenerator<string> {
  yield '[';
  let first = true;
  for await (const rows of batches(read)) {
    const out = await map(rows);
    if (out.length === 0) continue;
    yield (first ? '' : ',') + out.map((o) => JSON.stringify(o)).join(',');
    first = false;
  }
  yield ']';
}

/**
 * The customer's data export as JSON text, in pieces (GET .../data-export streams them): the
 * profile and links, then visits with their items, rewards, the ledger of those rewards and the
 * events naming the customer, each oldest first (contract/customer-privacy.ts has its shape).
 */
export async function* customerDataExport(db: DbOrTx, row: CustomerRow, now: Date): AsyncGenerator<string> {
  const customerId = row.id;
  const links = await db
    .select({
      id: customerLinks.id,
      partnerId: customerLinks.partnerId,
      partnerName: partners.organizationName,
      state: customerLinks.state,
      createdAt: customerLinks.createdAt,
      confirmedAt: customerLinks.confirmedAt,
    })
    .from(customerLinks)
    .innerJoin(partners, eq(partners.id, customerLinks.partnerId))
    .where(eq(customerLinks.customerId, customerId))
    .orderBy(asc(customerLinks.id));
  const head = {
    format: 'reward-club.customer-data-export',
    version: 1,
    exportedAt: now.toISOString(),
    profile: profileOf(row),
    links: links.map((l) => ({
      ...l,
      createdAt: l.createdAt.toISOString(),
      confirmedAt: iso(l.confirmedAt),
    })),
  };
  yield JSON.stringify(head).slice(0, -1);

  yield ',"visits":';
  yield* jsonArray(
    (after) =>
      db
        .select({
          id: visits.id,
          partnerId: visits.partnerId,
          partnerName: partners.organizationName,
          attendantName: visits.attendantName,
          visitDate: visits.visitDate,
          totalAmount: visits.totalAmount,
          receiptImage: visits.receiptImage,
          createdAt: visits.createdAt,
        })
        .from(visits)
        .innerJoin(partners, eq(partners.id, visits.partnerId))
        .where(and(eq(visits.customerId, customerId), gt(visits.id, after)))
        .orderBy(asc(visits.id))
        .limit(EXPORT_BATCH),
    async (rows) => {
      const items = await db
        .select({
          visitId: visitItems.visitId,
          name: visitItems.name,
          quantity: visitItems.quantity,
          price: visitItems.price,
        })
        .from(visitItems)
        .where(
          inArray(
            visitItems.visitId,
            rows.map((r) => r.id),
          ),
        )
        .orderBy(asc(visitItems.id));
      return rows.map((v) => ({
        ...v,
        visitDate: v.visitDate.toISOString(),
        createdAt: v.createdAt.toISOString(),
        items: items.filter((i) => i.visitId === v.id).map(({ visitId: _v, ...i }) => i),
      }));
    },
  );

  yield ',"rewards":';
  yield* jsonArray(
    (after) =>
      db
        .select({
          id: rewards.id,
          partnerId: rewards.partnerId,
          partnerName: partners.organizationName,
          rewardType: rewards.rewardType,
          rewardTypeCategory: rewards.rewardTypeCategory,
          code: rewards.code,
          title: rewards.title,
          description: rewards.description,
          expiryDate: rewards.expiryDate,
          issuedAmount: rewards.issuedAmount,
          percentageDiscount: rewards.percentageDiscount,
          balance: rewards.balance,
          status: rewards.status,
          pointsClaimed: rewards.pointsClaimed,
          createdAt: rewards.createdAt,
          redeemedAt: rewards.redeemedAt,
        })
        .from(rewards)
        .innerJoin(partners, eq(partners.id, rewards.partnerId))
        .where(and(eq(rewards.customerId, customerId), gt(rewards.id, after)))
        .orderBy(asc(rewards.id))
        .limit(EXPORT_BATCH),
    (rows) =>
      rows.map((r) => ({
        ...r,
        expiryDate: iso(r.expiryDate),
        createdAt: r.createdAt.toISOString(),
        redeemedAt: iso(r.redeemedAt),
      })),
  );

  yield ',"ledger":';
  yield* jsonArray(
    (after) =>
      db
        .select({
          id: rewardLedger.id,
          rewardId: rewardLedger.rewardId,
          kind: rewardLedger.kind,
          amount: rewardLedger.amount,
          reason: rewardLedger.reason,
          reversesId: rewardLedger.reversesId,
          at: rewardLedger.at,
        })
        .from(rewardLedger)
        .innerJoin(rewards, eq(rewards.id, rewardLedger.rewardId))
        .where(and(eq(rewards.customerId, customerId), gt(rewardLedger.id, after)))
        .orderBy(asc(rewardLedger.id))
        .limit(EXPORT_BATCH),
    (rows) => rows.map((r) => ({ ...r, at: r.at.toISOString() })),
  );

  yield ',"events":';
  yield* jsonArray(
    (after) =>
      db
        .select({
          id: events.id,
          at: events.at,
          actorId: events.actorId,
          actorType: events.actorType,
          actorName: events.actorName,
          actorOrganization: events.actorOrganization,
          action: events.action,
          entity: events.entity,
          entityId: events.entityId,
          payload: events.payload,
          ipAddress: events.ipAddress,
          ipLocation: events.ipLocation,
          userAgent: events.userAgent,
        })
        .from(events)
        .where(and(eventsNaming(customerId), gt(events.id, after)))
        .orderBy(asc(events.id))
        .limit(EXPORT_BATCH),
    // Staff addresses and browsers are the staff's data, not the customer's: only the customer's own.
    (rows) =>
      rows.map(({ actorId, ...e }) => {
        const own = e.actorType === 'CUSTOMER' && actorId === customerId;
        return {
          ...e,
          at: e.at.toISOString(),
          payload: (e.payload ?? {}) as Record<string, unknown>,
          ipAddress: own ? e.ipAddress : null,
          ipLocation: own ? e.ipLocation : null,
          userAgent: own ? e.userAgent : null,
        };
      }),
  );
  yield '}';
}
