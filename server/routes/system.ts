import { Hono } from 'hono';
import { permissionCatalogue } from '../../contract/permissions';
import type { AppEnv, RouteContext } from '../http/context';
import { ok } from '../http/errors';

/** Health check and the permission catalogue. */
export function systemRoutes(ctx: RouteContext) {
  const { guards } = ctx;
  return new Hono<AppEnv>()
    .get('/health', guards.publicRoute(), (c) => ok(c, { status: 'ok' as const }))
    .get('/authz', guards.authenticated(), (c) => ok(c, permissionCatalogue));
}
