import { createFileRoute } from '@tanstack/react-router';
import { customerDetailQueryOptions, customerInternetInfoQueryOptions } from '../../../../api/customers';
import { RouteErrorState } from '../../../../components/forbidden-state';
import { screenGuard } from '../../../../components/screens';
import { idParams } from '../../../../lib/id-param';
import { CustomerDetailScreen } from '../-components/customer-detail-screen';

export const Route = createFileRoute('/dashboard/clients/$clientId/')({
  params: idParams('clientId'),
  beforeLoad: screenGuard('/dashboard/clients/$clientId/'),
  loader: ({ context: { queryClient }, params }) => {
    void queryClient.prefetchQuery(customerDetailQueryOptions(params.clientId));
    void queryClient.prefetchQuery(customerInternetInfoQueryOptions(params.clientId));
  },
  errorComponent: RouteErrorState,
  component: CustomerDetailScreen,
});
