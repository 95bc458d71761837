import { describe, expect, it } from 'vitest';
import { generateOtp, hashOtp, maskEmail, otpMessages, sameHash } from './otp';

describe('redemption codes', () => {
  it('are six ASCII digits', () => {
    for (let i = 0; i < 200; i++) expect(generateOtp()).toMatch(/^[0-9]{6}$/);
  });
  it('hash with the server secret and the customer: no code in the hash, equal only for equal input', () => {
    const h = hashOtp('secret-a', 7, '123456');
    expect(h).not.toContain('123456');
    expect(sameHash(h, hashOtp('secret-a', 7, '123456'))).toBe(true);
    expect(sameHash(h, hashOtp('secret-b', 7, '123456'))).toBe(false);
    expect(sameHash(h, hashOtp('secret-a', 8, '123456'))).toBe(false);
    expect(sameHash(h, hashOtp('secret-a', 7, '123457'))).toBe(false);
  });
  it('mask the address and say how many tries are left', () => {
    expect(maskEmail('ada.obi@mail.ng')).toBe('a***@mail.ng');
    expect(otpMessages.wrong(3)).toBe('The code is not correct. 3 attempts left.');
    expect(otpMessages.wrong(1)).toBe('The code is not correct. 1 attempt left.');
  });
});
