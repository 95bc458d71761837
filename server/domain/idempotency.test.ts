import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createUser, setupTestServer } from '../../tests/setup/server';
import { idempotencyKeys } from '../db/schema';
import {
  IDEMPOTENCY_KEY_TTL_MS,
  IDEMPOTENCY_PURGE_EVERY_MS,
  purgeIdempotencyKeys,
  requestHash,
  runIdempotent,
} from './idempotency';

const t = setupTestServer();
let userId: number;
const HOUR = 60 * 60 * 1000;

const keys = async () =>
  (await t.db.select({ key: idempotencyKeys.key }).from(idempotencyKeys)).map((r) => r.key).sort();

/** A stored key, made `ageMs` before `now`. */
const storeKey = (key: string, now: Date, ageMs: number) =>
  t.db.insert(idempotencyKeys).values({
    userId,
    key,
    route: 'test',
    requestHash: requestHash('test', {}),
    responseStatus: 200,
    responseBody: { ok: true },
    createdAt: new Date(now.getTime() - ageMs),
  });

const ok = async () => ({ status: 200, body: { done: true }, store: true });

beforeAll(async () => {
  userId = (await createUser(t.db)).id;
});

describe('idempotency keys are purged after a day', () => {
  it('a new key purges keys older than 24 h (not younger ones), at most every 10 minutes', async () => {
    const now = t.clock();
    await storeKey('old-25h', now, 25 * HOUR);
    await storeKey('old-24h1s', now, IDEMPOTENCY_KEY_TTL_MS + 1000);
    await storeKey('young-23h', now, 23 * HOUR);
    const first = await runIdempotent(t.db, { key: 'new-1', userId, route: 'test', body: {}, now }, ok);
    expect(first.kind).toBe('fresh');
    expect(await keys()).toEqual(['new-1', 'young-23h']);

    // A young key still replays.
    const replay = await runIdempotent(t.db, { key: 'young-23h', userId, route: 'test', body: {}, now }, ok);
    expect(replay).toMatchObject({ kind: 'replay', status: 200 });

    // Within 10 minutes no second purge; after them, the next stored key purges again.
    await storeKey('old-again', now, 30 * HOUR);
    await runIdempotent(t.db, { key: 'new-2', userId, route: 'test', body: {}, now }, ok);
    expect(await keys()).toContain('old-again');
    const later = new Date(now.getTime() + IDEMPOTENCY_PURGE_EVERY_MS);
    await runIdempotent(t.db, { key: 'new-3', userId, route: 'test', body: {}, now: later }, ok);
    expect(await keys()).toEqual(['new-1', 'new-2', 'new-3', 'young-23h']);
  });

  it('a refused call (not stored) purges nothing; purgeIdempotencyKeys counts what it deletes', async () => {
    const now = new Date(t.clock().getTime() + 2 * IDEMPOTENCY_PURGE_EVERY_MS);
    await storeKey('stale', now, 48 * HOUR);
    await runIdempotent(t.db, { key: 'refused', userId, route: 'test', body: {}, now }, async () => ({
      status: 409,
      body: {},
      store: false,
    }));
    expect(await keys()).toContain('stale');
    expect(await purgeIdempotencyKeys(t.db, now)).toBe(1);
    expect(await t.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, 'stale'))).toEqual([]);
  });

  it('a key older than 24 h is forgotten at lookup even before any purge: the work runs again', async () => {
    // Issue 31 item 8: a 25 h old key still replayed when no purge had run since it expired.
    const now = new Date(t.clock().getTime() + 5 * IDEMPOTENCY_PURGE_EVERY_MS);
    await storeKey('expired-25h', now, 25 * HOUR);
    let ran = 0;
    const outcome = await runIdempotent(
      t.db,
      { key: 'expired-25h', userId, route: 'test', body: {}, now },
      async () => {
        ran += 1;
        return { status: 201, body: { second: true }, store: true };
      },
    );
    expect(outcome).toMatchObject({ kind: 'fresh', answer: { status: 201 } });
    expect(ran).toBe(1);
    // Within the window the key replays the new answer.
    const again = await runIdempotent(t.db, { key: 'expired-25h', userId, route: 'test', body: {}, now }, ok);
    expect(again).toMatchObject({ kind: 'replay', status: 201, body: { second: true } });
  });
});
