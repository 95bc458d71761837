import { describe, expect, it } from 'vitest';
import { otpField, redeemAmountInput, redeemGiftcardBodySchema } from './redemption';

const base = { userId: 1, code: 'GC-ABC', otp: '123456' };

describe('redeem-giftcard amounts', () => {
  it.each([0, -1, 1.005, '100', 1e308, Number.NaN, null])('refuses %s', (amountToRedeem) => {
    expect(redeemGiftcardBodySchema.safeParse({ ...base, amountToRedeem }).success).toBe(false);
  });
  it.each([0.29, 1, 300, 99.99, 10000])('accepts %s', (amountToRedeem) => {
    expect(redeemGiftcardBodySchema.safeParse({ ...base, amountToRedeem }).success).toBe(true);
  });
});

describe('one-time codes', () => {
  it.each(['12345', '1234567', '１２３４５６', '12345a', ' 123456', ''])('refuses %j', (otp) => {
    expect(otpField.safeParse(otp).success).toBe(false);
  });
  it('accepts six ASCII digits', () => {
    expect(otpField.safeParse('012345').success).toBe(true);
  });
});

describe('the Redeem modal amount', () => {
  it.each(['', '0', '0.00', '-5', '1.005', 'abc', '1e3'])(
    'says "Please enter a valid amount." for %j',
    (v) => {
      const r = redeemAmountInput.safeParse(v);
      expect(r.success).toBe(false);
      expect(r.error?.issues[0]?.message).toBe('Please enter a valid amount.');
    },
  );
  it.each(['1', '250.5', '250.50'])('accepts %j', (v) => {
    expect(redeemAmountInput.safeParse(v).success).toBe(true);
  });
});
