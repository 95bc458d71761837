import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { customerListQueryOptions } from '../../../api/customers';
import { RouteErrorState } from '../../../components/forbidden-state';
import { requirePermission } from '../../../lib/use-can';
import { CLIENT_LIST_DEFAULTS, clientSearchSchema, clientStatusOfTab } from './-components/client-search';
import { ClientsScreen } from './-components/clients-screen';

export const Route = createFileRoute('/dashboard/clients/')({
  validateSearch: clientSearchSchema,
  search: { middlewares: [stripSearchParams(CLIENT_LIST_DEFAULTS)] },
  beforeLoad: requirePermission('clients.view'),
  loaderDeps: ({ search }) => search,
  loader: ({ context: { queryClient }, deps }) => {
    void queryClient.prefetchQuery(
      customerListQueryOptions({ ...deps, status: clientStatusOfTab(deps.activeTab) }),
    );
  },
  errorComponent: RouteErrorState,
  component: ClientsScreen,
});
