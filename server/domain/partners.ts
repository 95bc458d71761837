import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Partner } from '../../contract/partners';
import type { DbOrTx } from '../db/client';
import { extendedServices, partners } from '../db/schema';

type ServiceRef = { id: number; title: string };

/** JSON from either driver (one parses json columns, a cast may come back as text). */
export const parseJson = <T>(v: unknown, fallback: T): T => {
  if (v == null) return fallback;
  if (typeof v === 'string') {
    try {
      return JSON.parse(v) as T;
    } catch {
      return fallback;
    }
  }
  return v as T;
};

/**
 * The live extended services of the partner on the current row, as JSON. Spelled out: in a select
 * list drizzle leaves column names unqualified, which inside this subquery would bind to the inner tables.
 */
const partnerServicesJson = sql<unknown>`coalesce((
  select json_agg(json_build_object('id', s.id, 'title', s.title) order by s.id)
  from partner_extended_services ps join extended_services s on s.id = ps.extended_service_id
  where ps.partner_id = "partners"."id" and s.deleted_at is null), '[]'::json)`;

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
  services: partnerServicesJson,
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
  services: unknown;
};

export function toPartner(row: PartnerRow): Partner {
  const services = parseJson<ServiceRef[]>(row.services, []).map((s) => ({
    id: Number(s.id),
    title: s.title,
  }));
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
