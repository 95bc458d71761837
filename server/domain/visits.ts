import { inArray, type SQL, sql } from 'drizzle-orm';
import type { Visit, VisitReviewFlag, VisitReviewState } from '../../contract/visits';
import type { DbOrTx } from '../db/client';
import { executeRows, orderSql } from '../db/rows';
import { customers, partners, visitItems, visits } from '../db/schema';

/** Visits read back: with their customer, partner and items (lists, detail, the recorded visit). */

const isoOf = (col: SQL | unknown) =>
  sql`to_char(${col} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

export const userName = sql`lower(${customers.firstName} || ' ' || ${customers.lastName})`;

/** Visits with their customer and partner; the items follow in one query per page (`withItems`). */
export const visitColumns = sql`select ${visits.id} as id, ${customers.id} as "customerId", ${customers.firstName} as "firstName",
  ${customers.lastName} as "lastName", ${visits.attendantName} as "attendantName", ${isoOf(visits.visitDate)} as "visitDate",
  ${visits.totalAmount}::text as "totalAmount", ${visits.receiptImage} as "receiptImage",
  ${partners.id} as "partnerId", ${partners.organizationName} as "organizationName",
  ${visits.reviewState} as "reviewState", ${visits.reviewFlags} as "reviewFlags", ${visits.reviewReason} as "reviewReason",
  ${visits.reviewedBy} as "reviewedBy", reviewer.first_name as "reviewerFirst", reviewer.last_name as "reviewerLast",
  ${isoOf(visits.reviewedAt)} as "reviewedAt"`;
/** A visit's customer and partner (and its reviewer, decision 075), joined to `visits`. */
export const visitJoins = sql`join ${customers} on ${customers.id} = ${visits.customerId} join ${partners} on ${partners.id} = ${visits.partnerId}
  left join users reviewer on reviewer.id = ${visits.reviewedBy}`;
export const visitFrom = sql`from ${visits} ${visitJoins}`;
export const visitSelect = sql`${visitColumns} ${visitFrom}`;

export type VisitRow = {
  id: number;
  customerId: number;
  firstName: string;
  lastName: string;
  attendantName: string;
  visitDate: string;
  totalAmount: string;
  receiptImage: string | null;
  partnerId: number;
  organizationName: string;
  reviewState: VisitReviewState;
  reviewFlags: VisitReviewFlag[] | string;
  reviewReason: string | null;
  reviewedBy: number | null;
  reviewerFirst: string | null;
  reviewerLast: string | null;
  reviewedAt: string | null;
};

/** A text[] as the driver gives it: an array (node-postgres, PGlite) or its literal ('{a,b}'). */
const textArray = (v: string[] | string): string[] =>
  Array.isArray(v)
    ? v
    : v
        .replace(/^\{|\}$/g, '')
        .split(',')
        .filter(Boolean);

type Item = Visit['visitItems'][number];

const toVisit = (r: VisitRow, items: Item[]): Visit => ({
  id: Number(r.id),
  user: { id: Number(r.customerId), firstName: r.firstName, lastName: r.lastName },
  attendantName: r.attendantName,
  visitDate: r.visitDate,
  totalAmount: Number(r.totalAmount),
  partner: { id: Number(r.partnerId), organizationName: r.organizationName },
  imageUrl: r.receiptImage,
  visitItems: items,
  review: {
    state: r.reviewState,
    flags: textArray(r.reviewFlags) as VisitReviewFlag[],
    reason: r.reviewReason,
    reviewedBy:
      r.reviewedBy === null
        ? null
        : {
            id: Number(r.reviewedBy),
            name: `${r.reviewerFirst ?? ''} ${r.reviewerLast ?? ''}`.trim() || `Staff #${r.reviewedBy}`,
          },
    reviewedAt: r.reviewedAt,
  },
});

/**
 * The rows of a page with their items, in one query (a subquery per row would also run for every
 * row an OFFSET skips).
 */
export async function withItems(db: DbOrTx, rows: VisitRow[]): Promise<Visit[]> {
  const ids = rows.map((r) => Number(r.id));
  const items = new Map<number, Item[]>(ids.map((id) => [id, []]));
  if (ids.length) {
    const found = await db
      .select({
        visitId: visitItems.visitId,
        id: visitItems.id,
        name: visitItems.name,
        quantity: visitItems.quantity,
        price: visitItems.price,
      })
      .from(visitItems)
      .where(inArray(visitItems.visitId, ids))
      .orderBy(visitItems.visitId, visitItems.id);
    for (const { visitId, ...item } of found) items.get(visitId)?.push(item);
  }
  return rows.map((r) => toVisit(r, items.get(Number(r.id)) ?? []));
}

/** The visits `where` matches, with their items. */
export async function findVisits(
  db: DbOrTx,
  where: SQL,
  orderBy: SQL[] = [sql`${visits.id}`],
  limit?: number,
) {
  const rows = await executeRows<VisitRow>(
    db,
    sql`${visitSelect} where ${where} order by ${orderSql(orderBy)} ${limit ? sql`limit ${limit}` : sql``}`,
  );
  return withItems(db, rows);
}
