import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { rewardLedger, rewards } from '../db/schema';
import type { RequestMeta } from '../types';
import { type Actor, actions, recordEvent } from './events';
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
  const giftcard = i.rewardType === 'GIFTCARD';
  const code = generateRewardCode(i.rewardType);
  const insert = tx.insert(rewards).values({
    partnerId: i.partner.id,
    customerId: i.customer.id,
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
    status: 'Active',
    pointsClaimed: i.pointsClaimed,
    issuedBy: i.issuedBy,
    campaignId: i.campaignId ?? null,
    createdAt: i.now,
    updatedAt: i.now,
  });
  const [created] = await (i.campaignId === undefined
    ? insert
    : insert.onConflictDoNothing({
        target: [rewards.campaignId, rewards.customerId],
        where: sql`${rewards.campaignId} is not null`,
      })
  ).returning({ id: rewards.id });
  if (!created) return null;
  const rewardId = created.id;
  if (giftcard) {
    await tx.insert(rewardLedger).values({
      rewardId,
      kind: 'ISSUE',
      amount: i.issuedAmount!,
      actorId: i.issuedBy,
      at: i.now,
    });
  }
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
  await recordEvent(tx, {
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
  });
  return { rewardId, code };
}
