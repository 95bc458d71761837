import { sql } from 'drizzle-orm';
import { Hono } from 'hono';
import type { UserStats } from '../../contract/stats';
import { executeRows } from '../db/rows';
import type { AppEnv, RouteContext } from '../http/context';
import { ok } from '../http/errors';

/** /admin/user: staff, roles and club-wide user figures. */
export function staffRoutes(ctx: RouteContext) {
  const { db, guards } = ctx;
  return new Hono<AppEnv>().get('/stats', guards.requirePermission('dashboard.view'), async (c) => {
    const [row] = await executeRows<Record<string, number>>(
      db,
      sql`select
        (select count(*) from partners where deleted_at is null)::int as "totalPartners",
        (select count(*) from customers where deleted_at is null)::int as "totalClients",
        (select count(*) from users where deleted_at is null)::int as "totalStaff"`,
    );
    const stats: UserStats = {
      totalPartners: Number(row?.totalPartners ?? 0),
      totalClients: Number(row?.totalClients ?? 0),
      totalStaff: Number(row?.totalStaff ?? 0),
    };
    return ok(c, stats);
  });
}
