import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { roleListQueryOptions } from '../../../api/roles';
import { staffListQueryOptions } from '../../../api/staff';
import { RouteErrorState } from '../../../components/forbidden-state';
import { screenGuard } from '../../../components/screens';
import { can } from '../../../lib/permissions';
import { StaffScreen } from './-components/staff-screen';
import { STAFF_LIST_DEFAULTS, staffSearchSchema } from './-components/staff-search';

export const Route = createFileRoute('/dashboard/staff/')({
  validateSearch: staffSearchSchema,
  search: { middlewares: [stripSearchParams(STAFF_LIST_DEFAULTS)] },
  beforeLoad: screenGuard('/dashboard/staff/'),
  loaderDeps: ({ search }) => search,
  loader: ({ context: { queryClient, session }, deps }) => {
    const user = session.getSnapshot().context.session?.user;
    if (deps.activeTab === 'roles' && can(user, 'roles.view')) {
      void queryClient.prefetchQuery(roleListQueryOptions(deps));
    } else if (can(user, 'staff.view')) {
      void queryClient.prefetchQuery(staffListQueryOptions(deps));
    }
  },
  errorComponent: RouteErrorState,
  component: StaffScreen,
});
