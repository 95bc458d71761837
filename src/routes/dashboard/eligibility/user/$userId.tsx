import { createFileRoute } from '@tanstack/react-router';
import { z } from '../../../../../contract/zod';
import { eligibleUserDetailQueryOptions } from '../../../../api/visits';
import { RouteErrorState } from '../../../../components/forbidden-state';
import { todayIso } from '../../../../lib/format';
import { idParams } from '../../../../lib/id-param';
import { requirePermission } from '../../../../lib/use-can';
import { EligibleUserScreen } from '../-components/eligible-user-screen';

/** /dashboard/eligibility/user/{id}?partnerId=&date=YYYY-MM-DD */
const searchSchema = z.object({
  partnerId: z.catch(z.optional(z.coerce.number().check(z.int(), z.positive())), undefined),
  date: z.catch(z.optional(z.iso.date()), undefined),
});

export const Route = createFileRoute('/dashboard/eligibility/user/$userId')({
  params: idParams('userId'),
  validateSearch: searchSchema,
  beforeLoad: requirePermission('visits.view'),
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
