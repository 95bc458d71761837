import { and, desc, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import { Hono } from 'hono';
import {
  createWebhookBodySchema,
  webhookMessages as msg,
  updateWebhookBodySchema,
  type Webhook,
  type WebhookDelivery,
  type WebhookEventType,
  webhookDeliveryListQuerySchema,
  webhookDeliveryParamSchema,
  webhookIdParamSchema,
  webhookListQuerySchema,
} from '../../contract/webhooks';
import type { DbOrTx } from '../db/client';
import { partners, webhookAttempts, webhookDeliveries, webhookEndpoints } from '../db/schema';
import { actions, actorOfAuthUser, recordEvent, requestMeta } from '../domain/events';
import { generateWebhookSecret, isForbiddenHost } from '../domain/webhooks';
import type { AppEnv, AuthUser, RouteContext } from '../http/context';
import { ApiError, fieldError, ok } from '../http/errors';
import { type ListSpec, listPage } from '../http/list';
import { jsonBody, pathParams, queryParams } from '../http/validate';

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
  createdAt: webhookEndpoints.createdAt,
  updatedAt: webhookEndpoints.updatedAt,
};

type EndpointRow = {
  id: number;
  url: string;
  description: string;
  events: string[];
  partnerId: number | null;
  partnerName: string | null;
  disabledAt: Date | null;
  disabledReason: string | null;
  createdAt: Date;
  updatedAt: Date;
};

const toWebhook = (r: EndpointRow): Webhook => ({
  id: r.id,
  url: r.url,
  description: r.description,
  events: r.events as WebhookEventType[],
  partnerId: r.partnerId,
  partnerName: r.partnerName,
  enabled: r.disabledAt === null,
  disabledAt: r.disabledAt?.toISOString() ?? null,
  disabledReason: r.disabledReason,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

const webhookList: ListSpec<'createdAt' | 'url'> = {
  sortColumns: { createdAt: webhookEndpoints.createdAt, url: webhookEndpoints.url },
  defaultSort: { by: 'createdAt', order: 'desc' },
  tieBreaker: webhookEndpoints.id,
  searchTarget: sql`(${webhookEndpoints.url} || ' ' || ${webhookEndpoints.description})`,
  dateColumn: webhookEndpoints.createdAt,
};

const deliveryList: ListSpec<'createdAt'> = {
  sortColumns: { createdAt: webhookDeliveries.createdAt },
  defaultSort: { by: 'createdAt', order: 'desc' },
  tieBreaker: webhookDeliveries.id,
  dateColumn: webhookDeliveries.createdAt,
};

/**
 * Partner staff see and manage only their own partner's webhooks (docs/decisions/027): the webhooks
 * of another partner, and club-wide ones, do not exist for them (404, never 403).
 */
const visibleTo = (user: AuthUser): SQL | undefined =>
  user.partnerId === null ? undefined : eq(webhookEndpoints.partnerId, user.partnerId);

/** /admin/webhooks: Standard Webhooks endpoints, their delivery log and replay. */
export function webhookRoutes(ctx: RouteContext) {
  const { db, clock, config, guards } = ctx;
  const manage = () => guards.requirePermission('integrations.manage', 'partner');

  const find = async (tx: DbOrTx, user: AuthUser, id: number, lock = false): Promise<EndpointRow> => {
    const query = tx
      .select(endpointColumns)
      .from(webhookEndpoints)
      .leftJoin(partners, eq(partners.id, webhookEndpoints.partnerId))
      .where(and(eq(webhookEndpoints.id, id), visibleTo(user)))
      .limit(1);
    const [row] = lock ? await query.for('update', { of: webhookEndpoints }) : await query;
    if (!row) throw new ApiError(404, msg.notFound);
    return row;
  };

  const checkUrl = (url: string) => {
    if (!config.webhookAllowPrivate && isForbiddenHost(url)) throw fieldError('url', msg.urlPrivate);
  };

  return new Hono<AppEnv>()
    .get('/', manage(), queryParams(webhookListQuerySchema), async (c) => {
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
          ).map(toWebhook),
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
    .post('/', manage(), jsonBody(createWebhookBodySchema), async (c) => {
      const user = c.get('user');
      const body = c.req.valid('json');
      const now = clock();
      const meta = requestMeta(c, config.trustProxy);
      // Partner staff: always their own partner; naming another one is a 404 (it does not exist for them).
      if (user.partnerId !== null && body.partnerId !== undefined && body.partnerId !== user.partnerId)
        throw fieldError('partnerId', PARTNER_NOT_FOUND, 404);
      const partnerId = user.partnerId ?? body.partnerId ?? null;
      checkUrl(body.url);
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
        await recordEvent(tx, {
          actor: actorOfAuthUser(user),
          action: actions.createdWebhook(body.url),
          entity: 'webhook',
          entityId: row!.id,
          payload: { url: body.url, events: body.events, partnerId },
          meta,
          at: now,
        });
        return find(tx, user, row!.id);
      });
      return ok(c, { ...toWebhook(created), secret }, msg.created, 201);
    })
    .get('/:webhookId{[0-9]+}', manage(), pathParams(webhookIdParamSchema), async (c) => {
      const row = await find(db, c.get('user'), c.req.valid('param').webhookId);
      return ok(c, toWebhook(row));
    })
    .patch(
      '/:webhookId{[0-9]+}',
      manage(),
      pathParams(webhookIdParamSchema),
      jsonBody(updateWebhookBodySchema),
      async (c) => {
        const user = c.get('user');
        const { webhookId } = c.req.valid('param');
        const body = c.req.valid('json');
        const now = clock();
        const meta = requestMeta(c, config.trustProxy);
        if (body.url !== undefined) checkUrl(body.url);
        const updated = await db.transaction(async (tx) => {
          const before = await find(tx, user, webhookId, true);
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
          await recordEvent(tx, {
            actor: actorOfAuthUser(user),
            action: actions.updatedWebhook(body.url ?? before.url, changes),
            entity: 'webhook',
            entityId: webhookId,
            payload: { fields: changes },
            meta,
            at: now,
          });
          return find(tx, user, webhookId);
        });
        if (body.enabled === true) ctx.webhooks?.kick();
        return ok(c, toWebhook(updated), msg.updated);
      },
    )
    .delete('/:webhookId{[0-9]+}', manage(), pathParams(webhookIdParamSchema), async (c) => {
      const user = c.get('user');
      const { webhookId } = c.req.valid('param');
      const now = clock();
      const meta = requestMeta(c, config.trustProxy);
      await db.transaction(async (tx) => {
        const row = await find(tx, user, webhookId, true);
        // Its deliveries and their attempts go with it (ON DELETE CASCADE); the event keeps the URL.
        await tx.delete(webhookEndpoints).where(eq(webhookEndpoints.id, webhookId));
        await recordEvent(tx, {
          actor: actorOfAuthUser(user),
          action: actions.deletedWebhook(row.url),
          entity: 'webhook',
          entityId: webhookId,
          payload: { url: row.url, partnerId: row.partnerId },
          meta,
          at: now,
        });
      });
      return ok(c, null, msg.deleted);
    })
    .get(
      '/:webhookId{[0-9]+}/deliveries',
      manage(),
      pathParams(webhookIdParamSchema),
      queryParams(webhookDeliveryListQuerySchema),
      async (c) => {
        const user = c.get('user');
        const { webhookId } = c.req.valid('param');
        const q = c.req.valid('query');
        await find(db, user, webhookId);
        const data = await listPage(deliveryList, q, {
          filters: [
            eq(webhookDeliveries.endpointId, webhookId),
            q.status === undefined ? undefined : eq(webhookDeliveries.status, q.status),
          ],
          rows: async (p) => {
            const rows = await db
              .select()
              .from(webhookDeliveries)
              .where(p.where)
              .orderBy(...p.orderBy)
              .limit(p.limit)
              .offset(p.offset);
            return withAttempts(db, rows);
          },
          count: async (where) => {
            const [row] = await db
              .select({ n: sql<number>`count(*)::int` })
              .from(webhookDeliveries)
              .where(where);
            return Number(row?.n ?? 0);
          },
        });
        return ok(c, data);
      },
    )
    .post(
      '/:webhookId{[0-9]+}/deliveries/:deliveryId{[0-9]+}/replay',
      manage(),
      pathParams(webhookDeliveryParamSchema),
      async (c) => {
        const user = c.get('user');
        const { webhookId, deliveryId } = c.req.valid('param');
        const now = clock();
        const meta = requestMeta(c, config.trustProxy);
        const delivery = await db.transaction(async (tx) => {
          const endpoint = await find(tx, user, webhookId);
          if (endpoint.disabledAt !== null) throw new ApiError(409, msg.disabled);
          // Same message, same webhook-id: a receiver that saw it already deduplicates it.
          const [row] = await tx
            .update(webhookDeliveries)
            .set({ status: 'pending', failures: 0, nextAttemptAt: now, deliveredAt: null })
            .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.endpointId, webhookId)))
            .returning();
          if (!row) throw new ApiError(404, msg.deliveryNotFound);
          await recordEvent(tx, {
            actor: actorOfAuthUser(user),
            action: actions.replayedWebhookDelivery(row.messageId, endpoint.url),
            entity: 'webhook',
            entityId: webhookId,
            payload: { deliveryId, messageId: row.messageId },
            meta,
            at: now,
          });
          return (await withAttempts(tx, [row]))[0]!;
        });
        ctx.webhooks?.kick();
        return ok(c, delivery, msg.replayed);
      },
    );
}

type DeliveryRow = typeof webhookDeliveries.$inferSelect;

async function withAttempts(db: DbOrTx, rows: DeliveryRow[]): Promise<WebhookDelivery[]> {
  const attempts = rows.length
    ? await db
        .select()
        .from(webhookAttempts)
        .where(
          inArray(
            webhookAttempts.deliveryId,
            rows.map((r) => r.id),
          ),
        )
        .orderBy(desc(webhookAttempts.id))
    : [];
  return rows.map((r) => ({
    id: r.id,
    messageId: r.messageId,
    eventType: r.eventType as WebhookEventType,
    status: r.status,
    createdAt: r.createdAt.toISOString(),
    nextAttemptAt: r.status === 'pending' ? (r.nextAttemptAt?.toISOString() ?? null) : null,
    deliveredAt: r.deliveredAt?.toISOString() ?? null,
    payload: r.payload as Record<string, unknown>,
    attempts: attempts
      .filter((a) => a.deliveryId === r.id)
      .map((a) => ({
        at: a.at.toISOString(),
        statusCode: a.statusCode,
        durationMs: a.durationMs,
        error: a.error,
        nextRetryAt: a.nextRetryAt?.toISOString() ?? null,
      })),
  }));
}
