import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { customerListQueryOptions } from '../../../api/customers';
import { RouteErrorState } from '../../../components/forbidden-state';
import { screenGuard } from '../../../components/screens';
import { listSearchDefaults } from '../../../lib/list-search';
import { customerListParams, customerSearchSchema } from './-components/customer-search';
import { CustomersScreen } from './-components/customers-screen';

export const Route = createFileRoute('/dashboard/clients/')({
  validateSearch: customerSearchSchema,
  search: { middlewares: [stripSearchParams(listSearchDefaults(customerSearchSchema))] },
  beforeLoad: screenGuard('/dashboard/clients/'),
  loaderDeps: ({ search }) => search,
  loader: ({ context: { queryClient }, deps }) => {
    void queryClient.prefetchQuery(customerListQueryOptions(customerListParams(deps)));
  },
  errorComponent: RouteErrorState,
  component: CustomersScreen,
});
