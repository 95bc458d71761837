import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { activityListQueryOptions } from '../../../api/activities';
import { RouteErrorState } from '../../../components/forbidden-state';
import { screenGuard } from '../../../components/screens';
import { listSearchDefaults } from '../../../lib/list-search';
import { ActivityLogScreen } from './-components/activity-log-screen';
import { activityListParams, activitySearchSchema } from './-components/activity-search';

export const Route = createFileRoute('/dashboard/activities/')({
  validateSearch: activitySearchSchema,
  search: { middlewares: [stripSearchParams(listSearchDefaults(activitySearchSchema))] },
  beforeLoad: screenGuard('/dashboard/activities/'),
  loaderDeps: ({ search }) => search,
  loader: ({ context: { queryClient }, deps }) => {
    void queryClient.prefetchQuery(activityListQueryOptions(activityListParams(deps)));
  },
  errorComponent: RouteErrorState,
  component: ActivityLogScreen,
});
