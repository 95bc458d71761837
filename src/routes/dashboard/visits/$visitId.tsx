import { createFileRoute } from '@tanstack/react-router';
import { visitDetailQueryOptions } from '../../../api/visits';
import { RouteErrorState } from '../../../components/forbidden-state';
import { screenGuard } from '../../../components/screens';
import { idParams } from '../../../lib/id-param';
import { VisitDetailScreen } from './-components/visit-detail-screen';

export const Route = createFileRoute('/dashboard/visits/$visitId')({
  params: idParams('visitId'),
  beforeLoad: screenGuard('/dashboard/visits/$visitId'),
  loader: ({ context: { queryClient }, params }) => {
    void queryClient.prefetchQuery(visitDetailQueryOptions(params.visitId));
  },
  errorComponent: RouteErrorState,
  component: VisitDetailScreen,
});
