import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Partner API keys (docs/decisions/028-partner-api-keys.md): `rck_<prefix>_<secret>`, where the
 * prefix is 12 hex digits (48 random bits: finds the row, shown in lists) and the secret 256 random
 * bits in base64url. Only SHA-256 of the secret is stored: a 256-bit random secret needs no slow
 * hash (nothing to guess), and the comparison is constant-time.
 */
const KEY_PATTERN = /^(rck|rcc)_([0-9a-f]{12})_([A-Za-z0-9_-]{43})$/;

/**
 * Whose key it is: a partner's (`rck_`) or the club's (`rcc_`, issue 27, decision 051: the
 * subscriber sync's keys, with scopes instead of partner permissions).
 */
export type ApiKeyKind = 'partner' | 'club';
const KIND_TAG: Record<ApiKeyKind, string> = { partner: 'rck', club: 'rcc' };

export type ParsedApiKey = { kind: ApiKeyKind; prefix: string; secret: string };

export function generateApiKey(kind: ApiKeyKind = 'partner'): {
  key: string;
  prefix: string;
  secretHash: string;
} {
  const prefix = randomBytes(6).toString('hex');
  const secret = randomBytes(32).toString('base64url');
  return { key: `${KIND_TAG[kind]}_${prefix}_${secret}`, prefix, secretHash: hashApiKeySecret(secret) };
}

export const hashApiKeySecret = (secret: string) => createHash('sha256').update(secret).digest('hex');

/** The parts of a well-formed key, or null (anything else is refused before any query). */
export function parseApiKey(value: string): ParsedApiKey | null {
  const match = KEY_PATTERN.exec(value.trim());
  if (!match) return null;
  return { kind: match[1] === 'rcc' ? 'club' : 'partner', prefix: match[2]!, secret: match[3]! };
}

/** Whether `secret` hashes to `storedHash`, compared in constant time. */
export function apiKeySecretMatches(secret: string, storedHash: string): boolean {
  const given = Buffer.from(hashApiKeySecret(secret), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}
