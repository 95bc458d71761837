import { randomBytes } from 'node:crypto';
import { BlockList, isIP } from 'node:net';
import { and, arrayContains, eq, isNull, or } from 'drizzle-orm';
import { MAX_PREVIOUS_WEBHOOK_SECRETS, type WebhookEventType } from '../../contract/webhooks';
import type { DbOrTx } from '../db/client';
import { ROWS_PER_STATEMENT } from '../db/rows';
import { webhookDeliveries, webhookEndpoints } from '../db/schema';

/**
 * Webhooks (Standard Webhooks, docs/decisions/027): the outbox side. A change that partner systems
 * hear about names a `webhook` in its event (server/domain/events.ts), and one delivery row per
 * subscribed, enabled endpoint is written in the same transaction, so nothing is lost on a crash.
 */
export type WebhookEvent = {
  type: WebhookEventType;
  /**
   * The partner the event happened at: endpoints of that partner and club-wide ones receive it.
   * null: a club-wide event (a customer synced), for club-wide endpoints only.
   */
  partnerId: number | null;
  /** Only the partner's own endpoints, not the club-wide ones (which hear the club's own message). */
  partnerOnly?: true;
  data: Record<string, unknown>;
};

/** `whsec_` + base64 of 32 random bytes (the Standard Webhooks secret format). */
export const generateWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

export type PreviousSecret = { secret: string; until: string };

/**
 * The secrets a delivery at `now` is signed with (docs/decisions/065): those rotated away whose
 * overlap has not ended, oldest first, then the current one; a receiver holding any of them verifies.
 */
export const signingSecrets = (
  endpoint: { secret: string; previousSecrets: readonly PreviousSecret[] },
  now: Date,
): string[] => [
  ...endpoint.previousSecrets.filter((p) => Date.parse(p.until) > now.getTime()).map((p) => p.secret),
  endpoint.secret,
];

/**
 * A rotation at `now`: the current secret joins the previous ones until `now + overlapMs`; those
 * whose overlap ended are dropped, and at most MAX_PREVIOUS_WEBHOOK_SECRETS are kept (a second rotation
 * within the day keeps the first old secret too, so a receiver that missed the answer still verifies).
 */
export function rotateSecrets(
  endpoint: { secret: string; previousSecrets: readonly PreviousSecret[] },
  now: Date,
  overlapMs: number,
): { secret: string; previousSecrets: PreviousSecret[]; previousSecretExpiresAt: Date } {
  const until = new Date(now.getTime() + overlapMs);
  const kept = endpoint.previousSecrets.filter((p) => Date.parse(p.until) > now.getTime());
  return {
    secret: generateWebhookSecret(),
    previousSecrets: [...kept, { secret: endpoint.secret, until: until.toISOString() }].slice(
      -MAX_PREVIOUS_WEBHOOK_SECRETS,
    ),
    previousSecretExpiresAt: until,
  };
}

/** Until when a secret rotated away still signs: the latest overlap still running, or null. */
export const previousSecretExpiresAt = (previous: readonly PreviousSecret[], now: Date): Date | null => {
  const times = previous.map((p) => Date.parse(p.until)).filter((t) => t > now.getTime());
  return times.length ? new Date(Math.max(...times)) : null;
};

/** `webhook.disabled`: to the endpoint's partner's (other) endpoints and the club-wide ones. */
export const webhookDisabledMessage = (
  endpoint: { id: number; url: string; partnerId: number | null },
  reason: string,
  at: Date,
): WebhookEvent => ({
  type: 'webhook.disabled',
  partnerId: endpoint.partnerId,
  data: {
    webhookId: endpoint.id,
    partnerId: endpoint.partnerId,
    url: endpoint.url,
    reason,
    disabledAt: at.toISOString(),
  },
});

/** A message id (`webhook-id`): unique, the same on every attempt and replay. */
export const generateMessageId = () => `msg_${randomBytes(16).toString('hex')}`;

/**
 * Waits after the 1st, 2nd ... failed attempt: the first retry within 30 s, the last about a day
 * after the first attempt (5 s + 5 min + 30 min + 2 h + 5 h + 8 h + 8 h = 23 h 35 min 5 s). After
 * the 8th failure the delivery fails and its endpoint is disabled.
 */
export const WEBHOOK_BACKOFF_MS = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  8 * 3_600_000,
  8 * 3_600_000,
] as const;
export const WEBHOOK_MAX_ATTEMPTS = WEBHOOK_BACKOFF_MS.length + 1;

/** The wait before the next attempt after `failures` failed ones, or null: give up. */
export const retryDelayMs = (failures: number): number | null => WEBHOOK_BACKOFF_MS[failures - 1] ?? null;

/** The enabled endpoints that hear `event`: subscribed to its type, of its partner or club-wide. */
const endpointsHearing = (db: DbOrTx, event: WebhookEvent) =>
  db
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(
      and(
        isNull(webhookEndpoints.disabledAt),
        arrayContains(webhookEndpoints.events, [event.type]),
        event.partnerId === null
          ? isNull(webhookEndpoints.partnerId)
          : event.partnerOnly
            ? eq(webhookEndpoints.partnerId, event.partnerId)
            : or(isNull(webhookEndpoints.partnerId), eq(webhookEndpoints.partnerId, event.partnerId)),
      ),
    );

/** The delivery rows of one message (one id) to each endpoint. */
const deliveryRows = (endpoints: { id: number }[], event: WebhookEvent, at: Date) => {
  const messageId = generateMessageId();
  const payload = { type: event.type, timestamp: at.toISOString(), data: event.data };
  return endpoints.map((e) => ({
    endpointId: e.id,
    messageId,
    eventType: event.type,
    payload,
    createdAt: at,
    nextAttemptAt: at,
  }));
};

/** Writes the deliveries of one event (inside the caller's transaction). Returns how many. */
export async function enqueueWebhooks(db: DbOrTx, event: WebhookEvent, at: Date): Promise<number> {
  const endpoints = await endpointsHearing(db, event);
  if (endpoints.length === 0) return 0;
  await db.insert(webhookDeliveries).values(deliveryRows(endpoints, event, at));
  return endpoints.length;
}

/**
 * The deliveries of many events at once (a campaign's batch, docs/decisions/070): the same rows as
 * `enqueueWebhooks` called for each in turn (a message id of its own per event, one row per
 * endpoint hearing it), with the endpoints read once per audience (type and partner) and the rows
 * written in a few INSERT statements. Returns how many.
 */
export async function enqueueWebhookBatch(
  db: DbOrTx,
  messages: readonly { event: WebhookEvent; at: Date }[],
): Promise<number> {
  const audiences = new Map<string, { id: number }[]>();
  const rows: ReturnType<typeof deliveryRows> = [];
  for (const { event, at } of messages) {
    const key = `${event.type}|${event.partnerId}|${event.partnerOnly ? 1 : 0}`;
    let heard = audiences.get(key);
    if (!heard) {
      heard = await endpointsHearing(db, event);
      audiences.set(key, heard);
    }
    if (heard.length > 0) rows.push(...deliveryRows(heard, event, at));
  }
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT)
    await db.insert(webhookDeliveries).values(rows.slice(i, i + ROWS_PER_STATEMENT));
  return rows.length;
}

// ---------------------------------------------------------------------------------------------
// Where a delivery may go

// One list per family: node's BlockList reads an IPv4 address as IPv4-mapped IPv6 when it holds IPv6
// rules, so ::ffff:0:0/96 in the same list would refuse every IPv4 address.
const blocked4 = new BlockList();
const blocked6 = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local (cloud metadata at 169.254.169.254)
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  blocked4.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['::ffff:0:0', 96], // IPv4-mapped, whatever the IPv4 address (URLs spell them ::ffff:7f00:1)
  ['64:ff9b::', 96], // NAT64: an IPv4 address in disguise
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const) {
  blocked6.addSubnet(net, prefix, 'ipv6');
}

/** Whether a delivery may not go to this address: private, loopback, link-local, reserved or not an IP. */
export function isForbiddenAddress(raw: string): boolean {
  let ip = raw.trim();
  if (ip.startsWith('[') && ip.endsWith(']')) ip = ip.slice(1, -1);
  // An IPv4-mapped address (::ffff:a.b.c.d or ::ffff:xxxx:xxxx) is refused whatever the IPv4 inside
  // (decision 027): blocked6 holds ::ffff:0:0/96.
  const family = isIP(ip);
  if (family === 0) return true;
  return family === 6 ? blocked6.check(ip, 'ipv6') : blocked4.check(ip, 'ipv4');
}

/**
 * At creation: a URL naming a forbidden IP literal or `localhost` is refused at once (a name that
 * resolves to one is refused at delivery, after DNS).
 */
export function isForbiddenHost(url: string): boolean {
  // A fully qualified name may end in the root's dot (`localhost.` is localhost).
  const host = new URL(url).hostname.toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  const bare = host.startsWith('[') ? host.slice(1, -1) : host;
  return isIP(bare) !== 0 && isForbiddenAddress(bare);
}
