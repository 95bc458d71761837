import { z } from 'zod';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType, webhookMessageSchema } from '../contract/webhooks';

/* The webhooks section of the OpenAPI document: the messages a partner's endpoint receives. */

const eventDescriptions: Record<WebhookEventType, string> = {
  'visit.recorded': 'A visit was recorded at the partner (POST /user/visits).',
  'reward.issued': 'A gift card or coupon was issued to a customer at the partner.',
  'reward.redeemed': "A gift card was debited or a coupon used (after the customer's one-time code).",
  'reward.reversed':
    'A redemption was reversed: the amount is back on the gift card, or the coupon usable again.',
  'customer.created':
    'A customer came in from the subscriber sync (PUT /admin/customers/external/{externalId}) or Add customer. Club-wide: only endpoints without a partner receive it.',
  'customer.updated':
    "A synced customer's record changed (names, contact, address, account number, or unblocked). Club-wide.",
  'customer.blocked': 'A synced customer was blocked (a cancelled subscription). Club-wide.',
  'customer.linked': 'A customer linked themself to the partner (they gave the code mailed to them).',
  'customer.unlinked':
    'A club admin removed the link between a customer and the partner: act for them no more, and stop using their data.',
  'customer.erased':
    "The club erased a customer's personal data (their right to erasure): a partner that held a link gets its own message (its endpoints only) and deletes what it holds of them; club-wide endpoints get one message with `partnerId` null.",
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
      'Space-separated `v1,<base64>` signatures: HMAC-SHA256 with the endpoint secret (the base64 after `whsec_`) over `<webhook-id>.<webhook-timestamp>.<body>` (Standard Webhooks).',
    example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
  }),
});

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
            content: { 'application/json': { schema: webhookMessageSchema(type) } },
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
