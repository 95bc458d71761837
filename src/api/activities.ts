import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { z } from 'zod/mini';
import { activityList, activitySchema } from '../../contract/activities';
import type { UserType } from '../../contract/auth';
import { listSchema } from '../../contract/envelope';
import { type ListState, toListQuery } from '../lib/list-search';
import { api } from './client';
import { type DownloadOptions, downloadCsv } from './export';

export const activityListSchema = listSchema(activitySchema);
export type ActivityList = z.infer<typeof activityListSchema>;

export interface ActivityListParams extends ListState {
  userType: UserType;
}

const toQuery = ({ userType, ...state }: ActivityListParams) => ({
  ...toListQuery(state, activityList.sortKeys),
  userType,
});

export const activityKeys = {
  all: ['activities'] as const,
  lists: () => [...activityKeys.all, 'list'] as const,
  list: (params: ActivityListParams) => [...activityKeys.lists(), toQuery(params)] as const,
};

export const fetchActivities = (params: ActivityListParams): Promise<ActivityList> =>
  api().get('/admin/user/activities', activityListSchema, { query: toQuery(params) });

/** The activity log of the tab's user type (search, sort) as CSV. */
export const exportActivities = (params: ActivityListParams, opts?: DownloadOptions) =>
  downloadCsv('/admin/user/activities/export', toQuery(params), opts);

export const activityListQueryOptions = (params: ActivityListParams) =>
  queryOptions({
    queryKey: activityKeys.list(params),
    queryFn: () => fetchActivities(params),
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
