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

  it('a gift-card amount: a number, positive, at most 2 decimals; spaces around it do not count', () => {
    const gift = { ...filled, rewardType: 'GIFTCARD' as const };
    expect(validateIssueValues({ ...gift, issuedAmount: '12.345' })).toEqual({
      issuedAmount: 'Amount can have at most 2 decimals',
    });
    expect(validateIssueValues({ ...gift, issuedAmount: '12.34' })).toEqual({});
    expect(validateIssueValues({ ...gift, issuedAmount: ' 2500 ' })).toEqual({});
    expect(validateIssueValues({ ...gift, issuedAmount: '0.01' })).toEqual({});
    expect(validateIssueValues({ ...gift, issuedAmount: '1e3' })).toEqual({
      issuedAmount: 'Issued amount must be a number',
    });
    expect(validateIssueValues({ ...gift, issuedAmount: '12.' })).toEqual({
      issuedAmount: 'Issued amount must be a number',
    });
    expect(validateIssueValues({ ...gift, issuedAmount: '-0.5' })).toEqual({
      issuedAmount: 'Issued amount must be a positive number',
    });
    expect(validateIssueValues({ ...gift, issuedAmount: '5 000' })).toEqual({
      issuedAmount: 'Issued amount must be a number',
    });
  });

  it('a coupon percentage: a number, positive, at most 100', () => {
    const coupon = { ...filled, rewardType: 'COUPON' as const };
    expect(validateIssueValues({ ...coupon, percentageDiscount: '100' })).toEqual({});
    expect(validateIssueValues({ ...coupon, percentageDiscount: '12.5' })).toEqual({});
    expect(validateIssueValues({ ...coupon, percentageDiscount: '100.01' })).toEqual({
      percentageDiscount: 'Percentage Discount cannot exceed 100',
    });
    expect(validateIssueValues({ ...coupon, percentageDiscount: '0' })).toEqual({
      percentageDiscount: 'Percentage Discount must be a positive number',
    });
    expect(validateIssueValues({ ...coupon, percentageDiscount: '-5' })).toEqual({
      percentageDiscount: 'Percentage Discount must be a positive number',
    });
    expect(validateIssueValues({ ...coupon, percentageDiscount: 'ten' })).toEqual({
      percentageDiscount: 'Percentage Discount must be a number',
    });
  });

  it('a title or description of spaces only is missing', () => {
    expect(
      validateIssueValues({ ...filled, rewardType: 'GIFTCARD', title: '   ', description: ' \t ' }),
    ).toEqual({ title: 'Title is required', description: 'Description is required' });
  });

  it('sends category, expiry, partner and points only when given; title and description trimmed', () => {
    const plain = toIssueRewardBody(
      { ...filled, rewardType: 'GIFTCARD', title: '  Gift ', description: ' Thanks  ' },
      { issuedTo: 42 },
    );
    expect(plain).toEqual({
      rewardType: 'GIFTCARD',
      issuedAmount: 2000,
      promotionalImage: 'iVBOR',
      title: 'Gift',
      description: 'Thanks',
      issuedTo: 42,
      status: 'Active',
    });
    const full = toIssueRewardBody(
      {
        ...filled,
        rewardType: 'COUPON',
        rewardTypeCategory: 'DISCOUNTED_SUBSCRIPTION',
        percentageDiscount: '25',
        expiryDate: '2027-01-31',
      },
      { issuedTo: 42, partnerId: 3, byPoints: true },
    );
    expect(full).toEqual({
      rewardType: 'COUPON',
      rewardTypeCategory: 'DISCOUNTED_SUBSCRIPTION',
      percentageDiscount: 25,
      expiryDate: '2027-01-31',
      promotionalImage: 'iVBOR',
      title: 'Gift',
      description: 'Thanks',
      issuedTo: 42,
      partnerId: 3,
      byPoints: true,
      status: 'Active',
    });
    expect(issueRewardBodySchema.safeParse(full).success).toBe(true);
    expect(
      toIssueRewardBody({ ...filled, rewardType: 'GIFTCARD' }, { issuedTo: 42, byPoints: false }),
    ).not.toHaveProperty('byPoints');
  });
});
