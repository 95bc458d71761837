import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import {
  newFamilyId,
  newJwtSecret,
  newOpaqueToken,
  sha256Hex,
  signAccessToken,
  successorToken,
  verifyAccessToken,
} from './tokens';

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

/** A token signed with `secret` as the server signs its own, with claims changed at will. */
async function mint(claims: Record<string, unknown>, o: { omit?: string[]; at?: Date; typ?: string } = {}) {
  const iat = Math.floor((o.at ?? now).getTime() / 1000);
  const payload: Record<string, unknown> = {
    iss: 'reward-club',
    aud: 'reward-club-admin',
    sub: '7',
    sid: 'fam-1',
    iat,
    exp: iat + 900,
    ...claims,
  };
  for (const k of o.omit ?? []) delete payload[k];
  return new SignJWT(payload)
    .setProtectedHeader({ alg: 'HS256', typ: o.typ ?? 'JWT' })
    .sign(new TextEncoder().encode(secret));
}

const decode = (part: string) =>
  JSON.parse(Buffer.from(part, 'base64url').toString()) as Record<string, unknown>;

describe('access token claims', () => {
  it('carry the user as sub, the session as sid, HS256, and live exactly the TTL', async () => {
    const token = await signAccessToken({ userId: 42, sessionId: 'fam-9' }, { secret, ttlSeconds: 900, now });
    const [header, payload] = token.split('.') as [string, string];
    expect(decode(header)).toEqual({ alg: 'HS256', typ: 'JWT' });
    const claims = decode(payload);
    expect(claims).toMatchObject({ sub: '42', sid: 'fam-9', iat: now.getTime() / 1000 });
    expect(claims.exp).toBe(now.getTime() / 1000 + 900);
    // Our issuer and audience: a token minted with them is accepted like the server's own.
    expect(await verifyAccessToken(await mint({}), { secret, now })).toEqual({
      userId: 7,
      sessionId: 'fam-1',
    });
  });

  it('refuse a token of another type (an ID or a refresh JWT)', async () => {
    expect(await verifyAccessToken(await mint({}, { typ: 'at+jwt' }), { secret, now })).toBeNull();
    expect(await verifyAccessToken(await mint({}, { typ: 'refresh' }), { secret, now })).toBeNull();
  });

  it('refuse another issuer or audience, and a token without any required claim', async () => {
    expect(await verifyAccessToken(await mint({ iss: 'someone-else' }), { secret, now })).toBeNull();
    expect(await verifyAccessToken(await mint({ aud: 'reward-club-customer' }), { secret, now })).toBeNull();
    for (const claim of ['exp', 'iat', 'sub', 'sid', 'iss', 'aud']) {
      expect(await verifyAccessToken(await mint({}, { omit: [claim] }), { secret, now }), claim).toBeNull();
    }
  });

  it('refuse a user id that is not a positive whole number, and a session id that is not text', async () => {
    for (const sub of ['0', '-1', '1.5', 'admin', '9007199254740993']) {
      expect(await verifyAccessToken(await mint({ sub }), { secret, now }), sub).toBeNull();
    }
    expect(await verifyAccessToken(await mint({ sub: '1' }), { secret, now })).toEqual({
      userId: 1,
      sessionId: 'fam-1',
    });
    expect(await verifyAccessToken(await mint({ sid: 5 }), { secret, now })).toBeNull();
  });

  it('refuse a token issued in the future, or before its nbf', async () => {
    const later = new Date(now.getTime() + 60_000);
    expect(await verifyAccessToken(await mint({}, { at: later }), { secret, now })).toBeNull();
    expect(await verifyAccessToken(await mint({}, { at: later }), { secret, now: later })).not.toBeNull();
    expect(
      await verifyAccessToken(await mint({ nbf: now.getTime() / 1000 + 1 }), { secret, now }),
    ).toBeNull();
  });

  it('refuse a token older than the configured TTL even when its exp is later', async () => {
    const long = await mint({ exp: now.getTime() / 1000 + 3600 });
    const at = (s: number) => new Date(now.getTime() + s * 1000);
    expect(await verifyAccessToken(long, { secret, now: at(901) })).not.toBeNull();
    expect(await verifyAccessToken(long, { secret, now: at(901), maxAgeSeconds: 900 })).toBeNull();
    expect(await verifyAccessToken(long, { secret, now: at(900), maxAgeSeconds: 900 })).not.toBeNull();
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

describe('refresh successors and secrets', () => {
  it('a successor is 256 bits, the same for the same token and secret, another for another of either', () => {
    const token = newOpaqueToken();
    const next = successorToken(token, secret);
    expect(next).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(next, 'base64url')).toHaveLength(32);
    expect(next).not.toBe(token);
    expect(successorToken(token, secret)).toBe(next);
    expect(successorToken(token, 'x'.repeat(40))).not.toBe(next);
    expect(successorToken(newOpaqueToken(), secret)).not.toBe(next);
  });

  it('sha256Hex is SHA-256 (the FIPS 180-2 example)', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex(Buffer.from('abc'))).toBe(sha256Hex('abc'));
  });

  it('a generated JWT secret is 384 random bits; a session id is a random UUID', () => {
    const s = newJwtSecret();
    expect(Buffer.from(s, 'base64url')).toHaveLength(48);
    expect(s).toMatch(/^[A-Za-z0-9_-]{64}$/);
    expect(newJwtSecret()).not.toBe(s);
    const id = newFamilyId();
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(newFamilyId()).not.toBe(id);
  });
});
