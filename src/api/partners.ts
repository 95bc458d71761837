import { queryOptions } from '@tanstack/react-query';
import type { AccountStatus } from '../../contract/list';
import {
  type CreatePartnerBody,
  type PartnerStats,
  partnerList,
  partnerSchema,
} from '../../contract/partners';
import type { RewardStats } from '../../contract/stats';
import { apiData, apiMessage } from './call';
import { listResource } from './list-resource';

const partners = listResource({
  key: ['partners'],
  list: partnerList,
  path: '/admin/partners',
  item: partnerSchema,
  detail: { path: '/admin/partners/{partnerId}' },
});

export const partnerKeys = {
  ...partners.keys,
  stats: () => [...partners.keys.all, 'stats'] as const,
  analytics: (id: number) => [...partners.keys.detail(id), 'analytics'] as const,
};

export const partnerListQueryOptions = partners.listQueryOptions;
/** Every partner the list's tab, search and sort match, as CSV. */
export const exportPartners = partners.exportCsv;
export const fetchPartner = partners.fetchOne;
export const partnerDetailQueryOptions = partners.detailQueryOptions;

export const fetchPartnerStats = (): Promise<PartnerStats> => apiData('GET /admin/partners/stats');

export const fetchPartnerAnalytics = (partnerId: number): Promise<RewardStats> =>
  apiData('GET /admin/partners/stats/partner', { query: { partnerId } });

/** Creates the partner; its contact gets an invitation by mail. Resolves with the server message. */
export const createPartner = async (body: CreatePartnerBody): Promise<string> =>
  apiMessage('POST /admin/partners/invite', { body });

export const setPartnerStatus = async (partnerId: number, accountStatus: AccountStatus): Promise<string> =>
  apiMessage('PATCH /admin/partners/update-status', { body: { partnerId, accountStatus } });

/** A soft delete: the partner leaves the lists, its history stays. */
export const deletePartner = async (partnerId: number): Promise<string> =>
  apiMessage('DELETE /admin/partners/{partnerId}', { params: { partnerId } });

/** Active partners by name, for the partner select of the staff forms (the largest page size). */
export const partnerChoicesQueryOptions = () =>
  partners.choicesQueryOptions({ sortBy: 'organizationName', status: 'ACTIVE' }, (p) => ({
    value: String(p.id),
    label: p.organizationName,
  }));

export const partnerStatsQueryOptions = () =>
  queryOptions({ queryKey: partnerKeys.stats(), queryFn: fetchPartnerStats, staleTime: 10_000 });

export const partnerAnalyticsQueryOptions = (partnerId: number) =>
  queryOptions({
    queryKey: partnerKeys.analytics(partnerId),
    queryFn: () => fetchPartnerAnalytics(partnerId),
    staleTime: 30_000,
  });
