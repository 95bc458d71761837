import { eq, isNull, type SQL, sql } from 'drizzle-orm';
import type { Partner } from '../../contract/partners';
import { partnerList as partnerListDefinition } from '../../contract/partners';
import { partners } from '../db/schema';
import { livePartnerCount } from '../domain/counts';
import { partnerColumns, toPartners } from '../domain/partners';
import { partnerScope } from '../http/access';
import type { AuthUser, RouteContext } from '../http/context';
import { type CsvColumn, exportCsv } from '../http/csv-export';
import { ok } from '../http/errors';
import { type ListSpec, listPage } from '../http/list';
import { routeSet } from '../http/route';

/** Kept equal to the expression of the trigram index partners_search_trgm_idx (schema.ts). */
const partnerSearch = sql`(${partners.organizationName} || ' ' || ${partners.firstName} || ' ' || ${partners.lastName} || ' ' || ${partners.email})`;

const partnerList: ListSpec<'organizationName' | 'firstName' | 'lastName' | 'email' | 'createdAt'> = {
  sortColumns: {
    organizationName: sql`lower(${partners.organizationName})`,
    firstName: sql`lower(${partners.firstName})`,
    lastName: sql`lower(${partners.lastName})`,
    email: sql`lower(${partners.email})`,
    createdAt: partners.createdAt,
  },
  list: partnerListDefinition,
  tieBreaker: partners.id,
  searchTarget: partnerSearch,
  dateColumn: partners.createdAt,
};

/** A partner's contact email is unique among live partners: the unique index decides a race. */
const partnerCsvColumns: CsvColumn<Partner>[] = [
  { header: 'ID', value: (p) => p.id },
  { header: 'Organization', value: (p) => p.organizationName },
  { header: 'First name', value: (p) => p.firstName },
  { header: 'Last name', value: (p) => p.lastName },
  { header: 'Email', value: (p) => p.email },
  { header: 'Phone', value: (p) => p.phone },
  { header: 'Address', value: (p) => p.address },
  { header: 'Minimum spend to qualify (NGN)', value: (p) => p.minSpendToQualify },
  { header: 'Extended services', value: (p) => p.partnerExtendedServices.map((x) => x.title).join('; ') },
  { header: 'Status', value: (p) => p.accountStatus },
  { header: 'Created', value: (p) => p.createdAt },
];

/** GET /admin/partners (and its CSV export): the partner list; partner staff see their own row. */
export function partnerListRoutes(ctx: RouteContext) {
  const { db, clock, guards } = ctx;
  const listFilters = (user: AuthUser, q: { status?: 'ACTIVE' | 'BLOCKED' | undefined }) => [
    isNull(partners.deletedAt),
    q.status ? eq(partners.accountStatus, q.status) : undefined,
    // Partner staff list only their own partner.
    partnerScope(user) === null ? undefined : eq(partners.id, partnerScope(user)!),
  ];
  /** All live partners (of the status asked), from the counter; partner staff count their own row. */
  const totalPartners = (user: AuthUser, q: { status?: 'ACTIVE' | 'BLOCKED' | undefined }) =>
    partnerScope(user) === null ? () => livePartnerCount(db, q.status) : undefined;
  const countPartners = async (where: SQL | undefined) => {
    const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(partners).where(where);
    return Number(row?.n ?? 0);
  };

  return routeSet(guards)
    .on('GET /admin/partners', async (c) => {
      const q = c.req.valid('query');
      const data = await listPage(partnerList, q, {
        filters: listFilters(c.get('user'), q),
        rows: async (p) =>
          toPartners(
            db,
            await db
              .select(partnerColumns)
              .from(partners)
              .where(p.where)
              .orderBy(...p.orderBy)
              .limit(p.limit)
              .offset(p.offset),
          ),
        count: countPartners,
        total: totalPartners(c.get('user'), q),
      });
      return ok(c, data);
    })
    .on('GET /admin/partners/export', async (c) => {
      const q = c.req.valid('query');
      return exportCsv(c, {
        name: q.status === 'BLOCKED' ? 'partners-blocked' : 'partners',
        spec: partnerList,
        query: q,
        filters: listFilters(c.get('user'), q),
        columns: partnerCsvColumns,
        clock,
        log: ctx.log,
        batchSize: ctx.config.exportBatchSize,
        count: countPartners,
        total: totalPartners(c.get('user'), q),
        batch: async (p) => {
          const raw = await db
            .select({ ...partnerColumns, ...p.keyFields })
            .from(partners)
            .where(p.where)
            .orderBy(...p.orderBy)
            .limit(p.limit);
          return { records: await toPartners(db, raw), last: raw.at(-1) };
        },
      });
    }).router;
}
