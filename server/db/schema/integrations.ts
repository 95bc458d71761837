import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { partnerRef, partners, users } from './accounts';
import { id, ts } from './columns';

/* Integrations (docs/decisions/027, 028): webhook endpoints, deliveries and attempts, partner API keys. */

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
    /**
     * The secrets rotated away that still sign until their `until` (docs/decisions/065): during the
     * overlap every delivery carries a signature of each beside the current one's.
     */
    previousSecrets: jsonb('previous_secrets')
      .$type<{ secret: string; until: string }[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
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
    partnerId: partnerRef(),
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
