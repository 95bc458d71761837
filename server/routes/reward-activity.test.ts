import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { type RewardActivity, rewardActivitySchema } from '../../contract/reward-activity';
import {
  createCustomer,
  createPartner,
  createReward,
  createRole,
  createSuperAdmin,
  createUser,
  setupTestServer,
  signIn,
} from '../../tests/setup/server';
import { rewardLedger, rewards } from '../db/schema';
import { activityWeeks } from '../domain/analytics';

/**
 * The weekly reward charts (decision 018): GET /admin/partners/stats/reward/weekly (club-wide, or the
 * partner staff's own partner) and GET /admin/partners/stats/partner/weekly?partnerId=. The test
 * clock stands at 2026-03-02T09:00Z, a Monday (10:00 in Lagos), so the current week starts today.
 */
const t = setupTestServer();
let admin: string;
let rootCreds: { email: string; password: string };
let partnerStaff: string;
let noDashboard: string;
let own: { id: number };
let other: { id: number };
let empty: { id: number };

const WEEKLY = '/admin/partners/stats/reward/weekly';
const partnerWeekly = (id: number | string) => `/admin/partners/stats/partner/weekly?partnerId=${id}`;

/** Monday 00:00 Lagos of the current week, and of the oldest of the 12. */
const CURRENT_WEEK = new Date('2026-03-01T23:00:00.000Z');
const OLDEST_WEEK = new Date('2025-12-14T23:00:00.000Z');
const ms = (d: Date, delta: number) => new Date(d.getTime() + delta);
const DAY = 24 * 60 * 60 * 1000;

async function get(path: string, token = admin) {
  const res = await t.request<RewardActivity>('GET', path, { token });
  return res;
}

async function weekly(path: string, token = admin): Promise<RewardActivity> {
  const res = await get(path, token);
  expect(res.status, res.text).toBe(200);
  // The body is exactly what the contract says (12 weeks, numbers, the time zone).
  return rewardActivitySchema.parse(res.body.data);
}

beforeAll(async () => {
  rootCreds = await createSuperAdmin(t.db);
  admin = (await signIn(t, rootCreds.email, rootCreds.password)).accessToken;
  own = await createPartner(t.db, { organizationName: 'Own Kitchen' });
  other = await createPartner(t.db, { organizationName: 'Other Kitchen' });
  empty = await createPartner(t.db, { organizationName: 'Quiet Kitchen' });
  const staffRole = await createRole(t.db, 'Partner cashier', ['dashboard.view', 'partners.view']);
  const staff = await createUser(t.db, { roleId: staffRole.id, userType: 'PARTNER', partnerId: own.id });
  partnerStaff = (await signIn(t, staff.email, staff.password)).accessToken;
  const viewerRole = await createRole(t.db, 'Partner viewer only', ['partners.view']);
  const viewer = await createUser(t.db, { roleId: viewerRole.id });
  noDashboard = (await signIn(t, viewer.email, viewer.password)).accessToken;

  const customer = await createCustomer(t.db);
  const c = customer.id;
  // Own partner: at the edges of the weeks (Lagos midnight between Sunday and Monday is 23:00 UTC).
  const g1 = await createReward(t.db, { partnerId: own.id, customerId: c, createdAt: CURRENT_WEEK }); // last week bucket
  await createReward(t.db, { partnerId: own.id, customerId: c, createdAt: ms(CURRENT_WEEK, -1) }); // the week before
  await createReward(t.db, {
    partnerId: own.id,
    customerId: c,
    createdAt: OLDEST_WEEK,
    issuedAmount: 2_500,
    balance: 2_500,
  }); // first bucket
  await createReward(t.db, { partnerId: own.id, customerId: c, createdAt: ms(OLDEST_WEEK, -1) }); // before the range
  const coupon = await createReward(t.db, {
    partnerId: own.id,
    customerId: c,
    rewardType: 'COUPON',
    issuedAmount: null,
    balance: null,
    percentageDiscount: 10,
    createdAt: ms(CURRENT_WEEK, -3 * DAY),
  }); // the week before, counted without an amount
  // Redemptions of g1: ₦1,200 this week, ₦300 reversed (left out), and the coupon's 0-naira REDEEM row.
  const [kept] = await t.db
    .insert(rewardLedger)
    .values({ rewardId: g1.id, kind: 'REDEEM', amount: -1_200, at: ms(CURRENT_WEEK, 60_000) })
    .returning({ id: rewardLedger.id });
  const [reversed] = await t.db
    .insert(rewardLedger)
    .values({ rewardId: g1.id, kind: 'REDEEM', amount: -300, at: ms(CURRENT_WEEK, 120_000) })
    .returning({ id: rewardLedger.id });
  await t.db.insert(rewardLedger).values({
    rewardId: g1.id,
    kind: 'REVERSAL',
    amount: 300,
    reversesId: reversed!.id,
    at: ms(CURRENT_WEEK, 180_000),
  });
  await t.db
    .insert(rewardLedger)
    .values({ rewardId: coupon.id, kind: 'REDEEM', amount: 0, at: ms(CURRENT_WEEK, -2 * DAY) });
  expect(kept).toBeDefined();
  // Outstanding: g1 holds 5,000 - 1,200; an expired gift card and a used-up one owe nothing.
  await t.db.update(rewards).set({ balance: 3_800 }).where(eq(rewards.id, g1.id));
  await createReward(t.db, {
    partnerId: own.id,
    customerId: c,
    createdAt: ms(OLDEST_WEEK, -30 * DAY),
    expiryDate: ms(new Date('2026-03-02T09:00:00.000Z'), -1),
  });
  await createReward(t.db, {
    partnerId: own.id,
    customerId: c,
    createdAt: ms(OLDEST_WEEK, -30 * DAY),
    status: 'Redeemed',
    balance: 0,
  });
  // Other partner: one gift card of ₦7,000 this week, redeemed ₦7,000 in full.
  const o1 = await createReward(t.db, {
    partnerId: other.id,
    customerId: c,
    createdAt: ms(CURRENT_WEEK, DAY),
    issuedAmount: 7_000,
    balance: 0,
    status: 'Redeemed',
  });
  await t.db
    .insert(rewardLedger)
    .values({ rewardId: o1.id, kind: 'REDEEM', amount: -7_000, at: ms(CURRENT_WEEK, DAY) });
});

describe('the 12 weekly buckets', () => {
  it('are ISO weeks in Lagos time, oldest first, the last one holding now', () => {
    const w = activityWeeks(new Date('2026-03-02T09:00:00.000Z'));
    expect(w.starts).toHaveLength(12);
    expect(w.starts[0]).toBe('2025-12-15');
    expect(w.starts[11]).toBe('2026-03-02');
    expect(w.start.toISOString()).toBe(OLDEST_WEEK.toISOString());
    expect(w.endExclusive.toISOString()).toBe('2026-03-08T23:00:00.000Z');
    // Sunday 23:30 UTC is already Monday in Lagos: a new week.
    expect(activityWeeks(new Date('2026-03-08T23:30:00.000Z')).starts[11]).toBe('2026-03-09');
    expect(activityWeeks(new Date('2026-03-08T22:59:59.999Z')).starts[11]).toBe('2026-03-02');
    // Across a year end.
    expect(activityWeeks(new Date('2027-01-01T12:00:00.000Z')).starts[11]).toBe('2026-12-28');
  });

  it('club-wide: issued and redeemed per week, zeros where nothing happened', async () => {
    const a = await weekly(WEEKLY);
    expect(a.timeZone).toBe('Africa/Lagos');
    expect(a.weeks.map((w) => w.weekStart)).toEqual(
      activityWeeks(new Date('2026-03-02T09:00:00.000Z')).starts,
    );
    const [first, ...rest] = a.weeks;
    expect(first).toEqual({
      weekStart: '2025-12-15',
      issuedCount: 1,
      issuedAmount: 2_500,
      redeemedCount: 0,
      redeemedAmount: 0,
    });
    const last = rest.at(-1)!;
    const before = rest.at(-2)!;
    // This week: own g1 (₦5,000) and other's o1 (₦7,000); redemptions ₦1,200 (own) + ₦7,000 (other),
    // the reversed ₦300 left out.
    expect(last).toEqual({
      weekStart: '2026-03-02',
      issuedCount: 2,
      issuedAmount: 12_000,
      redeemedCount: 2,
      redeemedAmount: 8_200,
    });
    // Last week: a gift card one millisecond before Monday and the coupon (no naira); the coupon's
    // redemption counts, at 0 naira.
    expect(before).toEqual({
      weekStart: '2026-02-23',
      issuedCount: 2,
      issuedAmount: 5_000,
      redeemedCount: 1,
      redeemedAmount: 0,
    });
    for (const w of rest.slice(0, -2)) {
      expect(w).toEqual({
        weekStart: w.weekStart,
        issuedCount: 0,
        issuedAmount: 0,
        redeemedCount: 0,
        redeemedAmount: 0,
      });
    }
    // Outstanding: g1's ₦3,800 + the three untouched gift cards' (₦5,000, ₦2,500, ₦5,000) = ₦16,300.
    expect(a.outstandingGiftcardBalance).toBe(16_300);
    expect(a.outstandingGiftcardCount).toBe(4);
    expect(a.asOf).toBe('2026-03-02T09:00:00.000Z');
  });

  it('one partner: only its rewards and redemptions', async () => {
    const o = await weekly(partnerWeekly(other.id));
    expect(o.weeks.at(-1)).toMatchObject({
      issuedCount: 1,
      issuedAmount: 7_000,
      redeemedCount: 1,
      redeemedAmount: 7_000,
    });
    expect(o.weeks.slice(0, -1).every((w) => w.issuedCount === 0 && w.redeemedCount === 0)).toBe(true);
    expect(o.outstandingGiftcardBalance).toBe(0);
    const mine = await weekly(partnerWeekly(own.id));
    expect(mine.weeks.at(-1)).toMatchObject({
      issuedCount: 1,
      issuedAmount: 5_000,
      redeemedCount: 1,
      redeemedAmount: 1_200,
    });
    expect(mine.outstandingGiftcardBalance).toBe(16_300);
  });

  it('a partner without rewards: twelve weeks of zeros', async () => {
    const q = await weekly(partnerWeekly(empty.id));
    expect(q.weeks).toHaveLength(12);
    expect(
      q.weeks.every((w) => !w.issuedCount && !w.issuedAmount && !w.redeemedCount && !w.redeemedAmount),
    ).toBe(true);
    expect(q.outstandingGiftcardBalance).toBe(0);
    expect(q.outstandingGiftcardCount).toBe(0);
  });

  it('moves with the clock: a week later the oldest bucket drops out', async () => {
    t.clock.set(new Date('2026-03-09T09:00:00.000Z'));
    try {
      // A week on, the old access token has expired: sign in again.
      const token = (await signIn(t, rootCreds.email, rootCreds.password)).accessToken;
      const a = await weekly(WEEKLY, token);
      expect(a.weeks[0]!.weekStart).toBe('2025-12-22');
      expect(a.weeks.some((w) => w.issuedAmount === 2_500)).toBe(false);
      expect(a.weeks.at(-2)).toMatchObject({
        weekStart: '2026-03-02',
        issuedCount: 2,
        redeemedAmount: 8_200,
      });
      expect(a.weeks.at(-1)).toMatchObject({ issuedCount: 0, redeemedCount: 0 });
    } finally {
      t.clock.set(new Date('2026-03-02T09:00:00.000Z'));
    }
  });
});

describe('who may see them', () => {
  it('partner staff see their own partner on the dashboard, never the club', async () => {
    const a = await weekly(WEEKLY, partnerStaff);
    expect(a.weeks.at(-1)).toMatchObject({ issuedCount: 1, issuedAmount: 5_000, redeemedAmount: 1_200 });
    expect(a.outstandingGiftcardBalance).toBe(16_300);
    expect((await weekly(partnerWeekly(own.id), partnerStaff)).weeks.at(-1)!.issuedCount).toBe(1);
    const res = await get(partnerWeekly(other.id), partnerStaff);
    expect(res.status).toBe(404);
    expect(res.body.success).toBe(false);
  });

  it('needs the permission, a token, a partnerId and a live partner', async () => {
    expect((await get(WEEKLY, noDashboard)).status).toBe(403);
    expect((await t.request('GET', WEEKLY)).status).toBe(401);
    const missing = await get('/admin/partners/stats/partner/weekly');
    expect(missing.status).toBe(400);
    expect(missing.body.errors.map((e) => e.fieldName)).toContain('partnerId');
    expect((await get(partnerWeekly('abc'))).status).toBe(400);
    expect((await get(partnerWeekly(999_999))).status).toBe(404);
  });
});
