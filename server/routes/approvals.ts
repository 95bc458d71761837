import { and, count, eq, inArray, isNotNull, or, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Context } from 'hono';
import { type ApprovalItem, approvalMessages as msg, type RewardRequest } from '../../contract/approvals';
import type { SKIP_REASONS } from '../../contract/campaigns';
import { rewardServerMessages } from '../../contract/rewards';
import type { DbOrTx } from '../db/client';
import { executeRows } from '../db/rows';
import { campaigns, campaignTargets, partners, rewardRequests, users } from '../db/schema';
import {
  decisionRefusals,
  expireOverdue,
  expiresAt,
  isOverdue,
  requestWhat,
  selectRewardRequests,
  unclaimedPoints,
} from '../domain/approvals';
import { approvalReasons, approvalSettings } from '../domain/campaigns';
import { actions, actorOfAuthUser, recordEvent } from '../domain/events';
import { runIdempotent, success } from '../domain/idempotency';
import { transactingCustomer, transactingPartner } from '../domain/partners';
import { insertIssuedReward } from '../domain/reward-issue';
import { partnerScope, scopedPartnerId, staffUserId } from '../domain/scope';
import { fullName } from '../domain/users';
import { ApiError, fieldError } from '../errors';
import { requestMeta } from '../http/client-address';
import type { RouteContext } from '../http/context';
import { ok } from '../http/errors';
import { idempotencyKeyOf, respond } from '../http/idempotency';
import { routeSet } from '../http/route';
import type { AppEnv } from '../types';

type SkipReason = (typeof SKIP_REASONS)[number];

const maker = alias(users, 'maker');
const approver = alias(users, 'approver');
const rejecter = alias(users, 'rejecter');

const person = (id: number | null, first: string | null, last: string | null) =>
  id === null || first === null ? null : { id, name: fullName({ firstName: first, lastName: last ?? '' }) };

/**
 * The approvals queue and the decisions on single rewards (issue 35, docs/decisions/074). The queue
 * lists campaigns and reward requests together; campaigns are decided on their own routes
 * (server/routes/campaigns.ts), reward requests here. Every read first expires what is overdue.
 */
export function approvalRoutes(ctx: RouteContext) {
  const { db, clock, guards, config } = ctx;

  /** The request an approve or reject names, locked: waiting, not overdue, not the caller's own. */
  const decidable = async (c: Context<AppEnv>, id: number, tx: DbOrTx, days: number) => {
    const [row] = await tx.select().from(rewardRequests).where(eq(rewardRequests.id, id)).for('update');
    if (!row) throw new ApiError(404, msg.notFound);
    if (row.createdBy !== null && row.createdBy === staffUserId(c.get('user'))) throw decisionRefusals.own();
    if (row.state === 'expired') throw decisionRefusals.expired(days);
    if (row.state !== 'awaiting_approval') throw decisionRefusals.notWaiting(row.state);
    // Overdue but not yet swept (the sweep skipped it while this transaction held it): expired all the same.
    if (isOverdue(row.createdAt, days, clock())) throw decisionRefusals.expired(days);
    return row;
  };

  const oneRequest = async (id: number, days: number, tx: DbOrTx = db): Promise<RewardRequest> => {
    const [view] = await selectRewardRequests(tx, eq(rewardRequests.id, id), days);
    if (!view) throw new ApiError(404, msg.notFound);
    return view;
  };

  /** Campaigns of the queue, with their preview as fixed on submit. */
  const campaignItems = async (
    where: SQL | undefined,
    days: number,
    limit: number,
    order: 'asc' | 'desc',
  ) => {
    const rows = await db
      .select({
        c: campaigns,
        organizationName: partners.organizationName,
        makerFirst: maker.firstName,
        makerLast: maker.lastName,
        approverFirst: approver.firstName,
        approverLast: approver.lastName,
        rejecterFirst: rejecter.firstName,
        rejecterLast: rejecter.lastName,
      })
      .from(campaigns)
      .innerJoin(partners, eq(partners.id, campaigns.partnerId))
      .leftJoin(maker, eq(maker.id, campaigns.createdBy))
      .leftJoin(approver, eq(approver.id, campaigns.approvedBy))
      .leftJoin(rejecter, eq(rejecter.id, campaigns.rejectedBy))
      .where(where)
      .orderBy(order === 'asc' ? sql`${campaigns.submittedAt} asc` : sql`${campaigns.submittedAt} desc`)
      .limit(limit);
    const ids = rows.map((r) => r.c.id);
    const reasons =
      ids.length === 0
        ? []
        : await db
            .select({ campaignId: campaignTargets.campaignId, reason: campaignTargets.reason, n: count() })
            .from(campaignTargets)
            .where(and(inArray(campaignTargets.campaignId, ids), isNotNull(campaignTargets.reason)))
            .groupBy(campaignTargets.campaignId, campaignTargets.reason);
    const settings = await approvalSettings(db);
    return rows.map((v): ApprovalItem => {
      const c = v.c;
      const byReason: Record<SkipReason, number> = {
        not_found: 0,
        erased: 0,
        blocked: 0,
        not_linked: 0,
        already_rewarded: 0,
      };
      for (const r of reasons) if (r.campaignId === c.id) byReason[r.reason as SkipReason] = Number(r.n);
      // List entries naming nobody are counted in `skipped` on submit but have no target row.
      const named = Object.values(byReason).reduce((a, b) => a + b, 0);
      byReason.not_found = Math.max(0, c.skipped - named);
      const count = (c.total ?? 0) - c.skipped;
      const totalValue = c.totalValue ?? 0;
      const since = c.submittedAt ?? c.createdAt;
      return {
        kind: 'campaign',
        id: c.id,
        state: c.state,
        name: c.name,
        partner: { id: c.partnerId, organizationName: v.organizationName },
        maker: person(c.createdBy, v.makerFirst, v.makerLast),
        decidedBy:
          person(c.approvedBy, v.approverFirst, v.approverLast) ??
          person(c.rejectedBy, v.rejecterFirst, v.rejecterLast),
        rejectionReason: c.rejectionReason,
        rewardType: c.rewardType,
        issuedAmount: c.issuedAmount,
        percentageDiscount: c.percentageDiscount,
        count,
        totalValue,
        approvalReasons: approvalReasons(settings, { totalValue, issuedAmount: c.issuedAmount }),
        customer: null,
        preview: { count, totalValue, skipped: { count: c.skipped, byReason } },
        waitingSince: since.toISOString(),
        expiresAt: c.state === 'awaiting_approval' ? expiresAt(since, days).toISOString() : null,
        decidedAt: c.decidedAt?.toISOString() ?? null,
      };
    });
  };

  const requestItem = (r: RewardRequest): ApprovalItem => ({
    kind: 'reward',
    id: r.id,
    state: r.state,
    name: r.title,
    partner: r.partner,
    maker: r.createdBy,
    decidedBy: r.decidedBy,
    rejectionReason: r.rejectionReason,
    rewardType: r.rewardType,
    issuedAmount: r.issuedAmount,
    percentageDiscount: r.percentageDiscount,
    count: 1,
    totalValue: r.issuedAmount ?? 0,
    approvalReasons: r.approvalReasons,
    customer: r.customer,
    preview: null,
    waitingSince: r.createdAt,
    expiresAt: r.expiresAt,
    decidedAt: r.decidedAt,
  });

  return routeSet(guards)
    .on('GET /admin/approvals', async (c) => {
      const q = c.req.valid('query');
      await expireOverdue(db, clock());
      const { approvalExpiryDays: days } = await approvalSettings(db);
      // Waiting: the oldest first (the next to expire); expired and decided: the newest first.
      const order = q.state === 'awaiting_approval' ? 'asc' : 'desc';
      const campaignWhere =
        q.state === 'decided'
          ? or(isNotNull(campaigns.approvedBy), isNotNull(campaigns.rejectedBy))!
          : eq(campaigns.state, q.state);
      const requestWhere =
        q.state === 'decided'
          ? inArray(rewardRequests.state, ['approved', 'rejected'])
          : eq(rewardRequests.state, q.state);
      // Enough of each kind for the page asked for; merged, then cut to the page.
      const upTo = q.pageNumber * q.pageSize;
      const items = [
        ...(await campaignItems(campaignWhere, days, upTo, order)),
        ...(await selectRewardRequests(db, requestWhere, days, { order, limit: upTo })).map(requestItem),
      ].sort((a, b) => {
        const by =
          a.waitingSince.localeCompare(b.waitingSince) || a.kind.localeCompare(b.kind) || a.id - b.id;
        return order === 'asc' ? by : -by;
      });
      const [counted] = await executeRows<{ n: number }>(
        db,
        sql`select (select count(*) from campaigns where ${campaignWhere})::int
              + (select count(*) from reward_requests where ${requestWhere})::int as n`,
      );
      return ok(c, {
        records: items.slice((q.pageNumber - 1) * q.pageSize, upTo),
        meta: { totalCount: Number(counted?.n ?? 0), pageNumber: q.pageNumber, pageSize: q.pageSize },
      });
    })
    .on('GET /partners/rewards/requests', async (c) => {
      const q = c.req.valid('query');
      const partnerId = scopedPartnerId(c.get('user'), q.partnerId);
      await expireOverdue(db, clock());
      const { approvalExpiryDays: days } = await approvalSettings(db);
      const where = partnerId === null ? undefined : eq(rewardRequests.partnerId, partnerId);
      const records = await selectRewardRequests(db, where, days, {
        order: 'desc',
        limit: q.pageSize,
        offset: (q.pageNumber - 1) * q.pageSize,
      });
      const [total] = await db.select({ n: count() }).from(rewardRequests).where(where);
      return ok(c, {
        records,
        meta: { totalCount: Number(total?.n ?? 0), pageNumber: q.pageNumber, pageSize: q.pageSize },
      });
    })
    .on('GET /partners/rewards/requests/{id}', async (c) => {
      const { id } = c.req.valid('param');
      await expireOverdue(db, clock());
      const { approvalExpiryDays: days } = await approvalSettings(db);
      const view = await oneRequest(id, days);
      // Partner staff see their own partner's requests only (another partner's is 404, like none).
      const scope = partnerScope(c.get('user'));
      if (scope !== null && view.partner.id !== scope) throw new ApiError(404, msg.notFound);
      return ok(c, view);
    })
    .on('POST /admin/approvals/rewards/{id}/approve', async (c) => {
      const user = c.get('user');
      const { id } = c.req.valid('param');
      const key = idempotencyKeyOf(c);
      const now = clock();
      const meta = requestMeta(c, config.trustProxy);
      await expireOverdue(db, now);
      const outcome = await runIdempotent(
        db,
        { key, userId: user.id, route: 'approve-reward-request', body: { id }, now },
        async (tx) => {
          const { approvalExpiryDays: days } = await approvalSettings(tx);
          const row = await decidable(c, id, tx, days);
          const partner = await transactingPartner(tx, row.partnerId);
          const customer = await transactingCustomer(tx, row.customerId, 'customerId', 'update');
          // Points are claimed when the reward is issued, not when it was asked for.
          let pointsClaimed = 0;
          if (row.byPoints) {
            pointsClaimed = await unclaimedPoints(tx, partner.id, customer.id);
            if (pointsClaimed <= 0)
              throw fieldError('byPoints', rewardServerMessages.noPoints, 409, 'no_points');
          }
          const issued = await insertIssuedReward(tx, {
            partner,
            customer,
            rewardType: row.rewardType,
            rewardTypeCategory: row.rewardTypeCategory,
            title: row.title,
            description: row.description,
            promotionalImage: row.promotionalImage,
            expiryDate: row.expiryDate,
            issuedAmount: row.issuedAmount,
            percentageDiscount: row.percentageDiscount,
            pointsClaimed,
            issuedBy: row.createdBy,
            actor: actorOfAuthUser(user),
            meta,
            now,
          });
          // Conditional as well as locked: one approval moves a waiting request, whatever the isolation.
          const moved = await tx
            .update(rewardRequests)
            .set({
              state: 'approved',
              decidedBy: staffUserId(user),
              decidedAt: now,
              updatedAt: now,
              rewardId: issued!.rewardId,
            })
            .where(and(eq(rewardRequests.id, row.id), eq(rewardRequests.state, 'awaiting_approval')))
            .returning({ id: rewardRequests.id });
          if (moved.length === 0) throw decisionRefusals.notWaiting('decided');
          await recordEvent(tx, {
            actor: actorOfAuthUser(user),
            action: actions.approvedRewardRequest(
              requestWhat(row, fullName(customer), partner.organizationName),
            ),
            entity: 'reward_request',
            entityId: row.id,
            payload: { partnerId: partner.id, customerId: customer.id, rewardId: issued!.rewardId },
            meta,
            at: now,
          });
          return success(await oneRequest(row.id, days, tx), msg.approved);
        },
      );
      return respond(c, outcome);
    })
    .on('POST /admin/approvals/rewards/{id}/reject', async (c) => {
      const user = c.get('user');
      const { id } = c.req.valid('param');
      const { reason } = c.req.valid('json');
      const now = clock();
      await expireOverdue(db, now);
      const view = await db.transaction(async (tx) => {
        const { approvalExpiryDays: days } = await approvalSettings(tx);
        const row = await decidable(c, id, tx, days);
        await tx
          .update(rewardRequests)
          .set({
            state: 'rejected',
            decidedBy: staffUserId(user),
            rejectionReason: reason,
            decidedAt: now,
            updatedAt: now,
          })
          .where(eq(rewardRequests.id, row.id));
        const before = await oneRequest(row.id, days, tx);
        await recordEvent(tx, {
          actor: actorOfAuthUser(user),
          action: actions.rejectedRewardRequest(
            requestWhat(row, before.customer.name, before.partner.organizationName),
            reason,
          ),
          entity: 'reward_request',
          entityId: row.id,
          payload: { partnerId: row.partnerId, customerId: row.customerId, reason },
          meta: requestMeta(c, config.trustProxy),
          at: now,
        });
        return before;
      });
      return ok(c, view, msg.rejected);
    }).router;
}
