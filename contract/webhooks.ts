import { idField } from './ids';
import { defineList } from './list';
import { VISIT_REVIEW_FLAGS, VISIT_REVIEW_STATES } from './visits';
import { z } from './zod';

/**
 * Webhooks per Standard Webhooks (https://www.standardwebhooks.com, docs/decisions/027): a partner
 * system subscribes a URL to events; each delivery is a POST of `{ type, timestamp, data }` signed
 * with the endpoint's `whsec_` secret (headers webhook-id, webhook-timestamp, webhook-signature).
 */
export const WEBHOOK_EVENT_TYPES = [
  'visit.recorded',
  'reward.issued',
  'reward.redeemed',
  'reward.reversed',
  'customer.created',
  'customer.updated',
  'customer.blocked',
  'customer.linked',
  'customer.unlinked',
  'customer.erased',
  'customer.unblocked',
  'reward.expiring',
  'partner.blocked',
  'partner.unblocked',
  'api_key.revoked',
  'webhook.disabled',
  'campaign.completed',
  'visit.reviewed',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/**
 * Events that only club-wide endpoints (no partner) ever receive: the subscriber sync's record of a
 * customer. A partner's endpoint is never sent them, so subscribing one to them is refused (400 on
 * `events`) rather than accepted and left silent; the console does not offer them there.
 */
export const CLUB_ONLY_WEBHOOK_EVENTS = [
  'customer.created',
  'customer.updated',
] as const satisfies readonly WebhookEventType[];

/** Whether a partner's endpoint can receive `event`. */
export const reachesPartnerEndpoint = (event: WebhookEventType): boolean =>
  !(CLUB_ONLY_WEBHOOK_EVENTS as readonly WebhookEventType[]).includes(event);

export const webhookMessages = {
  urlInvalid: 'url must be an http(s) URL without user name or password',
  urlPrivate: 'url must not point to a private, loopback or link-local address',
  eventsRequired: 'Choose at least one event',
  clubOnlyEvents: `${CLUB_ONLY_WEBHOOK_EVENTS.join(' and ')} reach club-wide endpoints only: a partner's endpoint never receives them`,
  notFound: 'Webhook not found',
  deliveryNotFound: 'Delivery not found',
  created: 'Webhook created. Copy the secret now: it is not shown again.',
  updated: 'Webhook updated',
  deleted: 'Webhook deleted',
  replayed: 'Delivery queued again',
  disabled: 'Webhook is disabled; enable it before replaying',
  rotated: 'Secret rotated. Copy the new secret now: it is not shown again.',
  secretNotPatchable:
    'secret cannot be set: rotate it with POST /admin/webhooks/{webhookId}/rotate-secret (the new one is answered once)',
} as const;

/**
 * After a rotation (POST /admin/webhooks/{id}/rotate-secret) every delivery is signed with the
 * secrets rotated away in the last 24 hours as well as the new one (`v1,<old> v1,<new>`), so a
 * receiver has a day to switch (docs/decisions/065).
 */
export const WEBHOOK_SECRET_OVERLAP_MS = 24 * 3_600_000;
export const WEBHOOK_SECRET_OVERLAP_TEXT = '24 hours';

/** `reward.expiring` goes out once per Active reward this many days (or less) before its expiry. */
export const REWARD_EXPIRY_NOTICE_DAYS = 7;
/** At most this many secrets rotated away sign beside the current one (the newest kept). */
export const MAX_PREVIOUS_WEBHOOK_SECRETS = 3;

const MAX_URL = 2000;

/** An absolute http(s) URL without credentials (where it resolves is checked at delivery). */
export const webhookUrlField = z.string({ error: webhookMessages.urlInvalid }).check(
  z.trim(),
  z.maxLength(MAX_URL, { error: `url must be at most ${MAX_URL} characters` }),
  z.refine(
    (v) => {
      try {
        const u = new URL(v);
        return (
          (u.protocol === 'https:' || u.protocol === 'http:') && !u.username && !u.password && !!u.hostname
        );
      } catch {
        return false;
      }
    },
    { error: webhookMessages.urlInvalid },
  ),
);

const eventsField = z
  .array(z.enum(WEBHOOK_EVENT_TYPES, { error: `events must be among ${WEBHOOK_EVENT_TYPES.join(', ')}` }))
  .check(
    z.minLength(1, { error: webhookMessages.eventsRequired }),
    z.maxLength(WEBHOOK_EVENT_TYPES.length * 4, { error: 'Too many events' }),
  );

const descriptionField = z
  .string()
  .check(z.trim(), z.maxLength(200, { error: 'description must be at most 200 characters' }));

/** POST /admin/webhooks. Partner staff subscribe their own partner (partnerId forced to theirs). */
export const createWebhookBodySchema = z.object({
  url: webhookUrlField,
  events: eventsField,
  partnerId: z.optional(idField('partnerId')),
  description: z.optional(descriptionField),
});
export type CreateWebhookBody = z.infer<typeof createWebhookBodySchema>;

/** PATCH /admin/webhooks/{webhookId}: only the fields sent change; `enabled: true` re-enables a disabled one. */
export const updateWebhookBodySchema = z.object({
  url: z.optional(webhookUrlField),
  events: z.optional(eventsField),
  description: z.optional(descriptionField),
  enabled: z.optional(z.boolean({ error: 'enabled must be true or false' })),
  /** Refused (400 on `secret`): a secret is only made by the server, at creation or rotation. */
  secret: z.optional(
    z.unknown().check(
      z.refine(() => false, { error: webhookMessages.secretNotPatchable }),
      z.describe(
        'Not accepted: a 400 on `secret`. Rotate the secret with POST /admin/webhooks/{webhookId}/rotate-secret.',
      ),
    ),
  ),
});
export type UpdateWebhookBody = z.infer<typeof updateWebhookBodySchema>;

export const webhookIdParamSchema = z.object({ webhookId: idField('webhookId') });
export const webhookDeliveryParamSchema = z.object({
  webhookId: idField('webhookId'),
  deliveryId: idField('deliveryId'),
});

/** GET /admin/webhooks: the endpoints (a partner's own, or every one). */
export const webhookList = defineList({
  sortKeys: ['createdAt', 'url'],
  defaultSort: { sortBy: 'createdAt', sortOrder: 'desc' },
  filters: { partnerId: z.optional(idField('partnerId')) },
});
export const webhookListQuerySchema = webhookList.query;

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;

/** GET /admin/webhooks/{id}/deliveries: one endpoint's delivery log. */
export const webhookDeliveryList = defineList({
  sortKeys: ['createdAt'],
  defaultSort: { sortBy: 'createdAt', sortOrder: 'desc' },
  filters: {
    status: z.optional(
      z.enum(DELIVERY_STATUSES, { error: "status must be 'pending', 'succeeded' or 'failed'" }),
    ),
  },
});
export const webhookDeliveryListQuerySchema = webhookDeliveryList.query;

export const webhookSchema = z.object({
  id: z.int(),
  url: z.string(),
  description: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
  /** The partner whose events it receives; null: every partner's (club staff only). */
  partnerId: z.nullable(z.int()),
  partnerName: z.nullable(z.string()),
  enabled: z.boolean(),
  disabledAt: z.nullable(z.string()),
  disabledReason: z.nullable(z.string()),
  /**
   * Until when deliveries are also signed with the secret(s) rotated away (null: only the current
   * one signs).
   */
  previousSecretExpiresAt: z.nullable(z.string()),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Webhook = z.infer<typeof webhookSchema>;

/** The answer of POST /admin/webhooks: the webhook and its signing secret, shown this once. */
export const createdWebhookSchema = z.extend(webhookSchema, { secret: z.string() });
export type CreatedWebhook = z.infer<typeof createdWebhookSchema>;

export const webhookAttemptSchema = z.object({
  at: z.string(),
  /** The receiver's HTTP status; null when no answer came (refused address, timeout, connection error). */
  statusCode: z.nullable(z.int()),
  durationMs: z.int(),
  error: z.nullable(z.string()),
  /** When the next attempt is due after this one failed; null after a success or the last attempt. */
  nextRetryAt: z.nullable(z.string()),
});

export const webhookDeliverySchema = z.object({
  id: z.int(),
  /** The `webhook-id` header: the same on every attempt and replay of this message. */
  messageId: z.string(),
  eventType: z.enum(WEBHOOK_EVENT_TYPES),
  status: z.enum(DELIVERY_STATUSES),
  createdAt: z.string(),
  nextAttemptAt: z.nullable(z.string()),
  deliveredAt: z.nullable(z.string()),
  payload: z.record(z.string(), z.unknown()),
  attempts: z.array(webhookAttemptSchema),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

// ---------------------------------------------------------------------------------------------
// The messages (what a receiver gets): `{ type, timestamp, data }`, documented under `webhooks`.

const rewardTypeField = z.enum(['GIFTCARD', 'COUPON']);

/** What every reward event names: the reward, where and for whom. */
const rewardEventBase = z.object({
  rewardId: z.int(),
  code: z.string(),
  rewardType: rewardTypeField,
  partnerId: z.int(),
  customerId: z.int(),
});

/**
 * A customer as the subscriber sync left it (issue 27). Club-wide: only endpoints without a partner
 * (club staff's) receive customer events.
 */
const customerEventData = z.object({
  customerId: z.int(),
  externalId: z.nullable(z.string()),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  phone: z.nullable(z.string()),
  address: z.nullable(z.string()),
  accountStatus: z.enum(['ACTIVE', 'BLOCKED']),
  internetAccountNumber: z.nullable(z.string()),
  /** The fields that changed (customer.updated, customer.blocked); every field for customer.created. */
  changed: z.array(z.string()),
  changedAt: z.string(),
});

/**
 * What a partner's own endpoints hear of a linked customer's block or unblock (decisions 053, 065):
 * the ids and the new status, no personal data (as the other partner events).
 */
const partnerCustomerStatusData = z.object({
  partnerId: z.int(),
  customerId: z.int(),
  accountStatus: z.enum(['ACTIVE', 'BLOCKED']),
  changedAt: z.string(),
});

/** Club-wide endpoints get the customer record; a linked partner's endpoints the ids only. */
const customerStatusData = z.union([customerEventData, partnerCustomerStatusData]);

const partnerStatusData = z.object({
  partnerId: z.int(),
  accountStatus: z.enum(['ACTIVE', 'BLOCKED']),
  changedAt: z.string(),
});

export const webhookEventDataSchemas = {
  'visit.recorded': z.object({
    visitId: z.int(),
    partnerId: z.int(),
    customerId: z.int(),
    attendantName: z.string(),
    visitDate: z.string(),
    totalAmount: z.number(),
    items: z.array(z.object({ name: z.string(), quantity: z.int(), price: z.number() })),
    recordedAt: z.string(),
    /** approved: it counts now; waiting: a rule of the partner flagged it (see `reviewFlags`); it counts once approved. */
    reviewState: z.optional(z.enum(VISIT_REVIEW_STATES)),
    reviewFlags: z.optional(z.array(z.enum(VISIT_REVIEW_FLAGS))),
  }),
  'reward.issued': z.extend(rewardEventBase, {
    rewardTypeCategory: z.enum(['GENERAL', 'DISCOUNTED_SUBSCRIPTION']),
    title: z.string(),
    issuedAmount: z.nullable(z.number()),
    percentageDiscount: z.nullable(z.number()),
    pointsClaimed: z.int(),
    expiryDate: z.nullable(z.string()),
    issuedAt: z.string(),
  }),
  'reward.redeemed': z.extend(rewardEventBase, {
    ledgerEntryId: z.int(),
    amountRedeemed: z.nullable(z.number()),
    balance: z.nullable(z.number()),
    status: z.string(),
    redeemedAt: z.string(),
  }),
  'reward.reversed': z.extend(rewardEventBase, {
    ledgerEntryId: z.int(),
    reversedEntryId: z.int(),
    amountReversed: z.number(),
    balance: z.nullable(z.number()),
    reason: z.string(),
    reversedAt: z.string(),
  }),
  'customer.created': customerEventData,
  'customer.updated': customerEventData,
  'customer.blocked': customerStatusData,
  'customer.linked': z.object({
    linkId: z.int(),
    partnerId: z.int(),
    customerId: z.int(),
    linkedAt: z.string(),
  }),
  'customer.unlinked': z.object({
    linkId: z.int(),
    partnerId: z.int(),
    customerId: z.int(),
    unlinkedAt: z.string(),
  }),
  /**
   * One message to each partner that held a link (its endpoints only), and one club-wide with
   * `partnerId` null (decision 054).
   */
  'customer.erased': z.object({ partnerId: z.nullable(z.int()), customerId: z.int(), erasedAt: z.string() }),
  'customer.unblocked': customerStatusData,
  /** Sent once per reward, REWARD_EXPIRY_NOTICE_DAYS before its expiry (docs/decisions/065). */
  'reward.expiring': z.extend(rewardEventBase, {
    title: z.string(),
    /** The last moment it can be used (the end of its day in Lagos). */
    expiryDate: z.string(),
    /** A gift card's balance left (naira); null for a coupon. */
    balance: z.nullable(z.number()),
    percentageDiscount: z.nullable(z.number()),
    noticeAt: z.string(),
  }),
  'partner.blocked': partnerStatusData,
  'partner.unblocked': partnerStatusData,
  'api_key.revoked': z.object({
    apiKeyId: z.int(),
    /** The key's partner; null for a club integration key (club-wide endpoints only). */
    partnerId: z.nullable(z.int()),
    name: z.string(),
    /** The key's public part (`rck_…` / `rcc_…`), as the Integrations tab lists it. */
    prefix: z.string(),
    revokedAt: z.string(),
  }),
  'webhook.disabled': z.object({
    webhookId: z.int(),
    /** The endpoint's partner; null for a club-wide endpoint. */
    partnerId: z.nullable(z.int()),
    url: z.string(),
    reason: z.string(),
    disabledAt: z.string(),
  }),
  /** A campaign's run ended (issue 35): every customer of it rewarded or skipped, or it was cancelled. */
  'campaign.completed': z.object({
    campaignId: z.int(),
    partnerId: z.int(),
    name: z.string(),
    state: z.enum(['done', 'cancelled', 'failed']),
    total: z.int(),
    issued: z.int(),
    skipped: z.int(),
    completedAt: z.string(),
  }),
  /** A visit that waited for review was approved (it counts now) or rejected (it never counts). */
  'visit.reviewed': z.object({
    visitId: z.int(),
    partnerId: z.int(),
    customerId: z.int(),
    state: z.enum(['approved', 'rejected']),
    flags: z.array(z.enum(VISIT_REVIEW_FLAGS)),
    reason: z.nullable(z.string()),
    totalAmount: z.number(),
    reviewedAt: z.string(),
  }),
} as const satisfies Record<WebhookEventType, z.core.$ZodType>;

/** One message's body as a receiver parses it. */
export const webhookMessageSchema = <T extends WebhookEventType>(type: T) =>
  z.object({ type: z.literal(type), timestamp: z.string(), data: webhookEventDataSchemas[type] });
