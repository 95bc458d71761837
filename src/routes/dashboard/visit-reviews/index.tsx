import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { visitReviewsQueryOptions } from '../../../api/visit-reviews';
import { RouteErrorState } from '../../../components/forbidden-state';
import { screenGuard } from '../../../components/screens';
import { listSearchDefaults } from '../../../lib/list-search';
import { visitReviewParams, visitReviewSearchSchema } from './-components/visit-review-search';
import { VisitReviewsScreen } from './-components/visit-reviews-screen';

export const Route = createFileRoute('/dashboard/visit-reviews/')({
  validateSearch: visitReviewSearchSchema,
  search: { middlewares: [stripSearchParams(listSearchDefaults(visitReviewSearchSchema))] },
  beforeLoad: screenGuard('/dashboard/visit-reviews/'),
  loaderDeps: ({ search }) => search,
  loader: ({ context: { queryClient }, deps }) => {
    void queryClient.prefetchQuery(visitReviewsQueryOptions(visitReviewParams(deps)));
  },
  errorComponent: RouteErrorState,
  component: VisitReviewsScreen,
});
