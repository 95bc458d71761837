import { createFileRoute } from '@tanstack/react-router';
import { extendedServiceChoicesQueryOptions } from '../../../api/extended-services';
import { RouteErrorState } from '../../../components/forbidden-state';
import { requirePermission } from '../../../lib/use-can';
import { AddPartnerScreen } from './-components/add-partner-screen';

export const Route = createFileRoute('/dashboard/partners/add')({
  beforeLoad: requirePermission('partners.create'),
  loader: ({ context: { queryClient } }) => {
    void queryClient.prefetchQuery(extendedServiceChoicesQueryOptions());
  },
  errorComponent: RouteErrorState,
  component: AddPartnerScreen,
});
