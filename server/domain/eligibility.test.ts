import { describe, expect, it } from 'vitest';
import { formatNaira } from '../../contract/money';
import {
  eligibilityMessage,
  eligibilityVerdict,
  eligibilityWindow,
  inWindow,
  isEligible,
  lagosDate,
  lagosDayStart,
} from './eligibility';

describe('the 30-day window', () => {
  const w = eligibilityWindow('2026-03-31');

  it('runs from D-29 00:00 to D 23:59:59.999, Lagos time (UTC+1)', () => {
    expect(w.start.toISOString()).toBe('2026-03-01T23:00:00.000Z'); // 2 March 00:00 Lagos
    expect(w.endExclusive.toISOString()).toBe('2026-03-31T23:00:00.000Z'); // 1 April 00:00 Lagos
  });

  it('includes both edge instants and nothing beyond them', () => {
    expect(inWindow(w, new Date('2026-03-02T00:00:00.000+01:00'))).toBe(true);
    expect(inWindow(w, new Date('2026-03-01T23:59:59.999+01:00'))).toBe(false);
    expect(inWindow(w, new Date('2026-03-31T23:59:59.999+01:00'))).toBe(true);
    expect(inWindow(w, new Date('2026-04-01T00:00:00.000+01:00'))).toBe(false);
  });

  it('is exactly 30 days long across month and year ends', () => {
    for (const day of ['2026-01-01', '2024-03-01', '2026-12-31']) {
      const x = eligibilityWindow(day);
      expect(x.endExclusive.getTime() - x.start.getTime()).toBe(30 * 24 * 3600 * 1000);
    }
    expect(eligibilityWindow('2026-01-01').start.toISOString()).toBe('2025-12-02T23:00:00.000Z');
  });

  it('today is the Lagos calendar day: 23:30 UTC is already tomorrow in Lagos', () => {
    expect(lagosDate(new Date('2026-03-01T22:59:59.999Z'))).toBe('2026-03-01');
    expect(lagosDate(new Date('2026-03-01T23:00:00.000Z'))).toBe('2026-03-02');
    expect(lagosDayStart('2026-03-02').toISOString()).toBe('2026-03-01T23:00:00.000Z');
  });
});

describe('the rule and its message', () => {
  it('spend equal to the minimum qualifies; a kobo less does not', () => {
    expect(isEligible(10_000, 10_000)).toBe(true);
    expect(isEligible('10000.00', 10_000)).toBe(true);
    expect(isEligible(9_999.99, 10_000)).toBe(false);
    expect(isEligible(0.1 + 0.2, 0.3)).toBe(true); // no binary-fraction surprises
  });

  it('says why, in naira as the SPA prints it (contract/money.ts)', () => {
    expect(eligibilityMessage(12_500, 10_000)).toBe('Spent ₦12,500.00 of ₦10,000.00');
    expect(eligibilityMessage(9_999.5, 10_000)).toBe('Spent ₦9,999.50 of ₦10,000.00');
    expect(formatNaira(1_234_567)).toBe('₦1,234,567.00');
    expect(formatNaira('10000.50')).toBe('₦10,000.50');
  });

  it('eligible customers get a gift card; others none', () => {
    expect(eligibilityVerdict(10_000, 10_000)).toEqual({
      isEligible: true,
      rewardType: 'GIFTCARD',
      message: 'Spent ₦10,000.00 of ₦10,000.00',
    });
    expect(eligibilityVerdict(4_000, 10_000)).toEqual({
      isEligible: false,
      rewardType: null,
      message: 'Spent ₦4,000.00 of ₦10,000.00',
    });
  });
});
