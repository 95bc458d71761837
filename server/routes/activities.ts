import { eq, getTableColumns, type SQL, sql } from 'drizzle-orm';
import { type Activity, activityList as activityListDefinition } from '../../contract/activities';
import { events } from '../db/schema';
import { eventCount } from '../domain/counts';
import type { RouteContext } from '../http/context';
import { activityCsvColumns } from '../http/csv-columns';
import type { ListSpec } from '../http/list';
import { listRoutes, tableSource } from '../http/list-source';
import { routeSet } from '../http/route';

/** Kept equal to the expression of the trigram index events_search_trgm_idx (schema.ts). */
const activitySearch = sql`(${events.actorName} || ' ' || ${events.action} || ' ' || coalesce(${events.actorOrganization}, '') || ' ' || coalesce(${events.ipAddress}, '') || ' ' || coalesce(${events.ipLocation}, ''))`;

type ActivitySortKey = 'createdAt' | 'action' | 'name';

const activityList: ListSpec<ActivitySortKey> = {
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

/**
 * The events a caller sees (decision 023, issue 28): club staff every event; partner staff the
 * events that happened at their partner (`events.partner_id`, written with the event: a staff member
 * who moved on takes none of their earlier partner's events along).
 */
const eventsInScope = (partnerId: number | null): SQL | undefined =>
  partnerId === null
    ? undefined
    : sql`(${events.actorType} <> 'CUSTOMER' and ${events.partnerId} = ${partnerId})`;

/** /admin/user/activities: the activity log, read from the event log, one user type at a time. */
export function activityRoutes(ctx: RouteContext) {
  const { db, guards } = ctx;
  /** The events of one user type inside the caller's scope, for the list and its export. */
  const list = listRoutes(ctx, 'GET /admin/user/activities', {
    source: (q, c) =>
      tableSource(db, events, getTableColumns(events), {
        spec: activityList,
        filters: [eq(events.actorType, q.userType), eventsInScope(c.get('partnerScope'))],
        map: (rows) => rows.map(toActivity),
        total: c.get('partnerScope') === null ? () => eventCount(db, q.userType) : undefined,
      }),
    csv: { name: (q) => `activities-${q.userType.toLowerCase()}`, columns: activityCsvColumns },
  });
  return routeSet(guards)
    .on('GET /admin/user/activities', list.page)
    .on('GET /admin/user/activities/export', list.export).router;
}
