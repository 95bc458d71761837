import { queryOptions } from '@tanstack/react-query';
import type { ClubKey, CreateClubKeyBody, CreatedClubKey } from '../../contract/customer-sync';
import { apiData, apiMessage } from './call';

/**
 * The club's integration keys (issue 27, docs/decisions/051): the provider's subscriber system sends
 * them as X-Api-Key to the customer sync. A Super Admin's alone (the server refuses anyone else).
 */
export const clubKeyKeys = {
  all: ['club-keys'] as const,
};

/** Every key, the active ones first, then the revoked ones; never a secret. */
export const fetchClubKeys = (): Promise<ClubKey[]> => apiData('GET /admin/api-keys');

/** Answers the key in full, which the server never shows again. */
export const createClubKey = (body: CreateClubKeyBody): Promise<CreatedClubKey> =>
  apiData('POST /admin/api-keys', { body });

export const revokeClubKey = (id: number): Promise<string> =>
  apiMessage('DELETE /admin/api-keys/{id}', { params: { id } });

export const clubKeysQueryOptions = () => queryOptions({ queryKey: clubKeyKeys.all, queryFn: fetchClubKeys });
