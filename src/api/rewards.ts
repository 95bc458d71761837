import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import { listSchema } from '../../contract/envelope';
import { rewardSchema, rewardSortKeys } from '../../contract/rewards';
import { type ListState, toListQuery } from '../lib/list-search';
import { api } from './client';

export const rewardListSchema = listSchema(rewardSchema);
export type RewardList = z.infer<typeof rewardListSchema>;

export interface PartnerRewardsParams extends ListState {
  partnerId: number;
}

const toQuery = ({ partnerId, ...state }: PartnerRewardsParams) => ({
  ...toListQuery(state, rewardSortKeys),
  partnerId,
});

export const rewardKeys = {
  all: ['rewards'] as const,
  partnerLists: () => [...rewardKeys.all, 'partner'] as const,
  partnerList: (params: PartnerRewardsParams) => [...rewardKeys.partnerLists(), toQuery(params)] as const,
};

export const fetchPartnerRewards = (params: PartnerRewardsParams): Promise<RewardList> =>
  api().get('/admin/partners/rewards', rewardListSchema, { query: toQuery(params) });

export const partnerRewardsQueryOptions = (params: PartnerRewardsParams) =>
  queryOptions({
    queryKey: rewardKeys.partnerList(params),
    queryFn: () => fetchPartnerRewards(params),
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
