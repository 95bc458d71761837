import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { apiKeySecretMatches, generateApiKey, hashApiKeySecret, parseApiKey } from './api-keys';

/*
 * Key format and storage of docs/decisions/028-partner-api-keys.md and 051 (club keys): `rck_` (a
 * partner's) or `rcc_` (the club's), a 12-hex-digit prefix, a 256-bit secret in base64url (43
 * characters); only SHA-256 of the secret is kept.
 */

const PREFIX = '0123456789ab';
/** 43 characters of base64url. */
const SECRET = 'AAAAAAAAAAAAAAAAAAAAzzzzzzzzzz0123456789-_x';
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

describe('generateApiKey', () => {
  it("a partner's key by default: rck_, 12 hex digits, a 43-character base64url secret, its SHA-256 kept", () => {
    const g = generateApiKey();
    expect(g.key).toMatch(/^rck_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/);
    expect(g.prefix).toMatch(/^[0-9a-f]{12}$/);
    expect(g.key.slice(4, 16)).toBe(g.prefix);
    const secret = g.key.slice(17);
    expect(g.secretHash).toBe(sha256(secret));
    expect(g.secretHash).not.toContain(secret);
  });

  it("the club's key is rcc_", () => {
    const g = generateApiKey('club');
    expect(g.key).toMatch(/^rcc_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/);
    expect(generateApiKey('partner').key.startsWith('rck_')).toBe(true);
  });

  it('two keys share neither prefix nor secret', () => {
    const a = generateApiKey();
    const b = generateApiKey();
    expect(a.prefix).not.toBe(b.prefix);
    expect(a.key.slice(17)).not.toBe(b.key.slice(17));
  });

  it('a generated key parses back to its kind, prefix and secret', () => {
    for (const kind of ['partner', 'club'] as const) {
      const g = generateApiKey(kind);
      expect(parseApiKey(g.key)).toEqual({ kind, prefix: g.prefix, secret: g.key.slice(17) });
    }
  });
});

describe('hashApiKeySecret', () => {
  it('is the SHA-256 of the secret in hex', () => {
    expect(hashApiKeySecret('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe('parseApiKey', () => {
  it("reads a partner's and a club's key", () => {
    expect(parseApiKey(`rck_${PREFIX}_${SECRET}`)).toEqual({
      kind: 'partner',
      prefix: PREFIX,
      secret: SECRET,
    });
    expect(parseApiKey(`rcc_${PREFIX}_${SECRET}`)).toEqual({ kind: 'club', prefix: PREFIX, secret: SECRET });
  });

  it('surrounding blanks (a pasted key) do not matter', () => {
    expect(parseApiKey(`  rck_${PREFIX}_${SECRET}\n`)).toEqual({
      kind: 'partner',
      prefix: PREFIX,
      secret: SECRET,
    });
  });

  it('anything else is null', () => {
    const bad = [
      '',
      `rcx_${PREFIX}_${SECRET}`, // another tag
      `RCK_${PREFIX}_${SECRET}`,
      `xrck_${PREFIX}_${SECRET}`, // something before
      `rck_${PREFIX}_${SECRET}x`, // a secret of 44
      `rck_${PREFIX}_${SECRET.slice(1)}`, // a secret of 42
      `rck_${PREFIX}_${SECRET.slice(0, -1)}=`, // not base64url
      `rck_${PREFIX}_${SECRET.slice(0, -1)}+`,
      `rck_0123456789a_${SECRET}`, // a prefix of 11
      `rck_0123456789abc_${SECRET}`, // a prefix of 13
      `rck_0123456789aB_${SECRET}`, // upper-case hex
      `rck_0123456789ag_${SECRET}`, // not hex
      `rck${PREFIX}_${SECRET}`,
      `rck_${PREFIX}${SECRET}`,
      `rck_${PREFIX}_${SECRET} trailing`,
    ];
    for (const value of bad) expect(parseApiKey(value), value).toBeNull();
  });
});

describe('apiKeySecretMatches', () => {
  it('the secret whose hash is stored matches; another does not', () => {
    const stored = sha256(SECRET);
    expect(apiKeySecretMatches(SECRET, stored)).toBe(true);
    expect(apiKeySecretMatches(`${SECRET.slice(0, -1)}y`, stored)).toBe(false);
  });

  it('a stored hash of another length is no match (never an error)', () => {
    const stored = sha256(SECRET);
    expect(apiKeySecretMatches(SECRET, stored.slice(0, 32))).toBe(false);
    expect(apiKeySecretMatches(SECRET, '')).toBe(false);
    expect(apiKeySecretMatches(SECRET, `${stored}00`)).toBe(false);
  });
});
