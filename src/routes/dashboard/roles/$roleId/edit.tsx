import { createFileRoute } from '@tanstack/react-router';
import { permissionsQueryOptions, roleDetailQueryOptions } from '../../../../api/roles';
import { RouteErrorState } from '../../../../components/forbidden-state';
import { screenGuard } from '../../../../components/screens';
import { idParams } from '../../../../lib/id-param';
import { RoleFormScreen } from '../-components/role-form-screen';

export const Route = createFileRoute('/dashboard/roles/$roleId/edit')({
  params: idParams('roleId'),
  beforeLoad: screenGuard('/dashboard/roles/$roleId/edit'),
  loader: ({ context: { queryClient }, params }) => {
    void queryClient.prefetchQuery(permissionsQueryOptions());
    void queryClient.prefetchQuery(roleDetailQueryOptions(params.roleId));
  },
  errorComponent: RouteErrorState,
  component: EditRole,
});

function EditRole() {
  const { roleId } = Route.useParams();
  return <RoleFormScreen roleId={roleId} />;
}
