import { eq, getTableColumns, type SQL, sql } from 'drizzle-orm';
import type { Activity } from '../../contract/activities';
import { activityList as activityListDefinition } from '../../contract/activities';
import { events } from '../db/schema';
import { eventCount } from '../domain/counts';
import type { RouteContext } from '../http/context';
import { type CsvColumn, exportCsv } from '../http/csv-export';
import { ok } from '../http/errors';
import { type ListSpec, listPage } from '../http/list';
import { routeSet } from '../http/route';

/** Kept equal to the expression of the trigram index events_search_trgm_idx (schema.ts). */
const activitySearch = sql`(${events.actorName} || ' ' || ${events.action} || ' ' || coalesce(${events.actorOrganization}, '') || ' ' || coalesce(${events.ipAddress}, '') || ' ' || coalesce(${events.ipLocation}, ''))`;

const activityList: ListSpec<'createdAt' | 'action' | 'name'> = {
  sortColumns: {
    createdAt: events.at,
    action: sql`lower(${events.action})`,
    name: sql`lower(${events.actorName})`,
  },
  list: activityListDefinition,
  tieBreaker: events.id,
  searchTarget: activitySearch,
  dateColumn: events.at,
};

const toActivity = (e: typeof events.$inferSelect): Activity => ({
  id: Number(e.id),
  user: {
    id: e.actorId,
    name: e.actorName,
    imageUrl: e.actorImageUrl,
    organizationName: e.actorOrganization,
  },
  userType: e.actorType,
  action: e.action,
  entity: e.entity,
  entityId: e.entityId,
  ipLocation: e.ipLocation,
  ipAddress: e.ipAddress,
  userAgent: e.userAgent,
  createdAt: e.at.toISOString(),
});

const activityCsvColumns: CsvColumn<Activity>[] = [
  { header: 'ID', value: (a) => a.id },
  { header: 'User type', value: (a) => a.userType },
  { header: 'User', value: (a) => a.user.name },
  { header: 'Organization', value: (a) => a.user.organizationName },
  { header: 'Action', value: (a) => a.action },
  { header: 'IP location', value: (a) => a.ipLocation },
  { header: 'IP address', value: (a) => a.ipAddress },
  { header: 'Created', value: (a) => a.createdAt },
];

/**
 * The events a caller sees (decision 023): club staff every event; partner staff the events of their
 * partner's users (staff accounts tied to the partner, deleted ones included: history stays).
 */
const eventsInScope = (partnerId: number | null): SQL | undefined =>
  partnerId === null
    ? undefined
    : sql`(${events.actorType} <> 'CUSTOMER' and ${events.actorId} in (select u.id from users u where u.partner_id = ${partnerId}))`;

/** /admin/user/activities: the activity log, read from the event log, one user type at a time. */
export function activityRoutes(ctx: RouteContext) {
  const { db, guards } = ctx;
  const countEvents = async (where: SQL | undefined) => {
    const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(events).where(where);
    return Number(row?.n ?? 0);
  };
  return routeSet(guards)
    .on('GET /admin/user/activities', async (c) => {
      const q = c.req.valid('query');
      const scope = c.get('partnerScope');
      const data = await listPage(activityList, q, {
        filters: [eq(events.actorType, q.userType), eventsInScope(scope)],
        rows: async (p) =>
          (
            await db
              .select()
              .from(events)
              .where(p.where)
              .orderBy(...p.orderBy)
              .limit(p.limit)
              .offset(p.offset)
          ).map(toActivity),
        count: countEvents,
        total: scope === null ? () => eventCount(db, q.userType) : undefined,
      });
      return ok(c, data);
    })
    .on('GET /admin/user/activities/export', async (c) => {
      const q = c.req.valid('query');
      const scope = c.get('partnerScope');
      return exportCsv(c, {
        name: `activities-${q.userType.toLowerCase()}`,
        spec: activityList,
        query: q,
        filters: [eq(events.actorType, q.userType), eventsInScope(scope)],
        columns: activityCsvColumns,
        clock: ctx.clock,
        log: ctx.log,
        batchSize: ctx.config.exportBatchSize,
        count: countEvents,
        total: scope === null ? () => eventCount(db, q.userType) : undefined,
        batch: async (p) => {
          const raw = await db
            .select({ ...getTableColumns(events), ...p.keyFields })
            .from(events)
            .where(p.where)
            .orderBy(...p.orderBy)
            .limit(p.limit);
          return { records: raw.map(toActivity), last: raw.at(-1) };
        },
      });
    }).router;
}
