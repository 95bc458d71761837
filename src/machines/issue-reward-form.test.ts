import { describe, expect, it } from 'vitest';
import { issueRewardBodySchema, rewardMessages } from '../../contract/rewards';
import { initialIssueValues, toIssueRewardBody, validateIssueValues } from './issue-reward-form';

const filled = { ...initialIssueValues(), title: 'Gift', description: 'Thanks', promotionalImage: 'iVBOR' };

describe('issue reward form rules (docs/product.md#validation)', () => {
  it('requires type, image, title and description', () => {
    expect(validateIssueValues(initialIssueValues())).toEqual({
      rewardType: rewardMessages.rewardTypeRequired,
      promotionalImage: rewardMessages.promotionalImageRequired,
      title: rewardMessages.titleRequired,
      description: rewardMessages.descriptionRequired,
    });
  });

  it('checks only the chosen type amount, with the product.md messages', () => {
    const gift = { ...filled, rewardType: 'GIFTCARD' as const, percentageDiscount: 'x' };
    expect(validateIssueValues({ ...gift, issuedAmount: 'abc' })).toEqual({
      issuedAmount: rewardMessages.issuedAmountNumber,
    });
    expect(validateIssueValues({ ...gift, issuedAmount: '0' })).toEqual({
      issuedAmount: rewardMessages.issuedAmountPositive,
    });
    expect(validateIssueValues({ ...gift, issuedAmount: '-5' })).toEqual({
      issuedAmount: rewardMessages.issuedAmountPositive,
    });
    const coupon = { ...filled, rewardType: 'COUPON' as const, issuedAmount: '' };
    expect(validateIssueValues({ ...coupon, percentageDiscount: '' })).toEqual({
      percentageDiscount: rewardMessages.percentageNumber,
    });
    expect(validateIssueValues({ ...coupon, percentageDiscount: '101' })).toEqual({
      percentageDiscount: rewardMessages.percentageMax,
    });
  });

  it('sends issuedAmount only for GIFTCARD and percentageDiscount only for COUPON; defaults 2000 / 10', () => {
    const gift = toIssueRewardBody({ ...filled, rewardType: 'GIFTCARD' }, { issuedTo: 42 });
    expect(gift).toMatchObject({ issuedAmount: 2000, status: 'Active', issuedTo: 42 });
    expect(gift).not.toHaveProperty('percentageDiscount');
    expect(issueRewardBodySchema.safeParse(gift).success).toBe(true);
    const coupon = toIssueRewardBody({ ...filled, rewardType: 'COUPON' }, { issuedTo: 42, byPoints: true });
    expect(coupon).toMatchObject({ percentageDiscount: 10, byPoints: true });
    expect(coupon).not.toHaveProperty('issuedAmount');
    expect(issueRewardBodySchema.safeParse(coupon).success).toBe(true);
  });
});
