import { describe, expect, it } from 'vitest';
import { reviewRulesBodySchema } from '../../contract/visit-reviews';
import { reviewRulesFormSchema, reviewRulesFormValues, toReviewRulesBody } from './review-rules-form';

const messagesOf = (values: Parameters<typeof toReviewRulesBody>[0]) =>
  Object.fromEntries(
    (reviewRulesFormSchema.safeParse(values).error?.issues ?? []).map((i) => [String(i.path[0]), i.message]),
  );

describe('the partner review rules form (decision 075)', () => {
  it('shows the rules; empty fields are no rule; what it sends is every rule, as the API takes it', () => {
    const none = reviewRulesFormValues({ amountAbove: null, requireReceipt: false, maxVisitsPerDay: null });
    expect(none).toEqual({ amountAbove: '', requireReceipt: false, maxVisitsPerDay: '' });
    expect(toReviewRulesBody(none)).toEqual({
      amountAbove: null,
      requireReceipt: false,
      maxVisitsPerDay: null,
    });
    const set = { amountAbove: ' 50000.5 ', requireReceipt: true, maxVisitsPerDay: '3' };
    expect(messagesOf(set)).toEqual({});
    const body = toReviewRulesBody(set);
    expect(body).toEqual({ amountAbove: 50_000.5, requireReceipt: true, maxVisitsPerDay: 3 });
    expect(reviewRulesBodySchema.safeParse(body).success).toBe(true);
    expect(
      reviewRulesFormValues({ amountAbove: 50_000.5, requireReceipt: true, maxVisitsPerDay: 3 }),
    ).toEqual({
      amountAbove: '50000.5',
      requireReceipt: true,
      maxVisitsPerDay: '3',
    });
  });

  it('refuses what the server would refuse, on its field', () => {
    for (const amountAbove of ['lots', '0', '-5', '10.001', '100000001']) {
      expect(
        Object.keys(messagesOf({ amountAbove, requireReceipt: false, maxVisitsPerDay: '' })),
        amountAbove,
      ).toEqual(['amountAbove']);
      const sent = Number(amountAbove);
      expect(reviewRulesBodySchema.safeParse({ amountAbove: sent }).success, amountAbove).toBe(false);
    }
    for (const maxVisitsPerDay of ['0', '1.5', 'two', '1001']) {
      expect(
        Object.keys(messagesOf({ amountAbove: '', requireReceipt: false, maxVisitsPerDay })),
        maxVisitsPerDay,
      ).toEqual(['maxVisitsPerDay']);
    }
  });
});
