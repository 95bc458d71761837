import { queryOptions } from '@tanstack/react-query';
import type { ApiKey, CreateApiKeyBody, CreatedApiKey } from '../../contract/api-keys';
import { apiData, apiMessage } from './call';

export const apiKeyKeys = {
  all: ['api-keys'] as const,
  list: (partnerId: number) => [...apiKeyKeys.all, partnerId] as const,
};

export const fetchApiKeys = (partnerId: number): Promise<ApiKey[]> =>
  apiData('GET /admin/partners/{partnerId}/api-keys', { params: { partnerId } });

/** Answers the key in full, which the server never shows again. */
export const createApiKey = (partnerId: number, body: CreateApiKeyBody): Promise<CreatedApiKey> =>
  apiData('POST /admin/partners/{partnerId}/api-keys', { params: { partnerId }, body });

export const revokeApiKey = (partnerId: number, keyId: number): Promise<string> =>
  apiMessage('DELETE /admin/partners/{partnerId}/api-keys/{keyId}', { params: { partnerId, keyId } });

export const apiKeysQueryOptions = (partnerId: number) =>
  queryOptions({ queryKey: apiKeyKeys.list(partnerId), queryFn: () => fetchApiKeys(partnerId) });
