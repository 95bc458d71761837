import { createFileRoute } from '@tanstack/react-router';
import { campaignDetailQueryOptions } from '../../../api/campaigns';
import { RouteErrorState } from '../../../components/forbidden-state';
import { screenGuard } from '../../../components/screens';
import { idParams } from '../../../lib/id-param';
import { CampaignDetailScreen } from './-components/campaign-detail-screen';

export const Route = createFileRoute('/dashboard/campaigns/$campaignId')({
  params: idParams('campaignId'),
  beforeLoad: screenGuard('/dashboard/campaigns/$campaignId'),
  loader: ({ context: { queryClient }, params }) => {
    void queryClient.prefetchQuery(campaignDetailQueryOptions(params.campaignId));
  },
  errorComponent: RouteErrorState,
  component: CampaignDetailScreen,
});
