import { sql } from 'drizzle-orm';
import { type ListQuery, searchOf } from '../../contract/list';
import {
  visitServerMessages as msg,
  type Visit,
  visitList as visitListDefinition,
} from '../../contract/visits';
import { executeRows, orderSql, whereSql } from '../db/rows';
import { customers, visits } from '../db/schema';
import { partnerVisitCount } from '../domain/counts';
import { scopedLivePartner } from '../domain/partners';
import { findVisits, type VisitRow, visitColumns, visitFrom, visitJoins, withItems } from '../domain/visits';
import { ApiError } from '../errors';
import type { RouteContext } from '../http/context';
import { partnerVisitCsvColumns } from '../http/csv-columns';
import type { ExportKey } from '../http/csv-export';
import { ok } from '../http/errors';
import type { ListSpec } from '../http/list';
import { type ListSource, listRoutes } from '../http/list-source';
import { routeSet } from '../http/route';
import type { AuthUser } from '../types';

const visitSearch = sql`(${customers.firstName} || ' ' || ${customers.lastName} || ' ' || ${visits.attendantName})`;

type VisitSortKey = 'visitDate' | 'totalAmount' | 'userName' | 'attendantName';

const visitList: ListSpec<VisitSortKey> = {
  sortColumns: {
    visitDate: visits.visitDate,
    totalAmount: visits.totalAmount,
    // The customer's name kept on the visit (migration 0021): one index per partner, no join to sort.
    userName: visits.customerNameKey,
    attendantName: sql`lower(${visits.attendantName})`,
  },
  list: visitListDefinition,
  tieBreaker: visits.id,
  searchTarget: visitSearch,
  dateColumn: visits.visitDate,
};

/** /admin/partners/visits: a partner's visits (list, CSV export, one visit). */
export function visitRoutes(ctx: RouteContext) {
  const { db, guards } = ctx;

  /** The partner the query names: live, and the caller's own when they are partner staff. */
  const partnerFor = (user: AuthUser, partnerId: number) =>
    scopedLivePartner(db, user, partnerId, msg.partnerNotFound);
  /** One partner's visits, for the list and its export; the partner's whole list is counted by a counter. */
  const visitSource = (partner: { id: number }, q: ListQuery): ListSource<VisitSortKey, Visit> => ({
    spec: visitList,
    filters: [sql`${visits.partnerId} = ${partner.id}`],
    read: async (p) => {
      // Without a search, the page's ids come first from the partner's index in the list's order
      // (index only, however deep the page), and only those ten visits are read and joined
      // (decision 069); a search names the customer and reads through the join.
      const from =
        searchOf(q) === undefined
          ? sql`from (select ${visits.id} from ${visits} ${whereSql(p.where)} order by ${orderSql(p.orderBy)} limit ${p.limit} offset ${p.offset}) as "page"
              join ${visits} on ${visits.id} = "page"."id" ${visitJoins}`
          : sql`${visitFrom} ${whereSql(p.where)}`;
      const tail =
        searchOf(q) === undefined
          ? sql`order by ${orderSql(p.orderBy)}`
          : sql`order by ${orderSql(p.orderBy)} limit ${p.limit} offset ${p.offset}`;
      const raw = await executeRows<VisitRow & ExportKey>(
        db,
        sql`${visitColumns} ${p.keySql} ${from} ${tail}`,
      );
      return { records: await withItems(db, raw), last: raw.at(-1) };
    },
    count: async (where) => {
      // The customer join only when the search needs the name.
      const from =
        searchOf(q) !== undefined
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

  const list = listRoutes(ctx, 'GET /admin/partners/visits', {
    source: async (q, c) => visitSource(await partnerFor(c.get('user'), q.partnerId), q),
    csv: { name: (q) => `visits-partner-${q.partnerId}`, columns: partnerVisitCsvColumns },
  });

  return routeSet(guards)
    .on('GET /admin/partners/visits', list.page)
    .on('GET /admin/partners/visits/export', list.export)
    .on('GET /admin/partners/visits/{visitId}', async (c) => {
      const user = c.get('user');
      const [visit] = await findVisits(db, sql`${visits.id} = ${c.req.valid('param').visitId}`);
      if (!visit || (user.partnerId != null && user.partnerId !== visit.partner.id)) {
        throw new ApiError(404, msg.notFound);
      }
      return ok(c, visit);
    }).router;
}
