import { partnerServerMessages as msg, type PartnerStats } from '../../contract/partners';
import { rewardActivity, rewardStats } from '../domain/analytics';
import { partnerStats } from '../domain/counts';
import { findLivePartner } from '../domain/partners';
import { assertPartnerScope, partnerScope } from '../domain/scope';
import { ApiError } from '../errors';
import type { RouteContext } from '../http/context';
import { ok } from '../http/errors';
import { routeSet } from '../http/route';

/**
 * /admin/partners/stats…: the dashboard's figures (club-wide, or the caller's own partner for partner
 * staff) and one partner's figures and weekly activity.
 */
export function partnerStatsRoutes(ctx: RouteContext) {
  const { db, clock, guards } = ctx;
  return routeSet(guards)
    .on('GET /admin/partners/stats/reward', async (c) => {
      // Partner staff see their own partner's figures, never the club's.
      const scope = partnerScope(c.get('user'));
      return ok(c, await rewardStats(db, scope === null ? {} : { partnerId: scope }));
    })
    .on('GET /admin/partners/stats/reward/weekly', async (c) => {
      // The charts of the dashboard home: partner staff see their own partner's weeks, never the club's.
      const scope = partnerScope(c.get('user'));
      return ok(
        c,
        await rewardActivity(db, { now: clock(), ...(scope === null ? {} : { partnerId: scope }) }),
      );
    })
    .on('GET /admin/partners/stats', async (c) => {
      // Live partners by status, from the counters of migration 0012 (decision 011).
      const stats: PartnerStats = await partnerStats(db);
      return ok(c, stats);
    })
    .on('GET /admin/partners/stats/partner', async (c) => {
      const { partnerId } = c.req.valid('query');
      assertPartnerScope(c.get('user'), partnerId, msg.notFound);
      if (!(await findLivePartner(db, partnerId))) throw new ApiError(404, msg.notFound);
      return ok(c, await rewardStats(db, { partnerId }));
    })
    .on('GET /admin/partners/stats/partner/weekly', async (c) => {
      const { partnerId } = c.req.valid('query');
      assertPartnerScope(c.get('user'), partnerId, msg.notFound);
      if (!(await findLivePartner(db, partnerId))) throw new ApiError(404, msg.notFound);
      return ok(c, await rewardActivity(db, { now: clock(), partnerId }));
    }).router;
}
