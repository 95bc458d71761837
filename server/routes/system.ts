import { sql } from 'drizzle-orm';
import { Hono } from 'hono';
import { permissionCatalogue } from '../../contract/permissions';
import type { AppEnv, RouteContext } from '../http/context';
import { ok } from '../http/errors';

/** Health check (the database answers too: a 503 when it does not) and the permission catalogue. */
export function systemRoutes(ctx: RouteContext) {
  const { guards, db } = ctx;
  return new Hono<AppEnv>()
    .get('/health', guards.publicRoute(), async (c) => {
      await db.execute(sql`select 1`);
      return ok(c, { status: 'ok' as const });
    })
    .get('/authz', guards.authenticated('self'), (c) => ok(c, permissionCatalogue));
}
