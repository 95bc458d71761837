import { describe, expect, it } from 'vitest';
import { newOpaqueToken, sha256Hex, signAccessToken, verifyAccessToken } from './tokens';

const secret = 's'.repeat(40);
const now = new Date('2026-03-02T09:00:00Z');

describe('access tokens', () => {
  it('round-trip the user and session until they expire', async () => {
    const token = await signAccessToken({ userId: 7, sessionId: 'fam-1' }, { secret, ttlSeconds: 900, now });
    expect(await verifyAccessToken(token, { secret, now })).toEqual({ userId: 7, sessionId: 'fam-1' });
    expect(await verifyAccessToken(token, { secret, now: new Date(now.getTime() + 899_000) })).not.toBeNull();
    expect(await verifyAccessToken(token, { secret, now: new Date(now.getTime() + 900_000) })).toBeNull();
  });

  it('reject another secret, tampering and alg none', async () => {
    const token = await signAccessToken({ userId: 7, sessionId: 'f' }, { secret, ttlSeconds: 900, now });
    expect(await verifyAccessToken(token, { secret: 'x'.repeat(40), now })).toBeNull();
    const [, payload] = token.split('.');
    const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${payload}.`;
    expect(await verifyAccessToken(none, { secret, now })).toBeNull();
    expect(await verifyAccessToken('a.b.c', { secret, now })).toBeNull();
  });
});

describe('opaque tokens', () => {
  it('are 256-bit, unique, stored as sha256', () => {
    const a = newOpaqueToken();
    expect(Buffer.from(a, 'base64url')).toHaveLength(32);
    expect(a).not.toBe(newOpaqueToken());
    expect(sha256Hex(a)).toMatch(/^[0-9a-f]{64}$/);
  });
});
