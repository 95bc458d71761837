import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { listSchema } from '../../contract/envelope';
import type { AccountStatus } from '../../contract/list';
import {
  type CreatePartnerBody,
  type Partner,
  type PartnerStats,
  partnerList,
  partnerSchema,
  partnerStatsSchema,
} from '../../contract/partners';
import { type RewardStats, rewardStatsSchema } from '../../contract/stats';
import { z } from '../../contract/zod';
import { type ListState, toListQuery } from '../lib/list-search';
import { api } from './client';
import { type DownloadOptions, downloadCsv } from './export';

export const partnerListSchema = listSchema(partnerSchema);
export type PartnerList = z.infer<typeof partnerListSchema>;

export interface PartnerListParams extends ListState {
  status: AccountStatus;
}

const toQuery = ({ status, ...state }: PartnerListParams) => ({
  ...toListQuery(state, partnerList.sortKeys),
  status,
});

export const partnerKeys = {
  all: ['partners'] as const,
  lists: () => [...partnerKeys.all, 'list'] as const,
  list: (params: PartnerListParams) => [...partnerKeys.lists(), toQuery(params)] as const,
  stats: () => [...partnerKeys.all, 'stats'] as const,
  details: () => [...partnerKeys.all, 'detail'] as const,
  detail: (id: number) => [...partnerKeys.details(), id] as const,
  analytics: (id: number) => [...partnerKeys.detail(id), 'analytics'] as const,
};

export const fetchPartners = (params: PartnerListParams): Promise<PartnerList> =>
  api().get('/admin/partners', partnerListSchema, { query: toQuery(params) });

/** Every partner the list's tab, search and sort match, as CSV. */
export const exportPartners = (params: PartnerListParams, opts?: DownloadOptions) =>
  downloadCsv('/admin/partners/export', toQuery(params), opts);

export const fetchPartnerStats = (): Promise<PartnerStats> =>
  api().get('/admin/partners/stats', partnerStatsSchema);

export const fetchPartner = (partnerId: number): Promise<Partner> =>
  api().get(`/admin/partners/${partnerId}`, partnerSchema);

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

export const partnerListQueryOptions = (params: PartnerListParams) =>
  queryOptions({
    queryKey: partnerKeys.list(params),
    queryFn: () => fetchPartners(params),
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });

/** Active partners by name, for the partner select of the staff forms (the largest page size). */
export const partnerChoicesQueryOptions = () =>
  queryOptions({
    queryKey: [...partnerKeys.all, 'choices'] as const,
    queryFn: () =>
      fetchPartners({
        page: 1,
        pageSize: 100,
        search: '',
        sortBy: 'organizationName',
        sortOrder: 'asc',
        status: 'ACTIVE',
      }).then((list) => list.records.map((p) => ({ value: String(p.id), label: p.organizationName }))),
    staleTime: 30_000,
  });

export const partnerStatsQueryOptions = () =>
  queryOptions({ queryKey: partnerKeys.stats(), queryFn: fetchPartnerStats, staleTime: 10_000 });

export const partnerDetailQueryOptions = (partnerId: number) =>
  queryOptions({ queryKey: partnerKeys.detail(partnerId), queryFn: () => fetchPartner(partnerId) });

export const partnerAnalyticsQueryOptions = (partnerId: number) =>
  queryOptions({
    queryKey: partnerKeys.analytics(partnerId),
    queryFn: () => fetchPartnerAnalytics(partnerId),
    staleTime: 30_000,
  });
