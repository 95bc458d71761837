import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { activityListQueryOptions } from '../../../api/activities';
import { RouteErrorState } from '../../../components/forbidden-state';
import { listSearchDefaults } from '../../../lib/list-search';
import { requirePermission } from '../../../lib/use-can';
import { ActivityLogScreen } from './-components/activity-log-screen';
import { activityListParams, activitySearchSchema } from './-components/activity-search';

export const Route = createFileRoute('/dashboard/activities/')({
  validateSearch: activitySearchSchema,
  search: { middlewares: [stripSearchParams(listSearchDefaults(activitySearchSchema))] },
  beforeLoad: requirePermission('activities.view'),
  loaderDeps: ({ search }) => search,
  loader: ({ context: { queryClient }, deps }) => {
    void queryClient.prefetchQuery(activityListQueryOptions(activityListParams(deps)));
  },
  errorComponent: RouteErrorState,
  component: ActivityLogScreen,
});
