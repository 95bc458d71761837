import { createFileRoute } from '@tanstack/react-router';
import { customerDetailQueryOptions } from '../../../../api/customers';
import { RouteErrorState } from '../../../../components/forbidden-state';
import { idParams } from '../../../../lib/id-param';
import { requirePermission } from '../../../../lib/use-can';
import { EditCustomerScreen } from '../-components/edit-customer-screen';

export const Route = createFileRoute('/dashboard/clients/$clientId/edit')({
  params: idParams('clientId'),
  beforeLoad: requirePermission('clients.update'),
  loader: ({ context: { queryClient }, params }) => {
    void queryClient.prefetchQuery(customerDetailQueryOptions(params.clientId));
  },
  errorComponent: RouteErrorState,
  component: EditCustomerScreen,
});
