import { createFileRoute } from '@tanstack/react-router';
import { extendedServiceDetailQueryOptions } from '../../../../api/extended-services';
import { RouteErrorState } from '../../../../components/forbidden-state';
import { screenGuard } from '../../../../components/screens';
import { idParams } from '../../../../lib/id-param';
import { EditExtendedServiceScreen } from '../-components/extended-service-form-screens';

export const Route = createFileRoute('/dashboard/extservices/$serviceId/edit')({
  params: idParams('serviceId'),
  beforeLoad: screenGuard('/dashboard/extservices/$serviceId/edit'),
  loader: ({ context: { queryClient }, params }) => {
    void queryClient.prefetchQuery(extendedServiceDetailQueryOptions(params.serviceId));
  },
  errorComponent: RouteErrorState,
  component: EditExtendedServiceScreen,
});
