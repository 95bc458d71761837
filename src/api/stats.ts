import { queryOptions } from '@tanstack/react-query';
import { type RewardStats, rewardStatsSchema, type UserStats, userStatsSchema } from '../../contract/stats';
import { api } from './client';

export const statsKeys = {
  all: ['stats'] as const,
  users: () => [...statsKeys.all, 'users'] as const,
  reward: () => [...statsKeys.all, 'reward'] as const,
};

export const fetchUserStats = (): Promise<UserStats> => api().get('/admin/user/stats', userStatsSchema);

export const fetchRewardStats = (): Promise<RewardStats> =>
  api().get('/admin/partners/stats/reward', rewardStatsSchema);

export const userStatsQueryOptions = () =>
  queryOptions({ queryKey: statsKeys.users(), queryFn: fetchUserStats, staleTime: 30_000 });

export const rewardStatsQueryOptions = () =>
  queryOptions({ queryKey: statsKeys.reward(), queryFn: fetchRewardStats, staleTime: 30_000 });
