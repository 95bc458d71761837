import { createFileRoute } from '@tanstack/react-router';
import { roleChoicesQueryOptions } from '../../../../api/roles';
import { staffDetailQueryOptions } from '../../../../api/staff';
import { RouteErrorState } from '../../../../components/forbidden-state';
import { idParams } from '../../../../lib/id-param';
import { requirePermission } from '../../../../lib/use-can';
import { EditStaffScreen } from '../-components/edit-staff-screen';

export const Route = createFileRoute('/dashboard/staff/$staffId/edit')({
  params: idParams('staffId'),
  beforeLoad: requirePermission('staff.update'),
  loader: ({ context: { queryClient }, params }) => {
    void queryClient.prefetchQuery(roleChoicesQueryOptions());
    void queryClient.prefetchQuery(staffDetailQueryOptions(params.staffId));
  },
  errorComponent: RouteErrorState,
  component: EditStaffScreen,
});
