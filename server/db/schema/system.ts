import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { bytea, id, ts } from './columns';
import { partnerApiKeys } from './integrations';

/* What the server keeps for itself: sessions, codes, rate limits, idempotency, mail, the event log, files, settings. */

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
    /** The outbox mail that carries the code: a mail given up withdraws it (server/mail.ts). */
    mailId: integer('mail_id'),
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
  /** The same mail as HTML (issue 22); removed with the text once delivered or given up. */
  html: text('html'),
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
    /** The partner where it happened (issue 28): the actor's partner at the time, or the partner acted at. */
    partnerId: integer('partner_id'),
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
    index('events_partner_type_at_idx').on(t.partnerId, t.actorType, t.at, t.id),
    // The events naming a customer (their data export and erasure, decision 054): by the entity,
    // and by the customerId a visit's, reward's or link's payload carries.
    index('events_entity_idx').on(t.entity, t.entityId),
    index('events_payload_customer_idx').on(sql`(${t.payload}->>'customerId')`),
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
