import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, openTestDatabase } from '../../tests/setup/server';
import type { Database, Db } from '../db/client';
import { refreshTokens } from '../db/schema';
import { issueRefreshToken, revokeAllForUser, revokeFamily, rotateRefreshToken } from './sessions';
import { sha256Hex } from './tokens';

/**
 * docs/product.md#auth: opaque refresh tokens stored hashed, 7 days, rotated on each use; a reused
 * one revokes its family, except for a short grace (a minute, issue 17) for a lost reply.
 */
let database: Database;
let db: Db;
let userId: number;
let otherUserId: number;
beforeAll(async () => {
  database = await openTestDatabase();
  db = database.db;
  userId = (await createUser(db, { password: null })).id;
  otherUserId = (await createUser(db, { password: null })).id;
});
afterAll(() => database.close());

const DAY = 24 * 60 * 60 * 1000;
const secret = 's'.repeat(40);
const opts = (now: Date) => ({ now, ttlDays: 7, secret });
const at = (start: string) => (ms: number) => new Date(new Date(start).getTime() + ms);

const rowOf = async (token: string) =>
  (
    await db
      .select()
      .from(refreshTokens)
      .where(eq(refreshTokens.tokenHash, sha256Hex(token)))
  )[0];

describe('issuing a refresh token', () => {
  it('starts a session (a new family) that lives 7 days, stored only as its hash', async () => {
    const t = at('2026-04-01T09:00:00Z');
    const a = await issueRefreshToken(db, { userId, now: t(0), ttlDays: 7 });
    const b = await issueRefreshToken(db, { userId, now: t(0), ttlDays: 7 });
    expect(a.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a.familyId).not.toBe(b.familyId);
    const row = await rowOf(a.token);
    expect(row).toMatchObject({ userId, familyId: a.familyId, rotatedAt: null, revokedAt: null });
    expect(row!.expiresAt.getTime()).toBe(t(7 * DAY).getTime());
    expect(row!.tokenHash).not.toContain(a.token);
    const same = await issueRefreshToken(db, { userId, familyId: a.familyId, now: t(0), ttlDays: 7 });
    expect(same.familyId).toBe(a.familyId);
  });
});

describe('rotating a refresh token', () => {
  it('gives a successor in the same family, which lives 7 days from the rotation and rotates in turn', async () => {
    const t = at('2026-04-02T09:00:00Z');
    const first = await issueRefreshToken(db, { userId, now: t(0), ttlDays: 7 });
    const r1 = await rotateRefreshToken(db, first.token, opts(t(DAY)));
    expect(r1).toMatchObject({ kind: 'rotated', userId, familyId: first.familyId });
    if (r1.kind !== 'rotated') return;
    expect(r1.token).not.toBe(first.token);
    expect((await rowOf(r1.token))!.expiresAt.getTime()).toBe(t(8 * DAY).getTime());
    expect((await rowOf(first.token))!.rotatedAt!.getTime()).toBe(t(DAY).getTime());
    const r2 = await rotateRefreshToken(db, r1.token, opts(t(2 * DAY)));
    expect(r2).toMatchObject({ kind: 'rotated', userId, familyId: first.familyId });
  });

  it('a token is refused once its 7 days are over, an unknown or revoked one always', async () => {
    const t = at('2026-04-03T09:00:00Z');
    const live = await issueRefreshToken(db, { userId, now: t(0), ttlDays: 7 });
    const old = await issueRefreshToken(db, { userId, now: t(0), ttlDays: 7 });
    expect((await rotateRefreshToken(db, live.token, opts(t(7 * DAY - 1)))).kind).toBe('rotated');
    expect(await rotateRefreshToken(db, old.token, opts(t(7 * DAY)))).toEqual({ kind: 'invalid' });
    expect(await rotateRefreshToken(db, 'no-such-token', opts(t(0)))).toEqual({ kind: 'invalid' });
    const revoked = await issueRefreshToken(db, { userId, now: t(0), ttlDays: 7 });
    await revokeFamily(db, revoked.familyId, t(1));
    expect(await rotateRefreshToken(db, revoked.token, opts(t(2)))).toEqual({ kind: 'invalid' });
  });

  it('a lost reply: within the minute, the same token again gets the same successor; after it, a reuse', async () => {
    const t = at('2026-04-04T09:00:00Z');
    const first = await issueRefreshToken(db, { userId, now: t(0), ttlDays: 7 });
    const r1 = await rotateRefreshToken(db, first.token, opts(t(1000)));
    if (r1.kind !== 'rotated') throw new Error(r1.kind);
    expect(await rotateRefreshToken(db, first.token, opts(t(1000 + 59_999)))).toEqual(r1);
    expect(await rotateRefreshToken(db, first.token, opts(t(1000 + 60_000)))).toEqual({
      kind: 'reused',
      userId,
      familyId: first.familyId,
    });
    // A grace of its own (the caller's): 10 s.
    const second = await issueRefreshToken(db, { userId, now: t(0), ttlDays: 7 });
    const r2 = await rotateRefreshToken(db, second.token, { ...opts(t(0)), graceMs: 10_000 });
    expect(await rotateRefreshToken(db, second.token, { ...opts(t(9_999)), graceMs: 10_000 })).toEqual(r2);
    expect((await rotateRefreshToken(db, second.token, { ...opts(t(10_000)), graceMs: 10_000 })).kind).toBe(
      'reused',
    );
  });

  it('within the minute, a token whose successor was used, or whose family was revoked, is no lost reply', async () => {
    const t = at('2026-04-05T09:00:00Z');
    const first = await issueRefreshToken(db, { userId, now: t(0), ttlDays: 7 });
    const r1 = await rotateRefreshToken(db, first.token, opts(t(0)));
    if (r1.kind !== 'rotated') throw new Error(r1.kind);
    await rotateRefreshToken(db, r1.token, opts(t(1000)));
    expect(await rotateRefreshToken(db, first.token, opts(t(2000)))).toEqual({
      kind: 'reused',
      userId,
      familyId: first.familyId,
    });
    const other = await issueRefreshToken(db, { userId, now: t(0), ttlDays: 7 });
    await rotateRefreshToken(db, other.token, opts(t(0)));
    await revokeFamily(db, other.familyId, t(1000));
    expect(await rotateRefreshToken(db, other.token, opts(t(2000)))).toEqual({ kind: 'invalid' });
  });

  it('the successor of a token that has expired since its rotation is not handed out again', async () => {
    const t = at('2026-04-06T09:00:00Z');
    const first = await issueRefreshToken(db, { userId, now: t(0), ttlDays: 7 });
    const r1 = await rotateRefreshToken(db, first.token, opts(t(7 * DAY - 10_000)));
    expect(r1.kind).toBe('rotated');
    expect((await rotateRefreshToken(db, first.token, opts(t(7 * DAY)))).kind).not.toBe('rotated');
  });
});

describe('ending sessions', () => {
  it("signing out revokes the session's live tokens and no other session's", async () => {
    const t = at('2026-04-07T09:00:00Z');
    const one = await issueRefreshToken(db, { userId, now: t(0), ttlDays: 7 });
    const next = await rotateRefreshToken(db, one.token, opts(t(1000)));
    const two = await issueRefreshToken(db, { userId, now: t(0), ttlDays: 7 });
    expect(await revokeFamily(db, one.familyId, t(2000))).toBe(2);
    expect(await revokeFamily(db, one.familyId, t(3000))).toBe(0);
    expect((await rowOf(one.token))!.revokedAt!.getTime()).toBe(t(2000).getTime());
    if (next.kind === 'rotated')
      expect(await rotateRefreshToken(db, next.token, opts(t(4000)))).toEqual({ kind: 'invalid' });
    expect((await rotateRefreshToken(db, two.token, opts(t(4000)))).kind).toBe('rotated');
  });

  it("every session of a user ends (a new password), but the one kept and other users' sessions", async () => {
    const t = at('2026-04-08T09:00:00Z');
    const a = await issueRefreshToken(db, { userId, now: t(0), ttlDays: 7 });
    const b = await issueRefreshToken(db, { userId, now: t(0), ttlDays: 7 });
    const c = await issueRefreshToken(db, { userId, now: t(0), ttlDays: 7 });
    const theirs = await issueRefreshToken(db, { userId: otherUserId, now: t(0), ttlDays: 7 });
    await revokeAllForUser(db, userId, t(1000), c.familyId);
    expect((await rowOf(a.token))!.revokedAt).not.toBeNull();
    expect((await rowOf(b.token))!.revokedAt).not.toBeNull();
    expect((await rowOf(c.token))!.revokedAt).toBeNull();
    expect((await rowOf(theirs.token))!.revokedAt).toBeNull();
    await revokeAllForUser(db, userId, t(2000));
    expect((await rowOf(c.token))!.revokedAt!.getTime()).toBe(t(2000).getTime());
    // A token revoked before keeps the time it was revoked.
    expect((await rowOf(a.token))!.revokedAt!.getTime()).toBe(t(1000).getTime());
    expect((await rowOf(theirs.token))!.revokedAt).toBeNull();
  });
});
