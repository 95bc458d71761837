import { createFileRoute } from '@tanstack/react-router';
import { roleChoicesQueryOptions } from '../../../api/roles';
import { RouteErrorState } from '../../../components/forbidden-state';
import { requirePermission } from '../../../lib/use-can';
import { InviteStaffScreen } from './-components/invite-staff-screen';

export const Route = createFileRoute('/dashboard/staff/add')({
  beforeLoad: requirePermission('staff.create'),
  loader: ({ context: { queryClient } }) => {
    void queryClient.prefetchQuery(roleChoicesQueryOptions());
  },
  errorComponent: RouteErrorState,
  component: InviteStaffScreen,
});
