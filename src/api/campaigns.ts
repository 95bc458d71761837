import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { Campaign, CampaignPreview, createCampaignBodySchema } from '../../contract/campaigns';
import type { PageSize } from '../../contract/list';
import type { z } from '../../contract/zod';
import { apiData } from './call';

type CampaignState = Campaign['state'];

/** Campaigns (issue 35, decisions 070 and 073): the list, one campaign, its preview and its steps. */

type CreateCampaignBody = z.output<typeof createCampaignBodySchema>;

export const campaignKeys = {
  all: ['campaigns'] as const,
  lists: () => [...campaignKeys.all, 'list'] as const,
  list: (page: number, pageSize: PageSize, state?: CampaignState) =>
    [...campaignKeys.lists(), { page, pageSize, state }] as const,
  detail: (id: number) => [...campaignKeys.all, 'detail', id] as const,
};

/** While these hold, the server moves the campaign on its own (the run, another person's decision). */
export const isLive = (state: Campaign['state'] | undefined) =>
  state === 'running' || state === 'awaiting_approval';

/** How often a live campaign is read again. */
export const CAMPAIGN_POLL_MS = 2_000;

/** A page of campaigns, newest first; of one state when `state` is given. */
export const campaignListQueryOptions = (page: number, pageSize: PageSize, state?: CampaignState) =>
  queryOptions({
    queryKey: campaignKeys.list(page, pageSize, state),
    queryFn: () =>
      apiData('GET /admin/campaigns', {
        query: { pageNumber: page, pageSize, ...(state === undefined ? {} : { state }) },
      }),
    placeholderData: keepPreviousData,
    // A running campaign's counts move: the list follows them while one is shown.
    refetchInterval: (query) =>
      query.state.data?.records.some((c) => isLive(c.state)) ? CAMPAIGN_POLL_MS * 2 : false,
  });

export const campaignDetailQueryOptions = (id: number) =>
  queryOptions({
    queryKey: campaignKeys.detail(id),
    queryFn: () => apiData('GET /admin/campaigns/{id}', { params: { id } }),
    refetchInterval: (query) => (isLive(query.state.data?.state) ? CAMPAIGN_POLL_MS : false),
    refetchIntervalInBackground: false,
  });

export const createCampaign = (body: CreateCampaignBody): Promise<Campaign> =>
  apiData('POST /admin/campaigns', { body });

export const fetchCampaignPreview = (id: number): Promise<CampaignPreview> =>
  apiData('GET /admin/campaigns/{id}/preview', { params: { id } });

export const submitCampaign = (id: number): Promise<Campaign> =>
  apiData('POST /admin/campaigns/{id}/submit', { params: { id } });

export const approveCampaign = (id: number): Promise<Campaign> =>
  apiData('POST /admin/campaigns/{id}/approve', { params: { id } });

export const rejectCampaign = (id: number, reason: string): Promise<Campaign> =>
  apiData('POST /admin/campaigns/{id}/reject', { params: { id }, body: { reason } });

export const cancelCampaign = (id: number): Promise<Campaign> =>
  apiData('POST /admin/campaigns/{id}/cancel', { params: { id } });
