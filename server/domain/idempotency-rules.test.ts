import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Visit } from '../../contract/visits';
import {
  createCustomer,
  createPartner,
  createSuperAdmin,
  linkCustomer,
  setupTestServer,
  signIn,
} from '../../tests/setup/server';
import { idempotencyKeys, partnerApiKeys, visits } from '../db/schema';
import {
  type Answer,
  canonicalJson,
  forgetIdempotencyKey,
  refusal,
  requestHash,
  runIdempotent,
  storedOutcome,
  success,
} from './idempotency';

/**
 * Idempotency-Key (docs/decisions/007-ledger-and-otp.md, 027, 028): a retry with the same key and
 * request answers the first result without running again; the same key with another request is
 * refused; only successes are kept, a refusal or an error releases the key; a partner API key's keys
 * are its own, apart from every staff member's. Through the domain, then through POST /user/visits.
 */
const t = setupTestServer();
let staffId: number;
let apiKeyPrincipal: number;
let token: string;
let partnerId: number;
let customerId: number;

beforeAll(async () => {
  const admin = await createSuperAdmin(t.db);
  staffId = admin.id;
  token = (await signIn(t, admin.email, admin.password)).accessToken;
  partnerId = (await createPartner(t.db, { organizationName: 'Keyed Grill' })).id;
  customerId = (await createCustomer(t.db, { firstName: 'Kemi', lastName: 'Ade' })).id;
  await linkCustomer(t.db, partnerId, customerId);
  const [key] = await t.db
    .insert(partnerApiKeys)
    .values({ partnerId, name: 'Front till', prefix: 'rk_idem', secretHash: 'x', permissions: [] })
    .returning();
  // A partner API key's principal id is minus its key id (decision 028).
  apiKeyPrincipal = -key!.id;
});

/** A piece of work that counts its runs and answers `answer`. */
function counted(answer: Answer) {
  const work = async () => {
    work.runs += 1;
    return answer;
  };
  work.runs = 0;
  return work;
}

const created = (data: unknown) => success(data, 'Done', 201);
const call = (key: string | undefined, body: unknown = { amount: 500 }, userId = staffId, route = 'pay') => ({
  key,
  userId,
  route,
  body,
  now: t.clock(),
});

describe('the request a key stands for', () => {
  it('is the same request whatever the order of its fields, and without fields that are undefined', () => {
    expect(canonicalJson({ b: 1, a: [1, { d: 2, c: undefined }], e: null })).toBe(
      '{"a":[1,{"d":2}],"b":1,"e":null}',
    );
    expect(canonicalJson({ o: { y: 'x', x: [true] } })).toBe('{"o":{"x":[true],"y":"x"}}');
    expect(canonicalJson('text')).toBe('"text"');
    expect(canonicalJson(undefined)).toBe('null');
    expect(requestHash('pay', { a: 1, b: { c: 2, d: 3 } })).toBe(
      requestHash('pay', { b: { d: 3, c: 2 }, a: 1 }),
    );
    expect(requestHash('pay', { a: 1, z: undefined })).toBe(requestHash('pay', { a: 1 }));
    expect(requestHash('pay', { a: 1 })).toMatch(/^[0-9a-f]{64}$/);
  });

  it('is another request with another route, another value, another type or another order of a list', () => {
    const one = requestHash('pay', { a: [1, 2] });
    expect(requestHash('refund', { a: [1, 2] })).not.toBe(one);
    expect(requestHash('pay', { a: [2, 1] })).not.toBe(one);
    expect(requestHash('pay', { a: ['1', '2'] })).not.toBe(one);
    expect(requestHash('pay', { a: [1, 2, 3] })).not.toBe(one);
    expect(requestHash('pay', { a: 1 })).not.toBe(requestHash('pay', { a: '1' }));
    expect(requestHash('pay', { a: {} })).not.toBe(requestHash('pay', { a: [] }));
    expect(requestHash('pay', { a: null })).not.toBe(requestHash('pay', {}));
  });
});

describe('answers', () => {
  it('a success is kept, in the envelope, 200 unless told', () => {
    expect(success({ id: 4 }, 'Visit recorded')).toEqual({
      status: 200,
      body: { success: true, data: { id: 4 }, message: 'Visit recorded', errors: [] },
      store: true,
    });
    expect(created(null).status).toBe(201);
  });

  it("a refusal is not kept; its field and headers when given, its code from the status (decision 027's codes)", () => {
    expect(refusal(400, 'Amount exceeds balance', { fieldName: 'amount' })).toEqual({
      status: 400,
      body: {
        success: false,
        data: null,
        message: 'Amount exceeds balance',
        code: 'validation_failed',
        errors: [{ fieldName: 'amount', message: 'Amount exceeds balance' }],
      },
      store: false,
    });
    expect(refusal(429, 'Too many codes', { headers: { 'Retry-After': '60' } })).toEqual({
      status: 429,
      body: { success: false, data: null, message: 'Too many codes', code: 'rate_limited', errors: [] },
      store: false,
      headers: { 'Retry-After': '60' },
    });
    expect(refusal(403, 'Customer is blocked', { code: 'customer_blocked' }).body).toMatchObject({
      code: 'customer_blocked',
    });
    expect(refusal(404, 'Reward not found')).not.toHaveProperty('headers');
  });
});

describe('runIdempotent', () => {
  it('without a key the work runs every time and nothing is kept', async () => {
    const work = counted(created({ n: 1 }));
    expect(await runIdempotent(t.db, call(undefined), work)).toEqual({
      kind: 'fresh',
      answer: created({ n: 1 }),
    });
    await runIdempotent(t.db, call(undefined), work);
    expect(work.runs).toBe(2);
    expect(await t.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.userId, staffId))).toEqual([]);
  });

  it('a retry with the key and the same request answers the first result without running again', async () => {
    const work = counted(created({ receipt: 'first' }));
    expect(await runIdempotent(t.db, call('retry-1'), work)).toMatchObject({ kind: 'fresh' });
    // The same body in another field order is the same request.
    expect(await runIdempotent(t.db, call('retry-1', { amount: 500 }), work)).toEqual({
      kind: 'replay',
      status: 201,
      body: { success: true, data: { receipt: 'first' }, message: 'Done', errors: [] },
    });
    expect(await storedOutcome(t.db, call('retry-1'))).toEqual({
      kind: 'replay',
      status: 201,
      body: { success: true, data: { receipt: 'first' }, message: 'Done', errors: [] },
    });
    expect(work.runs).toBe(1);
  });

  it('the key with another request (body or route) is refused, before anything runs', async () => {
    const work = counted(created({}));
    await runIdempotent(t.db, call('reused-1'), work);
    expect(await runIdempotent(t.db, call('reused-1', { amount: 600 }), work)).toEqual({ kind: 'mismatch' });
    expect(await runIdempotent(t.db, call('reused-1', { amount: 500 }, staffId, 'refund'), work)).toEqual({
      kind: 'mismatch',
    });
    expect(await storedOutcome(t.db, call('reused-1', { amount: 600 }))).toEqual({ kind: 'mismatch' });
    expect(await storedOutcome(t.db, call('reused-1', { amount: 500 }, staffId, 'refund'))).toEqual({
      kind: 'mismatch',
    });
    expect(work.runs).toBe(1);
  });

  it('a refusal releases the key: the same attempt runs again', async () => {
    const refused = counted(refusal(400, 'Wrong code', { fieldName: 'otp' }));
    expect(await runIdempotent(t.db, call('refused-1'), refused)).toMatchObject({
      kind: 'fresh',
      answer: { status: 400 },
    });
    expect(await storedOutcome(t.db, call('refused-1'))).toBeNull();
    const then = counted(created({ ok: true }));
    expect(await runIdempotent(t.db, call('refused-1'), then)).toMatchObject({
      kind: 'fresh',
      answer: { status: 201 },
    });
    expect(then.runs).toBe(1);
  });

  it('an error rolls the key back with the work: the retry runs', async () => {
    await expect(
      runIdempotent(t.db, call('thrown-1'), async () => {
        throw new Error('the database went away');
      }),
    ).rejects.toThrow('the database went away');
    const work = counted(created({}));
    expect(await runIdempotent(t.db, call('thrown-1'), work)).toMatchObject({ kind: 'fresh' });
    expect(work.runs).toBe(1);
  });

  it('while the first request with the key runs, a second is told so and runs nothing', async () => {
    await t.db.insert(idempotencyKeys).values({
      userId: staffId,
      key: 'running-1',
      route: 'pay',
      requestHash: requestHash('pay', { amount: 500 }),
      createdAt: t.clock(),
    });
    const work = counted(created({}));
    expect(await runIdempotent(t.db, call('running-1'), work)).toEqual({ kind: 'inProgress' });
    expect(await storedOutcome(t.db, call('running-1'))).toBeNull();
    expect(work.runs).toBe(0);
  });

  it("a partner API key's keys are its own: the same key of a staff member is another request", async () => {
    const staffWork = counted(created({ by: 'staff' }));
    const keyWork = counted(created({ by: 'till' }));
    await runIdempotent(t.db, call('shared-1'), staffWork);
    expect(
      await runIdempotent(t.db, call('shared-1', { other: true }, apiKeyPrincipal), keyWork),
    ).toMatchObject({
      kind: 'fresh',
    });
    expect(
      await runIdempotent(t.db, call('shared-1', { other: true }, apiKeyPrincipal), keyWork),
    ).toMatchObject({
      kind: 'replay',
      body: { data: { by: 'till' } },
    });
    expect(await storedOutcome(t.db, call('shared-1', { other: true }, apiKeyPrincipal))).toMatchObject({
      kind: 'replay',
      body: { data: { by: 'till' } },
    });
    expect(await storedOutcome(t.db, call('shared-1'))).toMatchObject({
      kind: 'replay',
      body: { data: { by: 'staff' } },
    });
    expect([staffWork.runs, keyWork.runs]).toEqual([1, 1]);
    const [row] = await t.db
      .select()
      .from(idempotencyKeys)
      .where(eq(idempotencyKeys.apiKeyId, -apiKeyPrincipal));
    expect(row).toMatchObject({ key: 'shared-1', userId: null });
  });
});

describe('the purge of day-old keys (decision 007)', () => {
  it('runs after a call that stores a new key, not after a replay or a refused request', async () => {
    const HOUR = 3_600_000;
    // Days after every other test here, so the last purge of this database is long past.
    const t1 = new Date(t.clock().getTime() + 3 * 24 * HOUR);
    const t2 = new Date(t1.getTime() + 11 * 60_000);
    await runIdempotent(t.db, { ...call('purge-1'), now: t1 }, counted(created({})));
    await t.db.insert(idempotencyKeys).values({
      userId: staffId,
      key: 'stale-1',
      route: 'pay',
      requestHash: requestHash('pay', {}),
      responseStatus: 200,
      responseBody: {},
      createdAt: new Date(t1.getTime() - 30 * HOUR),
    });
    const stale = () => t.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, 'stale-1'));
    expect(await runIdempotent(t.db, { ...call('purge-1'), now: t2 }, counted(created({})))).toMatchObject({
      kind: 'replay',
    });
    expect(
      await runIdempotent(t.db, { ...call('purge-1', { amount: 1 }), now: t2 }, counted(created({}))),
    ).toEqual({
      kind: 'mismatch',
    });
    expect(await stale()).toHaveLength(1);
    await runIdempotent(t.db, { ...call('purge-2'), now: t2 }, counted(created({})));
    expect(await stale()).toEqual([]);
  });
});

describe('storedOutcome and forgetIdempotencyKey', () => {
  it('no key, or a key never used, has no stored answer', async () => {
    expect(await storedOutcome(t.db, call(undefined))).toBeNull();
    expect(await storedOutcome(t.db, call('never-used'))).toBeNull();
  });

  it('a key kept more than 24 hours ago has no stored answer', async () => {
    await runIdempotent(t.db, call('day-old'), counted(created({})));
    const later = { ...call('day-old'), now: new Date(t.clock().getTime() + 24 * 3_600_000 + 1) };
    expect(await storedOutcome(t.db, later)).toBeNull();
    const sooner = { ...call('day-old'), now: new Date(t.clock().getTime() + 23 * 3_600_000) };
    expect(await storedOutcome(t.db, sooner)).toMatchObject({ kind: 'replay' });
  });

  it("a forgotten key runs again; forgetting leaves the caller's other keys and another principal's same key", async () => {
    await runIdempotent(t.db, call('forget-1'), counted(created({})));
    await runIdempotent(t.db, call('forget-2'), counted(created({})));
    await runIdempotent(t.db, call('forget-1', { amount: 500 }, apiKeyPrincipal), counted(created({})));
    await forgetIdempotencyKey(t.db, staffId, undefined);
    expect(await storedOutcome(t.db, call('forget-1'))).toMatchObject({ kind: 'replay' });
    await forgetIdempotencyKey(t.db, staffId, 'forget-1');
    expect(await storedOutcome(t.db, call('forget-1'))).toBeNull();
    expect(await storedOutcome(t.db, call('forget-2'))).toMatchObject({ kind: 'replay' });
    expect(await storedOutcome(t.db, call('forget-1', { amount: 500 }, apiKeyPrincipal))).toMatchObject({
      kind: 'replay',
    });
    const work = counted(created({}));
    expect(await runIdempotent(t.db, call('forget-1'), work)).toMatchObject({ kind: 'fresh' });
    expect(work.runs).toBe(1);
  });
});

describe('Idempotency-Key on the wire (POST /user/visits, decisions 007 and 027)', () => {
  const visit = (attendantName: string) => ({
    partnerId,
    customerId,
    attendantName,
    visitDate: '2026-03-02T08:30:00.000Z',
    items: [{ name: 'Suya', quantity: 1, price: 2500 }],
  });
  const send = (key: string, body: unknown) =>
    t.request<Visit>('POST', '/user/visits', { token, json: body, headers: { 'Idempotency-Key': key } });

  it('a retry answers the first visit, marked Idempotent-Replayed; another body with the key is 422', async () => {
    const first = await send('till-sale-1', visit('Bisi'));
    expect(first.status, first.text).toBe(201);
    const again = await send('till-sale-1', visit('Bisi'));
    expect(again.status).toBe(201);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(again.body.data!.id).toBe(first.body.data!.id);
    const other = await send('till-sale-1', visit('Tunde'));
    expect(other.status).toBe(422);
    expect(other.body).toMatchObject({
      success: false,
      code: 'idempotency_key_reused',
      message: 'Idempotency-Key was used with a different request',
    });
  });

  it('while the first is still running: 409 idempotency_in_progress with a message', async () => {
    const first = await send('till-sale-2', visit('Bisi'));
    expect(first.status, first.text).toBe(201);
    // As if the first request had not finished: its answer not yet kept.
    await t.db
      .update(idempotencyKeys)
      .set({ responseStatus: null, responseBody: null })
      .where(eq(idempotencyKeys.key, 'till-sale-2'));
    const second = await send('till-sale-2', visit('Bisi'));
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({ success: false, code: 'idempotency_in_progress' });
    expect(second.body.message).toMatch(/in progress/);
  });

  it('a malformed key (over 200 characters, not visible ASCII) is 400 on the header, and records nothing', async () => {
    const before = await t.db.$count(visits);
    for (const key of ['x'.repeat(201), 'café-1']) {
      const res = await send(key, visit('Bisi'));
      expect(res.status, key).toBe(400);
      expect(res.body.code).toBe('validation_failed');
      expect(res.body.message).toMatch(/Idempotency-Key/);
      expect(res.body.errors).toEqual([{ fieldName: 'Idempotency-Key', message: res.body.message }]);
    }
    expect(await t.db.$count(visits)).toBe(before);
  });
});
