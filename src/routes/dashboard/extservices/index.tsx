import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { extendedServiceList } from '../../../../contract/extended-services';
import { extendedServiceListQueryOptions } from '../../../api/extended-services';
import { RouteErrorState } from '../../../components/forbidden-state';
import { listSearchDefaults } from '../../../lib/list-search';
import { requirePermission } from '../../../lib/use-can';
import { ExtendedServicesScreen } from './-components/extended-services-screen';

/** /dashboard/extservices?page=&pageSize=&search=&sortBy=&sortOrder= (contract: extendedServiceList). */
export const Route = createFileRoute('/dashboard/extservices/')({
  validateSearch: extendedServiceList.search,
  search: { middlewares: [stripSearchParams(listSearchDefaults(extendedServiceList.search))] },
  beforeLoad: requirePermission('extended_services.view'),
  loaderDeps: ({ search }) => search,
  loader: ({ context: { queryClient }, deps }) => {
    void queryClient.prefetchQuery(extendedServiceListQueryOptions(deps));
  },
  errorComponent: RouteErrorState,
  component: ExtendedServicesScreen,
});
