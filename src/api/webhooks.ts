import { queryOptions } from '@tanstack/react-query';
import { listSchema } from '../../contract/envelope';
import type { PageSize } from '../../contract/list';
import {
  type CreatedWebhook,
  type CreateWebhookBody,
  type UpdateWebhookBody,
  type Webhook,
  webhookDeliverySchema,
  webhookSchema,
} from '../../contract/webhooks';
import type { z } from '../../contract/zod';
import { apiData, apiMessage } from './call';

export const webhookListSchema = listSchema(webhookSchema);
export const webhookDeliveryListSchema = listSchema(webhookDeliverySchema);
export type WebhookList = z.infer<typeof webhookListSchema>;
export type WebhookDeliveryList = z.infer<typeof webhookDeliveryListSchema>;

export const webhookKeys = {
  all: ['webhooks'] as const,
  lists: () => [...webhookKeys.all, 'list'] as const,
  list: (page: number, pageSize: PageSize) => [...webhookKeys.lists(), { page, pageSize }] as const,
  deliveries: (id: number, page: number) => [...webhookKeys.all, 'deliveries', id, page] as const,
};

export const fetchWebhooks = (page: number, pageSize: PageSize): Promise<WebhookList> =>
  apiData('GET /admin/webhooks', { query: { pageNumber: page, pageSize } });

export const fetchWebhookDeliveries = (id: number, page: number): Promise<WebhookDeliveryList> =>
  apiData('GET /admin/webhooks/{webhookId}/deliveries', {
    params: { webhookId: id },
    query: { pageNumber: page, pageSize: 20 },
  });

/** Answers the webhook with its secret, which the server never shows again. */
export const createWebhook = (body: CreateWebhookBody): Promise<CreatedWebhook> =>
  apiData('POST /admin/webhooks', { body });

export const updateWebhook = (id: number, body: UpdateWebhookBody): Promise<Webhook> =>
  apiData('PATCH /admin/webhooks/{webhookId}', { params: { webhookId: id }, body });

/**
 * A new signing secret, answered once (decision 065); the old one keeps signing beside it until
 * `previousSecretExpiresAt`.
 */
export const rotateWebhookSecret = (id: number): Promise<CreatedWebhook> =>
  apiData('POST /admin/webhooks/{webhookId}/rotate-secret', { params: { webhookId: id } });

export const deleteWebhook = (id: number): Promise<string> =>
  apiMessage('DELETE /admin/webhooks/{webhookId}', { params: { webhookId: id } });

export const replayWebhookDelivery = (id: number, deliveryId: number): Promise<string> =>
  apiMessage('POST /admin/webhooks/{webhookId}/deliveries/{deliveryId}/replay', {
    params: { webhookId: id, deliveryId },
  });

export const webhookListQueryOptions = (page: number, pageSize: PageSize) =>
  queryOptions({ queryKey: webhookKeys.list(page, pageSize), queryFn: () => fetchWebhooks(page, pageSize) });

export const webhookDeliveriesQueryOptions = (id: number, page: number) =>
  queryOptions({
    queryKey: webhookKeys.deliveries(id, page),
    queryFn: () => fetchWebhookDeliveries(id, page),
    refetchInterval: 5_000,
  });
