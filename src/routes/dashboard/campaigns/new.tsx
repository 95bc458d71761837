import { createFileRoute } from '@tanstack/react-router';
import { RouteErrorState } from '../../../components/forbidden-state';
import { screenGuard } from '../../../components/screens';
import { NewCampaignScreen } from './-components/campaign-form-screen';

export const Route = createFileRoute('/dashboard/campaigns/new')({
  beforeLoad: screenGuard('/dashboard/campaigns/new'),
  errorComponent: RouteErrorState,
  component: NewCampaignScreen,
});
