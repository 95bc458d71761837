import { createFileRoute } from '@tanstack/react-router';
import { clientInternetInfoQueryOptions, customerDetailQueryOptions } from '../../../../api/customers';
import { RouteErrorState } from '../../../../components/forbidden-state';
import { parseIdParam } from '../../../../lib/id-param';
import { requirePermission } from '../../../../lib/use-can';
import { ClientDetailScreen } from '../-components/client-detail-screen';

export const Route = createFileRoute('/dashboard/clients/$clientId/')({
  params: {
    parse: ({ clientId }) => ({ clientId: parseIdParam(clientId) }),
    stringify: ({ clientId }) => ({ clientId: String(clientId) }),
  },
  beforeLoad: requirePermission('clients.view'),
  loader: ({ context: { queryClient }, params }) => {
    void queryClient.prefetchQuery(customerDetailQueryOptions(params.clientId));
    void queryClient.prefetchQuery(clientInternetInfoQueryOptions(params.clientId));
  },
  errorComponent: RouteErrorState,
  component: ClientDetailScreen,
});
