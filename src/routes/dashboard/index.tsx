import { createFileRoute, redirect } from '@tanstack/react-router';
import { profileQueryOptions } from '../../api/profile';
import { rewardStatsQueryOptions, userStatsQueryOptions } from '../../api/stats';
import { ownPartnerId } from '../../lib/permissions';
import { DashboardHome } from './-components/dashboard-home';

export const Route = createFileRoute('/dashboard/')({
  // Partner staff land on their own partner's page, their workspace (issue 16).
  beforeLoad: ({ context }) => {
    const partnerId = ownPartnerId(context.session.getSnapshot().context.session?.user);
    if (partnerId !== null)
      throw redirect({ to: '/dashboard/partners/$partnerId', params: { partnerId }, replace: true });
  },
  loader: ({ context: { queryClient } }) => {
    // Start the calls at once; the screen shows the logo spinner until they land.
    void queryClient.prefetchQuery(profileQueryOptions());
    void queryClient.prefetchQuery(userStatsQueryOptions());
    void queryClient.prefetchQuery(rewardStatsQueryOptions());
  },
  component: DashboardHome,
});
