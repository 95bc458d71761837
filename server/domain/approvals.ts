import { and, eq, inArray, lte, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { approvalMessages, type RewardRequest } from '../../contract/approvals';
import type { ApprovalSettings } from '../../contract/campaigns';
import { formatNaira } from '../../contract/money';
import type { Db, DbOrTx } from '../db/client';
import { executeRows } from '../db/rows';
import { campaigns, customers, partners, rewardRequests, users } from '../db/schema';
import { ApiError } from '../errors';
import type { MailMessage } from '../mail';
import { approvalRequestMail } from '../mail-templates';
import { approvalSettings } from './campaigns';
import { toKobo } from './eligibility';
import { type Actor, actions, recordEvent } from './events';
import { NAIRA_PER_POINT } from './points';
import { fullName } from './users';

/*
 * Four eyes, the rest of it (issue 35, docs/decisions/074): when a single reward waits, when a
 * request (a campaign or a single reward) expires, and who is told that something waits. No HTTP.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

/** The refusals of a decision on a campaign or a reward request, each with its catalogue code. */
export const decisionRefusals = {
  own: () => new ApiError(403, approvalMessages.ownRequest, [], {}, 'maker_cannot_decide'),
  notWaiting: (state: string) =>
    new ApiError(409, approvalMessages.notWaiting(state), [], {}, 'not_awaiting_approval'),
  expired: (days: number) => new ApiError(409, approvalMessages.expired(days), [], {}, 'approval_expired'),
};

/** When a request waiting since `since` expires if nobody decides. */
export const expiresAt = (since: Date, days: number): Date => new Date(since.getTime() + days * DAY_MS);

/** Whether a request waiting since `since` has expired at `now` (exactly `days` days later it has). */
export const isOverdue = (since: Date | null, days: number, now: Date): boolean =>
  since !== null && expiresAt(since, days).getTime() <= now.getTime();

/**
 * Why one reward waits for a second person (empty: it is issued at once): a gift card whose amount is
 * strictly above `singleRewardAbove`, compared in kobo. A coupon has no face value in naira: it never
 * waits on a naira threshold (decision 070).
 */
export function singleRewardReasons(
  s: Pick<ApprovalSettings, 'singleRewardAbove'>,
  issuedAmount: number | null,
): string[] {
  if (s.singleRewardAbove === null || issuedAmount === null) return [];
  if (toKobo(issuedAmount) <= toKobo(s.singleRewardAbove)) return [];
  return [
    `The reward of ${formatNaira(issuedAmount)} is above the ${formatNaira(s.singleRewardAbove)} that needs a second person`,
  ];
}

/** A customer's unclaimed points at a partner (1 per ₦100 of each approved visit, decision 075, less those claimed). */
export async function unclaimedPoints(tx: DbOrTx, partnerId: number, customerId: number): Promise<number> {
  const [pts] = await executeRows<{ unclaimed: string }>(
    tx,
    sql`select (coalesce((select sum(floor(total_amount / ${NAIRA_PER_POINT})) from visits
          where partner_id = ${partnerId} and customer_id = ${customerId} and review_state = 'approved'), 0)
        - coalesce((select sum(points_claimed) from rewards
          where partner_id = ${partnerId} and customer_id = ${customerId}), 0))::bigint::text as unclaimed`,
  );
  return Math.max(0, Number(pts?.unclaimed ?? 0));
}

type RequestRow = typeof rewardRequests.$inferSelect;

/** A single reward as sentences name it: 'a gift card of ₦60,000.00 for Ada Obi at Mama Put'. */
export function requestWhat(
  r: Pick<RequestRow, 'rewardType' | 'issuedAmount' | 'percentageDiscount'>,
  customerName: string,
  organizationName: string,
): string {
  const reward =
    r.rewardType === 'GIFTCARD'
      ? `a gift card of ${formatNaira(r.issuedAmount)}`
      : `a ${r.percentageDiscount}% coupon`;
  return `${reward} for ${customerName} at ${organizationName}`;
}

const maker = alias(users, 'maker');
const decider = alias(users, 'decider');

const person = (id: number | null, first: string | null, last: string | null) =>
  id === null || first === null ? null : { id, name: fullName({ firstName: first, lastName: last ?? '' }) };

/** Reward requests with their partner, customer, maker and decider, as the API answers them. */
export async function selectRewardRequests(
  db: DbOrTx,
  where: ReturnType<typeof and>,
  days: number,
  o: { order?: 'asc' | 'desc'; limit?: number; offset?: number } = {},
): Promise<RewardRequest[]> {
  const q = db
    .select({
      r: rewardRequests,
      organizationName: partners.organizationName,
      customerFirst: customers.firstName,
      customerLast: customers.lastName,
      makerFirst: maker.firstName,
      makerLast: maker.lastName,
      deciderFirst: decider.firstName,
      deciderLast: decider.lastName,
    })
    .from(rewardRequests)
    .innerJoin(partners, eq(partners.id, rewardRequests.partnerId))
    .innerJoin(customers, eq(customers.id, rewardRequests.customerId))
    .leftJoin(maker, eq(maker.id, rewardRequests.createdBy))
    .leftJoin(decider, eq(decider.id, rewardRequests.decidedBy))
    .where(where)
    .orderBy(o.order === 'desc' ? sql`${rewardRequests.id} desc` : sql`${rewardRequests.id} asc`)
    .$dynamic();
  const rows = await (o.limit === undefined ? q : q.limit(o.limit).offset(o.offset ?? 0));
  return rows.map(
    (v): RewardRequest => ({
      id: v.r.id,
      state: v.r.state,
      partner: { id: v.r.partnerId, organizationName: v.organizationName },
      customer: {
        id: v.r.customerId,
        name: fullName({ firstName: v.customerFirst, lastName: v.customerLast }),
      },
      rewardType: v.r.rewardType,
      rewardTypeCategory: v.r.rewardTypeCategory,
      issuedAmount: v.r.issuedAmount,
      percentageDiscount: v.r.percentageDiscount,
      title: v.r.title,
      description: v.r.description,
      expiryDate: v.r.expiryDate?.toISOString() ?? null,
      promotionalImage: v.r.promotionalImage,
      byPoints: v.r.byPoints,
      approvalReasons: v.r.approvalReasons,
      createdBy: person(v.r.createdBy, v.makerFirst, v.makerLast),
      decidedBy: person(v.r.decidedBy, v.deciderFirst, v.deciderLast),
      rejectionReason: v.r.rejectionReason,
      rewardId: v.r.rewardId,
      createdAt: v.r.createdAt.toISOString(),
      expiresAt: v.r.state === 'awaiting_approval' ? expiresAt(v.r.createdAt, days).toISOString() : null,
      decidedAt: v.r.decidedAt?.toISOString() ?? null,
    }),
  );
}

/**
 * Expires every request not decided within the club's `approvalExpiryDays` (decision 074): campaigns
 * waiting since their submit, reward requests since they were made. One transaction; rows another
 * transaction holds (an approval in flight) are skipped, not waited for: that transaction decides
 * them or finds them overdue itself. Each expiry is an event, named for the maker. Called on every
 * read of what waits and by the sweep (server/approval-expiry.ts): no cron is needed for the state
 * to be right. Answers how many expired.
 */
export async function expireOverdue(db: Db, now: Date): Promise<number> {
  const { approvalExpiryDays: days } = await approvalSettings(db);
  const cutoff = new Date(now.getTime() - days * DAY_MS);
  // Most reads find nothing overdue: one read says so, without the transaction's round trips (the
  // campaign list is read all through a run, decision 070).
  const [due] = await executeRows<{ due: boolean }>(
    db,
    sql`select exists (select 1 from ${campaigns} where ${campaigns.state} = 'awaiting_approval'
          and ${campaigns.submittedAt} <= ${cutoff})
        or exists (select 1 from ${rewardRequests} where ${rewardRequests.state} = 'awaiting_approval'
          and ${rewardRequests.createdAt} <= ${cutoff}) as due`,
  );
  if (!due?.due) return 0;
  return db.transaction(async (tx) => {
    const dueCampaigns = tx
      .select({ id: campaigns.id })
      .from(campaigns)
      .where(and(eq(campaigns.state, 'awaiting_approval'), lte(campaigns.submittedAt, cutoff)))
      .for('update', { skipLocked: true });
    const expiredCampaigns = await tx
      .update(campaigns)
      .set({ state: 'expired', finishedAt: now, updatedAt: now })
      .where(and(inArray(campaigns.id, dueCampaigns), eq(campaigns.state, 'awaiting_approval')))
      .returning();
    for (const c of expiredCampaigns) {
      await recordEvent(tx, {
        actor: c.actor as Actor,
        action: actions.campaignExpired(c.name, days),
        entity: 'campaign',
        entityId: c.id,
        payload: { partnerId: c.partnerId, submittedAt: c.submittedAt?.toISOString() ?? null, days },
        at: now,
      });
    }
    const dueRequests = tx
      .select({ id: rewardRequests.id })
      .from(rewardRequests)
      .where(and(eq(rewardRequests.state, 'awaiting_approval'), lte(rewardRequests.createdAt, cutoff)))
      .for('update', { skipLocked: true });
    const expiredRequests = await tx
      .update(rewardRequests)
      .set({ state: 'expired', updatedAt: now })
      .where(and(inArray(rewardRequests.id, dueRequests), eq(rewardRequests.state, 'awaiting_approval')))
      .returning({ id: rewardRequests.id });
    if (expiredRequests.length > 0) {
      const views = await selectRewardRequests(
        tx,
        inArray(
          rewardRequests.id,
          expiredRequests.map((r) => r.id),
        ),
        days,
      );
      const actors = await tx
        .select({ id: rewardRequests.id, actor: rewardRequests.actor })
        .from(rewardRequests)
        .where(
          inArray(
            rewardRequests.id,
            expiredRequests.map((r) => r.id),
          ),
        );
      for (const v of views) {
        await recordEvent(tx, {
          actor: actors.find((a) => a.id === v.id)!.actor as Actor,
          action: actions.rewardRequestExpired(
            requestWhat(v, v.customer.name, v.partner.organizationName),
            days,
          ),
          entity: 'reward_request',
          entityId: v.id,
          payload: { partnerId: v.partner.id, customerId: v.customer.id, createdAt: v.createdAt, days },
          at: now,
        });
      }
    }
    return expiredCampaigns.length + expiredRequests.length;
  });
}

/**
 * Who is told that something waits: every live, active club staff member whose role holds
 * `rewards.approve` (the Super Admin's holds everything), except the maker. Partner staff never
 * decide (the approve routes are the club's).
 */
async function approvers(
  tx: DbOrTx,
  makerId: number | null,
): Promise<{ email: string; firstName: string }[]> {
  return executeRows<{ email: string; firstName: string }>(
    tx,
    sql`select u.email, u.first_name as "firstName" from users u join roles r on r.id = u.role_id
        where u.deleted_at is null and u.account_status = 'ACTIVE' and u.partner_id is null
          and (r.built_in or 'rewards.approve' = any(r.permissions))
          and u.id <> ${makerId ?? 0}
        order by u.id`,
  );
}

/** A moment as the mails say it: '9 March 2026 at 10:00 (Lagos time)'. */
function lagosMoment(at: Date): string {
  const day = new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Africa/Lagos',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
  }).format(at);
  const time = new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Africa/Lagos',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(at);
  return `${day} at ${time} (Lagos time)`;
}

/**
 * Queues the approvals mail (server/mail-templates.ts) to every approver but the maker, inside the
 * caller's transaction: the mail goes out only when what waits is committed. Answers how many.
 */
export async function mailApprovers(
  tx: DbOrTx,
  enqueue: (tx: DbOrTx, mail: MailMessage, now: Date) => Promise<number>,
  o: {
    makerId: number | null;
    makerName: string;
    what: string;
    reasons: string[];
    waitingSince: Date;
    days: number;
    appUrl: string;
    now: Date;
  },
): Promise<number> {
  const to = await approvers(tx, o.makerId);
  for (const a of to) {
    await enqueue(
      tx,
      approvalRequestMail({
        to: a.email,
        firstName: a.firstName,
        what: o.what,
        maker: o.makerName,
        reasons: o.reasons,
        expiresOn: lagosMoment(expiresAt(o.waitingSince, o.days)),
        appUrl: o.appUrl,
      }),
      o.now,
    );
  }
  return to.length;
}
