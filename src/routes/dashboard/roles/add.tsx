import { createFileRoute } from '@tanstack/react-router';
import { permissionsQueryOptions } from '../../../api/roles';
import { RouteErrorState } from '../../../components/forbidden-state';
import { requirePermission } from '../../../lib/use-can';
import { RoleFormScreen } from './-components/role-form-screen';

export const Route = createFileRoute('/dashboard/roles/add')({
  beforeLoad: requirePermission('roles.create'),
  loader: ({ context: { queryClient } }) => {
    void queryClient.prefetchQuery(permissionsQueryOptions());
  },
  errorComponent: RouteErrorState,
  component: () => <RoleFormScreen />,
});
