import { eq, isNull, type SQL, sql } from 'drizzle-orm';
import { type StaffUser, staffList as staffListDefinition } from '../../contract/staff';
import type { UserStats } from '../../contract/stats';
import type { DbOrTx } from '../db/client';
import { partners, roles, users } from '../db/schema';
import { liveStaffCount, userStats } from '../domain/counts';
import { staffColumns, toStaffUser } from '../domain/users';
import type { RouteContext } from '../http/context';
import { staffCsvColumns } from '../http/csv-columns';
import { ok } from '../http/errors';
import { caseless, tableList } from '../http/list';
import { countRows, type ListSource, listRoutes, readSelect } from '../http/list-source';
import { routeSet } from '../http/route';

/** Kept equal to the expression of the trigram index users_search_trgm_idx (schema.ts). */
const staffSearch = sql`(${users.firstName} || ' ' || ${users.lastName} || ' ' || ${users.email})`;

const staffList = {
  ...tableList(users, staffListDefinition, staffSearch, {
    ...caseless(users, ['firstName', 'lastName', 'email']),
    role: sql`lower(${roles.name})`,
    createdAt: users.createdAt,
  }),
  // A member without a role sorts by NULL (last ascending, first descending).
  nullableSorts: ['role' as const],
};

/** Partner staff see and manage only their own partner's staff (decision 023). */
const staffInScope = (partnerId: number | null): SQL | undefined =>
  partnerId === null ? undefined : eq(users.partnerId, partnerId);

/** Live staff inside the caller's scope, with role and partner; the club's whole list is counted by a counter. */
const staffSource = (
  db: DbOrTx,
  scope: number | null,
): ListSource<keyof typeof staffList.sortColumns, StaffUser> => ({
  spec: staffList,
  filters: [isNull(users.deletedAt), staffInScope(scope)],
  read: (p) =>
    readSelect(
      db
        .select({ ...staffColumns, ...p.keyFields })
        .from(users)
        .leftJoin(roles, eq(roles.id, users.roleId))
        .leftJoin(partners, eq(partners.id, users.partnerId))
        .$dynamic(),
      p,
      (rows) => rows.map(toStaffUser),
    ),
  count: countRows(db, users),
  total: scope === null ? () => liveStaffCount(db) : undefined,
});

/** The staff list (two paths for it, and for its CSV export) and the people figures of the dashboard. */
export function staffListRoutes(ctx: RouteContext) {
  const { db, guards } = ctx;
  const list = listRoutes(ctx, 'GET /admin/user/admin-users', {
    source: (_q, c) => staffSource(db, c.get('partnerScope')),
    csv: { name: () => 'staff', columns: staffCsvColumns },
  });

  return routeSet(guards)
    .on('GET /admin/user/stats', async (c) => {
      // Live partners, customers and staff, from the counters of migration 0012 (decision 011).
      const stats: UserStats = await userStats(db);
      return ok(c, stats);
    })
    .on('GET /admin/user/admin-users', list.page)
    .on('GET /admin/admin-users', list.page)
    .on('GET /admin/user/admin-users/export', list.export)
    .on('GET /admin/admin-users/export', list.export).router;
}
