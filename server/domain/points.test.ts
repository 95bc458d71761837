import { describe, expect, it } from 'vitest';
import { pointsEarned, pointsForVisit, unclaimedPoints } from './points';

describe('points: 1 per ₦100, rounded down per visit', () => {
  it('a visit earns floor(total / 100)', () => {
    expect(pointsForVisit(99.99)).toBe(0);
    expect(pointsForVisit(100)).toBe(1);
    expect(pointsForVisit('12500.00')).toBe(125);
    expect(pointsForVisit(250)).toBe(2);
    expect(pointsForVisit(0)).toBe(0);
  });

  it('rounds each visit on its own, not the sum', () => {
    expect(pointsEarned([150, 150])).toBe(2);
    expect(pointsEarned([199.99, 0.01])).toBe(1);
    expect(pointsEarned([])).toBe(0);
  });

  it('claimed points are taken off, never below zero', () => {
    expect(unclaimedPoints(125, 100)).toBe(25);
    expect(unclaimedPoints(10, 25)).toBe(0);
  });
});
