import { z } from 'zod';
import {
  REWARD_EXPIRY_NOTICE_DAYS,
  WEBHOOK_EVENT_TYPES,
  type WebhookEventType,
  webhookMessageSchema,
} from '../contract/webhooks';

/* The webhooks section of the OpenAPI document: the messages a partner's endpoint receives. */

const eventDescriptions: Record<WebhookEventType, string> = {
  'visit.recorded':
    'A visit was recorded at the partner (POST /user/visits). `reviewState` `waiting`: a review rule flagged it (`reviewFlags`): it counts towards eligibility and points only once approved (`visit.reviewed`).',
  'visit.reviewed':
    "A visit that waited for review was decided by the club: `approved` (it counts towards eligibility and points from now on) or `rejected` with the reviewer's `reason` (it never counts). To the partner's endpoints and club-wide ones.",
  'reward.issued': 'A gift card or coupon was issued to a customer at the partner.',
  'reward.redeemed': "A gift card was debited or a coupon used (after the customer's one-time code).",
  'reward.reversed':
    'A redemption was reversed: the amount is back on the gift card, or the coupon usable again.',
  'customer.created':
    'A customer came in from the subscriber sync (PUT /admin/customers/external/{externalId}) or Add customer. Club-wide: only endpoints without a partner receive it.',
  'customer.updated':
    "A synced customer's record changed (names, contact, address, account number, or unblocked). Club-wide.",
  'customer.blocked':
    "A customer was blocked (a cancelled subscription through the sync, or by a club admin). Club-wide endpoints get the customer's record; the endpoints of each partner the customer is linked to get a message of their own with the ids only (`partnerId`, `customerId`): stop serving them. A partner the customer is not linked to hears nothing.",
  'customer.unblocked':
    'A blocked customer was made active again (through the sync, or by a club admin). Sent as `customer.blocked` is: the record club-wide, the ids to each linked partner.',
  'reward.expiring': `A reward is ${REWARD_EXPIRY_NOTICE_DAYS} days or less from its expiry (the end of its day in Lagos) and still Active: remind the customer. Sent once per reward (a scheduled job; a reward issued with less time left is announced at once).`,
  'partner.blocked':
    "The club blocked the partner: its staff and keys read, and change nothing, until it is unblocked. To the partner's endpoints and club-wide ones.",
  'partner.unblocked': 'The club unblocked the partner: its staff and keys work again.',
  'api_key.revoked':
    "An API key was revoked: calls with it are refused (401). A partner's key: to that partner's endpoints and club-wide ones; a club integration key (`rcc_`): club-wide only.",
  'webhook.disabled':
    "A webhook endpoint was disabled (its deliveries failed for about a day, or a person turned it off): to the partner's other endpoints and club-wide ones (a club-wide endpoint's: the other club-wide ones). Enable it again and replay what failed.",
  'customer.linked': 'A customer linked themself to the partner (they gave the code mailed to them).',
  'customer.unlinked':
    'A club admin removed the link between a customer and the partner: act for them no more, and stop using their data.',
  'customer.erased':
    "The club erased a customer's personal data (their right to erasure): a partner that held a link gets its own message (its endpoints only) and deletes what it holds of them; club-wide endpoints get one message with `partnerId` null.",
  'campaign.completed':
    "A campaign's run ended (POST /admin/campaigns/{id}/submit): `done` when every customer of it was rewarded (each reward announced by its own `reward.issued`) or skipped, `cancelled` when a person stopped it, `failed` when the partner can no longer issue. Sent once per campaign, to the partner's endpoints and club-wide ones.",
};

const webhookHeaders = z.object({
  'webhook-id': z.string().meta({
    description: 'The message id: the same on every retry and replay. Deduplicate on it.',
    example: 'msg_6f1c2b1e3c1a4d8e9a7e2f0b8f3c1d55',
  }),
  'webhook-timestamp': z.string().meta({
    description: 'Unix seconds when this attempt was signed. Refuse one more than 5 minutes from your clock.',
    example: '1772442000',
  }),
  'webhook-signature': z.string().meta({
    description:
      'Space-separated `v1,<base64>` signatures: HMAC-SHA256 with the endpoint secret (the base64 after `whsec_`) over `<webhook-id>.<webhook-timestamp>.<body>` (Standard Webhooks). For 24 hours after a secret rotation (POST /admin/webhooks/{webhookId}/rotate-secret) there is one per secret, the old first (`v1,<old> v1,<new>`): accept the message when any verifies.',
    example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
  }),
});

const at = '2026-03-01T10:00:00.000Z';
const reward = {
  rewardId: 88,
  code: 'GC-7Q2M-K4XD',
  rewardType: 'GIFTCARD',
  partnerId: 12,
  customerId: 3401,
};
const clubCustomer = {
  customerId: 3401,
  externalId: 'SUB-1001',
  firstName: 'Adaeze',
  lastName: 'Okonkwo',
  email: 'adaeze@example.ng',
  phone: '+234 803 123 4567',
  address: '12 Allen Avenue, Ikeja',
  internetAccountNumber: 'FBR-000123',
  changedAt: at,
};

/** One example `data` per event (server/openapi.test.ts parses each with its schema). */
export const WEBHOOK_EXAMPLES: Record<WebhookEventType, Record<string, unknown>> = {
  'visit.recorded': {
    visitId: 501,
    partnerId: 12,
    customerId: 3401,
    attendantName: 'Till 1',
    visitDate: at,
    totalAmount: 5000,
    items: [{ name: 'Jollof rice', quantity: 2, price: 2500 }],
    recordedAt: at,
    reviewState: 'approved',
    reviewFlags: [],
  },
  'visit.reviewed': {
    visitId: 502,
    partnerId: 12,
    customerId: 3401,
    state: 'rejected',
    flags: ['receipt_reused'],
    reason: 'The same receipt as visit 480',
    totalAmount: 65000,
    reviewedAt: at,
  },
  'reward.issued': {
    ...reward,
    rewardTypeCategory: 'GENERAL',
    title: 'Birthday treat',
    issuedAmount: 2000,
    percentageDiscount: null,
    pointsClaimed: 0,
    expiryDate: '2026-03-31T22:59:59.999Z',
    issuedAt: at,
  },
  'reward.redeemed': {
    ...reward,
    ledgerEntryId: 240,
    amountRedeemed: 500,
    balance: 1500,
    status: 'Active',
    redeemedAt: at,
  },
  'reward.reversed': {
    ...reward,
    ledgerEntryId: 241,
    reversedEntryId: 240,
    amountReversed: 500,
    balance: 2000,
    reason: 'Wrong amount keyed',
    reversedAt: at,
  },
  'customer.created': {
    ...clubCustomer,
    accountStatus: 'ACTIVE',
    changed: ['first name', 'last name', 'email'],
  },
  'customer.updated': { ...clubCustomer, accountStatus: 'ACTIVE', changed: ['address'] },
  'customer.blocked': { partnerId: 12, customerId: 3401, accountStatus: 'BLOCKED', changedAt: at },
  'customer.unblocked': { partnerId: 12, customerId: 3401, accountStatus: 'ACTIVE', changedAt: at },
  'customer.linked': { linkId: 77, partnerId: 12, customerId: 3401, linkedAt: at },
  'customer.unlinked': { linkId: 77, partnerId: 12, customerId: 3401, unlinkedAt: at },
  'customer.erased': { partnerId: 12, customerId: 3401, erasedAt: at },
  'reward.expiring': {
    ...reward,
    title: 'Birthday treat',
    expiryDate: '2026-03-07T22:59:59.999Z',
    balance: 1500,
    percentageDiscount: null,
    noticeAt: at,
  },
  'partner.blocked': { partnerId: 12, accountStatus: 'BLOCKED', changedAt: at },
  'partner.unblocked': { partnerId: 12, accountStatus: 'ACTIVE', changedAt: at },
  'api_key.revoked': {
    apiKeyId: 9,
    partnerId: 12,
    name: 'Front till',
    prefix: 'rck_3f9a1c2b',
    revokedAt: at,
  },
  'webhook.disabled': {
    webhookId: 4,
    partnerId: 12,
    url: 'https://pos.example.com/hooks',
    reason: 'a delivery failed 8 times over about a day (last: HTTP 503)',
    disabledAt: at,
  },
  'campaign.completed': {
    campaignId: 5,
    partnerId: 12,
    name: 'December thank-you',
    state: 'done',
    total: 1200,
    issued: 1187,
    skipped: 13,
    completedAt: at,
  },
};

/** OpenAPI 3.1 `webhooks`: what each event POSTs to a subscribed URL (Standard Webhooks). */
export function webhookOperations() {
  return Object.fromEntries(
    WEBHOOK_EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          operationId: `webhook${type
            .split('.')
            .map((w) => w[0]!.toUpperCase() + w.slice(1))
            .join('')}`,
          tags: ['Webhooks'],
          summary: type,
          description: `${eventDescriptions[type]}\n\nSent to every enabled endpoint subscribed to \`${type}\` for this partner (or for every partner). Verify the signature (docs/integrations.md), answer any 2xx within 10 seconds; anything else (or no answer) is retried with the same \`webhook-id\` after 5 s, 5 min, 30 min, 2 h, 5 h, 8 h and 8 h, after which the endpoint is disabled. Redirects are not followed.`,
          security: [],
          requestParams: { header: webhookHeaders },
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: webhookMessageSchema(type),
                example: { type, timestamp: at, data: WEBHOOK_EXAMPLES[type] },
              },
            },
          },
          responses: {
            '200': { description: 'Received (any 2xx is a success).' },
            '400': { description: 'Refused (a bad signature, say): the message is retried on the backoff.' },
          },
        },
      },
    ]),
  );
}

/** The OpenAPI 3.1 document of the API, generated from the contract registry. */
