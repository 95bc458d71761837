import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { customerRef, partnerRef, users } from './accounts';
import { campaigns } from './campaigns';
import { id, money, ts } from './columns';

/* What happens at a partner: visits with their items, rewards, the reward ledger and redemption codes. */

export const visits = pgTable(
  'visits',
  {
    id: id(),
    partnerId: partnerRef(),
    customerId: customerRef(),
    attendantName: text('attendant_name').notNull(),
    visitDate: ts('visit_date').notNull(),
    totalAmount: money('total_amount').notNull(),
    receiptImage: text('receipt_image'),
    createdAt: ts('created_at').notNull().defaultNow(),
    /**
     * The visits tab's "customer" sort key: lower(first_name || ' ' || last_name) of the visit's
     * customer, kept by triggers (migration 0021, decision 069): set on insert, rewritten when the
     * customer's name changes. Never written by the application.
     */
    customerNameKey: text('customer_name_key').notNull().default(''),
    /**
     * Visit review (issue 35, decision 075): `approved` counts towards eligibility and points (the
     * points rollup's trigger reads it, migration 0024); `waiting` and `rejected` do not.
     */
    reviewState: text('review_state', { enum: ['approved', 'waiting', 'rejected'] })
      .notNull()
      .default('approved'),
    /** Why the rules flagged it when recorded (contract/visits.ts VISIT_REVIEW_FLAGS); empty: not flagged. */
    reviewFlags: text('review_flags').array().notNull().default(sql`'{}'::text[]`),
    reviewReason: text('review_reason'),
    reviewedBy: integer('reviewed_by').references(() => users.id),
    reviewedAt: ts('reviewed_at'),
    /**
     * SHA-256 (hex) of the receipt image's bytes: a receipt sent again is flagged. Files are stored by
     * that hash (server/domain/images.ts, /api/v1/files/<sha256>), so the column is generated from the
     * receipt's URL and holds for every row, whoever inserted it.
     */
    receiptHash: text('receipt_hash').generatedAlwaysAs(sql`substring(receipt_image from '([0-9a-f]{64})$')`),
  },
  (t) => [
    // The review queue: flagged visits by state (and partner), in id order.
    index('visits_review_queue_idx')
      .on(t.reviewState, t.visitDate, t.id)
      .where(sql`cardinality(${t.reviewFlags}) > 0`),
    index('visits_review_partner_idx')
      .on(t.partnerId, t.reviewState, t.visitDate, t.id)
      .where(sql`cardinality(${t.reviewFlags}) > 0`),
    index('visits_receipt_hash_idx').on(t.receiptHash).where(sql`${t.receiptHash} is not null`),
    // The visits tab: one btree per sort order, led by partner_id, id as the tie-breaker.
    // Migrations 0023 and 0024 add INCLUDE (customer_id, customer_name_key, total_amount,
    // review_state), which drizzle cannot declare: the eligibility window's spend (approved visits)
    // is an index-only read of the window's entries.
    index('visits_partner_date_id_idx').on(t.partnerId, t.visitDate, t.id),
    index('visits_partner_total_idx').on(t.partnerId, t.totalAmount, t.id),
    index('visits_partner_attendant_idx').on(t.partnerId, sql`lower(${t.attendantName})`, t.id),
    index('visits_partner_customer_name_idx').on(t.partnerId, t.customerNameKey, t.id),
    // One customer's visits at a partner in a window (eligibility detail, points); migration 0005
    // adds INCLUDE (total_amount), which drizzle cannot declare, for index-only scans.
    index('visits_partner_customer_date_idx').on(t.partnerId, t.customerId, t.visitDate),
    index('visits_customer_idx').on(t.customerId),
  ],
);

export const visitItems = pgTable(
  'visit_items',
  {
    id: id(),
    visitId: integer('visit_id')
      .notNull()
      .references(() => visits.id),
    name: text('name').notNull(),
    quantity: integer('quantity').notNull(),
    price: money('price').notNull(),
  },
  (t) => [index('visit_items_visit_idx').on(t.visitId)],
);

export const rewards = pgTable(
  'rewards',
  {
    id: id(),
    partnerId: partnerRef(),
    customerId: customerRef(),
    rewardType: text('reward_type', { enum: ['GIFTCARD', 'COUPON'] }).notNull(),
    rewardTypeCategory: text('reward_type_category', { enum: ['GENERAL', 'DISCOUNTED_SUBSCRIPTION'] })
      .notNull()
      .default('GENERAL'),
    code: text('code').notNull().unique(),
    title: text('title').notNull(),
    description: text('description').notNull(),
    promotionalImage: text('promotional_image'),
    expiryDate: ts('expiry_date'),
    issuedAmount: money('issued_amount'),
    percentageDiscount: money('percentage_discount'),
    /** Cached from reward_ledger; the guard `balance >= amount` stops overspending. */
    balance: money('balance'),
    status: text('status', { enum: ['Active', 'Redeemed', 'Expired'] })
      .notNull()
      .default('Active'),
    pointsClaimed: integer('points_claimed').notNull().default(0),
    issuedBy: integer('issued_by').references(() => users.id),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    redeemedAt: ts('redeemed_at'),
    /** When its `reward.expiring` message was queued (docs/decisions/065): once per reward. */
    expiryNoticeAt: ts('expiry_notice_at'),
    /** The campaign that issued it (issue 35); null for a reward issued one at a time. */
    campaignId: integer('campaign_id').references(() => campaigns.id),
  },
  (t) => [
    // Exactly one reward per customer per campaign (decision 070): the run inserts with ON CONFLICT
    // on this index, so a batch run again after a crash adds nothing. NULLs (single issues) never clash.
    uniqueIndex('rewards_campaign_customer_uq')
      .on(t.campaignId, t.customerId)
      .where(sql`${t.campaignId} is not null`),
    index('rewards_partner_created_idx').on(t.partnerId, t.createdAt, t.id),
    index('rewards_partner_customer_idx').on(t.partnerId, t.customerId),
    index('rewards_customer_idx').on(t.customerId),
    // The weekly charts (decision 018): rewards issued in a date range, club-wide; migration 0009
    // adds INCLUDE (reward_type, issued_amount) so the range is read from the index alone.
    index('rewards_created_idx').on(t.createdAt),
    // The outstanding gift-card balance: redeemable gift cards only; 0009 adds INCLUDE (balance).
    index('rewards_giftcard_open_idx')
      .on(t.partnerId, t.expiryDate)
      .where(sql`${t.rewardType} = 'GIFTCARD' and ${t.status} = 'Active'`),
    // The expiry notices' scan: Active rewards with an expiry and no notice yet, by expiry.
    index('rewards_expiry_notice_idx')
      .on(t.expiryDate)
      .where(sql`${t.status} = 'Active' and ${t.expiryDate} is not null and ${t.expiryNoticeAt} is null`),
  ],
);

export const rewardLedger = pgTable(
  'reward_ledger',
  {
    id: id(),
    rewardId: integer('reward_id')
      .notNull()
      .references(() => rewards.id),
    kind: text('kind', { enum: ['ISSUE', 'REDEEM', 'REVERSAL'] }).notNull(),
    /** Signed: ISSUE and REVERSAL add to the balance, REDEEM subtracts. */
    amount: money('amount').notNull(),
    reason: text('reason'),
    actorId: integer('actor_id').references(() => users.id),
    /** A REVERSAL names the REDEEM row it gives back; the unique index lets each be reversed once. */
    reversesId: integer('reverses_id'),
    at: ts('at').notNull().defaultNow(),
  },
  (t) => [
    index('reward_ledger_reward_idx').on(t.rewardId),
    // Redemptions by week (decision 018); migration 0009 adds INCLUDE (reward_id, amount).
    index('reward_ledger_redeem_at_idx').on(t.at).where(sql`${t.kind} = 'REDEEM'`),
    uniqueIndex('reward_ledger_reverses_uq').on(t.reversesId).where(sql`${t.reversesId} is not null`),
  ],
);

/**
 * Redemption codes (docs/decisions/007-ledger-and-otp.md): 6 digits mailed to the customer, stored as
 * an HMAC, valid 5 minutes, single use, at most 5 wrong tries; a new code replaces the customer's
 * earlier ones (replaced_at).
 */
export const redemptionOtps = pgTable(
  'redemption_otps',
  {
    id: id(),
    rewardId: integer('reward_id')
      .notNull()
      .references(() => rewards.id),
    customerId: customerRef(),
    codeHash: text('code_hash').notNull(),
    expiresAt: ts('expires_at').notNull(),
    attempts: integer('attempts').notNull().default(0),
    usedAt: ts('used_at'),
    replacedAt: ts('replaced_at'),
    mailId: integer('mail_id'),
    requestedBy: integer('requested_by').references(() => users.id),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('redemption_otps_customer_idx').on(t.customerId, t.createdAt),
    index('redemption_otps_reward_created_idx').on(t.rewardId, t.createdAt),
  ],
);
