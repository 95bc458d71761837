import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { partnerListQueryOptions, partnerStatsQueryOptions } from '../../../api/partners';
import { RouteErrorState } from '../../../components/forbidden-state';
import { requirePermission } from '../../../lib/use-can';
import { PARTNER_LIST_DEFAULTS, partnerSearchSchema, statusOfTab } from './-components/partner-search';
import { PartnersScreen } from './-components/partners-screen';

export const Route = createFileRoute('/dashboard/partners/')({
  validateSearch: partnerSearchSchema,
  search: { middlewares: [stripSearchParams(PARTNER_LIST_DEFAULTS)] },
  beforeLoad: requirePermission('partners.view'),
  loaderDeps: ({ search }) => search,
  loader: ({ context: { queryClient }, deps }) => {
    void queryClient.prefetchQuery(partnerStatsQueryOptions());
    void queryClient.prefetchQuery(partnerListQueryOptions({ ...deps, status: statusOfTab(deps.activeTab) }));
  },
  errorComponent: RouteErrorState,
  component: PartnersScreen,
});
