import type { ReviewRules } from '../../contract/partners';
import { type ReviewRulesBody, visitReviewMessages } from '../../contract/visit-reviews';
import { z } from '../../contract/zod';

/*
 * The partner's visit review rules as a form (decision 075): two text fields (empty: no such rule) and
 * a checkbox. The body sends every rule, so what the form shows is what is saved.
 */

const AMOUNT = /^\d+(\.\d{1,2})?$/;

export const reviewRulesFormSchema = z.object({
  amountAbove: z.string().check(
    z.trim(),
    z.refine((v) => v === '' || (AMOUNT.test(v) && Number(v) > 0 && Number(v) <= 100_000_000), {
      error: 'Enter an amount in naira above 0 (at most 2 decimals), or leave it empty',
    }),
  ),
  requireReceipt: z.boolean(),
  maxVisitsPerDay: z.string().check(
    z.trim(),
    z.refine((v) => v === '' || (/^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= 1000), {
      error: `${visitReviewMessages.maxVisits}, or leave it empty`,
    }),
  ),
});
export type ReviewRulesForm = z.infer<typeof reviewRulesFormSchema>;

export const reviewRulesFormValues = (r: ReviewRules): ReviewRulesForm => ({
  amountAbove: r.amountAbove === null ? '' : String(r.amountAbove),
  requireReceipt: r.requireReceipt,
  maxVisitsPerDay: r.maxVisitsPerDay === null ? '' : String(r.maxVisitsPerDay),
});

export const toReviewRulesBody = (v: ReviewRulesForm): ReviewRulesBody => ({
  amountAbove: v.amountAbove.trim() === '' ? null : Number(v.amountAbove.trim()),
  requireReceipt: v.requireReceipt,
  maxVisitsPerDay: v.maxVisitsPerDay.trim() === '' ? null : Number(v.maxVisitsPerDay.trim()),
});
