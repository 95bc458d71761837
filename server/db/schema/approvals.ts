import { boolean, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { REWARD_REQUEST_STATES } from '../../../contract/approvals';
import { customerRef, partnerRef, users } from './accounts';
import { id, money, ts } from './columns';
import { rewards } from './rewards';

/**
 * A single reward above the club's `singleRewardAbove` (issue 35, docs/decisions/074): the issue as
 * asked for, waiting for a second person. Approved, it is issued once (`reward_id`, unique); rejected
 * or expired, nothing is.
 */
export const rewardRequests = pgTable(
  'reward_requests',
  {
    id: id(),
    partnerId: partnerRef(),
    customerId: customerRef(),
    state: text('state', { enum: REWARD_REQUEST_STATES }).notNull().default('awaiting_approval'),
    rewardType: text('reward_type', { enum: ['GIFTCARD', 'COUPON'] }).notNull(),
    rewardTypeCategory: text('reward_type_category', { enum: ['GENERAL', 'DISCOUNTED_SUBSCRIPTION'] })
      .notNull()
      .default('GENERAL'),
    issuedAmount: money('issued_amount'),
    percentageDiscount: money('percentage_discount'),
    title: text('title').notNull(),
    description: text('description').notNull(),
    expiryDate: ts('expiry_date'),
    /** The stored image's URL (/api/v1/files/{hash}). */
    promotionalImage: text('promotional_image'),
    byPoints: boolean('by_points').notNull().default(false),
    approvalReasons: jsonb('approval_reasons').$type<string[]>().notNull(),
    createdBy: integer('created_by').references(() => users.id),
    /** The maker as the events name them. */
    actor: jsonb('actor').$type<Record<string, unknown>>().notNull(),
    decidedBy: integer('decided_by').references(() => users.id),
    rejectionReason: text('rejection_reason'),
    rewardId: integer('reward_id').references(() => rewards.id),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    decidedAt: ts('decided_at'),
  },
  (t) => [
    index('reward_requests_state_idx').on(t.state, t.id),
    uniqueIndex('reward_requests_reward_uq').on(t.rewardId),
  ],
);
