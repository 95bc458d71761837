import { beforeAll, describe, expect, it } from 'vitest';
import { setupTestServer } from '../../tests/setup/server';
import { customers, partners, rewardLedger, rewards } from '../db/schema';
import { rewardStats } from './analytics';

const t = setupTestServer();
const ids = { a: 0, b: 0, c: 0 };

beforeAll(async () => {
  const made = await t.db
    .insert(partners)
    .values(
      ['A', 'B', 'C'].map((n) => ({
        firstName: n,
        lastName: 'Partner',
        email: `${n}@p.ng`,
        phone: '08030000000',
        organizationName: `Partner ${n}`,
        address: 'Lagos',
      })),
    )
    .returning({ id: partners.id });
  [ids.a, ids.b, ids.c] = made.map((p) => p.id) as [number, number, number];
  const [customer] = await t.db
    .insert(customers)
    .values({
      firstName: 'Bisi',
      lastName: 'Ade',
      email: 'bisi@x.ng',
      fiberPlan: 'Fiber Home 50',
      fiberSpeedMbps: 50,
      fiberMonthlyFee: 25000,
      fiberRenewalDate: new Date(),
    })
    .returning({ id: customers.id });

  let n = 0;
  const reward = async (
    partnerId: number,
    kind: 'GC' | 'CP' | 'DS',
    status: 'Active' | 'Redeemed' | 'Expired',
    value: number,
    ledger: ['ISSUE' | 'REDEEM' | 'REVERSAL', number][] = [],
  ) => {
    const [row] = await t.db
      .insert(rewards)
      .values({
        partnerId,
        customerId: customer!.id,
        rewardType: kind === 'GC' ? 'GIFTCARD' : 'COUPON',
        rewardTypeCategory: kind === 'DS' ? 'DISCOUNTED_SUBSCRIPTION' : 'GENERAL',
        code: `R${++n}`,
        title: 't',
        description: 'd',
        issuedAmount: kind === 'GC' ? value : null,
        percentageDiscount: kind === 'GC' ? null : value,
        balance: kind === 'GC' ? ledger.reduce((s, [, a]) => s + a, 0) : null,
        status,
      })
      .returning({ id: rewards.id });
    if (ledger.length) {
      await t.db
        .insert(rewardLedger)
        .values(ledger.map(([k, amount]) => ({ rewardId: row!.id, kind: k, amount })));
    }
  };
  // Partner A
  await reward(ids.a, 'GC', 'Active', 10000, [
    ['ISSUE', 10000],
    ['REDEEM', -3000],
    ['REDEEM', -500],
    ['REVERSAL', 500],
  ]);
  await reward(ids.a, 'GC', 'Redeemed', 5000, [
    ['ISSUE', 5000],
    ['REDEEM', -5000],
  ]);
  await reward(ids.a, 'CP', 'Redeemed', 10);
  await reward(ids.a, 'CP', 'Active', 15);
  await reward(ids.a, 'CP', 'Expired', 20);
  await reward(ids.a, 'DS', 'Redeemed', 25);
  await reward(ids.a, 'DS', 'Active', 12.5);
  // Partner B
  await reward(ids.b, 'GC', 'Active', 2000, [['ISSUE', 2000]]);
  await reward(ids.b, 'CP', 'Redeemed', 7);
});

describe('rewardStats', () => {
  it('club-wide', async () => {
    expect(await rewardStats(t.db)).toEqual({
      totalIssuedGiftcardsCount: 3,
      totalIssuedGiftcardsAmount: 17000,
      totalRedeemedIssuedGiftcards: 8000,
      totalIssuedCouponsCount: 4,
      totalRedeemedCouponsCount: 2,
      averageCouponDiscount: 13,
      couponRedemptionRate: 50,
      totalIssuedDiscountedSubscriptions: 2,
      averageDiscountedSubscriptionPercentage: 18.75,
      totalRedeemedDiscountedSubscriptions: 1,
      discountedSubscriptionRedemptionRate: 50,
    });
  });

  it('for one partner, rounding to 2 decimals', async () => {
    expect(await rewardStats(t.db, { partnerId: ids.a })).toEqual({
      totalIssuedGiftcardsCount: 2,
      totalIssuedGiftcardsAmount: 15000,
      totalRedeemedIssuedGiftcards: 8000,
      totalIssuedCouponsCount: 3,
      totalRedeemedCouponsCount: 1,
      averageCouponDiscount: 15,
      couponRedemptionRate: 33.33,
      totalIssuedDiscountedSubscriptions: 2,
      averageDiscountedSubscriptionPercentage: 18.75,
      totalRedeemedDiscountedSubscriptions: 1,
      discountedSubscriptionRedemptionRate: 50,
    });
  });

  it('zeros, not nulls or NaN, when there is nothing', async () => {
    const stats = await rewardStats(t.db, { partnerId: ids.c });
    expect(Object.values(stats).every((v) => v === 0)).toBe(true);
  });
});
