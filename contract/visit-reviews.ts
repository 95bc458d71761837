import { idField } from './ids';
import { defineList } from './list';
import { moneyAmount } from './rewards';
import { VISIT_REVIEW_STATES } from './visits';
import { z } from './zod';

/*
 * Visit review (issue 35, docs/decisions/075-visit-review.md): the queue of flagged visits, the
 * decision on one, and a partner's rules.
 */

export const visitReviewMessages = {
  notFound: 'Visit not found',
  notWaiting: (state: string) => `Only a visit waiting for review can be decided (this one is ${state})`,
  approved: 'Visit approved: it counts towards eligibility and points',
  rejected: 'Visit rejected: it does not count towards eligibility or points',
  reasonRequired: 'Give a reason',
  rulesSaved: 'Review rules saved',
  rulesEmpty: 'Send at least one of amountAbove, requireReceipt and maxVisitsPerDay',
  maxVisits: 'maxVisitsPerDay must be a whole number from 1 to 1000',
  recordedWaiting: 'Visit recorded: it waits for review before it counts',
} as const;

/** GET /admin/visit-reviews: flagged visits in one state (default: waiting), oldest visit first. */
export const visitReviewList = defineList({
  sortKeys: ['visitDate', 'totalAmount'],
  defaultSort: { sortBy: 'visitDate', sortOrder: 'asc' },
  filters: {
    partnerId: z.optional(idField('partnerId')),
    state: z._default(
      z.enum(VISIT_REVIEW_STATES, { error: `state must be one of ${VISIT_REVIEW_STATES.join(', ')}` }),
      'waiting',
    ),
  },
});
export const visitReviewListQuerySchema = visitReviewList.query;

export const visitReviewIdParamSchema = z.object({ visitId: idField('visitId') });

/** POST /admin/visit-reviews/{visitId}/reject */
export const rejectVisitBodySchema = z.strictObject({
  reason: z
    .string({ error: visitReviewMessages.reasonRequired })
    .check(
      z.trim(),
      z.minLength(1, { error: visitReviewMessages.reasonRequired }),
      z.maxLength(500, { error: 'reason must be at most 500 characters' }),
    ),
});

/**
 * PATCH /admin/partners/{partnerId}/review-rules: only the fields sent change; null turns a rule
 * off. Naira, as every amount of the API.
 */
export const reviewRulesBodySchema = z
  .strictObject({
    amountAbove: z.optional(
      z.nullable(moneyAmount('amountAbove must be a number', 'amountAbove must be positive')),
    ),
    requireReceipt: z.optional(z.boolean({ error: 'requireReceipt must be true or false' })),
    maxVisitsPerDay: z.optional(
      z.nullable(
        z
          .number({ error: visitReviewMessages.maxVisits })
          .check(
            z.int({ error: visitReviewMessages.maxVisits }),
            z.minimum(1, { error: visitReviewMessages.maxVisits }),
            z.maximum(1000, { error: visitReviewMessages.maxVisits }),
          ),
      ),
    ),
  })
  .check(
    z.refine(
      (b) => b.amountAbove !== undefined || b.requireReceipt !== undefined || b.maxVisitsPerDay !== undefined,
      { error: visitReviewMessages.rulesEmpty, path: ['amountAbove'] },
    ),
  );
export type ReviewRulesBody = z.infer<typeof reviewRulesBodySchema>;
