import { createFileRoute } from '@tanstack/react-router';
import { extendedServiceChoicesQueryOptions } from '../../../api/extended-services';
import { RouteErrorState } from '../../../components/forbidden-state';
import { screenGuard } from '../../../components/screens';
import { AddPartnerScreen } from './-components/add-partner-screen';

export const Route = createFileRoute('/dashboard/partners/add')({
  beforeLoad: screenGuard('/dashboard/partners/add'),
  loader: ({ context: { queryClient } }) => {
    void queryClient.prefetchQuery(extendedServiceChoicesQueryOptions());
  },
  errorComponent: RouteErrorState,
  component: AddPartnerScreen,
});
