import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { partnerDetailQueryOptions } from '../../../../api/partners';
import { RouteErrorState } from '../../../../components/forbidden-state';
import { ownPartnerScreenGuard } from '../../../../components/screens';
import { idParams } from '../../../../lib/id-param';
import { PartnerDetailScreen } from '../-components/partner-detail-screen';
import { PARTNER_DETAIL_DEFAULTS, partnerDetailSearchSchema } from '../-components/partner-search';

export const Route = createFileRoute('/dashboard/partners/$partnerId/')({
  params: idParams('partnerId'),
  validateSearch: partnerDetailSearchSchema,
  search: { middlewares: [stripSearchParams(PARTNER_DETAIL_DEFAULTS)] },
  // Club staff with partners.view; partner staff on their own partner only (their workspace).
  beforeLoad: ownPartnerScreenGuard('/dashboard/partners/$partnerId/'),
  loader: ({ context: { queryClient }, params }) => {
    void queryClient.prefetchQuery(partnerDetailQueryOptions(params.partnerId));
  },
  errorComponent: RouteErrorState,
  component: PartnerDetailScreen,
});
