import { queryOptions } from '@tanstack/react-query';
import {
  type ApiKey,
  apiKeySchema,
  type CreateApiKeyBody,
  type CreatedApiKey,
  createdApiKeySchema,
} from '../../contract/api-keys';
import { z } from '../../contract/zod';
import { api } from './client';

const path = (partnerId: number) => `/admin/partners/${partnerId}/api-keys`;

export const apiKeyKeys = {
  all: ['api-keys'] as const,
  list: (partnerId: number) => [...apiKeyKeys.all, partnerId] as const,
};

export const fetchApiKeys = (partnerId: number): Promise<ApiKey[]> =>
  api().get(path(partnerId), z.array(apiKeySchema));

/** Answers the key in full, which the server never shows again. */
export const createApiKey = (partnerId: number, body: CreateApiKeyBody): Promise<CreatedApiKey> =>
  api().post(path(partnerId), createdApiKeySchema, { body });

export const revokeApiKey = async (partnerId: number, keyId: number): Promise<string> =>
  (await api().send('DELETE', `${path(partnerId)}/${keyId}`, z.unknown())).message;

export const apiKeysQueryOptions = (partnerId: number) =>
  queryOptions({ queryKey: apiKeyKeys.list(partnerId), queryFn: () => fetchApiKeys(partnerId) });
