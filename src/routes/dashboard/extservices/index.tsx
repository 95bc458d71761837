import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { extendedServiceListQueryOptions } from '../../../api/extended-services';
import { RouteErrorState } from '../../../components/forbidden-state';
import { requirePermission } from '../../../lib/use-can';
import { EXT_SERVICE_LIST_DEFAULTS, extServiceSearchSchema } from './-components/extservice-search';
import { ExtServicesScreen } from './-components/extservices-screen';

export const Route = createFileRoute('/dashboard/extservices/')({
  validateSearch: extServiceSearchSchema,
  search: { middlewares: [stripSearchParams(EXT_SERVICE_LIST_DEFAULTS)] },
  beforeLoad: requirePermission('extended_services.view'),
  loaderDeps: ({ search }) => search,
  loader: ({ context: { queryClient }, deps }) => {
    void queryClient.prefetchQuery(extendedServiceListQueryOptions(deps));
  },
  errorComponent: RouteErrorState,
  component: ExtServicesScreen,
});
