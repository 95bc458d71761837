import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { extendedServiceList } from '../../../../contract/extended-services';
import { extendedServiceListQueryOptions } from '../../../api/extended-services';
import { RouteErrorState } from '../../../components/forbidden-state';
import { screenGuard } from '../../../components/screens';
import { listSearchDefaults } from '../../../lib/list-search';
import { ExtendedServicesScreen } from './-components/extended-services-screen';

/** /dashboard/extservices?page=&pageSize=&search=&sortBy=&sortOrder= (contract: extendedServiceList). */
export const Route = createFileRoute('/dashboard/extservices/')({
  validateSearch: extendedServiceList.search,
  search: { middlewares: [stripSearchParams(listSearchDefaults(extendedServiceList.search))] },
  beforeLoad: screenGuard('/dashboard/extservices/'),
  loaderDeps: ({ search }) => search,
  loader: ({ context: { queryClient }, deps }) => {
    void queryClient.prefetchQuery(extendedServiceListQueryOptions(deps));
  },
  errorComponent: RouteErrorState,
  component: ExtendedServicesScreen,
});
