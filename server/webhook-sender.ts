import { randomUUID } from 'node:crypto';
import { and, eq, inArray, isNull, lt, lte, or } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import type { Db, DbOrTx } from './db/client';
import { roles, users, webhookAttempts, webhookDeliveries, webhookEndpoints } from './db/schema';
import { ADMIN_ORGANIZATION, actions, recordEvent } from './domain/events';
import {
  type PreviousSecret,
  retryDelayMs,
  signingSecrets,
  WEBHOOK_MAX_ATTEMPTS,
  webhookDisabledMessage,
} from './domain/webhooks';
import { type Logger, silentLogger } from './log';
import { enqueueMail, type Mailer } from './mail';
import { writeOutcome } from './outcome';
import { type Resolver, type SafePostOptions, safePost } from './safe-post';
import { singleRun } from './single-run';

export { type Resolver, safePost } from './safe-post';

/**
 * Delivers the webhook outbox (docs/decisions/027). Any number of instances may run one each: a run
 * claims due deliveries with FOR UPDATE SKIP LOCKED and stamps a lease (token + expiry), so no two
 * instances post one message at once; a sender that dies mid-post leaves a lease that expires, and
 * the message goes again with the same `webhook-id` (receivers deduplicate on it).
 */
export type WebhookSender = {
  /** Delivers every due delivery now (claims in batches until none is left). */
  deliverDue: () => Promise<{ sent: number; failed: number }>;
  /** Starts a run in the background; runs coalesce. */
  kick: () => void;
  /** Resolves when no run is in progress. */
  idle: () => Promise<void>;
  /** Kicks every `pollMs` (retries fall due, other instances' messages), until stop(). */
  start: (pollMs?: number) => void;
  stop: () => void;
};

export type WebhookSenderOptions = {
  db: Db;
  clock?: () => Date;
  log?: Logger;
  /** WEBHOOK_ALLOW_PRIVATE: deliver to private addresses too (tests, a receiver on the same network). */
  allowPrivate?: boolean;
  timeoutMs?: number;
  maxResponseBytes?: number;
  /** How long a claim holds a delivery (longer than the timeout); then another sender may take it. */
  leaseMs?: number;
  batchSize?: number;
  resolve?: Resolver;
  /** Told when an endpoint is disabled (it mails the super admins through the outbox). */
  mailer?: Mailer;
};

export const WEBHOOK_TIMEOUT_MS = 10_000;
export const WEBHOOK_MAX_RESPONSE_BYTES = 4096;
export const WEBHOOK_USER_AGENT = 'RewardClub-Webhooks/1';

type SigningEndpoint = { url: string; secret: string; previousSecrets: readonly PreviousSecret[] };

type Claimed = {
  id: number;
  endpointId: number;
  messageId: string;
  payload: unknown;
  failures: number;
  leaseToken: string | null;
};

/** The club is told: an activity-log event and a mail to every super admin, in one transaction. */
async function disableEndpoint(tx: DbOrTx, endpointId: number, reason: string, now: Date) {
  const [endpoint] = await tx
    .update(webhookEndpoints)
    .set({ disabledAt: now, disabledReason: reason, updatedAt: now })
    .where(and(eq(webhookEndpoints.id, endpointId), isNull(webhookEndpoints.disabledAt)))
    .returning({ id: webhookEndpoints.id, url: webhookEndpoints.url, partnerId: webhookEndpoints.partnerId });
  if (!endpoint) return false;
  await recordEvent(tx, {
    actor: { id: null, type: 'ADMIN', name: ADMIN_ORGANIZATION, organization: ADMIN_ORGANIZATION },
    action: actions.disabledWebhook(endpoint.url),
    entity: 'webhook',
    entityId: endpoint.id,
    payload: { reason },
    at: now,
    // The partner's other endpoints and the club-wide ones hear of it (this one is off already).
    webhook: webhookDisabledMessage(endpoint, reason, now),
  });
  const admins = await tx
    .select({ email: users.email })
    .from(users)
    .innerJoin(roles, eq(roles.id, users.roleId))
    .where(and(eq(roles.builtIn, true), isNull(users.deletedAt), eq(users.accountStatus, 'ACTIVE')));
  for (const a of admins) {
    await enqueueMail(
      tx,
      {
        to: a.email,
        subject: 'A webhook endpoint was disabled',
        text: `The webhook endpoint ${endpoint.url} (id ${endpoint.id}) was disabled: ${reason}.\n\nFix the receiver, then enable it again under Webhooks; failed deliveries can be replayed from its delivery log.`,
      },
      now,
    );
  }
  return true;
}

export function createWebhookSender(opts: WebhookSenderOptions): WebhookSender {
  const { db } = opts;
  const clock = opts.clock ?? (() => new Date());
  const log = opts.log ?? silentLogger;
  const timeoutMs = opts.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  const leaseMs = opts.leaseMs ?? Math.max(60_000, timeoutMs * 3);
  const batchSize = opts.batchSize ?? 10;
  /** How long an outcome is retried: what is left of the lease after the longest post, and a margin. */
  const outcomeBudgetMs = Math.max(1_000, (leaseMs - timeoutMs) / 2);
  const post: SafePostOptions = {
    allowPrivate: opts.allowPrivate ?? false,
    timeoutMs,
    maxResponseBytes: opts.maxResponseBytes ?? WEBHOOK_MAX_RESPONSE_BYTES,
    resolve: opts.resolve,
  };

  /** Claims due deliveries of enabled endpoints, skipping those another sender holds. */
  const claim = async (): Promise<Claimed[]> => {
    const now = clock();
    const token = randomUUID();
    const due = db
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .where(
        and(
          eq(webhookDeliveries.status, 'pending'),
          lte(webhookDeliveries.nextAttemptAt, now),
          or(isNull(webhookDeliveries.leaseUntil), lt(webhookDeliveries.leaseUntil, now)),
          inArray(
            webhookDeliveries.endpointId,
            db
              .select({ id: webhookEndpoints.id })
              .from(webhookEndpoints)
              .where(isNull(webhookEndpoints.disabledAt)),
          ),
        ),
      )
      .orderBy(webhookDeliveries.nextAttemptAt, webhookDeliveries.id)
      .limit(batchSize)
      .for('update', { skipLocked: true });
    return db
      .update(webhookDeliveries)
      .set({ leaseUntil: new Date(now.getTime() + leaseMs), leaseToken: token })
      .where(inArray(webhookDeliveries.id, due))
      .returning({
        id: webhookDeliveries.id,
        endpointId: webhookDeliveries.endpointId,
        messageId: webhookDeliveries.messageId,
        payload: webhookDeliveries.payload,
        failures: webhookDeliveries.failures,
        leaseToken: webhookDeliveries.leaseToken,
      });
  };

  const attempt = async (d: Claimed, endpoint: SigningEndpoint) => {
    const body = JSON.stringify(d.payload);
    const at = clock();
    const started = performance.now();
    let statusCode: number | null = null;
    let error: string | null = null;
    try {
      const headers = {
        'content-type': 'application/json',
        'user-agent': WEBHOOK_USER_AGENT,
        'webhook-id': d.messageId,
        'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
        // During a rotation's overlap one signature per secret, the old ones first (decision 065).
        'webhook-signature': signingSecrets(endpoint, at)
          .map((secret) => new Webhook(secret).sign(d.messageId, at, body))
          .join(' '),
      };
      const res = await safePost(endpoint.url, headers, body, post);
      statusCode = res.statusCode;
      if (statusCode < 200 || statusCode >= 300) {
        error =
          statusCode >= 300 && statusCode < 400
            ? `redirect (${statusCode}) not followed`
            : `HTTP ${statusCode}`;
      }
    } catch (err) {
      error = (err instanceof Error ? err.message : String(err)).slice(0, 500);
    }
    const durationMs = Math.max(0, Math.round(performance.now() - started));
    const ok = error === null;
    const now = clock();
    const failures = ok ? d.failures : d.failures + 1;
    const delay = ok ? null : retryDelayMs(failures);
    const nextRetryAt = delay === null ? null : new Date(now.getTime() + delay);
    let disabled = false;
    // Written until it lands while the lease holds: a cut connection must not send it again.
    await writeOutcome(
      () =>
        db.transaction(async (tx) => {
          // Only the holder of the lease writes the outcome (a sender whose lease expired mid-post does not).
          const updated = await tx
            .update(webhookDeliveries)
            .set({
              status: ok ? 'succeeded' : delay === null ? 'failed' : 'pending',
              failures,
              nextAttemptAt: nextRetryAt,
              deliveredAt: ok ? now : null,
              leaseUntil: null,
              leaseToken: null,
            })
            .where(and(eq(webhookDeliveries.id, d.id), eq(webhookDeliveries.leaseToken, d.leaseToken!)))
            .returning({ id: webhookDeliveries.id });
          await tx
            .insert(webhookAttempts)
            .values({ deliveryId: d.id, at, statusCode, durationMs, error, nextRetryAt });
          if (updated.length > 0 && !ok && delay === null) {
            disabled = await disableEndpoint(
              tx,
              d.endpointId,
              `a delivery failed ${WEBHOOK_MAX_ATTEMPTS} times over about a day (last: ${error})`,
              now,
            );
          }
        }),
      { log, what: `webhook delivery ${d.id}`, budgetMs: outcomeBudgetMs },
    );
    if (disabled) {
      log.warn('webhook endpoint disabled', { endpointId: d.endpointId });
      opts.mailer?.kick();
    }
    if (ok) log.info('webhook delivered', { deliveryId: d.id, statusCode, durationMs });
    else log.warn('webhook delivery failed', { deliveryId: d.id, failures, error });
    return ok;
  };

  const deliverDue = async () => {
    let sent = 0;
    let failed = 0;
    for (;;) {
      const batch = await claim();
      if (batch.length === 0) break;
      const ids = [...new Set(batch.map((d) => d.endpointId))];
      const endpoints = new Map(
        (
          await db
            .select({
              id: webhookEndpoints.id,
              url: webhookEndpoints.url,
              secret: webhookEndpoints.secret,
              previousSecrets: webhookEndpoints.previousSecrets,
            })
            .from(webhookEndpoints)
            .where(inArray(webhookEndpoints.id, ids))
        ).map((e) => [e.id, e]),
      );
      const results = await Promise.all(
        batch.map(async (d) => {
          const endpoint = endpoints.get(d.endpointId);
          return endpoint ? attempt(d, endpoint) : false;
        }),
      );
      for (const r of results) r ? sent++ : failed++;
    }
    return { sent, failed };
  };

  const { kick, running } = singleRun(deliverDue, log, 'webhook delivery run failed');
  let timer: NodeJS.Timeout | null = null;

  return {
    deliverDue,
    kick,
    idle: async () => {
      while (running()) await running();
    },
    start: (pollMs = 2_000) => {
      timer ??= setInterval(kick, pollMs);
      timer.unref();
      kick();
    },
    stop: () => {
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
}
