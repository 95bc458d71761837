import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { partnerListQueryOptions, partnerStatsQueryOptions } from '../../../api/partners';
import { RouteErrorState } from '../../../components/forbidden-state';
import { screenGuard } from '../../../components/screens';
import { PARTNER_LIST_DEFAULTS, partnerSearchSchema, statusOfTab } from './-components/partner-search';
import { PartnersScreen } from './-components/partners-screen';

export const Route = createFileRoute('/dashboard/partners/')({
  validateSearch: partnerSearchSchema,
  search: { middlewares: [stripSearchParams(PARTNER_LIST_DEFAULTS)] },
  beforeLoad: screenGuard('/dashboard/partners/'),
  loaderDeps: ({ search }) => search,
  loader: ({ context: { queryClient }, deps }) => {
    void queryClient.prefetchQuery(partnerStatsQueryOptions());
    void queryClient.prefetchQuery(partnerListQueryOptions({ ...deps, status: statusOfTab(deps.activeTab) }));
  },
  errorComponent: RouteErrorState,
  component: PartnersScreen,
});
