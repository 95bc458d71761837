import { count, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ListData } from '../../contract/envelope';
import type { Reward } from '../../contract/rewards';
import {
  type EligibleUser,
  type EligibleUserDetail,
  eligibleUserDetailSchema,
  visitServerMessages as msg,
  type PointsEligibleUser,
  type Visit,
  visitSchema,
} from '../../contract/visits';
import {
  createCustomer,
  createPartner,
  createReward,
  createRole,
  createSuperAdmin,
  createUser,
  createVisit,
  linkCustomer,
  PNG_BASE64,
  setupTestServer,
  signIn,
} from '../../tests/setup/server';
import { events, files, visitItems, visits } from '../db/schema';

const t = setupTestServer();
let token: string;
const get = <T = unknown>(path: string, as = token) => t.request<T>('GET', path, { token: as });
const record = (json: unknown, as = token) => t.request<Visit>('POST', '/user/visits', { json, token: as });
const lastEvent = async () => (await t.db.select().from(events).orderBy(events.id)).at(-1)!;

/** An instant given in Lagos time. */
const lagos = (local: string) => new Date(`${local}+01:00`);

let partner: Awaited<ReturnType<typeof createPartner>>;
let other: Awaited<ReturnType<typeof createPartner>>;
let ada: Awaited<ReturnType<typeof createCustomer>>;
let bayo: Awaited<ReturnType<typeof createCustomer>>;

beforeAll(async () => {
  const admin = await createSuperAdmin(t.db);
  token = (await signIn(t, admin.email, admin.password)).accessToken;
  // The test clock starts at 2026-03-02T09:00Z: 10:00 on 2 March in Lagos.
  partner = await createPartner(t.db, { organizationName: 'Mama Cass Kitchen', minSpendToQualify: 10_000 });
  other = await createPartner(t.db, { organizationName: 'Other Place' });
  ada = await createCustomer(t.db, { firstName: 'Ada', lastName: 'Obi' });
  bayo = await createCustomer(t.db, { firstName: 'Bayo', lastName: 'Lawal' });
});

const visitBody = (over: Record<string, unknown> = {}) => ({
  partnerId: partner.id,
  customerId: ada.id,
  attendantName: 'Bisi',
  visitDate: '2026-03-02T08:30:00.000Z',
  items: [
    { name: 'Jollof rice with chicken', quantity: 2, price: 4500 },
    { name: 'Chapman', quantity: 3, price: 1999.99 },
  ],
  receiptImage: PNG_BASE64,
  ...over,
});

describe('POST /user/visits', () => {
  it('records the visit with items and receipt; the total comes from the items; logs it', async () => {
    const res = await record(visitBody());
    expect(res.status).toBe(201);
    expect(res.body.message).toBe(msg.recorded);
    const v = visitSchema.parse(res.body.data);
    expect(v).toMatchObject({
      user: { id: ada.id, firstName: 'Ada', lastName: 'Obi' },
      attendantName: 'Bisi',
      visitDate: '2026-03-02T08:30:00.000Z',
      totalAmount: 14_999.97,
      partner: { id: partner.id, organizationName: 'Mama Cass Kitchen' },
    });
    expect(v.visitItems.map((i) => [i.name, i.quantity, i.price])).toEqual([
      ['Jollof rice with chicken', 2, 4500],
      ['Chapman', 3, 1999.99],
    ]);
    expect(v.imageUrl).toMatch(/^\/api\/v1\/files\/[0-9a-f]{64}$/);
    expect((await t.app.request(v.imageUrl!)).status).toBe(200);
    expect(await lastEvent()).toMatchObject({
      action: 'Recorded a visit for Ada Obi at Mama Cass Kitchen',
      entity: 'visit',
      entityId: String(v.id),
    });
    // Without a receipt is fine too.
    const plain = await record(visitBody({ receiptImage: undefined, customerId: bayo.id }));
    expect(plain.status).toBe(201);
    expect(plain.body.data!.imageUrl).toBeNull();
  });

  it('bad input is a 400 per field; unknown partner or customer a 404 per field; nothing is written', async () => {
    const tally = async () => ({
      visits: (await t.db.select({ n: count() }).from(visits))[0]!.n,
      items: (await t.db.select({ n: count() }).from(visitItems))[0]!.n,
      files: (await t.db.select({ n: count() }).from(files))[0]!.n,
    });
    const start = await tally();
    const blockedPartner = await createPartner(t.db, { accountStatus: 'BLOCKED' });
    const blockedCustomer = await createCustomer(t.db, { accountStatus: 'BLOCKED' });
    const deletedCustomer = await createCustomer(t.db, { deletedAt: new Date() });
    const cases: [Record<string, unknown>, number, string, string?][] = [
      [{ partnerId: 999_999 }, 404, 'partnerId', msg.partnerNotFound],
      [{ customerId: 999_999 }, 404, 'customerId', msg.customerNotFound],
      [{ customerId: deletedCustomer.id }, 404, 'customerId', msg.customerNotFound],
      [{ partnerId: blockedPartner.id }, 409, 'partnerId', msg.partnerBlocked],
      [{ customerId: blockedCustomer.id }, 400, 'customerId', msg.customerBlocked],
      [{ partnerId: 'one' }, 400, 'partnerId'],
      [{ items: [] }, 400, 'items', 'At least one item is required'],
      [
        { items: [{ name: 'x', quantity: '2', price: 10 }] },
        400,
        'items.0.quantity',
        'Quantity must be a number',
      ],
      [
        { items: [{ name: 'x', quantity: 1, price: -1 }] },
        400,
        'items.0.price',
        'Price must be a positive number',
      ],
      [{ items: [{ name: 'x', quantity: 1, price: 1.005 }] }, 400, 'items.0.price'],
      [{ items: [{ name: '', quantity: 1, price: 1 }] }, 400, 'items.0.name', 'Item name is required'],
      [{ visitDate: 'yesterday' }, 400, 'visitDate'],
      [{ visitDate: '2026-03-03T09:00:00.000Z' }, 400, 'visitDate', msg.futureDate],
      [{ attendantName: undefined }, 400, 'attendantName', 'Attendant name is required'],
      [{ receiptImage: Buffer.from('GIF89a').toString('base64') }, 400, 'receiptImage'],
      [
        {
          items: Array.from({ length: 200 }, () => ({ name: 'Gold', quantity: 10_000, price: 100_000_000 })),
        },
        400,
        'items',
        msg.totalTooLarge,
      ],
    ];
    for (const [over, status, fieldName, message] of cases) {
      const res = await record(visitBody(over));
      expect(res.status, JSON.stringify(over).slice(0, 80)).toBe(status);
      expect(res.body.success).toBe(false);
      const hit = res.body.errors.find((e) => e.fieldName === fieldName);
      expect(hit, `${JSON.stringify(over).slice(0, 80)}: ${JSON.stringify(res.body.errors)}`).toBeTruthy();
      if (message) expect(hit!.message).toBe(message);
    }
    const big = Buffer.concat([Buffer.from(PNG_BASE64, 'base64'), Buffer.alloc(5 * 1024 * 1024)]).toString(
      'base64',
    );
    const tooBig = await record(visitBody({ receiptImage: big }));
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.errors).toEqual([
      { fieldName: 'receiptImage', message: 'Image must be at most 5 MiB' },
    ]);
    const huge = await record(visitBody({ receiptImage: 'A'.repeat(20 * 1000 * 1000) }));
    expect(huge.status).toBe(413);
    expect(await tally()).toEqual(start);
  });

  it('partner staff record visits only at their own partner', async () => {
    const role = await createRole(t.db, 'Recorder', ['visits.create', 'visits.view']);
    const staff = await createUser(t.db, { roleId: role.id, userType: 'PARTNER', partnerId: other.id });
    const own = (await signIn(t, staff.email, staff.password)).accessToken;
    expect((await record(visitBody(), own)).status).toBe(404);
    expect((await get(`/admin/partners/visits?partnerId=${partner.id}`, own)).status).toBe(404);
    // At their own partner, for a customer linked to it (decision 053).
    await linkCustomer(t.db, other.id, ada.id);
    expect((await record(visitBody({ partnerId: other.id }), own)).status).toBe(201);
  });
});

describe('GET /admin/partners/visits and /{visitId}', () => {
  let p: Awaited<ReturnType<typeof createPartner>>;
  beforeAll(async () => {
    p = await createPartner(t.db, { organizationName: 'Visit List Place' });
    await createVisit(t.db, {
      partnerId: p.id,
      customerId: ada.id,
      visitDate: lagos('2026-02-20T12:00:00'),
      amount: 3000,
      attendantName: 'Zara',
    });
    await createVisit(t.db, {
      partnerId: p.id,
      customerId: bayo.id,
      visitDate: lagos('2026-02-25T12:00:00'),
      amount: 9000,
      attendantName: 'Ayo',
    });
    await createVisit(t.db, {
      partnerId: p.id,
      customerId: ada.id,
      visitDate: lagos('2026-03-01T12:00:00'),
      amount: 500,
      attendantName: 'Musa',
    });
    await createVisit(t.db, {
      partnerId: other.id,
      customerId: ada.id,
      visitDate: lagos('2026-03-01T13:00:00'),
      amount: 100,
    });
  });

  it('lists the partner’s visits with items, newest first by default; sorts; searches', async () => {
    const res = await get<ListData<Visit>>(`/admin/partners/visits?partnerId=${p.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data!.meta.totalCount).toBe(3);
    expect(res.body.data!.records.map((v) => v.totalAmount)).toEqual([500, 9000, 3000]);
    expect(res.body.data!.records[0]!.visitItems).toEqual([
      { id: expect.any(Number), name: 'Jollof rice', quantity: 1, price: 500 },
    ]);
    const byAmount = await get<ListData<Visit>>(
      `/admin/partners/visits?partnerId=${p.id}&sortBy=totalAmount&sortOrder=desc`,
    );
    expect(byAmount.body.data!.records.map((v) => v.totalAmount)).toEqual([9000, 3000, 500]);
    const byUser = await get<ListData<Visit>>(`/admin/partners/visits?partnerId=${p.id}&sortBy=userName`);
    expect(byUser.body.data!.records.map((v) => v.user.firstName)).toEqual(['Ada', 'Ada', 'Bayo']);
    const byAttendant = await get<ListData<Visit>>(
      `/admin/partners/visits?partnerId=${p.id}&sortBy=attendantName`,
    );
    expect(byAttendant.body.data!.records.map((v) => v.attendantName)).toEqual(['Ayo', 'Musa', 'Zara']);
    const search = await get<ListData<Visit>>(`/admin/partners/visits?partnerId=${p.id}&searchText=bayo`);
    expect(search.body.data!.records.map((v) => v.totalAmount)).toEqual([9000]);
    expect(search.body.data!.meta.totalCount).toBe(1);
    const paged = await get<ListData<Visit>>(
      `/admin/partners/visits?partnerId=${p.id}&pageSize=10&pageNumber=2`,
    );
    expect(paged.body.data).toMatchObject({ records: [], meta: { totalCount: 3, pageNumber: 2 } });
  });

  it('bad or unknown partner: 400 / 404; visit detail and its 404', async () => {
    expect((await get('/admin/partners/visits')).status).toBe(400);
    expect((await get('/admin/partners/visits?partnerId=999999')).status).toBe(404);
    expect((await get(`/admin/partners/visits?partnerId=${p.id}&sortBy=partner`)).status).toBe(400);
    const [first] = (await get<ListData<Visit>>(`/admin/partners/visits?partnerId=${p.id}`)).body.data!
      .records;
    const detail = await get<Visit>(`/admin/partners/visits/${first!.id}`);
    expect(detail.body.data).toEqual(first);
    const missing = await get('/admin/partners/visits/999999');
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe(msg.notFound);
  });
});

describe('eligibility: GET /admin/partners/visits/reward-eligible-users', () => {
  let p: Awaited<ReturnType<typeof createPartner>>;
  let edge: Awaited<ReturnType<typeof createCustomer>>;
  let equal: Awaited<ReturnType<typeof createCustomer>>;
  let under: Awaited<ReturnType<typeof createCustomer>>;
  let outside: Awaited<ReturnType<typeof createCustomer>>;
  const list = (query: string) =>
    get<ListData<EligibleUser>>(`/admin/partners/visits/reward-eligible-users?partnerId=${p.id}${query}`);

  beforeAll(async () => {
    p = await createPartner(t.db, { organizationName: 'Eligibility Place', minSpendToQualify: 10_000 });
    edge = await createCustomer(t.db, { firstName: 'Edge', lastName: 'Case' });
    equal = await createCustomer(t.db, { firstName: 'Equal', lastName: 'Spend' });
    under = await createCustomer(t.db, { firstName: 'Under', lastName: 'Spend' });
    outside = await createCustomer(t.db, { firstName: 'Outside', lastName: 'Window' });
    // D = 2026-03-31: the window is [2026-03-02 00:00, 2026-03-31 23:59:59.999] Lagos.
    await createVisit(t.db, {
      partnerId: p.id,
      customerId: edge.id,
      visitDate: lagos('2026-03-02T00:00:00.000'),
      amount: 6000,
    });
    await createVisit(t.db, {
      partnerId: p.id,
      customerId: edge.id,
      visitDate: lagos('2026-03-31T23:59:59.999'),
      amount: 6000,
    });
    await createVisit(t.db, {
      partnerId: p.id,
      customerId: equal.id,
      visitDate: lagos('2026-03-15T12:00:00'),
      amount: 4000,
    });
    await createVisit(t.db, {
      partnerId: p.id,
      customerId: equal.id,
      visitDate: lagos('2026-03-16T12:00:00'),
      amount: 6000,
    });
    await createVisit(t.db, {
      partnerId: p.id,
      customerId: under.id,
      visitDate: lagos('2026-03-20T12:00:00'),
      amount: 9999.99,
    });
    // Just outside both edges, and at another partner: none of these count.
    await createVisit(t.db, {
      partnerId: p.id,
      customerId: outside.id,
      visitDate: lagos('2026-03-01T23:59:59.999'),
      amount: 50_000,
    });
    await createVisit(t.db, {
      partnerId: p.id,
      customerId: outside.id,
      visitDate: lagos('2026-04-01T00:00:00.000'),
      amount: 50_000,
    });
    await createVisit(t.db, {
      partnerId: other.id,
      customerId: under.id,
      visitDate: lagos('2026-03-20T12:00:00'),
      amount: 50_000,
    });
  });

  it('one row per customer who visited in the 30 days up to D (both edges in), with the verdict and message', async () => {
    const res = await list('&date=2026-03-31');
    expect(res.status).toBe(200);
    expect(res.body.data!.meta.totalCount).toBe(3);
    expect(res.body.data!.records).toEqual([
      {
        user: { id: edge.id, firstName: 'Edge', lastName: 'Case' },
        totalSpent: 12_000,
        isEligible: true,
        rewardType: 'GIFTCARD',
        message: 'Spent ₦12,000.00 of ₦10,000.00',
      },
      {
        user: { id: equal.id, firstName: 'Equal', lastName: 'Spend' },
        totalSpent: 10_000,
        isEligible: true,
        rewardType: 'GIFTCARD',
        message: 'Spent ₦10,000.00 of ₦10,000.00',
      },
      {
        user: { id: under.id, firstName: 'Under', lastName: 'Spend' },
        totalSpent: 9_999.99,
        isEligible: false,
        rewardType: null,
        message: 'Spent ₦9,999.99 of ₦10,000.00',
      },
    ]);
  });

  it('moving D by a day drops the visit on the old first day and adds the next day', async () => {
    const next = await list('&date=2026-04-01');
    const byName = Object.fromEntries(next.body.data!.records.map((r) => [r.user.firstName, r.totalSpent]));
    expect(byName).toEqual({ Edge: 6000, Equal: 10_000, Under: 9_999.99, Outside: 50_000 });
    // D-1: the window starts on 1 March, so the last instant of 1 March counts, 31 March does not.
    const before = await list('&date=2026-03-30');
    const earlier = Object.fromEntries(
      before.body.data!.records.map((r) => [r.user.firstName, r.totalSpent]),
    );
    expect(earlier).toEqual({ Edge: 6000, Equal: 10_000, Under: 9_999.99, Outside: 50_000 });
  });

  it('date defaults to today in Lagos; sorts by totalSpent; bad date is a 400', async () => {
    const today = await list('');
    expect(today.status).toBe(200);
    // Today is 2 March in Lagos: the window [1 Feb, 2 Mar] holds the visits of 1 March 23:59:59.999
    // and 2 March 00:00.
    expect(today.body.data!.records.map((r) => r.user.firstName)).toEqual(['Edge', 'Outside']);
    const sorted = await list('&date=2026-03-31&sortBy=totalSpent&sortOrder=desc');
    expect(sorted.body.data!.records.map((r) => r.totalSpent)).toEqual([12_000, 10_000, 9_999.99]);
    const bad = await list('&date=31/03/2026');
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]?.fieldName).toBe('date');
    expect((await list('&date=2026-02-30')).status).toBe(400);
    expect((await list('&date=0001-01-01')).status).toBe(400); // before 1900: a 400, not a database error
    expect((await list('&date=9999-12-31')).status).toBe(200);
  });

  it('a page past the end is empty with the true total; deleted customers are left out', async () => {
    const past = await list('&date=2026-03-31&pageNumber=3');
    expect(past.body.data).toMatchObject({ records: [], meta: { totalCount: 3, pageNumber: 3 } });
    const gone = await createCustomer(t.db, {
      firstName: 'Gone',
      lastName: 'Customer',
      deletedAt: new Date(),
    });
    await createVisit(t.db, {
      partnerId: p.id,
      customerId: gone.id,
      visitDate: lagos('2026-03-20T12:00:00'),
      amount: 20_000,
    });
    expect((await list('&date=2026-03-31')).body.data!.meta.totalCount).toBe(3);
    const search = await list('&date=2026-03-31&searchText=equal');
    expect(search.body.data!.records.map((r) => r.user.firstName)).toEqual(['Equal']);
    expect(search.body.data!.meta.totalCount).toBe(1);
  });

  it('detail: the same verdict with the window’s visits, newest first; 404 when none', async () => {
    const res = await get<EligibleUserDetail>(
      `/admin/partners/visits/reward-eligible-users/${edge.id}?partnerId=${p.id}&date=2026-03-31`,
    );
    expect(res.status).toBe(200);
    const d = eligibleUserDetailSchema.parse(res.body.data);
    expect(d).toMatchObject({
      totalSpent: 12_000,
      isEligible: true,
      rewardType: 'GIFTCARD',
      message: 'Spent ₦12,000.00 of ₦10,000.00',
    });
    expect(d.visitHistory.map((v) => v.visitDate)).toEqual([
      '2026-03-31T22:59:59.999Z',
      '2026-03-01T23:00:00.000Z',
    ]);
    expect(d.visitHistory[0]!.visitItems).toHaveLength(1);
    const none = await get(
      `/admin/partners/visits/reward-eligible-users/${outside.id}?partnerId=${p.id}&date=2026-03-31`,
    );
    expect(none.status).toBe(404);
    expect(none.body.message).toBe(msg.noVisits);
    expect((await get(`/admin/partners/visits/reward-eligible-users/${edge.id}`)).status).toBe(400);
    expect(
      (await get(`/admin/partners/visits/reward-eligible-users/${edge.id}?partnerId=999999`)).status,
    ).toBe(404);
  });
});

describe('points: GET /admin/partners/visits/eligible-users-bypoints', () => {
  it('1 point per ₦100 per visit (rounded down), less points claimed there; only > 0; most first', async () => {
    const p = await createPartner(t.db, { organizationName: 'Points Place' });
    const a = await createCustomer(t.db, {
      firstName: 'Points',
      lastName: 'Alpha',
      email: 'alpha@points.ng',
    });
    const b = await createCustomer(t.db, { firstName: 'Points', lastName: 'Beta' });
    const c = await createCustomer(t.db, { firstName: 'Points', lastName: 'Gamma' });
    const d = await createCustomer(t.db, { firstName: 'Points', lastName: 'Delta' });
    const at = lagos('2026-01-10T12:00:00');
    await createVisit(t.db, { partnerId: p.id, customerId: a.id, visitDate: at, amount: 150 });
    await createVisit(t.db, { partnerId: p.id, customerId: a.id, visitDate: at, amount: 150 }); // 1 + 1 = 2, not 3
    await createVisit(t.db, { partnerId: p.id, customerId: b.id, visitDate: at, amount: 12_550 }); // 125
    await createVisit(t.db, { partnerId: p.id, customerId: c.id, visitDate: at, amount: 5_000 }); // 50, all claimed
    await createVisit(t.db, { partnerId: p.id, customerId: d.id, visitDate: at, amount: 99.99 }); // 0
    await createVisit(t.db, { partnerId: other.id, customerId: d.id, visitDate: at, amount: 100_000 }); // elsewhere
    await createReward(t.db, { partnerId: p.id, customerId: c.id, pointsClaimed: 50 });
    await createReward(t.db, { partnerId: p.id, customerId: b.id, pointsClaimed: 25 });
    await createReward(t.db, { partnerId: other.id, customerId: a.id, pointsClaimed: 1 }); // another partner's claim
    const res = await get<ListData<PointsEligibleUser>>(
      `/admin/partners/visits/eligible-users-bypoints?partnerId=${p.id}`,
    );
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      records: [
        { id: b.id, name: 'Points Beta', email: b.email, totalUnclaimedPoints: 100 },
        { id: a.id, name: 'Points Alpha', email: 'alpha@points.ng', totalUnclaimedPoints: 2 },
      ],
      meta: { totalCount: 2, pageNumber: 1, pageSize: 10 },
    });
    expect((await get('/admin/partners/visits/eligible-users-bypoints?partnerId=999999')).status).toBe(404);
    expect((await get('/admin/partners/visits/eligible-users-bypoints?partnerId=-1')).status).toBe(400);
  });

  it('sorts by its one key from the contract (points, either way); another sortBy is a 400', async () => {
    const p = await createPartner(t.db, { organizationName: 'Points Sort Place' });
    const few = await createCustomer(t.db, { firstName: 'Sort', lastName: 'Few' });
    const many = await createCustomer(t.db, { firstName: 'Sort', lastName: 'Many' });
    const at = lagos('2026-01-10T12:00:00');
    await createVisit(t.db, { partnerId: p.id, customerId: few.id, visitDate: at, amount: 300 });
    await createVisit(t.db, { partnerId: p.id, customerId: many.id, visitDate: at, amount: 9_000 });
    const ids = async (query: string) =>
      (
        await get<ListData<PointsEligibleUser>>(
          `/admin/partners/visits/eligible-users-bypoints?partnerId=${p.id}${query}`,
        )
      ).body.data?.records.map((r) => r.id);
    expect(await ids('')).toEqual([many.id, few.id]);
    expect(await ids('&sortBy=points&sortOrder=asc')).toEqual([few.id, many.id]);
    const bad = await get(`/admin/partners/visits/eligible-users-bypoints?partnerId=${p.id}&sortBy=email`);
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('sortBy');
  });
});

describe('GET /admin/partners/rewards', () => {
  it('lists the partner’s rewards; balance null for coupons; past expiry reads Expired', async () => {
    const p = await createPartner(t.db, { organizationName: 'Rewards Place' });
    const now = t.clock();
    const gift = await createReward(t.db, {
      partnerId: p.id,
      customerId: ada.id,
      issuedAmount: 5000,
      balance: 3500,
      expiryDate: new Date(now.getTime() + 86_400_000),
      createdAt: new Date(now.getTime() - 3 * 86_400_000),
    });
    const lagging = await createReward(t.db, {
      partnerId: p.id,
      customerId: bayo.id,
      rewardType: 'COUPON',
      issuedAmount: null,
      balance: 999,
      percentageDiscount: 10,
      status: 'Active',
      expiryDate: new Date(now.getTime() - 60_000),
      createdAt: new Date(now.getTime() - 2 * 86_400_000),
    });
    await createReward(t.db, { partnerId: other.id, customerId: ada.id });
    const res = await get<ListData<Reward>>(`/admin/partners/rewards?partnerId=${p.id}`);
    expect(res.status).toBe(200);
    const records = res.body.data!.records;
    expect(records.map((r) => r.id)).toEqual([lagging.id, gift.id]);
    expect(records[0]).toMatchObject({
      rewardType: 'COUPON',
      balance: null,
      status: 'Expired',
      percentageDiscount: 10,
    });
    expect(records[1]).toMatchObject({
      rewardType: 'GIFTCARD',
      balance: 3500,
      status: 'Active',
      issuedAmount: 5000,
      user: { firstName: 'Ada' },
    });
    const expired = await get<ListData<Reward>>(`/admin/partners/rewards?partnerId=${p.id}&status=Expired`);
    expect(expired.body.data!.records.map((r) => r.id)).toEqual([lagging.id]);
    const active = await get<ListData<Reward>>(`/admin/partners/rewards?partnerId=${p.id}&status=Active`);
    expect(active.body.data!.records.map((r) => r.id)).toEqual([gift.id]);
    const byUser = await get<ListData<Reward>>(`/admin/partners/rewards?partnerId=${p.id}&sortBy=userName`);
    expect(byUser.body.data!.records.map((r) => r.user.firstName)).toEqual(['Ada', 'Bayo']);
    for (const sortBy of ['expiryDate', 'rewardType', 'status', 'balance', 'createdAt']) {
      expect((await get(`/admin/partners/rewards?partnerId=${p.id}&sortBy=${sortBy}`)).status).toBe(200);
    }
    expect((await get(`/admin/partners/rewards?partnerId=${p.id}&status=Lost`)).status).toBe(400);
    expect((await get('/admin/partners/rewards?partnerId=999999')).status).toBe(404);
    expect((await get('/admin/partners/rewards')).status).toBe(400);
  });
});

describe('deleted partners', () => {
  it('their tabs are 404 but history stays in the database', async () => {
    const p = await createPartner(t.db, { organizationName: 'Gone Place' });
    const v = await createVisit(t.db, {
      partnerId: p.id,
      customerId: ada.id,
      visitDate: lagos('2026-03-01T10:00:00'),
      amount: 100,
    });
    await t.request('DELETE', `/admin/partners/${p.id}`, { token });
    expect((await get(`/admin/partners/visits?partnerId=${p.id}`)).status).toBe(404);
    const [kept] = await t.db.select().from(visits).where(eq(visits.id, v.id));
    expect(kept).toBeTruthy();
  });
});

describe('GET /partners/visits/customers (decision 049)', () => {
  it("finds the partner's linked customers by part of a name or email; only club staff find anyone by the whole email; masked", async () => {
    const shop = await createPartner(t.db, { organizationName: 'First Visit Shop' });
    const role = await createRole(t.db, 'Till', ['visits.create']);
    const cashier = await createUser(t.db, { roleId: role.id, userType: 'PARTNER', partnerId: shop.id });
    const till = (await signIn(t, cashier.email, cashier.password)).accessToken;
    const regular = await createCustomer(t.db, {
      firstName: 'Kemi',
      lastName: 'Regular',
      email: 'kemi.r@mail.ng',
    });
    const newcomer = await createCustomer(t.db, {
      firstName: 'Kemi',
      lastName: 'Newcomer',
      email: 'Kemi.N@Mail.ng',
    });
    const gone = await createCustomer(t.db, {
      email: 'gone@mail.ng',
      deletedAt: new Date('2026-03-01T00:00:00Z'),
    });
    await createVisit(t.db, {
      partnerId: shop.id,
      customerId: regular.id,
      visitDate: lagos('2026-03-01T12:00'),
      amount: 5000,
    });
    const find = (search: string, as = till) =>
      get<{ id: number; firstName: string; email: string }[]>(
        `/partners/visits/customers?search=${encodeURIComponent(search)}`,
        as,
      );

    // Part of a name: only the customer who visited this partner before.
    const byName = await find('kemi');
    expect(byName.status, byName.text).toBe(200);
    expect(byName.body.data).toEqual([
      { id: regular.id, firstName: 'Kemi', lastName: 'Regular', email: 'k***@mail.ng' },
    ]);
    // The whole address of a customer not linked to the partner: nobody for the cashier (decision 053:
    // a first visit starts with a link, POST /partners/customer-links); club staff name the partner
    // and find them, never the address unmasked.
    expect((await find('kemi.n@mail.NG')).body.data).toEqual([]);
    const byAdmin = await get<unknown[]>(
      `/partners/visits/customers?partnerId=${shop.id}&search=${encodeURIComponent('kemi.n@mail.NG')}`,
      token,
    );
    expect(byAdmin.body.data).toEqual([
      { id: newcomer.id, firstName: 'Kemi', lastName: 'Newcomer', email: 'K***@Mail.ng' },
    ]);
    // Part of the newcomer's address finds nobody; a deleted customer's whole address neither.
    expect((await find('kemi.n@mail')).body.data).toEqual([]);
    expect((await find(gone.email)).body.data).toEqual([]);
    // A wildcard is text, not a pattern.
    expect((await find('%@mail.ng')).body.data).toEqual([]);
    // Another partner: 404 for the cashier; admins name the partner.
    expect((await get(`/partners/visits/customers?partnerId=${other.id}`, till)).status).toBe(404);
    expect((await find('kemi', token)).status).toBe(400);
    // Once linked, the newcomer's visit is recorded and they are found by name.
    expect((await record(visitBody({ partnerId: shop.id, customerId: newcomer.id }), till)).status).toBe(403);
    await linkCustomer(t.db, shop.id, newcomer.id);
    const res = await record(visitBody({ partnerId: shop.id, customerId: newcomer.id }), till);
    expect(res.status, res.text).toBe(201);
    expect((await find('newcomer')).body.data).toEqual([expect.objectContaining({ id: newcomer.id })]);
  });
});
