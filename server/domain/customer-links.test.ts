import { describe, expect, it } from 'vitest';
import { hashLinkCode, type LinkRow, linkBlocker, linkMail, requestedKey } from './customer-links';
import { hashOtp } from './otp';

/*
 * The consent link's rules without HTTP (docs/decisions/053-customer-links.md): a request asks by the
 * whole address (any case) or by member number (`RC-` and the id); the 6-digit code is valid 5
 * minutes, 5 wrong tries lock it, a newer request replaces it.
 */

const now = new Date('2026-03-02T09:00:00.000Z');
const MIN = 60_000;

const link = (o: Partial<LinkRow> = {}): LinkRow => ({
  id: 4,
  partnerId: 2,
  customerId: 7,
  requested: 'email:ada@mail.test',
  state: 'PENDING',
  createdBy: 1,
  codeHash: 'x',
  codeExpiresAt: new Date(now.getTime() + 5 * MIN),
  attempts: 0,
  replacedAt: null,
  confirmedAt: null,
  createdAt: now,
  ...o,
});

describe('requestedKey: what the daily cap counts by', () => {
  it('an address, trimmed and in lower case', () => {
    expect(requestedKey({ email: '  Ada.Obi@Mail.TEST ' })).toBe('email:ada.obi@mail.test');
  });

  it('a member number, as the customer id whatever its spelling', () => {
    expect(requestedKey({ memberNumber: 'RC-000123' })).toBe('member:123');
    expect(requestedKey({ memberNumber: 'rc123' })).toBe('member:123');
  });

  it('a member number that names nobody is one key, "none"', () => {
    expect(requestedKey({ memberNumber: 'XY-1' })).toBe('member:none');
    expect(requestedKey({})).toBe('member:none');
  });

  it('the address decides when both are given', () => {
    expect(requestedKey({ email: 'a@mail.test', memberNumber: 'RC-000001' })).toBe('email:a@mail.test');
  });
});

describe('linkBlocker', () => {
  it('a fresh request is usable until its 5 minutes are over', () => {
    expect(linkBlocker(link(), now)).toBeNull();
    expect(linkBlocker(link({ attempts: 4 }), new Date(now.getTime() + 5 * MIN - 1))).toBeNull();
    expect(linkBlocker(link(), new Date(now.getTime() + 5 * MIN))).toEqual({ status: 400, kind: 'expired' });
    expect(linkBlocker(link({ codeExpiresAt: null }), now)).toEqual({ status: 400, kind: 'expired' });
  });

  it('five wrong tries lock it (429)', () => {
    expect(linkBlocker(link({ attempts: 5 }), now)).toEqual({ status: 429, kind: 'locked' });
    expect(linkBlocker(link({ attempts: 6 }), now)).toEqual({ status: 429, kind: 'locked' });
  });

  it('a replaced request is used up, before the lock and the expiry', () => {
    const later = new Date(now.getTime() + 10 * MIN);
    expect(linkBlocker(link({ replacedAt: now }), now)).toEqual({ status: 400, kind: 'used' });
    expect(linkBlocker(link({ replacedAt: now, attempts: 5 }), later)).toEqual({ status: 400, kind: 'used' });
    expect(linkBlocker(link({ attempts: 5 }), later)).toEqual({ status: 429, kind: 'locked' });
  });
});

describe('linkMail', () => {
  it('names the partner and the code, says it is valid 5 minutes and used once, and what to do if not asked', () => {
    const mail = linkMail('ada@mail.test', '123456', 'Mama Put');
    expect(mail.to).toBe('ada@mail.test');
    expect(mail.subject).toBe('Your Reward Club link code');
    const lines = mail.text.split('\n');
    expect(lines).toContain('Mama Put asks to record your visits and rewards with them.');
    expect(lines).toContain('Your link code is: 123456');
    expect(mail.text).toContain('valid for 5 minutes and can be used once');
    expect(mail.text).toContain('If you did not ask for this, ignore this message');
    expect(lines[0]).toBe('Hello,');
    expect(lines.at(-1)).toBe('Reward Club');
  });

  it('is in paragraphs, one blank line between them, as every mail of the club', () => {
    const paragraphs = linkMail('ada@mail.test', '123456', 'Mama Put').text.split('\n\n');
    expect(paragraphs).toHaveLength(5);
    expect(paragraphs[0]).toBe('Hello,');
    expect(paragraphs[1]).toBe('Mama Put asks to record your visits and rewards with them.');
    expect(paragraphs[2]).toBe('Your link code is: 123456');
    expect(paragraphs[3]!.split('\n')).toHaveLength(2);
    expect(paragraphs[4]).toBe('Reward Club');
  });
});

describe('hashLinkCode', () => {
  it('is bound to the request and the code, and is never a redemption code hash', () => {
    const h = hashLinkCode('secret', 4, '123456');
    expect(h).toMatch(/^[0-9a-f]{64}$/);
    expect(hashLinkCode('secret', 4, '123456')).toBe(h);
    expect(hashLinkCode('secret', 5, '123456')).not.toBe(h);
    expect(hashLinkCode('secret', 4, '123457')).not.toBe(h);
    expect(hashLinkCode('other', 4, '123456')).not.toBe(h);
    // A redemption code for customer 4 with the same digits hashes otherwise.
    expect(hashOtp('secret', 4, '123456')).not.toBe(h);
    expect(hashOtp('secret', -4, '123456')).not.toBe(h);
  });
});
