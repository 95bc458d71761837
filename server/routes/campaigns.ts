import { and, count, desc, eq, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Context } from 'hono';
import {
  type Campaign,
  type CampaignPreview,
  type CampaignSegment,
  campaignMessages as msg,
} from '../../contract/campaigns';
import type { ErrorCode } from '../../contract/error-codes';
import { formatNaira } from '../../contract/money';
import { recordCampaignEnd } from '../campaign-worker';
import type { DbOrTx } from '../db/client';
import { executeRows } from '../db/rows';
import { campaigns, partners, users } from '../db/schema';
import { decisionRefusals, expireOverdue, isOverdue, mailApprovers } from '../domain/approvals';
import {
  approvalReasons,
  approvalSettings,
  classifiedSql,
  faceValue,
  type SegmentContext,
  saveApprovalSettings,
  segmentFigures,
  unknownListEntries,
} from '../domain/campaigns';
import { actions, actorOfAuthUser, recordEvent } from '../domain/events';
import { storeFile } from '../domain/images';
import { expiryEndOfDay } from '../domain/rewards';
import { partnerScope, scopedPartnerId, staffUserId } from '../domain/scope';
import { fullName } from '../domain/users';
import { ApiError, fieldError } from '../errors';
import { requestMeta } from '../http/client-address';
import type { RouteContext } from '../http/context';
import { ok } from '../http/errors';
import { imageField } from '../http/images';
import { routeSet } from '../http/route';
import { appUrl } from '../mail-templates';
import type { AppEnv } from '../types';

type CampaignRow = typeof campaigns.$inferSelect;

const maker = alias(users, 'maker');
const approver = alias(users, 'approver');
const rejecter = alias(users, 'rejecter');

const person = (id: number | null, first: string | null, last: string | null) =>
  id === null || first === null ? null : { id, name: fullName({ firstName: first, lastName: last ?? '' }) };

const iso = (d: Date | null) => d?.toISOString() ?? null;

type CampaignView = {
  c: CampaignRow;
  organizationName: string;
  makerFirst: string | null;
  makerLast: string | null;
  approverFirst: string | null;
  approverLast: string | null;
  rejecterFirst: string | null;
  rejecterLast: string | null;
};

const toCampaign = (v: CampaignView): Campaign => ({
  id: v.c.id,
  name: v.c.name,
  partner: { id: v.c.partnerId, organizationName: v.organizationName },
  state: v.c.state,
  reward: {
    rewardType: v.c.rewardType,
    rewardTypeCategory: v.c.rewardTypeCategory,
    issuedAmount: v.c.issuedAmount,
    percentageDiscount: v.c.percentageDiscount,
    title: v.c.title,
    description: v.c.description,
    expiryDate: iso(v.c.expiryDate),
    promotionalImage: v.c.promotionalImage,
  },
  segment: v.c.segment as CampaignSegment,
  total: v.c.total,
  issued: v.c.issued,
  skipped: v.c.skipped,
  totalValue: v.c.totalValue,
  createdBy: person(v.c.createdBy, v.makerFirst, v.makerLast),
  approvedBy: person(v.c.approvedBy, v.approverFirst, v.approverLast),
  rejectedBy: person(v.c.rejectedBy, v.rejecterFirst, v.rejecterLast),
  rejectionReason: v.c.rejectionReason,
  error: v.c.error,
  createdAt: v.c.createdAt.toISOString(),
  submittedAt: iso(v.c.submittedAt),
  decidedAt: iso(v.c.decidedAt),
  finishedAt: iso(v.c.finishedAt),
});

const selectCampaigns = (db: DbOrTx, where: SQL | undefined) =>
  db
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
    .where(where);

/** The campaign's segment rules as the domain evaluates them. */
const contextOf = async (db: DbOrTx, row: CampaignRow, now: Date): Promise<SegmentContext> => {
  const [p] = await db
    .select({ minSpendToQualify: partners.minSpendToQualify })
    .from(partners)
    .where(eq(partners.id, row.partnerId));
  return {
    campaignId: row.id,
    partnerId: row.partnerId,
    minSpendToQualify: p?.minSpendToQualify ?? 0,
    segment: row.segment as CampaignSegment,
    now,
  };
};

/**
 * /admin/campaigns (issue 35, docs/decisions/070): drafts, their preview, submit (start or wait for a
 * second person), approve, reject, cancel, and the list. Partner-scoped: partner staff see and act on
 * their own partner's campaigns only (another partner's is 404); approving and rejecting are the
 * club's (club-scoped). The run is server/campaign-worker.ts.
 */
export function campaignRoutes(ctx: RouteContext) {
  const { db, clock, guards, config, mailer } = ctx;

  /** A campaign inside the caller's scope (another partner's is 404, like none). */
  const scopedCampaign = async (c: Context<AppEnv>, id: number, tx: DbOrTx = db, lock = false) => {
    const scope = partnerScope(c.get('user'));
    const where = and(eq(campaigns.id, id), scope === null ? undefined : eq(campaigns.partnerId, scope));
    const q = tx.select().from(campaigns).where(where);
    const [row] = lock ? await q.for('update') : await q;
    if (!row) throw new ApiError(404, msg.notFound);
    return row;
  };
  /** The campaign an approve or reject names, locked: waiting, and not the caller's own (four eyes). */
  const decidable = async (c: Context<AppEnv>, id: number, tx: DbOrTx) => {
    const row = await scopedCampaign(c, id, tx, true);
    if (row.createdBy !== null && row.createdBy === staffUserId(c.get('user'))) throw decisionRefusals.own();
    const { approvalExpiryDays: days } = await approvalSettings(tx);
    if (row.state === 'expired') throw decisionRefusals.expired(days);
    if (row.state !== 'awaiting_approval') throw decisionRefusals.notWaiting(row.state);
    // Overdue but not yet swept (decision 074): expired all the same.
    if (isOverdue(row.submittedAt, days, clock())) throw decisionRefusals.expired(days);
    return row;
  };

  const view = async (id: number, tx: DbOrTx = db): Promise<Campaign> => {
    const [row] = await selectCampaigns(tx, eq(campaigns.id, id));
    return toCampaign(row!);
  };

  const conflict = (message: string, code?: ErrorCode) => new ApiError(409, message, [], {}, code);

  return routeSet(guards)
    .on('GET /admin/campaigns', async (c) => {
      const q = c.req.valid('query');
      await expireOverdue(db, clock());
      const partnerId = scopedPartnerId(c.get('user'), q.partnerId);
      const where = and(
        partnerId === null ? undefined : eq(campaigns.partnerId, partnerId),
        q.state ? eq(campaigns.state, q.state) : undefined,
      );
      const rows = await selectCampaigns(db, where)
        .orderBy(desc(campaigns.id))
        .limit(q.pageSize)
        .offset((q.pageNumber - 1) * q.pageSize);
      const [total] = await db.select({ n: count() }).from(campaigns).where(where);
      return ok(c, {
        records: rows.map(toCampaign),
        meta: { totalCount: Number(total?.n ?? 0), pageNumber: q.pageNumber, pageSize: q.pageSize },
      });
    })
    .on('POST /admin/campaigns', async (c) => {
      const user = c.get('user');
      const body = c.req.valid('json');
      const now = clock();
      const partnerId = scopedPartnerId(user, body.partnerId)!;
      const r = body.reward;
      const expiryDate = r.expiryDate ? expiryEndOfDay(r.expiryDate) : null;
      if (expiryDate && expiryDate.getTime() <= now.getTime())
        throw fieldError('reward.expiryDate', 'expiryDate must be today or later');
      const image = r.promotionalImage ? imageField('reward.promotionalImage', r.promotionalImage) : null;
      const giftcard = r.rewardType === 'GIFTCARD';
      const actor = { ...actorOfAuthUser(user) };
      const id = await db.transaction(async (tx) => {
        const [partner] = await tx
          .select({ id: partners.id, organizationName: partners.organizationName })
          .from(partners)
          .where(and(eq(partners.id, partnerId), sql`${partners.deletedAt} is null`));
        if (!partner) throw fieldError('partnerId', 'Partner not found', 404);
        const promotionalImage = image ? await storeFile(tx, image.bytes, image.mime, now) : null;
        const [row] = await tx
          .insert(campaigns)
          .values({
            name: body.name,
            partnerId,
            rewardType: r.rewardType,
            rewardTypeCategory: r.rewardTypeCategory ?? 'GENERAL',
            issuedAmount: giftcard ? r.issuedAmount! : null,
            percentageDiscount: giftcard ? null : r.percentageDiscount!,
            title: r.title,
            description: r.description,
            expiryDate,
            promotionalImage,
            segment: body.segment,
            createdBy: staffUserId(user),
            actor,
            createdAt: now,
            updatedAt: now,
          })
          .returning({ id: campaigns.id });
        await recordEvent(tx, {
          actor,
          action: actions.createdCampaign(body.name, partner.organizationName),
          entity: 'campaign',
          entityId: row!.id,
          payload: { partnerId, rewardType: r.rewardType, segment: body.segment.kind },
          meta: requestMeta(c, config.trustProxy),
          at: now,
        });
        return row!.id;
      });
      return ok(c, await view(id), msg.created, 201);
    })
    .on('GET /admin/campaigns/{id}', async (c) => {
      await expireOverdue(db, clock());
      const row = await scopedCampaign(c, c.req.valid('param').id);
      return ok(c, await view(row.id));
    })
    .on('GET /admin/campaigns/{id}/preview', async (c) => {
      const row = await scopedCampaign(c, c.req.valid('param').id);
      const figures = await segmentFigures(db, await contextOf(db, row, clock()));
      const totalValue = faceValue(figures.count, row.issuedAmount);
      const reasons = approvalReasons(await approvalSettings(db), {
        totalValue,
        issuedAmount: row.issuedAmount,
      });
      const data: CampaignPreview = {
        count: figures.count,
        totalValue,
        skipped: figures.skipped,
        needsApproval: reasons.length > 0,
        approvalReasons: reasons,
      };
      return ok(c, data);
    })
    .on('POST /admin/campaigns/{id}/submit', async (c) => {
      const user = c.get('user');
      const now = clock();
      const meta = requestMeta(c, config.trustProxy);
      const started = await db.transaction(async (tx) => {
        // The row lock serialises two submits: the second finds it no longer a draft (409).
        const row = await scopedCampaign(c, c.req.valid('param').id, tx, true);
        if (row.state !== 'draft') throw conflict(msg.notDraft(row.state), 'campaign_not_draft');
        if (row.expiryDate && row.expiryDate.getTime() <= now.getTime())
          throw fieldError('reward.expiryDate', 'expiryDate must be today or later');
        // The segment is fixed now: the run issues to these customers, the approver sees these figures.
        const x = await contextOf(tx, row, now);
        await executeRows(
          tx,
          sql`${classifiedSql(x)} insert into campaign_targets (campaign_id, customer_id, reason)
              select ${row.id}, customer_id, reason from classified on conflict do nothing`,
        );
        const [fixed] = await executeRows<{ issuable: number; skipped: number }>(
          tx,
          sql`select count(*) filter (where reason is null)::int as issuable,
                count(*) filter (where reason is not null)::int as skipped
              from campaign_targets where campaign_id = ${row.id}`,
        );
        const unknown = (await unknownListEntries(tx, x.segment)).length;
        const issuable = Number(fixed?.issuable ?? 0);
        const skipped = Number(fixed?.skipped ?? 0) + unknown;
        if (issuable === 0) throw conflict(msg.empty, 'campaign_empty');
        const totalValue = faceValue(issuable, row.issuedAmount);
        const settings = await approvalSettings(tx);
        const reasons = approvalReasons(settings, { totalValue, issuedAmount: row.issuedAmount });
        const state = reasons.length > 0 ? 'awaiting_approval' : 'running';
        // Conditional as well as locked: whatever the isolation, one submit moves a draft.
        const moved = await tx
          .update(campaigns)
          .set({ state, total: issuable + skipped, skipped, totalValue, submittedAt: now, updatedAt: now })
          .where(and(eq(campaigns.id, row.id), eq(campaigns.state, 'draft')))
          .returning({ id: campaigns.id });
        if (moved.length === 0) throw conflict(msg.notDraft('submitted'), 'campaign_not_draft');
        await recordEvent(tx, {
          actor: actorOfAuthUser(user),
          action:
            state === 'running'
              ? actions.submittedCampaign(row.name, issuable + skipped)
              : actions.campaignAwaitsApproval(row.name, reasons.join('; ')),
          entity: 'campaign',
          entityId: row.id,
          payload: { state, total: issuable + skipped, skipped, totalValue, approvalReasons: reasons },
          meta,
          at: now,
        });
        // Four eyes (decision 074): every approver but the maker is mailed a link to the queue.
        if (state === 'awaiting_approval') {
          const [p] = await tx
            .select({ organizationName: partners.organizationName })
            .from(partners)
            .where(eq(partners.id, row.partnerId));
          await mailApprovers(tx, mailer.enqueue, {
            makerId: staffUserId(user),
            makerName: actorOfAuthUser(user).name,
            what: `campaign ${row.name} at ${p?.organizationName ?? ''}: ${issuable} customer${issuable === 1 ? '' : 's'}, ${formatNaira(totalValue)}`,
            reasons,
            waitingSince: now,
            days: settings.approvalExpiryDays,
            appUrl: appUrl(config),
            now,
          });
        }
        return { id: row.id, state };
      });
      if (started.state === 'running') ctx.campaigns?.kick();
      else mailer.kick();
      return ok(c, await view(started.id), started.state === 'running' ? msg.started : msg.waiting);
    })
    .on('POST /admin/campaigns/{id}/approve', async (c) => {
      const user = c.get('user');
      const now = clock();
      const id = await db.transaction(async (tx) => {
        const row = await decidable(c, c.req.valid('param').id, tx);
        const moved = await tx
          .update(campaigns)
          .set({ state: 'running', approvedBy: staffUserId(user), decidedAt: now, updatedAt: now })
          .where(and(eq(campaigns.id, row.id), eq(campaigns.state, 'awaiting_approval')))
          .returning({ id: campaigns.id });
        if (moved.length === 0) throw decisionRefusals.notWaiting('decided');
        await recordEvent(tx, {
          actor: actorOfAuthUser(user),
          action: actions.approvedCampaign(row.name),
          entity: 'campaign',
          entityId: row.id,
          payload: { partnerId: row.partnerId, totalValue: row.totalValue, total: row.total },
          meta: requestMeta(c, config.trustProxy),
          at: now,
        });
        return row.id;
      });
      ctx.campaigns?.kick();
      return ok(c, await view(id), msg.approved);
    })
    .on('POST /admin/campaigns/{id}/reject', async (c) => {
      const user = c.get('user');
      const { reason } = c.req.valid('json');
      const now = clock();
      const id = await db.transaction(async (tx) => {
        const row = await decidable(c, c.req.valid('param').id, tx);
        await tx
          .update(campaigns)
          .set({
            state: 'rejected',
            rejectedBy: staffUserId(user),
            rejectionReason: reason,
            decidedAt: now,
            finishedAt: now,
            updatedAt: now,
          })
          .where(eq(campaigns.id, row.id));
        await recordEvent(tx, {
          actor: actorOfAuthUser(user),
          action: actions.rejectedCampaign(row.name, reason),
          entity: 'campaign',
          entityId: row.id,
          payload: { partnerId: row.partnerId, reason },
          meta: requestMeta(c, config.trustProxy),
          at: now,
        });
        return row.id;
      });
      return ok(c, await view(id), msg.rejected);
    })
    .on('POST /admin/campaigns/{id}/cancel', async (c) => {
      const user = c.get('user');
      const now = clock();
      const id = await db.transaction(async (tx) => {
        // The run's batch holds this lock too: a cancel waits for the batch in flight, then the run
        // finds the campaign cancelled and stops.
        const row = await scopedCampaign(c, c.req.valid('param').id, tx, true);
        if (!['draft', 'awaiting_approval', 'running'].includes(row.state))
          throw conflict(msg.notCancellable(row.state), 'campaign_not_cancellable');
        const [ended] = await tx
          .update(campaigns)
          .set({ state: 'cancelled', finishedAt: now, updatedAt: now, leaseOwner: null, leaseUntil: null })
          .where(eq(campaigns.id, row.id))
          .returning();
        await recordCampaignEnd(tx, ended!, 'cancelled', now, {
          actor: actorOfAuthUser(user),
          meta: requestMeta(c, config.trustProxy),
        });
        return row.id;
      });
      return ok(c, await view(id), msg.cancelled);
    })
    .on('GET /admin/settings/approvals', async (c) => ok(c, await approvalSettings(db)))
    .on('PUT /admin/settings/approvals', async (c) => {
      const user = c.get('user');
      if (!user.superAdmin || user.apiKey) throw new ApiError(403, msg.superAdminOnly);
      const body = c.req.valid('json');
      const now = clock();
      await db.transaction(async (tx) => {
        const before = await approvalSettings(tx);
        await saveApprovalSettings(tx, body);
        const text = (v: number | null) => (v === null ? 'none' : formatNaira(v));
        const days = body.approvalExpiryDays ?? before.approvalExpiryDays;
        await recordEvent(tx, {
          actor: actorOfAuthUser(user),
          action: actions.setApprovalThresholds(
            `campaign total above ${text(body.campaignTotalAbove)}, single reward above ${text(body.singleRewardAbove)}, requests expire after ${days} day${days === 1 ? '' : 's'}`,
          ),
          entity: 'settings',
          entityId: 'approvals',
          payload: { ...body, approvalExpiryDays: days, previous: before },
          meta: requestMeta(c, config.trustProxy),
          at: now,
        });
      });
      return ok(c, await approvalSettings(db), msg.approvalsSaved);
    }).router;
}
