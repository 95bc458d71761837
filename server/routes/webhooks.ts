import { and, eq, isNull, type SQL, sql } from 'drizzle-orm';
import {
  webhookMessages as msg,
  reachesPartnerEndpoint,
  WEBHOOK_SECRET_OVERLAP_MS,
  type Webhook,
  type WebhookEventType,
  webhookList as webhookListDefinition,
} from '../../contract/webhooks';
import type { DbOrTx } from '../db/client';
import { partners, webhookEndpoints } from '../db/schema';
import { actions } from '../domain/events';
import {
  generateWebhookSecret,
  isForbiddenHost,
  type PreviousSecret,
  previousSecretExpiresAt,
  rotateSecrets,
  webhookDisabledMessage,
} from '../domain/webhooks';
import { ApiError, fieldError } from '../errors';
import { callerChange } from '../http/change';
import type { RouteContext } from '../http/context';
import { ok } from '../http/errors';
import { listPage, tableList } from '../http/list';
import { routeSet } from '../http/route';
import type { AuthUser } from '../types';

const PARTNER_NOT_FOUND = 'Partner not found';

const endpointColumns = {
  id: webhookEndpoints.id,
  url: webhookEndpoints.url,
  description: webhookEndpoints.description,
  events: webhookEndpoints.events,
  partnerId: webhookEndpoints.partnerId,
  partnerName: partners.organizationName,
  disabledAt: webhookEndpoints.disabledAt,
  disabledReason: webhookEndpoints.disabledReason,
  previousSecrets: webhookEndpoints.previousSecrets,
  createdAt: webhookEndpoints.createdAt,
  updatedAt: webhookEndpoints.updatedAt,
};

export type EndpointRow = {
  id: number;
  url: string;
  description: string;
  events: string[];
  partnerId: number | null;
  partnerName: string | null;
  disabledAt: Date | null;
  disabledReason: string | null;
  previousSecrets: PreviousSecret[];
  createdAt: Date;
  updatedAt: Date;
};

/** The endpoint as answered at `now` (never its secrets). */
const toWebhook = (r: EndpointRow, now: Date): Webhook => ({
  id: r.id,
  url: r.url,
  description: r.description,
  events: r.events as WebhookEventType[],
  partnerId: r.partnerId,
  partnerName: r.partnerName,
  enabled: r.disabledAt === null,
  disabledAt: r.disabledAt?.toISOString() ?? null,
  disabledReason: r.disabledReason,
  previousSecretExpiresAt: previousSecretExpiresAt(r.previousSecrets, now)?.toISOString() ?? null,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

const webhookList = tableList(
  webhookEndpoints,
  webhookListDefinition,
  sql`(${webhookEndpoints.url} || ' ' || ${webhookEndpoints.description})`,
  { createdAt: webhookEndpoints.createdAt, url: webhookEndpoints.url },
);

/**
 * Partner staff see and manage only their own partner's webhooks (docs/decisions/027): the webhooks
 * of another partner, and club-wide ones, do not exist for them (404, never 403).
 */
const visibleTo = (user: AuthUser): SQL | undefined =>
  user.partnerId === null ? undefined : eq(webhookEndpoints.partnerId, user.partnerId);

/** A webhook the caller may see (docs/decisions/027), optionally locked; else 404. */
export async function findVisibleEndpoint(
  tx: DbOrTx,
  user: AuthUser,
  id: number,
  lock = false,
): Promise<EndpointRow> {
  const query = tx
    .select(endpointColumns)
    .from(webhookEndpoints)
    .leftJoin(partners, eq(partners.id, webhookEndpoints.partnerId))
    .where(and(eq(webhookEndpoints.id, id), visibleTo(user)))
    .limit(1);
  const [row] = lock ? await query.for('update', { of: webhookEndpoints }) : await query;
  if (!row) throw new ApiError(404, msg.notFound);
  return row;
}

/** /admin/webhooks: Standard Webhooks endpoints (the delivery log and replay: ./webhook-deliveries.ts). */
export function webhookRoutes(ctx: RouteContext) {
  const { db, config, guards } = ctx;

  const checkUrl = (url: string) => {
    if (!config.webhookAllowPrivate && isForbiddenHost(url)) throw fieldError('url', msg.urlPrivate);
  };
  /** A partner's endpoint is never sent the club-only events: subscribing it to them is refused. */
  const checkEvents = (partnerId: number | null, events: readonly WebhookEventType[]) => {
    if (partnerId !== null && !events.every(reachesPartnerEndpoint))
      throw fieldError('events', msg.clubOnlyEvents);
  };

  return routeSet(guards)
    .on('GET /admin/webhooks', async (c) => {
      const user = c.get('user');
      const q = c.req.valid('query');
      if (user.partnerId !== null && q.partnerId !== undefined && q.partnerId !== user.partnerId)
        throw new ApiError(404, PARTNER_NOT_FOUND);
      const data = await listPage(webhookList, q, {
        filters: [
          visibleTo(user),
          q.partnerId === undefined ? undefined : eq(webhookEndpoints.partnerId, q.partnerId),
        ],
        rows: async (p) =>
          (
            await db
              .select(endpointColumns)
              .from(webhookEndpoints)
              .leftJoin(partners, eq(partners.id, webhookEndpoints.partnerId))
              .where(p.where)
              .orderBy(...p.orderBy)
              .limit(p.limit)
              .offset(p.offset)
          ).map((r) => toWebhook(r, ctx.clock())),
        count: async (where) => {
          const [row] = await db
            .select({ n: sql<number>`count(*)::int` })
            .from(webhookEndpoints)
            .where(where);
          return Number(row?.n ?? 0);
        },
      });
      return ok(c, data);
    })
    .on('POST /admin/webhooks', async (c) => {
      const user = c.get('user');
      const body = c.req.valid('json');
      const { now, record } = callerChange(c, ctx);
      // Partner staff: always their own partner; naming another one is a 404 (it does not exist for them).
      if (user.partnerId !== null && body.partnerId !== undefined && body.partnerId !== user.partnerId)
        throw fieldError('partnerId', PARTNER_NOT_FOUND, 404);
      const partnerId = user.partnerId ?? body.partnerId ?? null;
      checkUrl(body.url);
      checkEvents(partnerId, body.events);
      const secret = generateWebhookSecret();
      const created = await db.transaction(async (tx) => {
        if (partnerId !== null) {
          const [partner] = await tx
            .select({ id: partners.id })
            .from(partners)
            .where(and(eq(partners.id, partnerId), isNull(partners.deletedAt)))
            .for('share');
          if (!partner) throw fieldError('partnerId', PARTNER_NOT_FOUND, 404);
        }
        const [row] = await tx
          .insert(webhookEndpoints)
          .values({
            url: body.url,
            description: body.description ?? '',
            events: [...new Set(body.events)],
            partnerId,
            secret,
            createdBy: user.id,
            createdAt: now,
            updatedAt: now,
          })
          .returning({ id: webhookEndpoints.id });
        await record(tx, {
          action: actions.createdWebhook(body.url),
          entity: 'webhook',
          entityId: row!.id,
          payload: { url: body.url, events: body.events, partnerId },
        });
        return findVisibleEndpoint(tx, user, row!.id);
      });
      return ok(c, { ...toWebhook(created, now), secret }, msg.created, 201);
    })
    .on('GET /admin/webhooks/{webhookId}', async (c) => {
      const row = await findVisibleEndpoint(db, c.get('user'), c.req.valid('param').webhookId);
      return ok(c, toWebhook(row, ctx.clock()));
    })
    .on('PATCH /admin/webhooks/{webhookId}', async (c) => {
      const user = c.get('user');
      const { webhookId } = c.req.valid('param');
      const body = c.req.valid('json');
      const { now, record } = callerChange(c, ctx);
      if (body.url !== undefined) checkUrl(body.url);
      const updated = await db.transaction(async (tx) => {
        const before = await findVisibleEndpoint(tx, user, webhookId, true);
        const changes: string[] = [];
        const set: Partial<typeof webhookEndpoints.$inferInsert> = {};
        if (body.url !== undefined && body.url !== before.url) {
          set.url = body.url;
          changes.push('url');
        }
        if (body.description !== undefined && body.description !== before.description) {
          set.description = body.description;
          changes.push('description');
        }
        if (body.events !== undefined) {
          checkEvents(before.partnerId, body.events);
          const events = [...new Set(body.events)];
          if (events.join() !== before.events.join()) {
            set.events = events;
            changes.push('events');
          }
        }
        if (body.enabled === true && before.disabledAt !== null) {
          set.disabledAt = null;
          set.disabledReason = null;
          changes.push('enabled');
        }
        if (body.enabled === false && before.disabledAt === null) {
          set.disabledAt = now;
          set.disabledReason = `disabled by ${user.firstName} ${user.lastName}`.trim();
          changes.push('disabled');
        }
        if (changes.length === 0) return before;
        await tx
          .update(webhookEndpoints)
          .set({ ...set, updatedAt: now })
          .where(eq(webhookEndpoints.id, webhookId));
        await record(tx, {
          action: actions.updatedWebhook(body.url ?? before.url, changes),
          entity: 'webhook',
          entityId: webhookId,
          payload: { fields: changes },
          // Disabled by hand: the partner's other endpoints and the club-wide ones hear of it.
          ...(set.disabledReason ? { webhook: webhookDisabledMessage(before, set.disabledReason, now) } : {}),
        });
        return findVisibleEndpoint(tx, user, webhookId);
      });
      if (body.enabled !== undefined) ctx.webhooks?.kick();
      return ok(c, toWebhook(updated, now), msg.updated);
    })
    .on('POST /admin/webhooks/{webhookId}/rotate-secret', async (c) => {
      const user = c.get('user');
      const { webhookId } = c.req.valid('param');
      const { now, record } = callerChange(c, ctx);
      const rotated = await db.transaction(async (tx) => {
        const before = await findVisibleEndpoint(tx, user, webhookId, true);
        const [current] = await tx
          .select({ secret: webhookEndpoints.secret })
          .from(webhookEndpoints)
          .where(eq(webhookEndpoints.id, webhookId));
        const next = rotateSecrets(
          { secret: current!.secret, previousSecrets: before.previousSecrets },
          now,
          WEBHOOK_SECRET_OVERLAP_MS,
        );
        await tx
          .update(webhookEndpoints)
          .set({ secret: next.secret, previousSecrets: next.previousSecrets, updatedAt: now })
          .where(eq(webhookEndpoints.id, webhookId));
        await record(tx, {
          action: actions.rotatedWebhookSecret(before.url),
          entity: 'webhook',
          entityId: webhookId,
          payload: { previousSecretExpiresAt: next.previousSecretExpiresAt.toISOString() },
        });
        return { row: await findVisibleEndpoint(tx, user, webhookId), secret: next.secret };
      });
      return ok(c, { ...toWebhook(rotated.row, now), secret: rotated.secret }, msg.rotated);
    })
    .on('DELETE /admin/webhooks/{webhookId}', async (c) => {
      const user = c.get('user');
      const { webhookId } = c.req.valid('param');
      const { commit } = callerChange(c, ctx);
      await commit(async (tx) => {
        const row = await findVisibleEndpoint(tx, user, webhookId, true);
        // Its deliveries and their attempts go with it (ON DELETE CASCADE); the event keeps the URL.
        await tx.delete(webhookEndpoints).where(eq(webhookEndpoints.id, webhookId));
        return {
          action: actions.deletedWebhook(row.url),
          entity: 'webhook',
          entityId: webhookId,
          payload: { url: row.url, partnerId: row.partnerId },
        };
      });
      return ok(c, null, msg.deleted);
    }).router;
}
