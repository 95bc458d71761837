import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import {
  partnerServerMessages as msg,
  PARTNER_WELCOME_MAIL_SUBJECT,
  type Partner,
  partnerInactiveMessages,
  partnerServerMessages,
} from '../../contract/partners';
import { visitServerMessages } from '../../contract/visits';
import type { DbOrTx } from '../db/client';
import { sqlState, UNIQUE_VIOLATION } from '../db/errors';
import { customers, extendedServices, partnerExtendedServices, partners } from '../db/schema';
import { ApiError, fieldError } from '../errors';
import type { AuthUser } from '../types';
import { assertPartnerScope } from './scope';

type ServiceRef = { id: number; title: string };

export const partnerColumns = {
  id: partners.id,
  firstName: partners.firstName,
  lastName: partners.lastName,
  email: partners.email,
  phone: partners.phone,
  organizationName: partners.organizationName,
  address: partners.address,
  coverImage: partners.coverImage,
  minSpendToQualify: partners.minSpendToQualify,
  accountStatus: partners.accountStatus,
  reviewAmountAbove: partners.reviewAmountAbove,
  reviewRequireReceipt: partners.reviewRequireReceipt,
  reviewMaxVisitsPerDay: partners.reviewMaxVisitsPerDay,
  createdAt: partners.createdAt,
  updatedAt: partners.updatedAt,
};

export type PartnerRow = {
  id: number;
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  organizationName: string;
  address: string;
  coverImage: string | null;
  minSpendToQualify: number;
  accountStatus: 'ACTIVE' | 'BLOCKED';
  reviewAmountAbove: number | null;
  reviewRequireReceipt: boolean;
  reviewMaxVisitsPerDay: number | null;
  createdAt: Date;
  updatedAt: Date;
};

/**
 * The live extended services of some partners, by partner id: one query for a whole page (not a
 * subquery per row, which PostgreSQL would also run for every row an OFFSET skips).
 */
export async function servicesOf(
  db: DbOrTx,
  partnerIds: readonly number[],
): Promise<Map<number, ServiceRef[]>> {
  const out = new Map<number, ServiceRef[]>(partnerIds.map((id) => [id, []]));
  if (partnerIds.length === 0) return out;
  const rows = await db
    .select({
      partnerId: partnerExtendedServices.partnerId,
      id: extendedServices.id,
      title: extendedServices.title,
    })
    .from(partnerExtendedServices)
    .innerJoin(extendedServices, eq(extendedServices.id, partnerExtendedServices.extendedServiceId))
    .where(
      and(inArray(partnerExtendedServices.partnerId, [...partnerIds]), isNull(extendedServices.deletedAt)),
    )
    .orderBy(partnerExtendedServices.partnerId, extendedServices.id);
  for (const r of rows) out.get(r.partnerId)?.push({ id: r.id, title: r.title });
  return out;
}

/** Rows of a page with their services. */
export async function toPartners(db: DbOrTx, rows: PartnerRow[]): Promise<Partner[]> {
  const services = await servicesOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => toPartner(r, services.get(r.id) ?? []));
}

export function toPartner(row: PartnerRow, services: ServiceRef[]): Partner {
  return {
    id: row.id,
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    phone: row.phone,
    organizationName: row.organizationName,
    address: row.address,
    coverImage: row.coverImage,
    minSpendToQualify: Number(row.minSpendToQualify),
    accountStatus: row.accountStatus,
    extendedServiceIds: services.map((s) => s.id),
    partnerExtendedServices: services,
    reviewRules: {
      amountAbove: row.reviewAmountAbove === null ? null : Number(row.reviewAmountAbove),
      requireReceipt: row.reviewRequireReceipt,
      maxVisitsPerDay: row.reviewMaxVisitsPerDay,
    },
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** One partner with its services. */
export async function partnerWithServices(db: DbOrTx, row: PartnerRow): Promise<Partner> {
  return (await toPartners(db, [row]))[0]!;
}

/** A live (not deleted) partner, any status; optionally locked for the rest of the transaction. */
export async function findLivePartner(db: DbOrTx, id: number, lock = false): Promise<PartnerRow | undefined> {
  const query = db
    .select(partnerColumns)
    .from(partners)
    .where(and(eq(partners.id, id), isNull(partners.deletedAt)))
    .limit(1);
  const [row] = lock ? await query.for('update', { of: partners }) : await query;
  return row as PartnerRow | undefined;
}

/**
 * The ids among `ids` that are not live extended services. The live ones are share-locked, so a
 * concurrent delete of one of them waits for this transaction.
 */
export async function missingServices(tx: DbOrTx, ids: readonly number[]): Promise<number[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return [];
  const found = await tx
    .select({ id: extendedServices.id })
    .from(extendedServices)
    .where(and(inArray(extendedServices.id, unique), isNull(extendedServices.deletedAt)))
    .for('share');
  const have = new Set(found.map((f) => f.id));
  return unique.filter((id) => !have.has(id));
}

/**
 * The partner a visit, an issue or a redemption happens at, share-locked for the transaction (a
 * concurrent block or delete waits for it): 404 when there is no such partner, 409 with the reason
 * when it is blocked or deleted (issue 16: a blocked or deleted partner issues, redeems and records
 * nothing).
 */
export async function transactingPartner(
  tx: DbOrTx,
  partnerId: number,
  field?: string,
): Promise<{ id: number; organizationName: string }> {
  // 409s carry the stable code `partner_blocked` (a blocked or deleted partner transacts nothing).
  const refuse = (status: 404 | 409, message: string) => {
    const code = status === 409 ? 'partner_blocked' : 'not_found';
    return field ? fieldError(field, message, status, code) : new ApiError(status, message, [], {}, code);
  };
  const [row] = await tx
    .select({
      id: partners.id,
      organizationName: partners.organizationName,
      accountStatus: partners.accountStatus,
      deletedAt: partners.deletedAt,
    })
    .from(partners)
    .where(eq(partners.id, partnerId))
    .for('share');
  if (!row) throw refuse(404, partnerServerMessages.notFound);
  if (row.deletedAt) throw refuse(409, partnerInactiveMessages.DELETED);
  if (row.accountStatus !== 'ACTIVE') throw refuse(409, partnerInactiveMessages.BLOCKED);
  return { id: row.id, organizationName: row.organizationName };
}

/**
 * The customer a visit or an issue is for, locked for the transaction (`share`: a concurrent delete
 * or block waits; `update`: also serialises issues for one customer, so points are claimed once):
 * 404 on `field` when there is no live customer, 400 `customer_blocked` when blocked.
 */
export async function transactingCustomer(
  tx: DbOrTx,
  customerId: number,
  field: string,
  lock: 'share' | 'update',
): Promise<{ id: number; firstName: string; lastName: string }> {
  const [row] = await tx
    .select({
      id: customers.id,
      firstName: customers.firstName,
      lastName: customers.lastName,
      status: customers.accountStatus,
    })
    .from(customers)
    .where(and(eq(customers.id, customerId), isNull(customers.deletedAt), isNull(customers.erasedAt)))
    .for(lock);
  if (!row) throw fieldError(field, visitServerMessages.customerNotFound, 404);
  if (row.status !== 'ACTIVE')
    throw fieldError(field, visitServerMessages.customerBlocked, 400, 'customer_blocked');
  return { id: row.id, firstName: row.firstName, lastName: row.lastName };
}

/** The live partner a list names, when the caller may see it (another partner's is 404, like none). */
export async function scopedLivePartner(
  db: DbOrTx,
  user: AuthUser,
  partnerId: number,
  notFound: string,
): Promise<PartnerRow> {
  assertPartnerScope(user, partnerId);
  const partner = await findLivePartner(db, partnerId);
  if (!partner) throw new ApiError(404, notFound);
  return partner;
}

export async function uniqueEmail<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (sqlState(err) === UNIQUE_VIOLATION) throw fieldError('email', msg.emailTaken, 409);
    throw err;
  }
}

export async function assertEmailFree(db: DbOrTx, email: string) {
  const [clash] = await db
    .select({ id: partners.id })
    .from(partners)
    .where(and(sql`lower(${partners.email}) = ${email.toLowerCase()}`, isNull(partners.deletedAt)))
    .limit(1);
  if (clash) throw fieldError('email', msg.emailTaken, 409);
}

export async function assertServices(tx: DbOrTx, ids: readonly number[]) {
  const missing = await missingServices(tx, ids);
  if (missing.length) {
    throw fieldError('extendedServiceIds', `${msg.unknownServicesPrefix} ${missing.join(', ')}`);
  }
}

export function partnerWelcomeMail(p: { email: string; firstName: string; organizationName: string }) {
  return {
    to: p.email,
    subject: PARTNER_WELCOME_MAIL_SUBJECT,
    text: [
      `Hello ${p.firstName},`,
      '',
      `${p.organizationName} is now a partner of the Reward Club.`,
      '',
      'Club members who visit you can now earn rewards: gift cards, coupons and discounted fiber',
      'subscriptions. Your staff will receive their own invitations to the partner console, each with',
      'a set-password code, from the Reward Club team.',
      '',
      'Reward Club',
    ].join('\n'),
  };
}
