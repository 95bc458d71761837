import { createFileRoute } from '@tanstack/react-router';
import { permissionsQueryOptions, roleDetailQueryOptions } from '../../../../api/roles';
import { RouteErrorState } from '../../../../components/forbidden-state';
import { idParams } from '../../../../lib/id-param';
import { requirePermission } from '../../../../lib/use-can';
import { RoleFormScreen } from '../-components/role-form-screen';

export const Route = createFileRoute('/dashboard/roles/$roleId/edit')({
  params: idParams('roleId'),
  beforeLoad: requirePermission('roles.update'),
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
