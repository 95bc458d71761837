import { queryOptions } from '@tanstack/react-query';
import type { RewardActivity } from '../../contract/reward-activity';
import { apiData } from './call';
import { partnerKeys } from './partners';
import { statsKeys } from './stats';

/**
 * The weekly reward charts (decision 018): the last 12 weeks of rewards issued and redeemed and the
 * outstanding gift-card balance, club-wide (partner staff: their partner) or for one partner. A
 * module of its own, used only by the chart panels, so the sign-in bundle does not carry it.
 */
export const rewardActivityKeys = {
  club: () => [...statsKeys.all, 'reward', 'weekly'] as const,
  partner: (partnerId: number) => [...partnerKeys.detail(partnerId), 'analytics', 'weekly'] as const,
};

export const fetchRewardActivity = (): Promise<RewardActivity> =>
  apiData('GET /admin/partners/stats/reward/weekly');

export const fetchPartnerActivity = (partnerId: number): Promise<RewardActivity> =>
  apiData('GET /admin/partners/stats/partner/weekly', { query: { partnerId } });

export const rewardActivityQueryOptions = () =>
  queryOptions({ queryKey: rewardActivityKeys.club(), queryFn: fetchRewardActivity, staleTime: 60_000 });

export const partnerActivityQueryOptions = (partnerId: number) =>
  queryOptions({
    queryKey: rewardActivityKeys.partner(partnerId),
    queryFn: () => fetchPartnerActivity(partnerId),
    staleTime: 60_000,
  });
