import { createFileRoute } from '@tanstack/react-router';
import { approvalSettingsQueryOptions } from '../../../api/approvals';
import { RouteErrorState } from '../../../components/forbidden-state';
import { screenGuard } from '../../../components/screens';
import { ApprovalSettingsScreen } from './-components/approval-settings-screen';

export const Route = createFileRoute('/dashboard/settings/approvals')({
  beforeLoad: screenGuard('/dashboard/settings/approvals'),
  loader: ({ context: { queryClient } }) => {
    void queryClient.prefetchQuery(approvalSettingsQueryOptions());
  },
  errorComponent: RouteErrorState,
  component: ApprovalSettingsScreen,
});
