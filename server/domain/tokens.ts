import { createHash, createHmac, randomBytes, randomUUID } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';

const ISSUER = 'reward-club';
const AUDIENCE = 'reward-club-admin';

const key = (secret: string) => new TextEncoder().encode(secret);

export type AccessClaims = { userId: number; sessionId: string };

/** A short-lived HS256 JWT: `sub` is the user id, `sid` the refresh-token family of the session. */
export async function signAccessToken(
  claims: AccessClaims,
  opts: { secret: string; ttlSeconds: number; now: Date },
): Promise<string> {
  const iat = Math.floor(opts.now.getTime() / 1000);
  return new SignJWT({ sid: claims.sessionId })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(String(claims.userId))
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(iat)
    .setExpirationTime(iat + opts.ttlSeconds)
    .sign(key(opts.secret));
}

/**
 * The claims of a valid token, or null for anything else: HS256 only (no `none`, no other
 * algorithm), our issuer and audience, `exp`, `iat`, `sub` and `sid` present, not expired, not before
 * its `nbf`, issued neither in the future nor longer ago than `maxAgeSeconds` (the configured TTL).
 */
export async function verifyAccessToken(
  token: string,
  opts: { secret: string; now: Date; maxAgeSeconds?: number },
): Promise<AccessClaims | null> {
  try {
    const { payload } = await jwtVerify(token, key(opts.secret), {
      algorithms: ['HS256'],
      typ: 'JWT',
      issuer: ISSUER,
      audience: AUDIENCE,
      requiredClaims: ['exp', 'iat', 'sub', 'sid'],
      currentDate: opts.now,
      clockTolerance: 0,
      ...(opts.maxAgeSeconds === undefined ? {} : { maxTokenAge: opts.maxAgeSeconds }),
    });
    if (typeof payload.iat !== 'number' || payload.iat * 1000 > opts.now.getTime()) return null;
    const userId = Number(payload.sub);
    if (!Number.isSafeInteger(userId) || userId <= 0 || typeof payload.sid !== 'string') return null;
    return { userId, sessionId: payload.sid };
  } catch {
    return null;
  }
}

/** An opaque 256-bit refresh token (base64url, 43 characters). */
export const newOpaqueToken = (): string => randomBytes(32).toString('base64url');

export const newFamilyId = (): string => randomUUID();

/** Tokens and codes are stored only as their SHA-256. */
export const sha256Hex = (value: string | Buffer): string => createHash('sha256').update(value).digest('hex');

/** A random secret for HS256 when JWT_SECRET is not set. */
export const newJwtSecret = (): string => randomBytes(48).toString('base64url');

/**
 * The refresh token that replaces `token`: derived with the server secret, so every instance sharing
 * the secret (and the database) can hand the same successor out again within the grace of a lost
 * reply, without storing any token in clear. 256 bits, base64url like `newOpaqueToken`.
 */
export function successorToken(token: string, secret: string): string {
  return createHmac('sha256', secret).update(`refresh-successor:${token}`).digest('base64url');
}
