import { describe, expect, it } from 'vitest';
import { type RewardActivity, rewardActivitySchema } from '../../contract/reward-activity';
import { compactFigure, shapeActivity, shortWeekLabel, weekLabel } from './reward-activity';

const MONDAYS = [
  '2025-12-08',
  '2025-12-15',
  '2025-12-22',
  '2025-12-29',
  '2026-01-05',
  '2026-01-12',
  '2026-01-19',
  '2026-01-26',
  '2026-02-02',
  '2026-02-09',
  '2026-02-16',
  '2026-02-23',
];

const activity = (
  weeks: Partial<Record<number, { ic?: number; ia?: number; rc?: number; ra?: number }>>,
): RewardActivity =>
  rewardActivitySchema.parse({
    timeZone: 'Africa/Lagos',
    weeks: MONDAYS.map((weekStart, i) => ({
      weekStart,
      issuedCount: weeks[i]?.ic ?? 0,
      issuedAmount: weeks[i]?.ia ?? 0,
      redeemedCount: weeks[i]?.rc ?? 0,
      redeemedAmount: weeks[i]?.ra ?? 0,
    })),
    outstandingGiftcardBalance: 12_500,
    outstandingGiftcardCount: 3,
    asOf: '2026-02-27T10:00:00.000Z',
  });

describe('shapeActivity', () => {
  it('gives uPlot one column per series, in week order, with axis and table labels', () => {
    const d = shapeActivity(
      activity({ 0: { ic: 2, ia: 5_000 }, 11: { ic: 4, ia: 2_500, rc: 3, ra: 1_250.5 } }),
    );
    expect(d.x).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(d.labels[0]).toBe('8 Dec');
    expect(d.labels[11]).toBe('23 Feb');
    expect(d.weekLabels[4]).toBe('Week of January 5, 2026');
    expect(d.issuedCount).toEqual([2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4]);
    expect(d.issuedAmount).toEqual([5_000, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2_500]);
    expect(d.redeemedCount.at(-1)).toBe(3);
    expect(d.redeemedAmount.at(-1)).toBe(1_250.5);
    expect(d.totals).toEqual({
      issuedCount: 6,
      issuedAmount: 7_500,
      redeemedCount: 3,
      redeemedAmount: 1_250.5,
    });
    expect(d.isEmpty).toBe(false);
  });

  it('says the figures in one sentence for screen readers, naming the busiest week', () => {
    const d = shapeActivity(
      activity({ 3: { ic: 9, ia: 45_000, rc: 1, ra: 500 }, 5: { ic: 9 }, 6: { rc: 2 } }),
    );
    expect(d.summary).toBe(
      'In the last 12 weeks, 18 rewards were issued (₦45,000.00 in gift cards) and 3 redemptions made ' +
        '(₦500.00 from gift cards). Most issued: 9 in the week of December 29, 2025.',
    );
  });

  it('is empty when nothing was issued or redeemed, whatever the outstanding balance', () => {
    const d = shapeActivity(activity({}));
    expect(d.isEmpty).toBe(true);
    expect(d.summary).toBe('No rewards were issued or redeemed in the last 12 weeks.');
    expect(d.totals).toEqual({ issuedCount: 0, issuedAmount: 0, redeemedCount: 0, redeemedAmount: 0 });
    // Only redemptions (cards issued earlier) is not empty.
    expect(shapeActivity(activity({ 2: { rc: 1, ra: 100 } })).isEmpty).toBe(false);
  });

  it('labels weeks by the server day whatever the browser time zone, and keeps axis figures short', () => {
    expect(shortWeekLabel('2026-03-02')).toBe('2 Mar');
    expect(weekLabel('2026-03-02')).toBe('Week of March 2, 2026');
    expect(compactFigure(950)).toBe('950');
    expect(compactFigure(1_500)).toBe('1.5K');
    expect(compactFigure(2_400_000, true)).toBe('₦2.4M');
  });
});
