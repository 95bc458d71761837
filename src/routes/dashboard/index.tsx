import { createFileRoute } from '@tanstack/react-router';
import { profileQueryOptions } from '../../api/profile';
import { rewardStatsQueryOptions, userStatsQueryOptions } from '../../api/stats';
import { DashboardHome } from './-components/dashboard-home';

export const Route = createFileRoute('/dashboard/')({
  loader: ({ context: { queryClient } }) => {
    // Start the calls at once; the screen shows the logo spinner until they land.
    void queryClient.prefetchQuery(profileQueryOptions());
    void queryClient.prefetchQuery(userStatsQueryOptions());
    void queryClient.prefetchQuery(rewardStatsQueryOptions());
  },
  component: DashboardHome,
});
