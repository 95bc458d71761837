import { createFileRoute } from '@tanstack/react-router';
import { customerDetailQueryOptions } from '../../../../api/customers';
import { RouteErrorState } from '../../../../components/forbidden-state';
import { parseIdParam } from '../../../../lib/id-param';
import { requirePermission } from '../../../../lib/use-can';
import { EditCustomerScreen } from '../-components/edit-customer-screen';

export const Route = createFileRoute('/dashboard/clients/$clientId/edit')({
  params: {
    parse: ({ clientId }) => ({ clientId: parseIdParam(clientId) }),
    stringify: ({ clientId }) => ({ clientId: String(clientId) }),
  },
  beforeLoad: requirePermission('clients.update'),
  loader: ({ context: { queryClient }, params }) => {
    void queryClient.prefetchQuery(customerDetailQueryOptions(params.clientId));
  },
  errorComponent: RouteErrorState,
  component: EditCustomerScreen,
});
