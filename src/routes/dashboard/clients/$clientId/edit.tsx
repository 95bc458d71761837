import { createFileRoute } from '@tanstack/react-router';
import { customerDetailQueryOptions } from '../../../../api/customers';
import { RouteErrorState } from '../../../../components/forbidden-state';
import { screenGuard } from '../../../../components/screens';
import { idParams } from '../../../../lib/id-param';
import { EditCustomerScreen } from '../-components/edit-customer-screen';

export const Route = createFileRoute('/dashboard/clients/$clientId/edit')({
  params: idParams('clientId'),
  beforeLoad: screenGuard('/dashboard/clients/$clientId/edit'),
  loader: ({ context: { queryClient }, params }) => {
    void queryClient.prefetchQuery(customerDetailQueryOptions(params.clientId));
  },
  errorComponent: RouteErrorState,
  component: EditCustomerScreen,
});
