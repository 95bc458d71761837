import { createFileRoute } from '@tanstack/react-router';
import { customerDetailQueryOptions, customerInternetInfoQueryOptions } from '../../../../api/customers';
import { RouteErrorState } from '../../../../components/forbidden-state';
import { parseIdParam } from '../../../../lib/id-param';
import { requirePermission } from '../../../../lib/use-can';
import { CustomerDetailScreen } from '../-components/customer-detail-screen';

export const Route = createFileRoute('/dashboard/clients/$clientId/')({
  params: {
    parse: ({ clientId }) => ({ clientId: parseIdParam(clientId) }),
    stringify: ({ clientId }) => ({ clientId: String(clientId) }),
  },
  beforeLoad: requirePermission('clients.view'),
  loader: ({ context: { queryClient }, params }) => {
    void queryClient.prefetchQuery(customerDetailQueryOptions(params.clientId));
    void queryClient.prefetchQuery(customerInternetInfoQueryOptions(params.clientId));
  },
  errorComponent: RouteErrorState,
  component: CustomerDetailScreen,
});
