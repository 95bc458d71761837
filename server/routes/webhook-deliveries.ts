import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import {
  webhookMessages as msg,
  type WebhookDelivery,
  type WebhookEventType,
  webhookDeliveryList as webhookDeliveryListDefinition,
} from '../../contract/webhooks';
import type { DbOrTx } from '../db/client';
import { webhookAttempts, webhookDeliveries } from '../db/schema';
import { actions } from '../domain/events';
import { ApiError } from '../errors';
import { callerChange } from '../http/change';
import type { RouteContext } from '../http/context';
import { ok } from '../http/errors';
import { type ListSpec, listPage } from '../http/list';
import { routeSet } from '../http/route';

import { findVisibleEndpoint } from './webhooks';

const deliveryList: ListSpec<'createdAt'> = {
  sortColumns: { createdAt: webhookDeliveries.createdAt },
  list: webhookDeliveryListDefinition,
  tieBreaker: webhookDeliveries.id,
  dateColumn: webhookDeliveries.createdAt,
};

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

/** /admin/webhooks/{webhookId}/deliveries: a webhook's delivery log, and a replay of one delivery. */
export function webhookDeliveryRoutes(ctx: RouteContext) {
  const { db, guards } = ctx;
  return routeSet(guards)
    .on('GET /admin/webhooks/{webhookId}/deliveries', async (c) => {
      const user = c.get('user');
      const { webhookId } = c.req.valid('param');
      const q = c.req.valid('query');
      await findVisibleEndpoint(db, user, webhookId);
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
    })
    .on('POST /admin/webhooks/{webhookId}/deliveries/{deliveryId}/replay', async (c) => {
      const user = c.get('user');
      const { webhookId, deliveryId } = c.req.valid('param');
      const { now, record } = callerChange(c, ctx);
      const delivery = await db.transaction(async (tx) => {
        const endpoint = await findVisibleEndpoint(tx, user, webhookId);
        if (endpoint.disabledAt !== null) throw new ApiError(409, msg.disabled);
        // Same message, same webhook-id: a receiver that saw it already deduplicates it.
        const [row] = await tx
          .update(webhookDeliveries)
          .set({ status: 'pending', failures: 0, nextAttemptAt: now, deliveredAt: null })
          .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.endpointId, webhookId)))
          .returning();
        if (!row) throw new ApiError(404, msg.deliveryNotFound);
        await record(tx, {
          action: actions.replayedWebhookDelivery(row.messageId, endpoint.url),
          entity: 'webhook',
          entityId: webhookId,
          payload: { deliveryId, messageId: row.messageId },
        });
        return (await withAttempts(tx, [row]))[0]!;
      });
      ctx.webhooks?.kick();
      return ok(c, delivery, msg.replayed);
    }).router;
}
