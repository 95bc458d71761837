import { and, eq, inArray, isNull } from 'drizzle-orm';
import { type Partner, partnerInactiveMessages, partnerServerMessages } from '../../contract/partners';
import type { DbOrTx } from '../db/client';
import { extendedServices, partnerExtendedServices, partners } from '../db/schema';
import { ApiError, fieldError } from '../http/errors';

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
  const refuse = (status: 404 | 409, message: string) =>
    field ? fieldError(field, message, status) : new ApiError(status, message);
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
