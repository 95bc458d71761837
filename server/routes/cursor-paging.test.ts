import { beforeAll, describe, expect, it } from 'vitest';
import type { Activity } from '../../contract/activities';
import type { CursorListData } from '../../contract/envelope';
import type { RewardLedger } from '../../contract/redemption';
import type { Reward } from '../../contract/rewards';
import type { Visit } from '../../contract/visits';
import {
  createCustomer,
  createPartner,
  createReward,
  createSuperAdmin,
  createVisit,
  type RequestOptions,
  setupTestServer,
  signIn,
} from '../../tests/setup/server';
import { rewardLedger } from '../db/schema';

/**
 * Cursor paging (issue 31 item 6, decision 066): a till that walks a list while records arrive sees
 * each record that was there once. Expected orders come from the list's rule (its sort, ties by id),
 * computed here from the rows the test made, never from the server's answer.
 */
const t = setupTestServer();
const ADMIN = { email: 'cursor@rewardclub.test', password: 'Sup3rSecret' };
let token: string;
let partnerId: number;
let otherPartnerId: number;
let otherVisitId: number;
let key: string;
let customerIds: number[];
/** The partner's visits made before any walk: id, date, amount. */
let existing: { id: number; visitDate: Date; amount: number }[];

const DAY = 24 * 60 * 60 * 1000;

beforeAll(async () => {
  await createSuperAdmin(t.db, ADMIN.email, ADMIN.password);
  token = (await signIn(t, ADMIN.email, ADMIN.password)).accessToken;
  partnerId = (await createPartner(t.db)).id;
  otherPartnerId = (await createPartner(t.db)).id;
  customerIds = [(await createCustomer(t.db)).id, (await createCustomer(t.db)).id];
  existing = [];
  // 25 visits over January; every third shares its date with the one before (ties broken by id),
  // amounts repeat every 4 visits (ties again when sorted by amount).
  for (let i = 0; i < 25; i++) {
    const visitDate = new Date(Date.UTC(2026, 0, 2) + (i - (i % 3 === 2 ? 1 : 0)) * DAY);
    const amount = 1000 * ((i % 4) + 1);
    const row = await createVisit(t.db, {
      partnerId,
      customerId: customerIds[i % 2]!,
      visitDate,
      amount,
    });
    existing.push({ id: row.id, visitDate, amount });
  }
  otherVisitId = (
    await createVisit(t.db, {
      partnerId: otherPartnerId,
      customerId: customerIds[0]!,
      visitDate: new Date(Date.UTC(2026, 0, 10)),
      amount: 5000,
    })
  ).id;
  const created = await t.request<{ key: string }>('POST', `/admin/partners/${partnerId}/api-keys`, {
    token,
    json: { name: 'Front till', permissions: ['visits.view', 'visits.create', 'rewards.view'] },
  });
  expect(created.status).toBe(201);
  key = created.body.data!.key;
});

const withKey = (): RequestOptions => ({ headers: { 'X-Api-Key': key } });
const qs = (q: Record<string, string | number | undefined>) =>
  new URLSearchParams(
    Object.entries(q)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, String(v)]),
  ).toString();

const visitPage = (q: Record<string, string | number | undefined>) =>
  t.request<CursorListData<Visit>>('GET', `/admin/partners/visits?${qs({ partnerId, ...q })}`, withKey());

/** The till records a visit now (the newest), through the API with its key. */
let arrivals = 0;
async function newVisitArrives() {
  arrivals++;
  t.clock.advance(60_000);
  const res = await t.request('POST', '/user/visits', {
    headers: { 'X-Api-Key': key },
    json: {
      partnerId,
      customerId: customerIds[0],
      attendantName: `Till ${arrivals}`,
      visitDate: t.clock().toISOString(),
      items: [{ name: 'Zobo', quantity: 1, price: 700 }],
    },
  });
  expect(res.status).toBe(201);
}

type Pager = (after: { page: number; lastId: number | undefined }) => Promise<{
  ids: number[];
  more: boolean;
}>;

/** By page number, as the console pages: page n of 10. */
const byPageNumber: Pager = async ({ page }) => {
  const res = await visitPage({ pageNumber: page, pageSize: 10 });
  expect(res.status).toBe(200);
  return { ids: res.body.data!.records.map((v) => v.id), more: res.body.data!.hasMore };
};

/** By cursor: the records after the last id held. */
const byCursor: Pager = async ({ lastId }) => {
  const res = await visitPage({ limit: 10, startingAfter: lastId });
  expect(res.status).toBe(200);
  return { ids: res.body.data!.records.map((v) => v.id), more: res.body.data!.hasMore };
};

/** Walks the whole list with `pager`, one new visit arriving after every page; the ids read, in order. */
async function walkWhileVisitsArrive(pager: Pager): Promise<number[]> {
  const seen: number[] = [];
  for (let page = 1; page < 20; page++) {
    const { ids, more } = await pager({ page, lastId: seen.at(-1) });
    seen.push(...ids);
    if (!more) return seen;
    await newVisitArrives();
  }
  throw new Error('the walk did not end');
}

/** Each visit that existed before the walk is read exactly once. */
function expectEachExistingOnce(seen: number[]) {
  const existingIds = new Set(existing.map((v) => v.id));
  const counts = new Map<number, number>();
  for (const id of seen) counts.set(id, (counts.get(id) ?? 0) + 1);
  const wrong = [...existingIds].filter((id) => counts.get(id) !== 1);
  expect(wrong, 'existing visits read other than once').toEqual([]);
}

/** The list's rule: newest visit date first, ties by the higher id first. */
const defaultOrder = () =>
  [...existing].sort((a, b) => b.visitDate.getTime() - a.visitDate.getTime() || b.id - a.id).map((v) => v.id);

describe('a till pages visits while new ones arrive', () => {
  it('with cursors it reads each existing visit exactly once, in the list order', async () => {
    const seen = await walkWhileVisitsArrive(byCursor);
    expectEachExistingOnce(seen);
    expect(seen).toEqual(defaultOrder());
  });

  it('with page numbers it drifts: a visit shows on two pages (the defect cursors fix)', async () => {
    const seen = await walkWhileVisitsArrive(byPageNumber);
    expect(() => expectEachExistingOnce(seen)).toThrow();
  });
});

describe('cursor pages', () => {
  /** Records created during the walks above are newer than every existing one: skip past them. */
  const newestExisting = () => defaultOrder()[0]!;

  it('endingBefore walks back to the start, in the list order', async () => {
    const order = defaultOrder();
    // The last page forward: the records after the 20th.
    const tail = await visitPage({ limit: 10, startingAfter: order[19] });
    expect(tail.body.data!.records.map((v) => v.id)).toEqual(order.slice(20));
    expect(tail.body.data!.hasMore).toBe(false);
    // Back from the first of it, 7 at a time, down to the first existing visit.
    let before = order[20]!;
    const back: number[] = [];
    for (;;) {
      const res = await visitPage({ limit: 7, endingBefore: before });
      expect(res.status).toBe(200);
      const ids = res.body.data!.records.map((v) => v.id);
      back.unshift(...ids);
      if (ids.includes(newestExisting())) break;
      expect(res.body.data!.hasMore).toBe(true);
      before = ids[0]!;
    }
    expect(back.slice(back.indexOf(newestExisting()))).toEqual(order.slice(0, 20));
  });

  it('another sort: totalAmount ascending, ties by id, the cursor keeps it', async () => {
    const expected = [...existing].sort((a, b) => a.amount - b.amount || a.id - b.id).map((v) => v.id);
    const seen: number[] = [];
    let more = true;
    while (more) {
      const res = await visitPage({
        limit: 6,
        sortBy: 'totalAmount',
        sortOrder: 'asc',
        startingAfter: seen.at(-1),
      });
      expect(res.status).toBe(200);
      seen.push(...res.body.data!.records.map((v) => v.id));
      more = res.body.data!.hasMore;
    }
    // The walks above added visits of 700 (cheaper than any existing one): they come first.
    expect(seen.filter((id) => expected.includes(id))).toEqual(expected);
    expect(seen.slice(seen.length - expected.length)).toEqual(expected);
  });

  it('limit: 10 when left out, 1 to 100, anything else a 400 naming it', async () => {
    const order = defaultOrder();
    const res = await visitPage({ startingAfter: order[0] });
    expect(res.body.data!.records.map((v) => v.id)).toEqual(order.slice(1, 11));
    expect(res.body.data!.meta).toBeUndefined();
    const one = await visitPage({ limit: 1, startingAfter: order[3] });
    expect(one.body.data!.records.map((v) => v.id)).toEqual([order[4]]);
    expect((await visitPage({ limit: 100 })).status).toBe(200);
    for (const limit of ['0', '101', '2.5', 'ten', '-1']) {
      const bad = await visitPage({ limit });
      expect(bad.status, limit).toBe(400);
      expect(bad.body.code).toBe('validation_failed');
      expect(bad.body.errors.map((e) => e.fieldName)).toEqual(['limit']);
    }
  });

  it('bad cursors are a 400 in the envelope, never a 500', async () => {
    const cases: [Record<string, string | number>, string, string][] = [
      [{ startingAfter: 'abc' }, 'startingAfter', 'validation_failed'],
      [{ endingBefore: '0' }, 'endingBefore', 'validation_failed'],
      [{ startingAfter: '99999999999999' }, 'startingAfter', 'validation_failed'],
      [{ startingAfter: 2_000_000_000 }, 'startingAfter', 'invalid_cursor'],
      [{ endingBefore: 2_000_000_000 }, 'endingBefore', 'invalid_cursor'],
      [
        { startingAfter: existing[0]!.id, endingBefore: existing[1]!.id },
        'endingBefore',
        'validation_failed',
      ],
      [{ startingAfter: existing[0]!.id, pageNumber: 2 }, 'pageNumber', 'validation_failed'],
      [{ limit: 5, pageSize: 10 }, 'pageSize', 'validation_failed'],
    ];
    for (const [q, field, code] of cases) {
      const res = await visitPage(q);
      expect(res.status, JSON.stringify(q)).toBe(400);
      expect(res.body).toMatchObject({ success: false, data: null, code });
      expect(res.body.errors.map((e) => e.fieldName)).toEqual([field]);
    }
  });

  it("a key never pages another partner's rows", async () => {
    // Another partner's visit as the cursor: not in this list, the same answer as an unknown id.
    const res = await visitPage({ limit: 5, startingAfter: otherVisitId });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_cursor');
    // Another partner's list: 404, as without a cursor.
    const other = await t.request(
      'GET',
      `/admin/partners/visits?${qs({ partnerId: otherPartnerId, limit: 5, startingAfter: otherVisitId })}`,
      withKey(),
    );
    expect(other.status).toBe(404);
    // Every record of a whole walk is the key's partner's.
    const all = await visitPage({ limit: 100 });
    expect(all.body.data!.records.every((v) => v.partner.id === partnerId)).toBe(true);
    expect(all.body.data!.records.map((v) => v.id)).not.toContain(otherVisitId);
  });

  it('paged by number, the answer keeps its meta and says hasMore', async () => {
    const first = await visitPage({ pageNumber: 1, pageSize: 10 });
    const total = first.body.data!.meta!.totalCount;
    expect(total).toBeGreaterThan(10);
    expect(first.body.data!.hasMore).toBe(true);
    const last = await visitPage({ pageNumber: Math.ceil(total / 10), pageSize: 10 });
    expect(last.body.data!.hasMore).toBe(false);
  });
});

describe('rewards and the activity log page by cursor too', () => {
  it("rewards by expiry (some without one), forwards and back, only the key's partner's", async () => {
    const made: { id: number; expiry: Date | null }[] = [];
    for (let i = 0; i < 9; i++) {
      const expiryDate = i % 3 === 0 ? null : new Date(Date.UTC(2026, 5, 1 + (i % 4)));
      const r = await createReward(t.db, { partnerId, customerId: customerIds[i % 2]!, expiryDate });
      made.push({ id: r.id, expiry: expiryDate });
    }
    await createReward(t.db, { partnerId: otherPartnerId, customerId: customerIds[0]! });
    // Ascending expiry, no expiry last (PostgreSQL's order), ties by id.
    const expected = [...made]
      .sort(
        (a, b) =>
          (a.expiry === null ? 1 : 0) - (b.expiry === null ? 1 : 0) ||
          (a.expiry?.getTime() ?? 0) - (b.expiry?.getTime() ?? 0) ||
          a.id - b.id,
      )
      .map((r) => r.id);
    const page = (q: Record<string, string | number | undefined>) =>
      t.request<CursorListData<Reward>>(
        'GET',
        `/admin/partners/rewards?${qs({ partnerId, sortBy: 'expiryDate', sortOrder: 'asc', ...q })}`,
        withKey(),
      );
    const seen: number[] = [];
    let more = true;
    while (more) {
      const res = await page({ limit: 2, startingAfter: seen.at(-1) });
      expect(res.status).toBe(200);
      seen.push(...res.body.data!.records.map((r) => r.id));
      more = res.body.data!.hasMore;
    }
    expect(seen).toEqual(expected);
    const back: number[] = [];
    let before: number | undefined = expected.at(-1);
    more = true;
    while (more) {
      const res = await page({ limit: 2, endingBefore: before });
      const ids = res.body.data!.records.map((r) => r.id);
      back.unshift(...ids);
      more = res.body.data!.hasMore;
      before = ids[0];
    }
    expect(back).toEqual(expected.slice(0, -1));
  });

  it('the activity log (staff) walks by cursor in its order', async () => {
    const page = (q: Record<string, string | number | undefined>) =>
      t.request<CursorListData<Activity>>(
        'GET',
        `/admin/user/activities?${qs({ userType: 'PARTNER', ...q })}`,
        {
          token,
        },
      );
    const all = (await page({ pageNumber: 1, pageSize: 100 })).body.data!;
    expect(all.records.length).toBeGreaterThan(3);
    const seen: number[] = [];
    let more = true;
    while (more) {
      const res = await page({ limit: 3, startingAfter: seen.at(-1) });
      expect(res.status).toBe(200);
      seen.push(...res.body.data!.records.map((a) => a.id));
      more = res.body.data!.hasMore;
    }
    expect(seen).toEqual(all.records.map((a) => a.id));
  });
});

describe("a reward's ledger pages by cursor", () => {
  it('oldest first, ties by id, forwards and back; an entry of another reward is invalid_cursor', async () => {
    const gc = await createReward(t.db, { partnerId, customerId: customerIds[0]! });
    const other = await createReward(t.db, { partnerId, customerId: customerIds[1]! });
    const base = Date.UTC(2026, 1, 1, 10);
    // An issue, then redemptions; the 3rd and 4th at the same instant (ties by id).
    const ats = [0, 1, 2, 3, 3, 4, 5].map((m) => new Date(base + m * 60_000));
    const rows = await t.db
      .insert(rewardLedger)
      .values(
        ats.map(
          (at, i) =>
            ({
              rewardId: gc.id,
              kind: i === 0 ? 'ISSUE' : 'REDEEM',
              amount: i === 0 ? 5000 : -100,
              at,
            }) as const,
        ),
      )
      .returning({ id: rewardLedger.id, at: rewardLedger.at });
    const [foreign] = await t.db
      .insert(rewardLedger)
      .values({ rewardId: other.id, kind: 'ISSUE', amount: 5000, at: ats[2]! })
      .returning({ id: rewardLedger.id });
    const expected = [...rows]
      .sort((a, b) => a.at.getTime() - b.at.getTime() || a.id - b.id)
      .map((r) => r.id);
    const ledger = (q: Record<string, string | number | undefined> = {}) =>
      t.request<RewardLedger>('GET', `/partners/rewards/${gc.id}/ledger?${qs(q)}`, withKey());

    const whole = await ledger();
    expect(whole.status).toBe(200);
    expect(whole.body.data!.entries.map((e) => e.id)).toEqual(expected);
    expect(whole.body.data!.hasMore).toBe(false);

    const seen: number[] = [];
    let more = true;
    while (more) {
      const res = await ledger({ limit: 2, startingAfter: seen.at(-1) });
      expect(res.status).toBe(200);
      seen.push(...res.body.data!.entries.map((e) => e.id));
      more = res.body.data!.hasMore;
    }
    expect(seen).toEqual(expected);

    const back = await ledger({ limit: 3, endingBefore: expected[5] });
    expect(back.body.data!.entries.map((e) => e.id)).toEqual(expected.slice(2, 5));
    expect(back.body.data!.hasMore).toBe(true);

    const bad = await ledger({ startingAfter: foreign!.id });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'invalid_cursor', errors: [{ fieldName: 'startingAfter' }] });
    const both = await ledger({ startingAfter: expected[0], endingBefore: expected[1] });
    expect(both.status).toBe(400);
    expect(both.body.code).toBe('validation_failed');
  });
});
