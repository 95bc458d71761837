import { queryOptions } from '@tanstack/react-query';
import type { RewardStats, UserStats } from '../../contract/stats';
import { apiData } from './call';

export const statsKeys = {
  all: ['stats'] as const,
  users: () => [...statsKeys.all, 'users'] as const,
  reward: () => [...statsKeys.all, 'reward'] as const,
};

export const fetchUserStats = (): Promise<UserStats> => apiData('GET /admin/user/stats');

export const fetchRewardStats = (): Promise<RewardStats> => apiData('GET /admin/partners/stats/reward');

export const userStatsQueryOptions = () =>
  queryOptions({ queryKey: statsKeys.users(), queryFn: fetchUserStats, staleTime: 30_000 });

export const rewardStatsQueryOptions = () =>
  queryOptions({ queryKey: statsKeys.reward(), queryFn: fetchRewardStats, staleTime: 30_000 });
