import { describe, expect, it } from 'vitest';
import { approvalReasons, faceValue } from './campaigns';

/*
 * What the thresholds compare (docs/decisions/070-campaigns-and-four-eyes.md): a campaign waits when
 * its total face value (customers × the gift card's amount) is strictly above `campaignTotalAbove`,
 * or its one reward's amount strictly above `singleRewardAbove`, compared in kobo; a coupon has no
 * face value in naira (it counts 0).
 */

describe('faceValue', () => {
  it("a gift card's amount times the customers, exact to the kobo", () => {
    expect(faceValue(3, 5_000)).toBe(15_000);
    expect(faceValue(3, 0.1)).toBe(0.3);
    expect(faceValue(7, 1_234.56)).toBe(8_641.92);
    expect(faceValue(0, 5_000)).toBe(0);
  });

  it('a coupon counts 0', () => {
    expect(faceValue(40, null)).toBe(0);
  });
});

describe('approvalReasons', () => {
  const none = { campaignTotalAbove: null, singleRewardAbove: null };

  it('no thresholds: nothing waits', () => {
    expect(approvalReasons(none, { totalValue: 10_000_000, issuedAmount: 1_000_000 })).toEqual([]);
  });

  it('a total strictly above campaignTotalAbove waits, with both amounts in naira', () => {
    expect(
      approvalReasons({ ...none, campaignTotalAbove: 100_000 }, { totalValue: 150_000, issuedAmount: 5_000 }),
    ).toEqual(['Total ₦150,000.00 is above the ₦100,000.00 that needs a second person']);
    expect(
      approvalReasons(
        { ...none, campaignTotalAbove: 100_000 },
        { totalValue: 100_000.01, issuedAmount: 5_000 },
      ),
    ).toHaveLength(1);
  });

  it('a total at or under it, compared in kobo, does not', () => {
    expect(
      approvalReasons({ ...none, campaignTotalAbove: 100_000 }, { totalValue: 100_000, issuedAmount: 5_000 }),
    ).toEqual([]);
    expect(
      approvalReasons({ ...none, campaignTotalAbove: 0.3 }, { totalValue: 0.1 + 0.2, issuedAmount: 0.1 }),
    ).toEqual([]);
  });

  it('one reward strictly above singleRewardAbove waits; at it, or a coupon, does not', () => {
    expect(
      approvalReasons({ ...none, singleRewardAbove: 50_000 }, { totalValue: 60_000, issuedAmount: 60_000 }),
    ).toEqual(['Each reward of ₦60,000.00 is above the ₦50,000.00 that needs a second person']);
    expect(
      approvalReasons({ ...none, singleRewardAbove: 50_000 }, { totalValue: 500_000, issuedAmount: 50_000 }),
    ).toEqual([]);
    expect(approvalReasons({ ...none, singleRewardAbove: 0 }, { totalValue: 0, issuedAmount: null })).toEqual(
      [],
    );
    expect(
      approvalReasons({ ...none, singleRewardAbove: 0 }, { totalValue: 0, issuedAmount: 0.01 }),
    ).toHaveLength(1);
  });

  it('both above: both reasons, the total first', () => {
    expect(
      approvalReasons(
        { campaignTotalAbove: 100_000, singleRewardAbove: 50_000 },
        { totalValue: 120_000, issuedAmount: 60_000 },
      ),
    ).toEqual([
      'Total ₦120,000.00 is above the ₦100,000.00 that needs a second person',
      'Each reward of ₦60,000.00 is above the ₦50,000.00 that needs a second person',
    ]);
  });
});
