import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, createPartner, linkCustomer, setupTestServer } from '../../tests/setup/server';
import { customerLinks, customers } from '../db/schema';
import {
  countWrongLinkAttempt,
  createLinkRequest,
  hashLinkCode,
  isLinked,
  linkableCustomer,
  linkCapRetryAfter,
  linkedTo,
  requestsToday,
} from './customer-links';

/*
 * The consent link's rules on a database (docs/decisions/053-customer-links.md): who a request names
 * (a live, not erased customer, by the whole address in any case or by member number), the daily cap
 * of 10 requests per partner and thing asked (24 hours), a new request replacing the earlier pending
 * one, 5 wrong tries, and what counts as linked (a CONFIRMED link to a live, not erased customer).
 * Every time is given: nothing here reads the clock.
 */

const t = setupTestServer();
const now = new Date('2026-03-02T09:00:00.000Z');
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const ago = (ms: number) => new Date(now.getTime() - ms);

let P: { id: number };
let Q: { id: number };
let ada: { id: number; email: string };

/** A request row as the partner's history holds it. */
const requestAt = (partnerId: number, requested: string, createdAt: Date, o: object = {}) =>
  t.db
    .insert(customerLinks)
    .values({ partnerId, customerId: null, requested, state: 'PENDING', createdAt, ...o })
    .returning({ id: customerLinks.id })
    .then((r) => r[0]!.id);

const linkRow = async (id: number) =>
  (await t.db.select().from(customerLinks).where(eq(customerLinks.id, id)))[0]!;

beforeAll(async () => {
  P = await createPartner(t.db);
  Q = await createPartner(t.db);
  ada = await createCustomer(t.db, { firstName: 'Ada', lastName: 'Obi', email: 'Ada.Obi@Mail.test' });
});

describe('linkableCustomer', () => {
  it('by the whole address, in any case, blanks around it ignored', async () => {
    const found = await linkableCustomer(t.db, { email: '  ada.obi@MAIL.TEST ' });
    expect(found).toEqual({ id: ada.id, email: 'Ada.Obi@Mail.test', firstName: 'Ada', lastName: 'Obi' });
    expect(await linkableCustomer(t.db, { email: 'ada.obi@mail' })).toBeNull();
  });

  it('by member number', async () => {
    const number = `RC-${String(ada.id).padStart(6, '0')}`;
    expect((await linkableCustomer(t.db, { memberNumber: number }))?.id).toBe(ada.id);
    expect(await linkableCustomer(t.db, { memberNumber: 'RC-999999999' })).toBeNull();
    expect(await linkableCustomer(t.db, { memberNumber: 'nonsense' })).toBeNull();
    expect(await linkableCustomer(t.db, {})).toBeNull();
  });

  it('a deleted or an erased customer is nobody', async () => {
    const deleted = await createCustomer(t.db, { email: 'gone@mail.test', deletedAt: now });
    const erased = await createCustomer(t.db, { email: 'erased-x@erased.invalid', erasedAt: now });
    expect(await linkableCustomer(t.db, { email: 'gone@mail.test' })).toBeNull();
    expect(await linkableCustomer(t.db, { email: 'erased-x@erased.invalid' })).toBeNull();
    expect(await linkableCustomer(t.db, { memberNumber: `RC-${deleted.id}` })).toBeNull();
    expect(await linkableCustomer(t.db, { memberNumber: `RC-${erased.id}` })).toBeNull();
  });
});

describe('the daily cap: requestsToday and linkCapRetryAfter', () => {
  it('counts the last 24 hours at one partner for one thing asked', async () => {
    const key = 'email:cap@mail.test';
    await requestAt(P.id, key, ago(DAY)); // exactly 24 hours ago: out
    await requestAt(P.id, key, ago(DAY - 1));
    await requestAt(P.id, key, ago(HOUR));
    await requestAt(P.id, 'email:other@mail.test', ago(HOUR));
    await requestAt(Q.id, key, ago(HOUR));
    expect(await requestsToday(t.db, P.id, key, now)).toBe(2);
    expect(await requestsToday(t.db, Q.id, key, now)).toBe(1);
    expect(await requestsToday(t.db, P.id, 'email:nobody@mail.test', now)).toBe(0);
  });

  it('a full day: the wait until the oldest of the last ten leaves the 24 hours, in whole seconds', async () => {
    const key = 'member:424242';
    // Eleven in the day: the ten newest are 20 h 0.5 s ago, then 19 h .. 11 h ago; the oldest (21 h) is not among them.
    await requestAt(P.id, key, ago(21 * HOUR));
    await requestAt(P.id, key, ago(20 * HOUR + 500));
    for (let h = 19; h >= 11; h--) await requestAt(P.id, key, ago(h * HOUR));
    expect(await requestsToday(t.db, P.id, key, now)).toBe(11);
    // 24 h - (20 h 0.5 s) = 3 h 59 min 59.5 s, rounded up.
    expect(await linkCapRetryAfter(t.db, P.id, key, now)).toBe(4 * 3600);
    // Another partner's and another thing's requests do not count.
    expect(await linkCapRetryAfter(t.db, Q.id, key, now)).toBe(1);
  });

  it('never less than a second', async () => {
    const key = 'member:434343';
    await requestAt(P.id, key, ago(DAY - 200));
    expect(await linkCapRetryAfter(t.db, P.id, key, now)).toBe(1);
    expect(await linkCapRetryAfter(t.db, P.id, 'member:none-at-all', now)).toBe(1);
  });
});

describe('createLinkRequest', () => {
  it("a pending request for a customer: valid 5 minutes, the code's hash bound to the request", async () => {
    const id = await createLinkRequest(t.db, {
      partnerId: P.id,
      customerId: ada.id,
      requested: 'email:ada.obi@mail.test',
      createdBy: null,
      secret: 'sekrit',
      code: '123456',
      now,
    });
    const row = await linkRow(id);
    expect(row).toMatchObject({
      partnerId: P.id,
      customerId: ada.id,
      requested: 'email:ada.obi@mail.test',
      state: 'PENDING',
      createdBy: null,
      attempts: 0,
      replacedAt: null,
      codeExpiresAt: new Date(now.getTime() + 5 * MIN),
      createdAt: now,
      codeHash: hashLinkCode('sekrit', id, '123456'),
    });
  });

  it('a request for nobody gets a hash no code matches', async () => {
    const id = await createLinkRequest(t.db, {
      partnerId: P.id,
      customerId: null,
      requested: 'email:nobody@mail.test',
      createdBy: null,
      secret: 'sekrit',
      code: '123456',
      now,
    });
    const row = await linkRow(id);
    expect(row.customerId).toBeNull();
    expect(row.codeHash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.codeHash).not.toBe(hashLinkCode('sekrit', id, '123456'));
  });

  it('replaces the pending requests for the same thing at the partner, and nothing else', async () => {
    const key = 'email:replace@mail.test';
    const earlier = await requestAt(P.id, key, ago(2 * MIN));
    const otherPartner = await requestAt(Q.id, key, ago(2 * MIN));
    const otherThing = await requestAt(P.id, 'email:else@mail.test', ago(2 * MIN));
    const alreadyReplaced = await requestAt(P.id, key, ago(3 * MIN), { replacedAt: ago(2 * MIN) });
    const confirmed = await requestAt(P.id, key, ago(DAY * 2), { state: 'CONFIRMED', customerId: ada.id });
    const id = await createLinkRequest(t.db, {
      partnerId: P.id,
      customerId: null,
      requested: key,
      createdBy: null,
      secret: 's',
      code: '000000',
      now,
    });
    expect((await linkRow(earlier)).replacedAt).toEqual(now);
    expect((await linkRow(alreadyReplaced)).replacedAt).toEqual(ago(2 * MIN));
    expect((await linkRow(otherPartner)).replacedAt).toBeNull();
    expect((await linkRow(otherThing)).replacedAt).toBeNull();
    expect((await linkRow(confirmed)).replacedAt).toBeNull();
    expect((await linkRow(id)).replacedAt).toBeNull();
  });
});

describe('countWrongLinkAttempt', () => {
  it('counts each wrong try up to five; then null (locked) and no more counted', async () => {
    const id = await requestAt(P.id, 'email:tries@mail.test', now);
    const counts = [];
    for (let i = 0; i < 6; i++) counts.push(await countWrongLinkAttempt(t.db, id));
    expect(counts).toEqual([1, 2, 3, 4, 5, null]);
    expect((await linkRow(id)).attempts).toBe(5);
  });
});

describe('isLinked and linkedTo', () => {
  it('a CONFIRMED link to a live, not erased customer, at that partner only', async () => {
    const linked = await createCustomer(t.db);
    const pending = await createCustomer(t.db);
    const gone = await createCustomer(t.db);
    const erased = await createCustomer(t.db);
    await linkCustomer(t.db, P.id, linked.id);
    await linkCustomer(t.db, P.id, gone.id);
    await linkCustomer(t.db, P.id, erased.id);
    await requestAt(P.id, `member:${pending.id}`, now, { customerId: pending.id });
    await t.db.update(customers).set({ deletedAt: now }).where(eq(customers.id, gone.id));
    await t.db.update(customers).set({ erasedAt: now }).where(eq(customers.id, erased.id));

    expect(await isLinked(t.db, P.id, linked.id)).toBe(true);
    expect(await isLinked(t.db, Q.id, linked.id)).toBe(false);
    expect(await isLinked(t.db, P.id, pending.id)).toBe(false);
    expect(await isLinked(t.db, P.id, gone.id)).toBe(false);
    expect(await isLinked(t.db, P.id, erased.id)).toBe(false);

    // The SQL form holds the link rule alone (the caller's query decides live and erased).
    const ids = [linked.id, pending.id, gone.id];
    const rows = await t.db
      .select({ id: customers.id })
      .from(customers)
      .where(sql`${customers.id} in (${sql.join(ids, sql`, `)}) and ${linkedTo(P.id, customers.id)}`);
    expect(rows.map((r) => r.id).sort((a, b) => a - b)).toEqual([linked.id, gone.id].sort((a, b) => a - b));
    const atQ = await t.db
      .select({ id: customers.id })
      .from(customers)
      .where(sql`${customers.id} = ${linked.id} and ${linkedTo(Q.id, customers.id)}`);
    expect(atQ).toEqual([]);
  });
});
