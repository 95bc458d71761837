import { index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { CAMPAIGN_STATES } from '../../../contract/campaigns';
import { customerRef, partnerRef, users } from './accounts';
import { id, money, ts } from './columns';

/*
 * Campaigns (issue 35, docs/decisions/070): a reward template issued to a segment of a partner's
 * customers by a leased background job (server/campaign-worker.ts), as the customer imports are.
 */

export const campaigns = pgTable(
  'campaigns',
  {
    id: id(),
    name: text('name').notNull(),
    partnerId: partnerRef(),
    state: text('state', { enum: CAMPAIGN_STATES }).notNull().default('draft'),
    rewardType: text('reward_type', { enum: ['GIFTCARD', 'COUPON'] }).notNull(),
    rewardTypeCategory: text('reward_type_category', { enum: ['GENERAL', 'DISCOUNTED_SUBSCRIPTION'] })
      .notNull()
      .default('GENERAL'),
    issuedAmount: money('issued_amount'),
    percentageDiscount: money('percentage_discount'),
    title: text('title').notNull(),
    description: text('description').notNull(),
    expiryDate: ts('expiry_date'),
    /** The stored image's URL (/api/v1/files/{hash}), stored once for every reward of the campaign. */
    promotionalImage: text('promotional_image'),
    /** The segment as sent (contract/campaigns.ts campaignSegmentSchema). */
    segment: jsonb('segment').$type<Record<string, unknown>>().notNull(),
    /** Fixed on submit: the customers to reward plus those skipped then (campaign_targets). */
    total: integer('total'),
    /** Naira: the face value of what the run would issue, fixed on submit (what the threshold compared). */
    totalValue: money('total_value'),
    issued: integer('issued').notNull().default(0),
    skipped: integer('skipped').notNull().default(0),
    /** The run's cursor: targets with a customer id above it are still to do. */
    nextCustomerId: integer('next_customer_id').notNull().default(0),
    createdBy: integer('created_by').references(() => users.id),
    /** The maker as the run's events name them (the run has no request of its own). */
    actor: jsonb('actor').$type<Record<string, unknown>>().notNull(),
    approvedBy: integer('approved_by').references(() => users.id),
    rejectedBy: integer('rejected_by').references(() => users.id),
    rejectionReason: text('rejection_reason'),
    error: text('error'),
    leaseOwner: text('lease_owner'),
    leaseUntil: ts('lease_until'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    submittedAt: ts('submitted_at'),
    decidedAt: ts('decided_at'),
    finishedAt: ts('finished_at'),
  },
  (t) => [
    index('campaigns_state_idx').on(t.state, t.id),
    index('campaigns_partner_idx').on(t.partnerId, t.id),
  ],
);

/**
 * The segment fixed on submit: one row per customer it names, `reason` null for those to reward,
 * else why they are skipped (set at submit, or by the run when a customer changed since).
 */
export const campaignTargets = pgTable(
  'campaign_targets',
  {
    campaignId: integer('campaign_id')
      .notNull()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    customerId: customerRef(),
    reason: text('reason'),
  },
  (t) => [primaryKey({ columns: [t.campaignId, t.customerId] })],
);
