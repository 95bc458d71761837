import { createFileRoute } from '@tanstack/react-router';
import { permissionsQueryOptions } from '../../../api/roles';
import { RouteErrorState } from '../../../components/forbidden-state';
import { screenGuard } from '../../../components/screens';
import { RoleFormScreen } from './-components/role-form-screen';

export const Route = createFileRoute('/dashboard/roles/add')({
  beforeLoad: screenGuard('/dashboard/roles/add'),
  loader: ({ context: { queryClient } }) => {
    void queryClient.prefetchQuery(permissionsQueryOptions());
  },
  errorComponent: RouteErrorState,
  component: () => <RoleFormScreen />,
});
