import type { ReviewRules } from '../../contract/partners';
import { type ReviewRulesBody, visitReviewList } from '../../contract/visit-reviews';
import { type Visit, visitSchema } from '../../contract/visits';
import { apiData } from './call';
import { listResource } from './list-resource';

/** The club's queue of flagged visits (decision 075), by review state and partner. */
const reviews = listResource({
  key: ['visit-reviews'],
  list: visitReviewList,
  path: '/admin/visit-reviews',
  item: visitSchema,
});

export const visitReviewKeys = reviews.keys;
export const visitReviewsQueryOptions = reviews.listQueryOptions;
/** The flagged visits of one state (and partner) as CSV. */
export const exportVisitReviews = reviews.exportCsv;

/** Approve a waiting visit: it counts towards eligibility and points. */
export const approveVisit = (visitId: number): Promise<Visit> =>
  apiData('POST /admin/visit-reviews/{visitId}/approve', { params: { visitId } });

/** Reject a waiting visit with a reason: it never counts; the partner sees the reason. */
export const rejectVisit = (visitId: number, reason: string): Promise<Visit> =>
  apiData('POST /admin/visit-reviews/{visitId}/reject', { params: { visitId }, body: { reason } });

/** A partner's review rules (only the fields sent change). */
export const saveReviewRules = (partnerId: number, body: ReviewRulesBody): Promise<ReviewRules> =>
  apiData('PATCH /admin/partners/{partnerId}/review-rules', { params: { partnerId }, body });
