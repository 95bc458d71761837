import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  smallint,
  text,
} from 'drizzle-orm/pg-core';
import { partnerRef, partners } from './accounts';
import { money } from './columns';

/* Figures kept current by triggers (migrations 0008, 0011, 0012): never written by the application. */

/**
 * The reward stats of one partner, kept current by statement-level triggers on rewards (migration
 * 0008, in the same transaction as every insert, update or delete of a reward: issue, redemption,
 * reversal, expiry, seeds), so the dashboard reads at most one row per partner instead of
 * aggregating every reward (decision 011). Never written by the application.
 * gc_redeemed is sum(issued_amount - balance) of the gift cards; *_pct_sum / *_pct_n give the averages.
 */
export const rewardStatsByPartner = pgTable('reward_stats_by_partner', {
  partnerId: integer('partner_id')
    .primaryKey()
    .references(() => partners.id),
  gcCount: integer('gc_count').notNull().default(0),
  gcAmount: money('gc_amount').notNull().default(0),
  gcRedeemed: money('gc_redeemed').notNull().default(0),
  cpCount: integer('cp_count').notNull().default(0),
  cpRedeemed: integer('cp_redeemed').notNull().default(0),
  cpPctSum: money('cp_pct_sum').notNull().default(0),
  cpPctN: integer('cp_pct_n').notNull().default(0),
  dsCount: integer('ds_count').notNull().default(0),
  dsRedeemed: integer('ds_redeemed').notNull().default(0),
  dsPctSum: money('ds_pct_sum').notNull().default(0),
  dsPctN: integer('ds_pct_n').notNull().default(0),
});

/**
 * Rewards issued and redeemed per partner and Lagos calendar day (the weekly charts, decision 018's
 * follow-up), kept exact by statement-level triggers on rewards and reward_ledger (migration 0011) in
 * the same transaction as every change, so the 12 weeks are a sum over 84 days instead of a read of
 * every reward and ledger row in them. Never written by the application.
 * - issued: every reward by its created_at day and current partner; the amount is the gift cards'
 *   issued_amount;
 * - redeemed: the REDEEM ledger rows no row reverses (reverses_id), by their `at` day and their
 *   reward's current partner; the amount is the naira that left gift cards (-amount).
 * `day` is the Lagos date (UTC+1 all year): `(at at time zone interval '+01:00')::date`.
 */
export const rewardActivityByDay = pgTable(
  'reward_activity_by_day',
  {
    partnerId: partnerRef(),
    day: date('day', { mode: 'string' }).notNull(),
    issuedCount: integer('issued_count').notNull().default(0),
    issuedAmount: money('issued_amount').notNull().default(0),
    redeemedCount: integer('redeemed_count').notNull().default(0),
    redeemedAmount: money('redeemed_amount').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.partnerId, t.day] }),
    // Club-wide: the days of the 12 weeks, every partner; migration 0011 adds INCLUDE (the four
    // figures) so they are read from the index alone.
    index('reward_activity_by_day_day_idx').on(t.day),
  ],
);

/**
 * The club's rows of reward_activity_by_day summed per day (the club-wide weekly charts, issue 36,
 * decision 069): kept by a statement-level trigger on reward_activity_by_day (migration 0021), so the
 * 12 weeks are 84 rows however many partners there are. Never written by the application.
 */
export const rewardActivityClubByDay = pgTable(
  'reward_activity_club_by_day',
  {
    day: date('day', { mode: 'string' }).notNull(),
    /** partner_id % 16: writers at different partners do not wait on one row (as event_counts). */
    shard: smallint('shard').notNull(),
    issuedCount: integer('issued_count').notNull().default(0),
    issuedAmount: money('issued_amount').notNull().default(0),
    redeemedCount: integer('redeemed_count').notNull().default(0),
    redeemedAmount: money('redeemed_amount').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.day, t.shard] })],
);

/**
 * Each customer's points at each partner (the points-eligible list, issue 36, decision 069): the points
 * their visits there earned (1 per ₦100, rounded down per visit, server/domain/points.ts) and the
 * points rewards issued there claimed, kept exact by statement-level triggers on visits and rewards
 * (migration 0021) in the same transaction as every change, so the list reads the partner's rows with
 * unclaimed points from one index instead of grouping every visit. Never written by the application.
 */
export const customerPoints = pgTable(
  'customer_points',
  {
    partnerId: integer('partner_id').notNull(),
    customerId: integer('customer_id').notNull(),
    earned: bigint('earned', { mode: 'number' }).notNull().default(0),
    claimed: bigint('claimed', { mode: 'number' }).notNull().default(0),
    /** The customer is not deleted (customers.deleted_at is null): the list shows live customers only. */
    live: boolean('live').notNull().default(true),
  },
  (t) => [
    primaryKey({ columns: [t.partnerId, t.customerId] }),
    // The list: a partner's customers with unclaimed points, most first (its sort and tie-breaker).
    index('customer_points_unclaimed_idx')
      .on(t.partnerId, sql`(${t.earned} - ${t.claimed}) desc`, sql`${t.customerId} desc`)
      .where(sql`${t.earned} > ${t.claimed} and ${t.live}`),
    // A customer deleted or restored: their rows' `live` follows.
    index('customer_points_customer_idx').on(t.customerId),
  ],
);

/**
 * Row counts of the unfiltered lists and the dashboard's user figures, kept exact by statement-level
 * triggers in the same transaction as every insert, update, delete or truncate of the counted table
 * (migration 0012, decision 011), so a list without search text or dates answers its totalCount from
 * a few rows instead of counting every matching row. Never written by the application.
 */

/** Live (not soft-deleted) customers per account status: the client list tabs, totalClients. */
export const customerCounts = pgTable('customer_counts', {
  accountStatus: text('account_status').primaryKey(),
  n: bigint('n', { mode: 'number' }).notNull().default(0),
});

/** Live partners per account status: the partner list tabs, partner stats, totalPartners. */
export const partnerCounts = pgTable('partner_counts', {
  accountStatus: text('account_status').primaryKey(),
  n: bigint('n', { mode: 'number' }).notNull().default(0),
});

/** Live staff (users) per user type and account status: the staff list, totalStaff. */
export const staffCounts = pgTable(
  'staff_counts',
  {
    userType: text('user_type').notNull(),
    accountStatus: text('account_status').notNull(),
    n: bigint('n', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userType, t.accountStatus] })],
);

/**
 * Visits per partner: the visits tab. No foreign key: a counter row left at 0 must not stop a
 * partner row from being removed.
 */
export const visitCounts = pgTable('visit_counts', {
  partnerId: integer('partner_id').primaryKey(),
  n: bigint('n', { mode: 'number' }).notNull().default(0),
});

/**
 * Events per actor type, spread over shard rows (nearly every change writes an event: one row per
 * type would serialise every writing transaction until commit); the count is the sum of the shards.
 */
export const eventCounts = pgTable(
  'event_counts',
  {
    actorType: text('actor_type').notNull(),
    shard: smallint('shard').notNull(),
    n: bigint('n', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.actorType, t.shard] })],
);
