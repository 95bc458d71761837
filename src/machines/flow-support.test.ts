import { describe, expect, it } from 'vitest';
import { attemptsLeftOf, errorText } from '../lib/error-message';
import { newIdempotencyKey } from '../lib/idempotency-key';

describe('flow support', () => {
  it('errorText reads as sentences, never field names (issue 16)', () => {
    expect(
      errorText({
        status: 400,
        message: 'Bad',
        errors: [
          { fieldName: 'title', message: 'Title is required' },
          { fieldName: 'email', message: 'pls provide a valid email' },
          { fieldName: 'customerId', message: 'Customer is blocked.' },
        ],
      }),
    ).toBe('Title is required. Pls provide a valid email. Customer is blocked.');
    expect(errorText({ status: 0, message: 'Network Error', errors: [] })).toBe('Network Error');
    expect(errorText(null)).toBe('An error occurred');
  });

  it('reads the attempts left from the OTP check message', () => {
    expect(attemptsLeftOf({ message: 'Invalid code. 3 attempts left.' })).toBe(3);
    expect(
      attemptsLeftOf({ message: 'x', errors: [{ fieldName: 'otp', message: 'Wrong code, 1 attempt left' }] }),
    ).toBe(1);
    expect(attemptsLeftOf({ message: 'Wrong code' })).toBeNull();
  });

  it('makes v4 UUIDs, also without crypto.randomUUID', () => {
    const original = crypto.randomUUID;
    try {
      Object.defineProperty(crypto, 'randomUUID', { value: undefined, configurable: true });
      expect(newIdempotencyKey()).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      );
    } finally {
      Object.defineProperty(crypto, 'randomUUID', { value: original, configurable: true });
    }
    expect(newIdempotencyKey()).not.toBe(newIdempotencyKey());
  });
});
