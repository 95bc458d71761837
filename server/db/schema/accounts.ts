import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';

import { accountStatus, id, money, softDeletable, timestamps, ts } from './columns';

/* Who takes part: roles, staff (users), partners with their extended services, and customers. */

export const roles = pgTable(
  'roles',
  {
    id: id(),
    name: text('name').notNull().unique(),
    /** Permission names from the catalogue in contract/permissions.ts. */
    permissions: text('permissions').array().notNull().default(sql`'{}'::text[]`),
    builtIn: boolean('built_in').notNull().default(false),
    /** A role for partner staff: whoever holds it works at one partner (issue 22, decision 033). */
    partnerRole: boolean('partner_role').notNull().default(false),
    ...timestamps(),
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
    /**
     * Visit review rules (issue 35, decision 075): a visit above this many naira waits for review
     * (null: no threshold); without a receipt when one is required; past this many visits of one
     * customer here in one Lagos day (null: no limit).
     */
    reviewAmountAbove: money('review_amount_above'),
    reviewRequireReceipt: boolean('review_require_receipt').notNull().default(false),
    reviewMaxVisitsPerDay: integer('review_max_visits_per_day'),
    accountStatus: accountStatus(),
    ...softDeletable(),
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

/** A required reference to a partner (what happens at it, its links and keys). */
export const partnerRef = () =>
  integer('partner_id')
    .notNull()
    .references(() => partners.id);

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
    accountStatus: accountStatus(),
    ...softDeletable(),
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
    accountStatus: accountStatus(),
    /** The provider's subscriber or account number (issue 27): the sync's key, kept as given. */
    externalId: text('external_id'),
    /** The internet account number GET user/internet/client_info answers. */
    internetAccountNumber: text('internet_account_number'),
    /** The plan's details: null for a customer the sync brought in before the plan is known. */
    fiberPlan: text('fiber_plan'),
    fiberSpeedMbps: integer('fiber_speed_mbps'),
    fiberMonthlyFee: money('fiber_monthly_fee'),
    fiberStatus: text('fiber_status', { enum: ['ACTIVE', 'SUSPENDED', 'CANCELLED'] })
      .notNull()
      .default('ACTIVE'),
    fiberRenewalDate: ts('fiber_renewal_date'),
    /** Set when the customer's personal data was erased (a tombstone; decision 054): never linked or found again. */
    erasedAt: ts('erased_at'),
    ...softDeletable(),
  },
  (t) => {
    const live = sql`${t.deletedAt} is null`;
    return [
      uniqueIndex('customers_email_uq').on(sql`lower(${t.email})`),
      uniqueIndex('customers_external_id_uq').on(t.externalId),
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
      // The few deleted customers, for lists that leave them out of an aggregate as one hashed set
      // (the eligibility window's spend, migration 0023) instead of a lookup of every row.
      index('customers_deleted_idx').on(t.id).where(sql`${t.deletedAt} is not null`),
    ];
  },
);

/** A required reference to a customer (their visits, rewards, codes). */
export const customerRef = () =>
  integer('customer_id')
    .notNull()
    .references(() => customers.id);

export const extendedServices = pgTable(
  'extended_services',
  {
    id: id(),
    title: text('title').notNull(),
    description: text('description').notNull(),
    ...softDeletable(),
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
    partnerId: partnerRef(),
    extendedServiceId: integer('extended_service_id')
      .notNull()
      .references(() => extendedServices.id),
  },
  (t) => [
    primaryKey({ columns: [t.partnerId, t.extendedServiceId] }),
    index('partner_extended_services_service_idx').on(t.extendedServiceId, t.partnerId),
  ],
);

/**
 * A customer's consent link to a partner (issue 28, decision 053): partner staff and keys act for a
 * customer only once a link is CONFIRMED, which takes the one-time code mailed to the customer. Each
 * request is a PENDING row holding its code's HMAC, expiry and wrong tries (the OTP rules of decision
 * 007); a request naming nobody (an unknown or erased customer) is a row without a customer whose
 * code can never match, so the answers are the same either way.
 */
export const customerLinks = pgTable(
  'customer_links',
  {
    id: id(),
    partnerId: partnerRef(),
    /** Null: the request named no live customer (it can never be confirmed). */
    customerId: integer('customer_id').references(() => customers.id),
    /** What the partner asked by, normalised ('email:ada@mail.ng', 'member:123'): the daily cap counts by it. */
    requested: text('requested').notNull(),
    state: text('state', { enum: ['PENDING', 'CONFIRMED'] }).notNull(),
    /** The staff member who asked (null: a partner API key, or the migration of existing visits). */
    createdBy: integer('created_by').references(() => users.id),
    codeHash: text('code_hash'),
    codeExpiresAt: ts('code_expires_at'),
    attempts: integer('attempts').notNull().default(0),
    /** A newer request for the same customer replaced this one (its code stops working). */
    replacedAt: ts('replaced_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    confirmedAt: ts('confirmed_at'),
  },
  (t) => [
    uniqueIndex('customer_links_confirmed_uq')
      .on(t.partnerId, t.customerId)
      .where(sql`${t.state} = 'CONFIRMED'`),
    index('customer_links_customer_idx').on(t.customerId),
    index('customer_links_requested_idx').on(t.partnerId, t.requested, t.createdAt),
  ],
);
