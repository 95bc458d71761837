import { createFileRoute } from '@tanstack/react-router';
import { extendedServiceDetailQueryOptions } from '../../../../api/extended-services';
import { RouteErrorState } from '../../../../components/forbidden-state';
import { idParams } from '../../../../lib/id-param';
import { requirePermission } from '../../../../lib/use-can';
import { EditExtendedServiceScreen } from '../-components/extended-service-form-screens';

export const Route = createFileRoute('/dashboard/extservices/$serviceId/edit')({
  params: idParams('serviceId'),
  beforeLoad: requirePermission('extended_services.update'),
  loader: ({ context: { queryClient }, params }) => {
    void queryClient.prefetchQuery(extendedServiceDetailQueryOptions(params.serviceId));
  },
  errorComponent: RouteErrorState,
  component: EditExtendedServiceScreen,
});
