import { queryOptions } from '@tanstack/react-query';
import { listSchema } from '../../contract/envelope';
import {
  type CreatedWebhook,
  type CreateWebhookBody,
  createdWebhookSchema,
  type UpdateWebhookBody,
  type Webhook,
  webhookDeliverySchema,
  webhookSchema,
} from '../../contract/webhooks';
import { z } from '../../contract/zod';
import { api } from './client';

export const webhookListSchema = listSchema(webhookSchema);
export const webhookDeliveryListSchema = listSchema(webhookDeliverySchema);
export type WebhookList = z.infer<typeof webhookListSchema>;
export type WebhookDeliveryList = z.infer<typeof webhookDeliveryListSchema>;

const PATH = '/admin/webhooks';

export const webhookKeys = {
  all: ['webhooks'] as const,
  lists: () => [...webhookKeys.all, 'list'] as const,
  list: (page: number, pageSize: number) => [...webhookKeys.lists(), { page, pageSize }] as const,
  deliveries: (id: number, page: number) => [...webhookKeys.all, 'deliveries', id, page] as const,
};

export const fetchWebhooks = (page: number, pageSize: number): Promise<WebhookList> =>
  api().get(PATH, webhookListSchema, { query: { pageNumber: page, pageSize } });

export const fetchWebhookDeliveries = (id: number, page: number): Promise<WebhookDeliveryList> =>
  api().get(`${PATH}/${id}/deliveries`, webhookDeliveryListSchema, {
    query: { pageNumber: page, pageSize: 20 },
  });

/** Answers the webhook with its secret, which the server never shows again. */
export const createWebhook = (body: CreateWebhookBody): Promise<CreatedWebhook> =>
  api().post(PATH, createdWebhookSchema, { body });

export const updateWebhook = async (id: number, body: UpdateWebhookBody): Promise<Webhook> =>
  (await api().send('PATCH', `${PATH}/${id}`, webhookSchema, { body })).data;

export const deleteWebhook = async (id: number): Promise<string> =>
  (await api().send('DELETE', `${PATH}/${id}`, z.unknown())).message;

export const replayWebhookDelivery = async (id: number, deliveryId: number): Promise<string> =>
  (await api().send('POST', `${PATH}/${id}/deliveries/${deliveryId}/replay`, webhookDeliverySchema)).message;

export const webhookListQueryOptions = (page: number, pageSize: number) =>
  queryOptions({ queryKey: webhookKeys.list(page, pageSize), queryFn: () => fetchWebhooks(page, pageSize) });

export const webhookDeliveriesQueryOptions = (id: number, page: number) =>
  queryOptions({
    queryKey: webhookKeys.deliveries(id, page),
    queryFn: () => fetchWebhookDeliveries(id, page),
    refetchInterval: 5_000,
  });
