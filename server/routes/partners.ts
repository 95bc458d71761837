import { Hono } from 'hono';
import { rewardStats } from '../domain/analytics';
import type { AppEnv, RouteContext } from '../http/context';
import { ok } from '../http/errors';

/** /admin/partners: partners and their reward figures. */
export function partnerRoutes(ctx: RouteContext) {
  const { db, guards } = ctx;
  return new Hono<AppEnv>().get('/stats/reward', guards.requirePermission('dashboard.view'), async (c) =>
    ok(c, await rewardStats(db)),
  );
}
