import { createFileRoute } from '@tanstack/react-router';
import { z } from '../../../../../contract/zod';
import { eligibleUserDetailQueryOptions } from '../../../../api/visits';
import { RouteErrorState } from '../../../../components/forbidden-state';
import { screenGuard } from '../../../../components/screens';
import { todayIso } from '../../../../lib/format';
import { idParams } from '../../../../lib/id-param';
import { EligibleUserScreen } from '../-components/eligible-user-screen';

/** /dashboard/eligibility/user/{id}?partnerId=&date=YYYY-MM-DD */
const searchSchema = z.object({
  partnerId: z.catch(z.optional(z.coerce.number().check(z.int(), z.positive())), undefined),
  date: z.catch(z.optional(z.iso.date()), undefined),
});

export const Route = createFileRoute('/dashboard/eligibility/user/$userId')({
  params: idParams('userId'),
  validateSearch: searchSchema,
  beforeLoad: screenGuard('/dashboard/eligibility/user/$userId'),
  loaderDeps: ({ search }) => search,
  loader: ({ context: { queryClient }, params, deps }) => {
    if (deps.partnerId) {
      void queryClient.prefetchQuery(
        eligibleUserDetailQueryOptions(params.userId, deps.partnerId, deps.date ?? todayIso()),
      );
    }
  },
  errorComponent: RouteErrorState,
  component: EligibleUserScreen,
});
