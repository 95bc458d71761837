import { createFileRoute, notFound } from '@tanstack/react-router';
import { permissionsQueryOptions, roleDetailQueryOptions } from '../../../../api/roles';
import { RouteErrorState } from '../../../../components/forbidden-state';
import { requirePermission } from '../../../../lib/use-can';
import { RoleFormScreen } from '../-components/role-form-screen';

export const Route = createFileRoute('/dashboard/roles/$roleId/edit')({
  params: {
    parse: ({ roleId }) => {
      const id = Number(roleId);
      if (!Number.isSafeInteger(id) || id < 1) throw notFound();
      return { roleId: id };
    },
    stringify: ({ roleId }) => ({ roleId: String(roleId) }),
  },
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
