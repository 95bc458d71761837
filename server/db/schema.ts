import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/** numeric(14,2) naira, read back as a JS number. */
const money = customType<{ data: number; driverData: string }>({
  dataType: () => 'numeric(14, 2)',
  fromDriver: (v) => Number(v),
  toDriver: (v) => v.toFixed(2),
});

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (v) => Buffer.from(v),
});

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const id = () => integer('id').primaryKey().generatedAlwaysAsIdentity();

export const roles = pgTable(
  'roles',
  {
    id: id(),
    name: text('name').notNull().unique(),
    /** Permission names from the catalogue in contract/permissions.ts. */
    permissions: text('permissions').array().notNull().default(sql`'{}'::text[]`),
    builtIn: boolean('built_in').notNull().default(false),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  // Role names are unique whatever their case ('support' clashes with 'Support').
  (t) => [uniqueIndex('roles_name_lower_uq').on(sql`lower(${t.name})`)],
);

export const partners = pgTable(
  'partners',
  {
    id: id(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    email: text('email').notNull(),
    phone: text('phone').notNull(),
    organizationName: text('organization_name').notNull(),
    address: text('address').notNull(),
    coverImage: text('cover_image'),
    minSpendToQualify: money('min_spend_to_qualify').notNull().default(10000),
    accountStatus: text('account_status', { enum: ['ACTIVE', 'BLOCKED'] })
      .notNull()
      .default('ACTIVE'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    deletedAt: ts('deleted_at'),
  },
  (t) => {
    const live = sql`${t.deletedAt} is null`;
    return [
      // One live partner per contact email; a deleted partner's address can be added again.
      uniqueIndex('partners_email_uq').on(sql`lower(${t.email})`).where(live),
      // The partner list (docs/decisions/005-partner-queries.md): always filtered by status, so each
      // sort order is a btree led by account_status with id as the tie-breaker, live rows only.
      index('partners_live_status_created_idx').on(t.accountStatus, t.createdAt, t.id).where(live),
      index('partners_live_status_org_idx')
        .on(t.accountStatus, sql`lower(${t.organizationName})`, t.id)
        .where(live),
      index('partners_live_status_first_name_idx')
        .on(t.accountStatus, sql`lower(${t.firstName})`, t.id)
        .where(live),
      index('partners_live_status_last_name_idx')
        .on(t.accountStatus, sql`lower(${t.lastName})`, t.id)
        .where(live),
      index('partners_live_status_email_idx').on(t.accountStatus, sql`lower(${t.email})`, t.id).where(live),
      index('partners_search_trgm_idx')
        .using(
          'gin',
          sql`(${t.organizationName} || ' ' || ${t.firstName} || ' ' || ${t.lastName} || ' ' || ${t.email}) gin_trgm_ops`,
        )
        .where(live),
    ];
  },
);

/** Staff who sign in to the console: admins (userType ADMIN) and partner staff (PARTNER, tied to a partner). */
export const users = pgTable(
  'users',
  {
    id: id(),
    email: text('email').notNull(),
    passwordHash: text('password_hash'),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    phone: text('phone'),
    address: text('address'),
    imageUrl: text('image_url'),
    userType: text('user_type', { enum: ['ADMIN', 'PARTNER'] })
      .notNull()
      .default('ADMIN'),
    roleId: integer('role_id').references(() => roles.id),
    partnerId: integer('partner_id').references(() => partners.id),
    accountStatus: text('account_status', { enum: ['ACTIVE', 'BLOCKED'] })
      .notNull()
      .default('ACTIVE'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    deletedAt: ts('deleted_at'),
  },
  (t) => {
    const live = sql`${t.deletedAt} is null`;
    return [
      // One live account per email; a deleted member's address can be invited again.
      uniqueIndex('users_email_uq').on(sql`lower(${t.email})`).where(live),
      // The staff list (docs/decisions/003-list-indexes.md): one btree per sort order, id as the
      // tie-breaker, only live rows; a trigram GIN index for the search over name and email.
      index('users_live_created_idx').on(t.createdAt, t.id).where(live),
      index('users_live_first_name_idx').on(sql`lower(${t.firstName})`, t.id).where(live),
      index('users_live_last_name_idx').on(sql`lower(${t.lastName})`, t.id).where(live),
      index('users_live_email_idx').on(sql`lower(${t.email})`, t.id).where(live),
      index('users_role_idx').on(t.roleId),
      index('users_search_trgm_idx')
        .using('gin', sql`(${t.firstName} || ' ' || ${t.lastName} || ' ' || ${t.email}) gin_trgm_ops`)
        .where(live),
    ];
  },
);

export const customers = pgTable(
  'customers',
  {
    id: id(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    email: text('email').notNull(),
    phone: text('phone'),
    address: text('address'),
    imageUrl: text('image_url'),
    accountStatus: text('account_status', { enum: ['ACTIVE', 'BLOCKED'] })
      .notNull()
      .default('ACTIVE'),
    fiberPlan: text('fiber_plan').notNull(),
    fiberSpeedMbps: integer('fiber_speed_mbps').notNull(),
    fiberMonthlyFee: money('fiber_monthly_fee').notNull(),
    fiberStatus: text('fiber_status', { enum: ['ACTIVE', 'SUSPENDED', 'CANCELLED'] })
      .notNull()
      .default('ACTIVE'),
    fiberRenewalDate: ts('fiber_renewal_date').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    deletedAt: ts('deleted_at'),
  },
  (t) => {
    const live = sql`${t.deletedAt} is null`;
    return [
      uniqueIndex('customers_email_uq').on(sql`lower(${t.email})`),
      // The client list, as the partner list: status first, id as the tie-breaker, live rows only.
      index('customers_live_status_created_idx').on(t.accountStatus, t.createdAt, t.id).where(live),
      index('customers_live_status_first_name_idx')
        .on(t.accountStatus, sql`lower(${t.firstName})`, t.id)
        .where(live),
      index('customers_live_status_last_name_idx')
        .on(t.accountStatus, sql`lower(${t.lastName})`, t.id)
        .where(live),
      index('customers_live_status_email_idx').on(t.accountStatus, sql`lower(${t.email})`, t.id).where(live),
      index('customers_search_trgm_idx')
        .using('gin', sql`(${t.firstName} || ' ' || ${t.lastName} || ' ' || ${t.email}) gin_trgm_ops`)
        .where(live),
    ];
  },
);

export const extendedServices = pgTable(
  'extended_services',
  {
    id: id(),
    title: text('title').notNull(),
    description: text('description').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    deletedAt: ts('deleted_at'),
  },
  (t) => {
    const live = sql`${t.deletedAt} is null`;
    return [
      index('extended_services_live_created_idx').on(t.createdAt, t.id).where(live),
      index('extended_services_live_title_idx').on(sql`lower(${t.title})`, t.id).where(live),
      index('extended_services_search_trgm_idx')
        .using('gin', sql`(${t.title} || ' ' || ${t.description}) gin_trgm_ops`)
        .where(live),
    ];
  },
);

export const partnerExtendedServices = pgTable(
  'partner_extended_services',
  {
    partnerId: integer('partner_id')
      .notNull()
      .references(() => partners.id),
    extendedServiceId: integer('extended_service_id')
      .notNull()
      .references(() => extendedServices.id),
  },
  (t) => [
    primaryKey({ columns: [t.partnerId, t.extendedServiceId] }),
    index('partner_extended_services_service_idx').on(t.extendedServiceId, t.partnerId),
  ],
);

export const visits = pgTable(
  'visits',
  {
    id: id(),
    partnerId: integer('partner_id')
      .notNull()
      .references(() => partners.id),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    attendantName: text('attendant_name').notNull(),
    visitDate: ts('visit_date').notNull(),
    totalAmount: money('total_amount').notNull(),
    receiptImage: text('receipt_image'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    // The visits tab: one btree per sort order, led by partner_id, id as the tie-breaker.
    index('visits_partner_date_id_idx').on(t.partnerId, t.visitDate, t.id),
    index('visits_partner_total_idx').on(t.partnerId, t.totalAmount, t.id),
    index('visits_partner_attendant_idx').on(t.partnerId, sql`lower(${t.attendantName})`, t.id),
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
    partnerId: integer('partner_id')
      .notNull()
      .references(() => partners.id),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
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
  },
  (t) => [
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
  ],
);

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
    partnerId: integer('partner_id')
      .notNull()
      .references(() => partners.id),
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
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
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

/**
 * Idempotency-Key of money calls: the first request stores its answer in its own transaction; a
 * repeat (same user, same key, same request) gets that answer back and changes nothing.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    id: id(),
    /** The staff member who sent the key; null when a partner API key did (apiKeyId). */
    userId: integer('user_id').references(() => users.id),
    /** The partner API key that sent it: keys have their own key space (docs/decisions/028). */
    apiKeyId: integer('api_key_id').references(() => partnerApiKeys.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    route: text('route').notNull(),
    requestHash: text('request_hash').notNull(),
    responseStatus: integer('response_status'),
    responseBody: jsonb('response_body'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('idempotency_keys_user_key_uq').on(t.userId, t.key),
    uniqueIndex('idempotency_keys_api_key_key_uq').on(t.apiKeyId, t.key),
    check('idempotency_keys_one_principal', sql`num_nonnulls(${t.userId}, ${t.apiKeyId}) = 1`),
    index('idempotency_keys_created_idx').on(t.createdAt),
  ],
);

export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: id(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    tokenHash: text('token_hash').notNull().unique(),
    familyId: text('family_id').notNull(),
    expiresAt: ts('expires_at').notNull(),
    rotatedAt: ts('rotated_at'),
    revokedAt: ts('revoked_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('refresh_tokens_family_idx').on(t.familyId)],
);

/** Password-reset and invitation codes: stored hashed, single use, 15 minutes. */
export const passwordResetCodes = pgTable(
  'password_reset_codes',
  {
    id: id(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    codeHash: text('code_hash').notNull().unique(),
    purpose: text('purpose', { enum: ['RESET', 'INVITE'] })
      .notNull()
      .default('RESET'),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('password_reset_codes_user_idx').on(t.userId)],
);

/** One row per counted attempt; a limit counts the rows of its bucket inside its window. */
export const rateLimitHits = pgTable(
  'rate_limit_hits',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    bucket: text('bucket').notNull(),
    at: ts('at').notNull().defaultNow(),
  },
  (t) => [index('rate_limit_hits_bucket_at_idx').on(t.bucket, t.at)],
);

export const mailOutbox = pgTable('mail_outbox', {
  id: id(),
  to: text('to').notNull(),
  subject: text('subject').notNull(),
  text: text('text').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  /** Set while one instance delivers the row; a stale claim (a crashed sender) is taken over later. */
  claimedAt: ts('claimed_at'),
  sentAt: ts('sent_at'),
  attempts: integer('attempts').notNull().default(0),
  lastError: text('last_error'),
});

/** The immutable event log; the activity log reads it. Nothing here is updated or deleted. */
export const events = pgTable(
  'events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    at: ts('at').notNull().defaultNow(),
    actorId: integer('actor_id'),
    actorType: text('actor_type', { enum: ['ADMIN', 'PARTNER', 'CUSTOMER'] }).notNull(),
    actorName: text('actor_name').notNull(),
    actorImageUrl: text('actor_image_url'),
    actorOrganization: text('actor_organization'),
    action: text('action').notNull(),
    entity: text('entity').notNull(),
    entityId: text('entity_id'),
    payload: jsonb('payload').notNull().default(sql`'{}'::jsonb`),
    ipAddress: text('ip_address'),
    ipLocation: text('ip_location'),
    userAgent: text('user_agent'),
  },
  // The activity log (docs/decisions/003-list-indexes.md): it always filters by actor type, so each
  // sort order is a btree led by actor_type with id as the tie-breaker; a trigram GIN index serves
  // the search over name, action, organisation, address and location.
  (t) => [
    // Ascending: read backwards it is exactly `at DESC, id DESC` (NULLS FIRST, PostgreSQL's default
    // for DESC), which a `DESC NULLS LAST` index cannot give (migration 0003).
    index('events_type_at_id_idx').on(t.actorType, t.at, t.id),
    index('events_type_action_idx').on(t.actorType, sql`lower(${t.action})`, t.id),
    index('events_type_name_idx').on(t.actorType, sql`lower(${t.actorName})`, t.id),
    index('events_at_idx').on(t.at),
    index('events_search_trgm_idx').using(
      'gin',
      sql`(${t.actorName} || ' ' || ${t.action} || ' ' || coalesce(${t.actorOrganization}, '') || ' ' || coalesce(${t.ipAddress}, '') || ' ' || coalesce(${t.ipLocation}, '')) gin_trgm_ops`,
    ),
  ],
);

/** Uploaded images, stored once by content hash and served from /api/v1/files/{hash}. */
export const files = pgTable('files', {
  hash: text('hash').primaryKey(),
  mime: text('mime').notNull(),
  size: integer('size').notNull(),
  bytes: bytea('bytes').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
});

/** Instance-wide settings shared by every server process (e.g. the generated JWT secret). */
export const appSettings = pgTable('app_settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
});

/** Webhook endpoints (Standard Webhooks, docs/decisions/027): the secret signs every delivery. */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: id(),
    url: text('url').notNull(),
    description: text('description').notNull().default(''),
    events: text('events').array().notNull(),
    /** Null: every partner's events (club staff only). */
    partnerId: integer('partner_id').references(() => partners.id),
    /** `whsec_` + base64 of 32 random bytes; needed in the clear to sign (HMAC), never answered again. */
    secret: text('secret').notNull(),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    /** Set when a delivery ran out of retries (or by hand); nothing is delivered while set. */
    disabledAt: ts('disabled_at'),
    disabledReason: text('disabled_reason'),
  },
  (t) => [index('webhook_endpoints_partner_idx').on(t.partnerId)],
);

/**
 * The webhook outbox: one row per message and endpoint, written in the transaction of the event.
 * A sender claims due rows (FOR UPDATE SKIP LOCKED) and holds a lease while it posts.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: id(),
    endpointId: integer('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    /** The `webhook-id` header, the same on every attempt. */
    messageId: text('message_id').notNull(),
    eventType: text('event_type').notNull(),
    payload: jsonb('payload').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    status: text('status', { enum: ['pending', 'succeeded', 'failed'] })
      .notNull()
      .default('pending'),
    /** Failed attempts since the last (re)play: picks the next backoff step. */
    failures: integer('failures').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at'),
    leaseUntil: ts('lease_until'),
    leaseToken: text('lease_token'),
    deliveredAt: ts('delivered_at'),
  },
  (t) => [
    index('webhook_deliveries_due_idx').on(t.nextAttemptAt).where(sql`status = 'pending'`),
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.id),
  ],
);

/** Each attempt of a delivery: when, the answer's status, how long, and when the next try is due. */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: id(),
    deliveryId: integer('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    at: ts('at').notNull(),
    statusCode: integer('status_code'),
    durationMs: integer('duration_ms').notNull(),
    error: text('error'),
    nextRetryAt: ts('next_retry_at'),
  },
  (t) => [index('webhook_attempts_delivery_idx').on(t.deliveryId, t.id)],
);

/**
 * Partner API keys (issue 21, docs/decisions/028-partner-api-keys.md): `rck_<prefix>_<secret>`. Only
 * the prefix (to find the row) and the SHA-256 of the 256-bit secret are kept; a revoked key stays
 * for the record and is refused at once.
 */
export const partnerApiKeys = pgTable(
  'partner_api_keys',
  {
    id: id(),
    partnerId: integer('partner_id')
      .notNull()
      .references(() => partners.id),
    name: text('name').notNull(),
    prefix: text('prefix').notNull(),
    secretHash: text('secret_hash').notNull(),
    permissions: text('permissions').array().notNull(),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: ts('created_at').notNull().defaultNow(),
    lastUsedAt: ts('last_used_at'),
    revokedAt: ts('revoked_at'),
  },
  (t) => [
    uniqueIndex('partner_api_keys_prefix_uq').on(t.prefix),
    index('partner_api_keys_partner_idx').on(t.partnerId),
  ],
);
