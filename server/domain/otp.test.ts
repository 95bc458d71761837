import { describe, expect, it } from 'vitest';
import {
  generateOtp,
  hashOtp,
  maskEmail,
  maskPhone,
  OTP_DAY_MS,
  OTP_TTL_MS,
  type OtpRow,
  otpBlocker,
  otpMail,
  otpMessages,
  sameHash,
} from './otp';

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
  it('live 5 minutes; the daily cap counts a rolling 24 hours (decision 007)', () => {
    expect(OTP_TTL_MS).toBe(5 * 60 * 1000);
    expect(OTP_DAY_MS).toBe(86_400_000);
  });
});

describe('masked contacts (decision 053: the first letter and the domain, the last three digits)', () => {
  it('an address keeps its first character and its domain; one without a name before @ shows nothing', () => {
    expect(maskEmail('b@mail.ng')).toBe('b***@mail.ng');
    expect(maskEmail('ab@x.ng')).toBe('a***@x.ng');
    expect(maskEmail('@mail.ng')).toBe('***');
    expect(maskEmail('no-at-sign')).toBe('***');
  });
  it('a phone shows its last three digits, a star for each other digit; none or three digits show nothing', () => {
    expect(maskPhone('08031234567')).toBe('********567');
    expect(maskPhone('+234 803 123 4567')).toBe('**********567');
    expect(maskPhone('1234')).toBe('*234');
    expect(maskPhone('123')).toBe('***');
    expect(maskPhone('12')).toBe('***');
    expect(maskPhone(null)).toBeNull();
    expect(maskPhone('')).toBe('');
  });
});

describe('why a code cannot be used', () => {
  const now = new Date('2026-03-02T09:00:00.000Z');
  const row = (o: Partial<OtpRow> = {}): OtpRow => ({
    id: 1,
    rewardId: 1,
    customerId: 1,
    codeHash: 'ab',
    expiresAt: new Date(now.getTime() + 60_000),
    attempts: 0,
    usedAt: null,
    replacedAt: null,
    mailId: null,
    requestedBy: null,
    createdAt: now,
    ...o,
  });
  it('none sent, used, locked after 5 wrong tries, expired at its expiry instant: each its code and status', () => {
    expect(otpBlocker(undefined, now)).toEqual({
      status: 400,
      message: 'No code was sent for this reward. Send a code first.',
      code: 'otp_missing',
    });
    expect(otpBlocker(row({ usedAt: now, attempts: 5, expiresAt: now }), now)).toEqual({
      status: 400,
      message: 'The code was already used. Send a new code.',
      code: 'otp_used',
    });
    expect(otpBlocker(row({ attempts: 5, expiresAt: now }), now)).toEqual({
      status: 429,
      message: 'Too many wrong codes. Send a new code.',
      code: 'otp_locked',
    });
    expect(otpBlocker(row({ expiresAt: now }), now)).toEqual({
      status: 400,
      message: 'The code has expired. Send a new code.',
      code: 'otp_expired',
    });
  });
  it('a code with 4 wrong tries, a millisecond before its expiry, can still be used', () => {
    expect(otpBlocker(row({ attempts: 4, expiresAt: new Date(now.getTime() + 1) }), now)).toBeNull();
  });
});

describe('the code mail', () => {
  it('names the partner and the reward, gives the code on a line of its own, 5 minutes, once', () => {
    const mail = otpMail('ada.obi@mail.ng', '042917', 'Thank you card', 'Mama Put');
    expect(mail.to).toBe('ada.obi@mail.ng');
    expect(mail.subject).toBe('Your Reward Club redemption code');
    // The POS till example reads the code from this line (examples/pos-till).
    expect(mail.text).toMatch(/^Your redemption code is: 042917$/m);
    expect(mail.text).toContain('Mama Put');
    expect(mail.text).toContain('"Thank you card"');
    expect(mail.text).toContain('valid for 5 minutes');
    expect(mail.text).toContain('used once');
    expect(mail.text.split('\n').at(-1)).toBe('Reward Club');
  });
});
