import { and, eq, gt, isNull, ne } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { refreshTokens } from '../db/schema';
import { newFamilyId, newOpaqueToken, sha256Hex, successorToken } from './tokens';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * docs/product.md#decided-rules: a refresh whose reply was lost must not sign the user out. For this long after a
 * token was rotated, presenting it again yields the same successor (while that successor is unused)
 * instead of revoking the family; after it, a second use is a reuse as before (issue 17).
 */
export const REFRESH_GRACE_MS = 60_000;

/** Creates a refresh token in a family (a new family, i.e. a new session, when none is given). */
export async function issueRefreshToken(
  db: DbOrTx,
  opts: { userId: number; familyId?: string; now: Date; ttlDays: number; token?: string },
): Promise<{ token: string; familyId: string }> {
  const token = opts.token ?? newOpaqueToken();
  const familyId = opts.familyId ?? newFamilyId();
  await db.insert(refreshTokens).values({
    userId: opts.userId,
    tokenHash: sha256Hex(token),
    familyId,
    expiresAt: new Date(opts.now.getTime() + opts.ttlDays * DAY_MS),
    createdAt: opts.now,
  });
  return { token, familyId };
}

export type RotateResult =
  | { kind: 'rotated'; userId: number; familyId: string; token: string }
  | { kind: 'reused'; userId: number; familyId: string }
  | { kind: 'invalid' };

/**
 * Rotates a refresh token. The UPDATE ... WHERE rotated_at IS NULL guard lets exactly one of several
 * concurrent callers win. The successor is derived from the token with the server secret
 * (`successorToken`), so any instance on the same database can hand the same successor out again:
 * a token rotated less than REFRESH_GRACE_MS ago whose successor is still unused yields that
 * successor (the first reply was lost). Any other second use is a reuse: the caller revokes its family.
 */
export async function rotateRefreshToken(
  db: DbOrTx,
  token: string,
  opts: { now: Date; ttlDays: number; secret: string; graceMs?: number },
): Promise<RotateResult> {
  const tokenHash = sha256Hex(token);
  const [claimed] = await db
    .update(refreshTokens)
    .set({ rotatedAt: opts.now })
    .where(
      and(
        eq(refreshTokens.tokenHash, tokenHash),
        isNull(refreshTokens.rotatedAt),
        isNull(refreshTokens.revokedAt),
        gt(refreshTokens.expiresAt, opts.now),
      ),
    )
    .returning({ userId: refreshTokens.userId, familyId: refreshTokens.familyId });
  if (claimed) {
    const next = await issueRefreshToken(db, {
      ...claimed,
      now: opts.now,
      ttlDays: opts.ttlDays,
      token: successorToken(token, opts.secret),
    });
    return { kind: 'rotated', userId: claimed.userId, familyId: claimed.familyId, token: next.token };
  }
  const [row] = await db
    .select({
      userId: refreshTokens.userId,
      familyId: refreshTokens.familyId,
      rotatedAt: refreshTokens.rotatedAt,
      revokedAt: refreshTokens.revokedAt,
      expiresAt: refreshTokens.expiresAt,
    })
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, tokenHash))
    .limit(1);
  if (!row?.rotatedAt || row.revokedAt) return { kind: 'invalid' };
  const graceMs = opts.graceMs ?? REFRESH_GRACE_MS;
  const inGrace =
    opts.now.getTime() - row.rotatedAt.getTime() < graceMs && row.expiresAt.getTime() > opts.now.getTime();
  if (inGrace) {
    const successor = successorToken(token, opts.secret);
    const [live] = await db
      .select({ id: refreshTokens.id })
      .from(refreshTokens)
      .where(
        and(
          eq(refreshTokens.tokenHash, sha256Hex(successor)),
          eq(refreshTokens.familyId, row.familyId),
          isNull(refreshTokens.rotatedAt),
          isNull(refreshTokens.revokedAt),
          gt(refreshTokens.expiresAt, opts.now),
        ),
      )
      .limit(1);
    if (live) return { kind: 'rotated', userId: row.userId, familyId: row.familyId, token: successor };
  }
  return { kind: 'reused', userId: row.userId, familyId: row.familyId };
}

/** Revokes every live token of a family (one session). Returns how many were revoked. */
export async function revokeFamily(db: DbOrTx, familyId: string, now: Date): Promise<number> {
  const rows = await db
    .update(refreshTokens)
    .set({ revokedAt: now })
    .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)))
    .returning({ id: refreshTokens.id });
  return rows.length;
}

/** Revokes every session of a user, optionally keeping one (the caller's own). */
export async function revokeAllForUser(
  db: DbOrTx,
  userId: number,
  now: Date,
  exceptFamilyId?: string,
): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ revokedAt: now })
    .where(
      and(
        eq(refreshTokens.userId, userId),
        isNull(refreshTokens.revokedAt),
        exceptFamilyId ? ne(refreshTokens.familyId, exceptFamilyId) : undefined,
      ),
    );
}
