import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { ROWS_PER_STATEMENT } from '../db/rows';
import { rewardLedger, rewards } from '../db/schema';
import type { RequestMeta } from '../types';
import { type Actor, actions, type NewEvent, recordEvent, recordEvents } from './events';
import { generateRewardCode } from './rewards';
import { fullName } from './users';

/** What issuing one reward writes (issue-reward and a campaign's run alike). */
export type IssueRewardInput = {
  partner: { id: number; organizationName: string };
  customer: { id: number; firstName: string; lastName: string };
  rewardType: 'GIFTCARD' | 'COUPON';
  rewardTypeCategory: 'GENERAL' | 'DISCOUNTED_SUBSCRIPTION';
  title: string;
  description: string;
  promotionalImage: string | null;
  expiryDate: Date | null;
  issuedAmount: number | null;
  percentageDiscount: number | null;
  pointsClaimed: number;
  issuedBy: number | null;
  actor: Actor;
  meta?: RequestMeta;
  now: Date;
  /** The campaign issuing it: at most one reward per customer per campaign (a unique index). */
  campaignId?: number;
};

/** The reward row issuing writes: Active, its balance the amount issued. */
const rewardRow = (i: Omit<IssueRewardInput, 'customer'>, customerId: number, code: string) => ({
  partnerId: i.partner.id,
  customerId,
  rewardType: i.rewardType,
  rewardTypeCategory: i.rewardTypeCategory,
  code,
  title: i.title,
  description: i.description,
  promotionalImage: i.promotionalImage,
  expiryDate: i.expiryDate,
  issuedAmount: i.issuedAmount,
  percentageDiscount: i.percentageDiscount,
  balance: i.issuedAmount,
  status: 'Active' as const,
  pointsClaimed: i.pointsClaimed,
  issuedBy: i.issuedBy,
  campaignId: i.campaignId ?? null,
  createdAt: i.now,
  updatedAt: i.now,
});

/** A gift card's ISSUE ledger entry. */
const issueEntry = (i: Omit<IssueRewardInput, 'customer'>, rewardId: number) => ({
  rewardId,
  kind: 'ISSUE' as const,
  amount: i.issuedAmount!,
  actorId: i.issuedBy,
  at: i.now,
});

/** The event of an issued reward, with its `reward.issued` webhook message. */
function issuedEvent(i: IssueRewardInput, rewardId: number, code: string): NewEvent {
  const giftcard = i.rewardType === 'GIFTCARD';
  const issued = {
    rewardType: i.rewardType,
    rewardTypeCategory: i.rewardTypeCategory,
    partnerId: i.partner.id,
    customerId: i.customer.id,
    issuedAmount: i.issuedAmount,
    percentageDiscount: i.percentageDiscount,
    pointsClaimed: i.pointsClaimed,
    expiryDate: i.expiryDate?.toISOString() ?? null,
  };
  return {
    actor: i.actor,
    action: actions.issuedReward(
      giftcard ? 'gift card' : 'coupon',
      code,
      fullName(i.customer),
      i.partner.organizationName,
    ),
    entity: 'reward',
    entityId: rewardId,
    payload: i.campaignId === undefined ? issued : { ...issued, campaignId: i.campaignId },
    meta: i.meta,
    at: i.now,
    webhook: {
      type: 'reward.issued',
      partnerId: i.partner.id,
      data: { rewardId, code, title: i.title, ...issued, issuedAt: i.now.toISOString() },
    },
  };
}

/** The unique index of a campaign's rewards: one per customer per campaign. */
const campaignCustomer = {
  target: [rewards.campaignId, rewards.customerId],
  where: sql`${rewards.campaignId} is not null`,
};

/**
 * Issues one reward inside the caller's transaction: the reward row, a gift card's ISSUE ledger
 * entry, the event and its `reward.issued` webhook message. With a campaign, a customer who already
 * holds its reward gets nothing (the unique index `rewards_campaign_customer_uq` decides, not a
 * read): null.
 */
export async function insertIssuedReward(
  tx: DbOrTx,
  i: IssueRewardInput,
): Promise<{ rewardId: number; code: string } | null> {
  const code = generateRewardCode(i.rewardType);
  const insert = tx.insert(rewards).values(rewardRow(i, i.customer.id, code));
  const [created] = await (i.campaignId === undefined
    ? insert
    : insert.onConflictDoNothing(campaignCustomer)
  ).returning({ id: rewards.id });
  if (!created) return null;
  const rewardId = created.id;
  if (i.rewardType === 'GIFTCARD') await tx.insert(rewardLedger).values(issueEntry(i, rewardId));
  await recordEvent(tx, issuedEvent(i, rewardId, code));
  return { rewardId, code };
}

/**
 * Issues one reward to each of `customers` inside the caller's transaction, set-based (a campaign's
 * batch, docs/decisions/070): exactly the rows `insertIssuedReward` writes for each in turn (reward,
 * a gift card's ISSUE ledger entry, event, `reward.issued` deliveries), in a few INSERT statements per
 * table instead of several per reward. With a campaign, customers who already hold its reward get
 * nothing (the unique index decides, ON CONFLICT DO NOTHING). Returns those issued, in the order given.
 */
export async function insertIssuedRewards(
  tx: DbOrTx,
  template: Omit<IssueRewardInput, 'customer'>,
  customers: readonly IssueRewardInput['customer'][],
): Promise<{ customerId: number; rewardId: number; code: string }[]> {
  // One reward per customer per call, whatever the caller passes twice.
  const unique = [...new Map(customers.map((c) => [c.id, c])).values()];
  const made: { customer: IssueRewardInput['customer']; rewardId: number; code: string }[] = [];
  for (let s = 0; s < unique.length; s += ROWS_PER_STATEMENT) {
    const chunk = unique.slice(s, s + ROWS_PER_STATEMENT);
    const codes = chunk.map(() => generateRewardCode(template.rewardType));
    const insert = tx.insert(rewards).values(chunk.map((c, k) => rewardRow(template, c.id, codes[k]!)));
    const created = await (template.campaignId === undefined
      ? insert
      : insert.onConflictDoNothing(campaignCustomer)
    ).returning({ id: rewards.id, customerId: rewards.customerId });
    // RETURNING's order is not promised: the rows are matched by customer (unique within the call).
    const idOf = new Map(created.map((r) => [r.customerId, r.id]));
    chunk.forEach((customer, k) => {
      const rewardId = idOf.get(customer.id);
      if (rewardId !== undefined) made.push({ customer, rewardId, code: codes[k]! });
    });
  }
  if (made.length === 0) return [];
  if (template.rewardType === 'GIFTCARD')
    for (let s = 0; s < made.length; s += ROWS_PER_STATEMENT)
      await tx
        .insert(rewardLedger)
        .values(made.slice(s, s + ROWS_PER_STATEMENT).map((m) => issueEntry(template, m.rewardId)));
  await recordEvents(
    tx,
    made.map((m) => issuedEvent({ ...template, customer: m.customer }, m.rewardId, m.code)),
  );
  return made.map((m) => ({ customerId: m.customer.id, rewardId: m.rewardId, code: m.code }));
}
