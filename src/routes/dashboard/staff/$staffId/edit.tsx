import { createFileRoute } from '@tanstack/react-router';
import { roleChoicesQueryOptions } from '../../../../api/roles';
import { staffDetailQueryOptions } from '../../../../api/staff';
import { RouteErrorState } from '../../../../components/forbidden-state';
import { screenGuard } from '../../../../components/screens';
import { idParams } from '../../../../lib/id-param';
import { EditStaffScreen } from '../-components/edit-staff-screen';

export const Route = createFileRoute('/dashboard/staff/$staffId/edit')({
  params: idParams('staffId'),
  beforeLoad: screenGuard('/dashboard/staff/$staffId/edit'),
  loader: ({ context: { queryClient }, params }) => {
    void queryClient.prefetchQuery(roleChoicesQueryOptions());
    void queryClient.prefetchQuery(staffDetailQueryOptions(params.staffId));
  },
  errorComponent: RouteErrorState,
  component: EditStaffScreen,
});
