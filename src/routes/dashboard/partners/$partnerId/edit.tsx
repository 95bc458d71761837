import { createFileRoute } from '@tanstack/react-router';
import { extendedServiceChoicesQueryOptions } from '../../../../api/extended-services';
import { partnerDetailQueryOptions } from '../../../../api/partners';
import { RouteErrorState } from '../../../../components/forbidden-state';
import { screenGuard } from '../../../../components/screens';
import { idParams } from '../../../../lib/id-param';
import { EditPartnerScreen } from '../-components/edit-partner-screen';

export const Route = createFileRoute('/dashboard/partners/$partnerId/edit')({
  params: idParams('partnerId'),
  beforeLoad: screenGuard('/dashboard/partners/$partnerId/edit'),
  loader: ({ context: { queryClient }, params }) => {
    void queryClient.prefetchQuery(extendedServiceChoicesQueryOptions());
    void queryClient.prefetchQuery(partnerDetailQueryOptions(params.partnerId));
  },
  errorComponent: RouteErrorState,
  component: EditPartnerScreen,
});
