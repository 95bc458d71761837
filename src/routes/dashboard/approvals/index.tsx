import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { approvalsQueryOptions } from '../../../api/approvals';
import { RouteErrorState } from '../../../components/forbidden-state';
import { screenGuard } from '../../../components/screens';
import { APPROVAL_SEARCH_DEFAULTS, approvalSearchSchema } from './-components/approval-search';
import { ApprovalsScreen } from './-components/approvals-screen';

export const Route = createFileRoute('/dashboard/approvals/')({
  validateSearch: approvalSearchSchema,
  search: { middlewares: [stripSearchParams(APPROVAL_SEARCH_DEFAULTS)] },
  beforeLoad: screenGuard('/dashboard/approvals/'),
  loaderDeps: ({ search }) => search,
  loader: ({ context: { queryClient }, deps }) => {
    void queryClient.prefetchQuery(approvalsQueryOptions(deps));
  },
  errorComponent: RouteErrorState,
  component: ApprovalsScreen,
});
