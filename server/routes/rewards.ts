import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { approvalMessages } from '../../contract/approvals';
import { CURSOR_LIMIT_DEFAULT, type CursorQuery, cursorMessages } from '../../contract/list';
import type { LedgerEntry, RewardLedger } from '../../contract/redemption';
import {
  DEFAULT_COUPON_DISCOUNT,
  DEFAULT_GIFTCARD_AMOUNT,
  type GiftcardBalance,
  REWARD_TYPE_CATEGORIES,
  REWARD_TYPES,
  rewardMessages,
  rewardServerMessages as rmsg,
} from '../../contract/rewards';
import { sqlState, UNIQUE_VIOLATION } from '../db/errors';
import { executeRows } from '../db/rows';
import { customers, rewardLedger, rewardRequests, rewards, users } from '../db/schema';
import { rewardStats } from '../domain/analytics';
import {
  mailApprovers,
  requestWhat,
  selectRewardRequests,
  singleRewardReasons,
  unclaimedPoints,
} from '../domain/approvals';
import { approvalSettings } from '../domain/campaigns';
import { actions, actorOfAuthUser, recordEvent } from '../domain/events';
import { runIdempotent, success } from '../domain/idempotency';
import { storeFile } from '../domain/images';
import { findLivePartner, transactingCustomer, transactingPartner } from '../domain/partners';
import { insertIssuedReward } from '../domain/reward-issue';
import { expiryEndOfDay, findScopedReward, rewardById, toReward } from '../domain/rewards';
import {
  inPartnerScope,
  PARTNER_NOT_FOUND,
  partnerScope,
  scopedPartnerId,
  staffUserId,
} from '../domain/scope';
import { fullName } from '../domain/users';
import { ApiError, fieldError } from '../errors';
import { requestMeta } from '../http/client-address';
import type { RouteContext } from '../http/context';
import { ok } from '../http/errors';
import { idempotencyKeyOf, respond } from '../http/idempotency';
import { imageField } from '../http/images';
import { routeSet } from '../http/route';
import { appUrl } from '../mail-templates';
import type { AuthUser } from '../types';
import { containing, findCustomers, lookupPartner, nameOrEmailContains } from './customer-lookup';
import { customersInScope } from './customers';

/**
 * /partners: the partner-side reward calls of docs/product.md#calls (issue, look up, figures, types). The
 * OTP-guarded redemption is in ./redemption.ts. Every call works inside the caller's partner scope
 * (server/http/access.ts `partnerScope`): partner staff only at their own partner, 404 elsewhere.
 */
export function partnerSideRewardRoutes(ctx: RouteContext) {
  const { db, clock, config, guards, mailer } = ctx;

  /** The partner a figure is asked for: admins every partner or ?partnerId=, staff their own. */
  const figureScope = async (user: AuthUser, partnerId?: number) => {
    const scope = scopedPartnerId(user, partnerId);
    if (scope !== null && !(await findLivePartner(db, scope))) throw new ApiError(404, PARTNER_NOT_FOUND);
    return scope;
  };

  /**
   * A ledger page (decision 066): every entry, oldest first, without `limit` or a cursor; else at most
   * `limit` (10) after `startingAfter` or before `endingBefore`, an entry of this reward (any other is
   * 400 `invalid_cursor`). The ledger only grows, so (at, id) after a cursor never moves.
   */
  const ledgerPage = async (rewardId: number, q: CursorQuery) => {
    if (q.startingAfter !== undefined && q.endingBefore !== undefined) {
      throw fieldError('endingBefore', cursorMessages.both);
    }
    const backwards = q.endingBefore !== undefined;
    const cursorId = q.endingBefore ?? q.startingAfter;
    const field = backwards ? 'endingBefore' : 'startingAfter';
    if (cursorId !== undefined) {
      const [cursor] = await db
        .select({ id: rewardLedger.id })
        .from(rewardLedger)
        .where(and(eq(rewardLedger.rewardId, rewardId), eq(rewardLedger.id, cursorId)));
      if (!cursor) throw fieldError(field, cursorMessages.unknown(field), 400, 'invalid_cursor');
    }
    const paged = cursorId !== undefined || q.limit !== undefined;
    const direction = backwards ? desc : asc;
    const at = sql`(select c.at from ${rewardLedger} c where c.id = ${cursorId})`;
    return {
      backwards,
      limit: paged ? (q.limit ?? CURSOR_LIMIT_DEFAULT) : undefined,
      orderBy: [direction(rewardLedger.at), direction(rewardLedger.id)],
      after:
        cursorId === undefined
          ? undefined
          : backwards
            ? sql`(${rewardLedger.at}, ${rewardLedger.id}) < (${at}, ${cursorId})`
            : sql`(${rewardLedger.at}, ${rewardLedger.id}) > (${at}, ${cursorId})`,
    };
  };

  return routeSet(guards)
    .on('GET /partners/reward-types', (c) => ok(c, [...REWARD_TYPES]))
    .on('GET /partners/reward-type-categories', (c) => ok(c, [...REWARD_TYPE_CATEGORIES]))
    .on('GET /partners/stats/reward', async (c) => {
      const scope = await figureScope(c.get('user'), c.req.valid('query').partnerId);
      return ok(c, await rewardStats(db, scope === null ? {} : { partnerId: scope }));
    })
    .on('GET /partners/rewards/redeemed-giftcard-balance', async (c) => {
      const scope = await figureScope(c.get('user'), c.req.valid('query').partnerId);
      const now = clock().toISOString();
      const inScope = scope === null ? sql`true` : sql`r.partner_id = ${scope}`;
      const [row] = await executeRows<{ redeemed: string; outstanding: string }>(
        db,
        sql`select
            (select coalesce(-sum(l.amount), 0) from reward_ledger l join rewards r on r.id = l.reward_id
              where r.reward_type = 'GIFTCARD' and l.kind in ('REDEEM', 'REVERSAL') and ${inScope})::numeric(14, 2)::text as redeemed,
            (select coalesce(sum(r.balance), 0) from rewards r
              where r.reward_type = 'GIFTCARD' and r.status = 'Active'
                and (r.expiry_date is null or r.expiry_date > ${now}::timestamptz) and ${inScope})::numeric(14, 2)::text as outstanding`,
      );
      const data: GiftcardBalance = {
        totalRedeemed: Number(row?.redeemed ?? 0),
        outstandingBalance: Number(row?.outstanding ?? 0),
      };
      return ok(c, data);
    })
    .on('GET /partners/rewards/customers', async (c) => {
      const q = c.req.valid('query');
      const scope = await lookupPartner(db, c.get('user'), q.partnerId);
      const text = q.search ?? '';
      // Holders of a reward at the partner, by the reward's code or their name or address.
      const holds = sql`exists (select 1 from ${rewards} r where r.customer_id = ${customers.id} and r.partner_id = ${scope}
                ${text === '' ? sql`` : sql`and (r.code ilike ${containing(text)} or ${nameOrEmailContains(text)})`})`;
      // Partner staff and keys: only customers linked to the partner (decision 053).
      const linked = c.get('user').partnerId === null ? undefined : customersInScope(scope);
      return ok(c, await findCustomers(db, and(holds, linked)));
    })
    .on('GET /partners/rewards/{rewardId}/ledger', async (c) => {
      const { rewardId } = c.req.valid('param');
      const q = c.req.valid('query');
      const row = await rewardById(db, rewardId);
      // Another partner's reward does not exist for partner staff.
      if (!row || !inPartnerScope(c.get('user'), row.r.partnerId)) throw new ApiError(404, rmsg.notFound);
      const page = await ledgerPage(rewardId, q);
      const reversal = alias(rewardLedger, 'reversal');
      const query = db
        .select({
          e: rewardLedger,
          firstName: users.firstName,
          lastName: users.lastName,
          reversedById: reversal.id,
        })
        .from(rewardLedger)
        .leftJoin(users, eq(users.id, rewardLedger.actorId))
        .leftJoin(reversal, eq(reversal.reversesId, rewardLedger.id))
        .where(and(eq(rewardLedger.rewardId, rewardId), page.after))
        .orderBy(...page.orderBy)
        .$dynamic();
      const read = await (page.limit === undefined ? query : query.limit(page.limit + 1));
      const rows = page.backwards ? read.slice(0, page.limit).reverse() : read.slice(0, page.limit);
      const entries = rows.map(
        ({ e, firstName, lastName, reversedById }): LedgerEntry => ({
          id: e.id,
          kind: e.kind,
          amount: e.amount,
          at: e.at.toISOString(),
          by:
            e.actorId !== null && firstName !== null
              ? { id: e.actorId, name: fullName({ firstName, lastName: lastName ?? '' }) }
              : null,
          reason: e.reason,
          reversesId: e.reversesId,
          reversedById: e.kind === 'REDEEM' ? reversedById : null,
        }),
      );
      const hasMore = page.limit !== undefined && read.length > page.limit;
      const data: RewardLedger = { reward: toReward(row, clock()), entries, hasMore };
      return ok(c, data);
    })
    .on('POST /partners/rewards/get-reward', async (c) => {
      const body = c.req.valid('json');
      const row = await findScopedReward(db, {
        code: body.code,
        customerId: body.userId,
        scope: partnerScope(c.get('user')),
      });
      if (!row) throw new ApiError(404, rmsg.notFound);
      return ok(c, toReward(row, clock()));
    })
    .on('POST /partners/rewards/issue-reward', async (c) => {
      const actor = c.get('user');
      const body = c.req.valid('json');
      const key = idempotencyKeyOf(c);
      const now = clock();
      const meta = requestMeta(c, config.trustProxy);
      const scope = partnerScope(actor);
      if (scope === null && body.partnerId === undefined) throw fieldError('partnerId', rmsg.partnerRequired);
      const partnerId = scopedPartnerId(actor, body.partnerId)!;
      const image = imageField('promotionalImage', body.promotionalImage);
      const expiryDate = body.expiryDate ? expiryEndOfDay(body.expiryDate) : null;
      if (expiryDate && expiryDate.getTime() <= now.getTime())
        throw fieldError('expiryDate', rmsg.expiryInPast);
      const giftcard = body.rewardType === 'GIFTCARD';
      const issuedAmount = giftcard ? (body.issuedAmount ?? DEFAULT_GIFTCARD_AMOUNT) : null;
      const percentageDiscount = giftcard ? null : (body.percentageDiscount ?? DEFAULT_COUPON_DISCOUNT);

      const run = () =>
        runIdempotent(db, { key, userId: actor.id, route: 'issue-reward', body, now }, async (tx) => {
          const partner = await transactingPartner(tx, partnerId, 'partnerId');
          // The customer row lock serialises issues for one customer: points are claimed once.
          const customer = await transactingCustomer(tx, body.issuedTo, 'issuedTo', 'update');
          let pointsClaimed = 0;
          if (body.byPoints) {
            pointsClaimed = await unclaimedPoints(tx, partner.id, customer.id);
            if (pointsClaimed <= 0) throw fieldError('byPoints', rmsg.noPoints, 409, 'no_points');
          }
          // Four eyes (decision 074): above the club's singleRewardAbove nothing is issued now; the
          // issue waits as a request for a second person (202), and the approvers are mailed.
          const settings = await approvalSettings(tx);
          const reasons = singleRewardReasons(settings, issuedAmount);
          if (reasons.length > 0) {
            const promotionalImage = await storeFile(tx, image.bytes, image.mime, now);
            const makerActor = actorOfAuthUser(actor);
            const [made] = await tx
              .insert(rewardRequests)
              .values({
                partnerId: partner.id,
                customerId: customer.id,
                rewardType: body.rewardType,
                rewardTypeCategory: body.rewardTypeCategory ?? 'GENERAL',
                issuedAmount,
                percentageDiscount,
                title: body.title,
                description: body.description,
                expiryDate,
                promotionalImage,
                byPoints: body.byPoints === true,
                approvalReasons: reasons,
                createdBy: staffUserId(actor),
                actor: { ...makerActor },
                createdAt: now,
                updatedAt: now,
              })
              .returning({ id: rewardRequests.id });
            const what = requestWhat(
              { rewardType: body.rewardType, issuedAmount, percentageDiscount },
              fullName(customer),
              partner.organizationName,
            );
            await recordEvent(tx, {
              actor: makerActor,
              action: actions.requestedRewardApproval(what, reasons.join('; ')),
              entity: 'reward_request',
              entityId: made!.id,
              payload: {
                partnerId: partner.id,
                customerId: customer.id,
                issuedAmount,
                approvalReasons: reasons,
              },
              meta,
              at: now,
            });
            await mailApprovers(tx, mailer.enqueue, {
              makerId: staffUserId(actor),
              makerName: makerActor.name,
              what,
              reasons,
              waitingSince: now,
              days: settings.approvalExpiryDays,
              appUrl: appUrl(config),
              now,
            });
            const [request] = await selectRewardRequests(
              tx,
              eq(rewardRequests.id, made!.id),
              settings.approvalExpiryDays,
            );
            return success(request, approvalMessages.waiting, 202);
          }
          const promotionalImage = await storeFile(tx, image.bytes, image.mime, now);
          const { rewardId } = (await insertIssuedReward(tx, {
            partner,
            customer,
            rewardType: body.rewardType,
            rewardTypeCategory: body.rewardTypeCategory ?? 'GENERAL',
            title: body.title,
            description: body.description,
            promotionalImage,
            expiryDate,
            issuedAmount,
            percentageDiscount,
            pointsClaimed,
            issuedBy: staffUserId(actor),
            actor: actorOfAuthUser(actor),
            meta,
            now,
          }))!;
          const reward = toReward((await rewardById(tx, rewardId))!, now);
          return success(reward, rewardMessages.issued, 201);
        });
      try {
        const answer = await run();
        // A request that waits mailed the approvers (the outbox is delivered after the commit).
        if (answer.kind === 'fresh' && answer.answer.status === 202) mailer.kick();
        return respond(c, answer);
      } catch (err) {
        // A reward code clash (1 in 10^12 per pair) rolls back; the client retries with its key.
        if (sqlState(err) === UNIQUE_VIOLATION) throw new ApiError(409, 'Please try again');
        throw err;
      }
    }).router;
}
