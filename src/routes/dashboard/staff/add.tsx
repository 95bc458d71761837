import { createFileRoute } from '@tanstack/react-router';
import { roleChoicesQueryOptions } from '../../../api/roles';
import { RouteErrorState } from '../../../components/forbidden-state';
import { screenGuard } from '../../../components/screens';
import { InviteStaffScreen } from './-components/invite-staff-screen';

export const Route = createFileRoute('/dashboard/staff/add')({
  beforeLoad: screenGuard('/dashboard/staff/add'),
  loader: ({ context: { queryClient } }) => {
    void queryClient.prefetchQuery(roleChoicesQueryOptions());
  },
  errorComponent: RouteErrorState,
  component: InviteStaffScreen,
});
