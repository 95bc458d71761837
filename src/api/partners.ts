import { queryOptions } from '@tanstack/react-query';
import type { AccountStatus } from '../../contract/list';
import {
  type CreatePartnerBody,
  type PartnerStats,
  partnerList,
  partnerSchema,
  partnerStatsSchema,
} from '../../contract/partners';
import { type RewardStats, rewardStatsSchema } from '../../contract/stats';
import { z } from '../../contract/zod';
import { api } from './client';
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

export const fetchPartnerStats = (): Promise<PartnerStats> =>
  api().get('/admin/partners/stats', partnerStatsSchema);

export const fetchPartnerAnalytics = (partnerId: number): Promise<RewardStats> =>
  api().get('/admin/partners/stats/partner', rewardStatsSchema, { query: { partnerId } });

/** Creates the partner; its contact gets an invitation by mail. Resolves with the server message. */
export const createPartner = async (body: CreatePartnerBody): Promise<string> =>
  (await api().send('POST', '/admin/partners/invite', z.unknown(), { body })).message;

export const setPartnerStatus = async (partnerId: number, accountStatus: AccountStatus): Promise<string> =>
  (
    await api().send('PATCH', '/admin/partners/update-status', z.unknown(), {
      body: { partnerId, accountStatus },
    })
  ).message;

/** A soft delete: the partner leaves the lists, its history stays. */
export const deletePartner = async (partnerId: number): Promise<string> =>
  (await api().send('DELETE', `/admin/partners/${partnerId}`, z.unknown())).message;

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
