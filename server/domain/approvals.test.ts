import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors';
import { decisionRefusals, expiresAt, isOverdue, requestWhat, singleRewardReasons } from './approvals';

/*
 * Four eyes on a single reward and the expiry of a request (docs/decisions/074-four-eyes-queue-and-expiry.md,
 * 070): a gift card strictly above `singleRewardAbove` (compared in kobo) waits; a coupon has no face
 * value in naira and never waits; a request not decided within `approvalExpiryDays` days expires.
 */

const DAY = 24 * 60 * 60 * 1000;
const since = new Date('2026-03-02T09:00:00.000Z');
const at = (ms: number) => new Date(since.getTime() + ms);

describe('expiresAt and isOverdue', () => {
  it('a request expires exactly its days after it began waiting', () => {
    expect(expiresAt(since, 7).toISOString()).toBe('2026-03-09T09:00:00.000Z');
    expect(expiresAt(since, 1).toISOString()).toBe('2026-03-03T09:00:00.000Z');
  });

  it('overdue from that moment on, not a millisecond before', () => {
    expect(isOverdue(since, 7, at(7 * DAY - 1))).toBe(false);
    expect(isOverdue(since, 7, at(7 * DAY))).toBe(true);
    expect(isOverdue(since, 7, at(8 * DAY))).toBe(true);
    expect(isOverdue(since, 1, at(DAY))).toBe(true);
    expect(isOverdue(since, 2, at(DAY))).toBe(false);
  });

  it('a request that never began waiting (no submit) is never overdue', () => {
    expect(isOverdue(null, 7, at(365 * DAY))).toBe(false);
  });
});

describe('singleRewardReasons', () => {
  it('strictly above the threshold it waits, with the amounts in naira', () => {
    expect(singleRewardReasons({ singleRewardAbove: 50_000 }, 60_000)).toEqual([
      'The reward of ₦60,000.00 is above the ₦50,000.00 that needs a second person',
    ]);
    expect(singleRewardReasons({ singleRewardAbove: 50_000 }, 50_000.01)).toHaveLength(1);
  });

  it('at or under the threshold, compared in kobo, it does not', () => {
    expect(singleRewardReasons({ singleRewardAbove: 50_000 }, 50_000)).toEqual([]);
    expect(singleRewardReasons({ singleRewardAbove: 50_000 }, 49_999.99)).toEqual([]);
    // 0.1 + 0.2 naira is 30 kobo, not above 30 kobo.
    expect(singleRewardReasons({ singleRewardAbove: 0.3 }, 0.1 + 0.2)).toEqual([]);
  });

  it('no threshold, or a coupon (no amount): never waits', () => {
    expect(singleRewardReasons({ singleRewardAbove: null }, 1_000_000)).toEqual([]);
    expect(singleRewardReasons({ singleRewardAbove: 0 }, null)).toEqual([]);
    expect(singleRewardReasons({ singleRewardAbove: 0 }, 0.01)).toHaveLength(1);
  });
});

describe('requestWhat', () => {
  it('a gift card by its amount, a coupon by its discount, for the customer at the partner', () => {
    expect(
      requestWhat(
        { rewardType: 'GIFTCARD', issuedAmount: 60_000, percentageDiscount: null },
        'Ada Obi',
        'Mama Put',
      ),
    ).toBe('a gift card of ₦60,000.00 for Ada Obi at Mama Put');
    expect(
      requestWhat(
        { rewardType: 'COUPON', issuedAmount: null, percentageDiscount: 15 },
        'Ada Obi',
        'Mama Put',
      ),
    ).toBe('a 15% coupon for Ada Obi at Mama Put');
  });
});

describe('decisionRefusals', () => {
  it('the maker: 403 maker_cannot_decide, no field named', () => {
    const e = decisionRefusals.own();
    expect(e).toBeInstanceOf(ApiError);
    expect(e.status).toBe(403);
    expect(e.code).toBe('maker_cannot_decide');
    expect(e.errors).toEqual([]);
    expect(e.message).toBe('The maker of a request cannot approve or reject it: a second person must');
  });

  it('not waiting: 409 not_awaiting_approval, naming the state', () => {
    const e = decisionRefusals.notWaiting('rejected');
    expect(e.status).toBe(409);
    expect(e.code).toBe('not_awaiting_approval');
    expect(e.errors).toEqual([]);
    expect(e.message).toBe('Only a request waiting for approval can be decided (this one is rejected)');
  });

  it('expired: 409 approval_expired, naming the days', () => {
    const e = decisionRefusals.expired(7);
    expect(e.status).toBe(409);
    expect(e.code).toBe('approval_expired');
    expect(e.errors).toEqual([]);
    expect(e.message).toBe('This request was not decided within 7 days and has expired: nothing was issued');
    expect(decisionRefusals.expired(1).message).toBe(
      'This request was not decided within 1 day and has expired: nothing was issued',
    );
  });
});
