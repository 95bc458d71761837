import { sql } from 'drizzle-orm';
import { permissionCatalogue } from '../../contract/permissions';
import type { RouteContext } from '../http/context';
import { ok } from '../http/errors';
import { routeSet } from '../http/route';

/** Health check (the database answers too: a 503 when it does not) and the permission catalogue. */
export function systemRoutes(ctx: RouteContext) {
  const { guards, db, config } = ctx;
  return routeSet(guards)
    .on('GET /health', async (c) => {
      await db.execute(sql`select 1`);
      return ok(c, { status: 'ok' as const, environment: config.environment ?? 'development' });
    })
    .on('GET /authz', (c) => ok(c, permissionCatalogue)).router;
}
