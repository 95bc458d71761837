import { sql } from 'drizzle-orm';
import { searchOf } from '../../contract/list';
import {
  visitServerMessages as msg,
  type Visit,
  visitList as visitListDefinition,
} from '../../contract/visits';
import { executeRows, orderSql, whereSql } from '../db/rows';
import { customers, visits } from '../db/schema';
import { partnerVisitCount } from '../domain/counts';
import { scopedLivePartner } from '../domain/partners';
import {
  findVisits,
  userName,
  type VisitRow,
  visitColumns,
  visitFrom,
  visitSelect,
  withItems,
} from '../domain/visits';
import type { AuthUser, RouteContext } from '../http/context';
import { type CsvColumn, type ExportKey, exportCsv } from '../http/csv-export';
import { ApiError, ok } from '../http/errors';
import { type ListSpec, listPage } from '../http/list';
import { routeSet } from '../http/route';

const visitCsvColumns: CsvColumn<Visit>[] = [
  { header: 'ID', value: (v) => v.id },
  { header: 'Visit date', value: (v) => v.visitDate },
  { header: 'Customer ID', value: (v) => v.user.id },
  { header: 'First name', value: (v) => v.user.firstName },
  { header: 'Last name', value: (v) => v.user.lastName },
  { header: 'Attendant', value: (v) => v.attendantName },
  { header: 'Total amount (NGN)', value: (v) => v.totalAmount },
  { header: 'Partner', value: (v) => v.partner.organizationName },
  {
    header: 'Items',
    value: (v) => v.visitItems.map((i) => `${i.name} x${i.quantity} @ ${i.price}`).join('; '),
  },
];

const visitSearch = sql`(${customers.firstName} || ' ' || ${customers.lastName} || ' ' || ${visits.attendantName})`;

const visitList: ListSpec<'visitDate' | 'totalAmount' | 'userName' | 'attendantName'> = {
  sortColumns: {
    visitDate: visits.visitDate,
    totalAmount: visits.totalAmount,
    userName,
    attendantName: sql`lower(${visits.attendantName})`,
  },
  list: visitListDefinition,
  tieBreaker: visits.id,
  searchTarget: visitSearch,
  dateColumn: visits.visitDate,
};

/** /admin/partners/visits: a partner's visits (list, CSV export, one visit). */
export function visitRoutes(ctx: RouteContext) {
  const { db, clock, guards } = ctx;

  /** The partner the query names: live, and the caller's own when they are partner staff. */
  const partnerFor = (user: AuthUser, partnerId: number) =>
    scopedLivePartner(db, user, partnerId, msg.partnerNotFound);

  return routeSet(guards)
    .on('GET /admin/partners/visits', async (c) => {
      const q = c.req.valid('query');
      const partner = await partnerFor(c.get('user'), q.partnerId);
      const searching = searchOf(q) !== undefined;
      const data = await listPage(visitList, q, {
        filters: [sql`${visits.partnerId} = ${partner.id}`],
        rows: async (p) =>
          withItems(
            db,
            await executeRows<VisitRow>(
              db,
              sql`${visitSelect} ${whereSql(p.where)} order by ${orderSql(p.orderBy)} limit ${p.limit} offset ${p.offset}`,
            ),
          ),
        count: async (where) => {
          // The customer join only when the search needs the name.
          const from = searching
            ? sql`${visits} join ${customers} on ${customers.id} = ${visits.customerId}`
            : sql`${visits}`;
          const [row] = await executeRows<{ n: number }>(
            db,
            sql`select count(*)::int as n from ${from} ${whereSql(where)}`,
          );
          return Number(row?.n ?? 0);
        },
        total: () => partnerVisitCount(db, partner.id),
      });
      return ok(c, data);
    })
    .on('GET /admin/partners/visits/export', async (c) => {
      const q = c.req.valid('query');
      const partner = await partnerFor(c.get('user'), q.partnerId);
      return exportCsv(c, {
        name: `visits-partner-${partner.id}`,
        spec: visitList,
        query: q,
        filters: [sql`${visits.partnerId} = ${partner.id}`],
        columns: visitCsvColumns,
        clock,
        log: ctx.log,
        batchSize: ctx.config.exportBatchSize,
        count: async (where) => {
          const [row] = await executeRows<{ n: number }>(
            db,
            sql`select count(*)::int as n from ${visits} join ${customers} on ${customers.id} = ${visits.customerId} ${whereSql(where)}`,
          );
          return Number(row?.n ?? 0);
        },
        total: () => partnerVisitCount(db, partner.id),
        batch: async (p) => {
          const raw = await executeRows<VisitRow & ExportKey>(
            db,
            sql`${visitColumns} ${p.keySql} ${visitFrom} ${whereSql(p.where)} order by ${orderSql(p.orderBy)} limit ${p.limit}`,
          );
          return { records: await withItems(db, raw), last: raw.at(-1) };
        },
      });
    })
    .on('GET /admin/partners/visits/{visitId}', async (c) => {
      const user = c.get('user');
      const [visit] = await findVisits(db, sql`${visits.id} = ${c.req.valid('param').visitId}`);
      if (!visit || (user.partnerId != null && user.partnerId !== visit.partner.id)) {
        throw new ApiError(404, msg.notFound);
      }
      return ok(c, visit);
    }).router;
}
