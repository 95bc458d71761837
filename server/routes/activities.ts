import { eq, getTableColumns, type SQL, sql } from 'drizzle-orm';
import { type Activity, activityList as activityListDefinition } from '../../contract/activities';
import type { UserType } from '../../contract/auth';
import { events } from '../db/schema';
import { eventCount } from '../domain/counts';
import type { RouteContext } from '../http/context';
import type { CsvColumn } from '../http/csv-export';
import { ok } from '../http/errors';
import type { ListSpec } from '../http/list';
import { countRows, type ListSource, readSelect, sourceExport, sourcePage } from '../http/list-source';
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
  /** The events of one user type inside the caller's scope, for the list and its export. */
  const activitySource = (
    userType: UserType,
    scope: number | null,
  ): ListSource<ActivitySortKey, Activity> => ({
    spec: activityList,
    filters: [eq(events.actorType, userType), eventsInScope(scope)],
    read: (p) =>
      readSelect(
        db
          .select({ ...getTableColumns(events), ...p.keyFields })
          .from(events)
          .$dynamic(),
        p,
        (rows) => rows.map(toActivity),
      ),
    count: countRows(db, events),
    total: scope === null ? () => eventCount(db, userType) : undefined,
  });
  return routeSet(guards)
    .on('GET /admin/user/activities', async (c) => {
      const q = c.req.valid('query');
      return ok(c, await sourcePage(activitySource(q.userType, c.get('partnerScope')), q));
    })
    .on('GET /admin/user/activities/export', async (c) => {
      const q = c.req.valid('query');
      return sourceExport(c, activitySource(q.userType, c.get('partnerScope')), q, {
        name: `activities-${q.userType.toLowerCase()}`,
        columns: activityCsvColumns,
        clock: ctx.clock,
        log: ctx.log,
        batchSize: ctx.config.exportBatchSize,
      });
    }).router;
}
