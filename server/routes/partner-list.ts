import { eq, isNull, sql } from 'drizzle-orm';
import { partnerList as partnerListDefinition } from '../../contract/partners';
import { partners } from '../db/schema';
import { livePartnerCount } from '../domain/counts';
import { partnerColumns, toPartners } from '../domain/partners';
import { partnerScope } from '../domain/scope';
import type { RouteContext } from '../http/context';
import { partnerCsvColumns } from '../http/csv-columns';
import { caseless, tableList } from '../http/list';
import { listRoutes, tableSource } from '../http/list-source';
import { routeSet } from '../http/route';

/** Kept equal to the expression of the trigram index partners_search_trgm_idx (schema.ts). */
const partnerSearch = sql`(${partners.organizationName} || ' ' || ${partners.firstName} || ' ' || ${partners.lastName} || ' ' || ${partners.email})`;

type PartnerSortKey = 'organizationName' | 'firstName' | 'lastName' | 'email' | 'createdAt';

const partnerList = tableList<PartnerSortKey>(partners, partnerListDefinition, partnerSearch, {
  ...caseless(partners, ['organizationName', 'firstName', 'lastName', 'email']),
  createdAt: partners.createdAt,
});

/** GET /admin/partners (and its CSV export): the partner list; partner staff see their own row. */
export function partnerListRoutes(ctx: RouteContext) {
  const { db, guards } = ctx;
  /**
   * Live partners (of the status asked), for the list and its export; partner staff see their own
   * row. The counter's total serves the club's list; a partner's is counted.
   */
  const list = listRoutes(ctx, 'GET /admin/partners', {
    source: (q, c) => {
      const scope = partnerScope(c.get('user'));
      return tableSource(db, partners, partnerColumns, {
        spec: partnerList,
        filters: [
          isNull(partners.deletedAt),
          q.status ? eq(partners.accountStatus, q.status) : undefined,
          scope === null ? undefined : eq(partners.id, scope),
        ],
        map: (rows) => toPartners(db, rows),
        total: scope === null ? () => livePartnerCount(db, q.status) : undefined,
      });
    },
    csv: {
      name: (q) => (q.status === 'BLOCKED' ? 'partners-blocked' : 'partners'),
      columns: partnerCsvColumns,
    },
  });

  return routeSet(guards).on('GET /admin/partners', list.page).on('GET /admin/partners/export', list.export)
    .router;
}
