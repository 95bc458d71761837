import { createFileRoute } from '@tanstack/react-router';
import { extendedServiceChoicesQueryOptions } from '../../../../api/extended-services';
import { partnerDetailQueryOptions } from '../../../../api/partners';
import { RouteErrorState } from '../../../../components/forbidden-state';
import { idParams } from '../../../../lib/id-param';
import { requirePermission } from '../../../../lib/use-can';
import { EditPartnerScreen } from '../-components/edit-partner-screen';

export const Route = createFileRoute('/dashboard/partners/$partnerId/edit')({
  params: idParams('partnerId'),
  beforeLoad: requirePermission('partners.update'),
  loader: ({ context: { queryClient }, params }) => {
    void queryClient.prefetchQuery(extendedServiceChoicesQueryOptions());
    void queryClient.prefetchQuery(partnerDetailQueryOptions(params.partnerId));
  },
  errorComponent: RouteErrorState,
  component: EditPartnerScreen,
});
