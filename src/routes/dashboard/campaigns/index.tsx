import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { campaignListQueryOptions } from '../../../api/campaigns';
import { RouteErrorState } from '../../../components/forbidden-state';
import { screenGuard } from '../../../components/screens';
import { CAMPAIGN_SEARCH_DEFAULTS, campaignSearchSchema } from './-components/campaign-search';
import { CampaignsScreen } from './-components/campaigns-screen';

export const Route = createFileRoute('/dashboard/campaigns/')({
  validateSearch: campaignSearchSchema,
  search: { middlewares: [stripSearchParams(CAMPAIGN_SEARCH_DEFAULTS)] },
  beforeLoad: screenGuard('/dashboard/campaigns/'),
  loaderDeps: ({ search }) => search,
  loader: ({ context: { queryClient }, deps }) => {
    void queryClient.prefetchQuery(campaignListQueryOptions(deps.page, deps.pageSize, deps.state));
  },
  errorComponent: RouteErrorState,
  component: CampaignsScreen,
});
