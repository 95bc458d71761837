import { visitReviewList } from '../../../../../contract/visit-reviews';
import type { VisitReviewState } from '../../../../../contract/visits';
import { z } from '../../../../../contract/zod';
import { tabbedListSearchSchema } from '../../../../lib/list-search';

/** The review states as tabs: the queue first, then what was decided. */
export const REVIEW_TABS = ['waiting', 'rejected', 'approved'] as const satisfies readonly VisitReviewState[];

/** /dashboard/visit-reviews?activeTab=waiting|rejected|approved&partner=&page=&pageSize=&search=&sortBy=&sortOrder= */
export const visitReviewSearchSchema = z.extend(
  tabbedListSearchSchema({ ...visitReviewList, tabs: REVIEW_TABS }),
  {
    partner: z.catch(z.optional(z.coerce.number().check(z.int(), z.positive())), undefined),
  },
);
export type VisitReviewSearch = z.output<typeof visitReviewSearchSchema>;

/** The list's query of the URL's search: the tab is the review state, `partner` the partner filter. */
export const visitReviewParams = (search: VisitReviewSearch) => ({
  ...search,
  state: search.activeTab,
  partnerId: search.partner,
});
