import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { activityListQueryOptions } from '../../../api/activities';
import { RouteErrorState } from '../../../components/forbidden-state';
import { requirePermission } from '../../../lib/use-can';
import { ActivityLogScreen } from './-components/activity-log-screen';
import {
  ACTIVITY_LIST_DEFAULTS,
  activityListParams,
  activitySearchSchema,
} from './-components/activity-search';

export const Route = createFileRoute('/dashboard/activities/')({
  validateSearch: activitySearchSchema,
  search: { middlewares: [stripSearchParams(ACTIVITY_LIST_DEFAULTS)] },
  beforeLoad: requirePermission('activities.view'),
  loaderDeps: ({ search }) => search,
  loader: ({ context: { queryClient }, deps }) => {
    void queryClient.prefetchQuery(activityListQueryOptions(activityListParams(deps)));
  },
  errorComponent: RouteErrorState,
  component: ActivityLogScreen,
});
