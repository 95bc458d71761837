import { parse } from 'csv-parse/sync';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CreatedApiKey } from '../../contract/api-keys';
import type { ListData } from '../../contract/envelope';
import type { Partner, ReviewRules } from '../../contract/partners';
import type { Reward } from '../../contract/rewards';
import { visitReviewMessages as rmsg } from '../../contract/visit-reviews';
import {
  type EligibleUser,
  type EligibleUserDetail,
  type PointsEligibleUser,
  type Visit,
  visitSchema,
} from '../../contract/visits';
import { pointsTableFromRows, pointsTableKept, spendInWindow } from '../../tests/setup/scale-oracles';
import {
  createCustomer,
  createPartner,
  createRole,
  createSuperAdmin,
  createUser,
  linkCustomer,
  PNG_BASE64,
  setupTestServer,
  signIn,
} from '../../tests/setup/server';
import { events, partners, rewards, visits, webhookDeliveries, webhookEndpoints } from '../db/schema';
import { eligibilityWindow } from '../domain/eligibility';
import { solidPng } from '../seed/png';

/**
 * Visit review (issue 35, docs/decisions/075-visit-review.md): a partner's rules flag a visit when it
 * is recorded; a flagged visit waits and does not count towards eligibility or points until a club
 * admin approves it; a rejected one never counts. Expected figures are worked by hand from the rules
 * (spend at least minSpendToQualify in the 30 Lagos days; 1 point per ₦100 per visit, rounded down).
 */
const t = setupTestServer();
let token: string;
const req = <T = unknown>(method: string, path: string, json?: unknown, as = token) =>
  t.request<T>(method, path, { token: as, ...(json === undefined ? {} : { json }) });

/** A receipt image of its own (a new colour: new bytes, a new hash). */
let colour = 0;
const freshReceipt = () => {
  colour += 1;
  return solidPng(4, 4, [colour % 256, (colour * 7) % 256, 200]).toString('base64');
};

/** The day the figures are read on (the test clock is 2026-03-02 10:00 in Lagos). */
const DAY = '2026-03-02';

let P: Awaited<ReturnType<typeof createPartner>>;
let Q: Awaited<ReturnType<typeof createPartner>>;

const visitBody = (
  partnerId: number,
  customerId: number,
  amount: number,
  over: Record<string, unknown> = {},
) => ({
  partnerId,
  customerId,
  attendantName: 'Bisi',
  visitDate: '2026-03-01T12:00:00.000Z',
  items: [{ name: 'Jollof rice', quantity: 1, price: amount }],
  receiptImage: freshReceipt(),
  ...over,
});
const record = async (body: Record<string, unknown>, as = token) => {
  const res = await req<Visit>('POST', '/user/visits', body, as);
  expect(res.status, res.text).toBe(201);
  return res;
};
const setRules = (partnerId: number, rules: Partial<ReviewRules>, as = token) =>
  req<ReviewRules>('PATCH', `/admin/partners/${partnerId}/review-rules`, rules, as);

const spendOf = async (partnerId: number, customerId: number) => {
  const res = await req<ListData<EligibleUser>>(
    'GET',
    `/admin/partners/visits/reward-eligible-users?partnerId=${partnerId}&date=${DAY}&pageSize=100`,
  );
  expect(res.status, res.text).toBe(200);
  return res.body.data!.records.find((r) => r.user.id === customerId);
};
const pointsOf = async (partnerId: number, customerId: number) => {
  const res = await req<ListData<PointsEligibleUser>>(
    'GET',
    `/admin/partners/visits/eligible-users-bypoints?partnerId=${partnerId}&pageSize=100`,
  );
  expect(res.status, res.text).toBe(200);
  return res.body.data!.records.find((r) => r.id === customerId)?.totalUnclaimedPoints ?? 0;
};
/** The rollup against the direct count, and the eligibility list against the direct sum. */
const expectFiguresMatchTheRows = async (partnerId: number) => {
  expect(await pointsTableKept(t.db)).toEqual(await pointsTableFromRows(t.db));
  const w = eligibilityWindow(DAY);
  const direct = (await spendInWindow(t.db, partnerId, w, { by: 'totalSpent', order: 'asc' })).sort(
    (a, b) => a.id - b.id,
  );
  const res = await req<ListData<EligibleUser>>(
    'GET',
    `/admin/partners/visits/reward-eligible-users?partnerId=${partnerId}&date=${DAY}&pageSize=100`,
  );
  const listed = res.body.data!.records.map((r) => ({ id: r.user.id, total: r.totalSpent }));
  expect(listed.sort((a, b) => a.id - b.id)).toEqual(direct);
};

const claimedBy = async (rewardId: number) =>
  (await t.db.select({ n: rewards.pointsClaimed }).from(rewards).where(eq(rewards.id, rewardId)))[0]!.n;

beforeAll(async () => {
  const admin = await createSuperAdmin(t.db);
  token = (await signIn(t, admin.email, admin.password)).accessToken;
  P = await createPartner(t.db, { organizationName: 'Mama Put Review', minSpendToQualify: 10_000 });
  Q = await createPartner(t.db, { organizationName: 'Other Review', minSpendToQualify: 10_000 });
});

const newCustomer = async (name: string) => {
  const c = await createCustomer(t.db, { firstName: name, lastName: 'Review' });
  await linkCustomer(t.db, P.id, c.id);
  await linkCustomer(t.db, Q.id, c.id);
  return c;
};

describe('PATCH /admin/partners/{id}/review-rules', () => {
  it('sets the rules the partner shows; only the fields sent change; null turns one off; an event', async () => {
    const set = await setRules(Q.id, { amountAbove: 25_000.5, requireReceipt: true, maxVisitsPerDay: 3 });
    expect(set.status, set.text).toBe(200);
    expect(set.body.message).toBe(rmsg.rulesSaved);
    expect(set.body.data).toEqual({ amountAbove: 25_000.5, requireReceipt: true, maxVisitsPerDay: 3 });
    const partial = await setRules(Q.id, { maxVisitsPerDay: null });
    expect(partial.body.data).toEqual({ amountAbove: 25_000.5, requireReceipt: true, maxVisitsPerDay: null });
    const shown = await req<Partner>('GET', `/admin/partners/${Q.id}`);
    expect(shown.body.data!.reviewRules).toEqual({
      amountAbove: 25_000.5,
      requireReceipt: true,
      maxVisitsPerDay: null,
    });
    const [event] = await t.db
      .select()
      .from(events)
      .where(and(eq(events.entity, 'partner'), eq(events.entityId, String(Q.id))))
      .orderBy(events.id);
    expect(event!.action).toBe(
      'Set the visit review rules of Other Review: amount above ₦25,000.50, receipt required, visits per day at most 3',
    );
    await setRules(Q.id, { amountAbove: null, requireReceipt: false });
  });

  it('bad input is a 400 on its field and changes nothing; an unknown partner is a 404', async () => {
    await setRules(P.id, { amountAbove: 50_000 });
    const cases: [unknown, string][] = [
      [{ amountAbove: -5 }, 'amountAbove'],
      [{ amountAbove: 'lots' }, 'amountAbove'],
      [{ amountAbove: 10.001 }, 'amountAbove'],
      [{ maxVisitsPerDay: 0 }, 'maxVisitsPerDay'],
      [{ maxVisitsPerDay: 1.5 }, 'maxVisitsPerDay'],
      [{ maxVisitsPerDay: '3' }, 'maxVisitsPerDay'],
      [{ requireReceipt: 'yes' }, 'requireReceipt'],
      [{}, 'amountAbove'],
      [{ amountAbove: 5, colour: 'red' }, ''],
    ];
    for (const [body, field] of cases) {
      const res = await req('PATCH', `/admin/partners/${P.id}/review-rules`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      if (field)
        expect(
          res.body.errors?.map((e) => e.fieldName),
          JSON.stringify(body),
        ).toContain(field);
    }
    const [row] = await t.db.select().from(partners).where(eq(partners.id, P.id));
    expect([row!.reviewAmountAbove, row!.reviewRequireReceipt, row!.reviewMaxVisitsPerDay]).toEqual([
      50_000,
      false,
      null,
    ]);
    expect((await setRules(999_999, { requireReceipt: true })).status).toBe(404);
  });
});

describe('the rules flag a visit when it is recorded', () => {
  it('amountAbove: strictly above waits (flag amount_above); at the threshold it counts', async () => {
    await setRules(P.id, { amountAbove: 50_000, requireReceipt: false, maxVisitsPerDay: null });
    const c = await newCustomer('Amount');
    const at = await record(visitBody(P.id, c.id, 50_000));
    expect(at.body.message).toBe('Visit recorded successfully');
    expect(at.body.data!.review).toEqual({
      state: 'approved',
      flags: [],
      reason: null,
      reviewedBy: null,
      reviewedAt: null,
    });
    const above = await record(visitBody(P.id, c.id, 50_000.01));
    expect(above.body.message).toBe(rmsg.recordedWaiting);
    expect(above.body.data!.review).toMatchObject({ state: 'waiting', flags: ['amount_above'] });
    // The event of the visit says so.
    const [event] = await t.db
      .select()
      .from(events)
      .where(and(eq(events.entity, 'visit'), eq(events.entityId, String(above.body.data!.id))));
    expect(event!.payload).toMatchObject({ reviewState: 'waiting', reviewFlags: ['amount_above'] });
  });

  it('a receipt image sent before (same bytes, any partner) waits with receipt_reused', async () => {
    const c = await newCustomer('Receipt');
    const image = freshReceipt();
    const first = await record(visitBody(P.id, c.id, 1_000, { receiptImage: image }));
    expect(first.body.data!.review.state).toBe('approved');
    const again = await record(visitBody(P.id, c.id, 1_000, { receiptImage: image }));
    expect(again.body.data!.review).toMatchObject({ state: 'waiting', flags: ['receipt_reused'] });
    const elsewhere = await record(visitBody(Q.id, c.id, 1_000, { receiptImage: image }));
    expect(elsewhere.body.data!.review).toMatchObject({ state: 'waiting', flags: ['receipt_reused'] });
    // The hash is the SHA-256 of the file's bytes (the name it is stored by).
    const [row] = await t.db.select().from(visits).where(eq(visits.id, again.body.data!.id));
    const { createHash } = await import('node:crypto');
    expect(row!.receiptHash).toBe(createHash('sha256').update(Buffer.from(image, 'base64')).digest('hex'));
  });

  it('requireReceipt: a visit without one waits with receipt_missing; with one it counts', async () => {
    await setRules(Q.id, { requireReceipt: true });
    const c = await newCustomer('Missing');
    const without = await record(visitBody(Q.id, c.id, 1_000, { receiptImage: undefined }));
    expect(without.body.data!.review).toMatchObject({ state: 'waiting', flags: ['receipt_missing'] });
    const withOne = await record(visitBody(Q.id, c.id, 1_000));
    expect(withOne.body.data!.review.state).toBe('approved');
    // Another partner without the rule: no receipt is fine.
    await setRules(P.id, { amountAbove: null });
    const atP = await record(visitBody(P.id, c.id, 1_000, { receiptImage: undefined }));
    expect(atP.body.data!.review.state).toBe('approved');
    await setRules(Q.id, { requireReceipt: false });
  });

  it('maxVisitsPerDay: the visit past N of one customer at one partner in one Lagos day waits', async () => {
    await setRules(P.id, { maxVisitsPerDay: 2 });
    const c = await newCustomer('Daily');
    // 1 March 00:30 and 23:30 in Lagos (28 Feb 23:30 UTC and 1 March 22:30 UTC): one Lagos day.
    const states = [];
    for (const at of ['2026-02-28T23:30:00.000Z', '2026-03-01T22:30:00.000Z', '2026-03-01T12:00:00.000Z']) {
      states.push((await record(visitBody(P.id, c.id, 500, { visitDate: at }))).body.data!.review);
    }
    expect(states.map((s) => s.state)).toEqual(['approved', 'approved', 'waiting']);
    expect(states[2]!.flags).toEqual(['too_many_visits']);
    // 28 Feb 22:59 UTC is 23:59 on 28 February in Lagos: another day; 2 March 00:00 Lagos too.
    const before = await record(visitBody(P.id, c.id, 500, { visitDate: '2026-02-28T22:59:00.000Z' }));
    expect(before.body.data!.review.state).toBe('approved');
    const after = await record(visitBody(P.id, c.id, 500, { visitDate: '2026-03-01T23:00:00.000Z' }));
    expect(after.body.data!.review.state).toBe('approved');
    // Another partner, or another customer, on that day: their own count.
    const d = await newCustomer('Daily2');
    expect((await record(visitBody(P.id, d.id, 500))).body.data!.review.state).toBe('approved');
    expect((await record(visitBody(Q.id, c.id, 500))).body.data!.review.state).toBe('approved');
    await setRules(P.id, { maxVisitsPerDay: null });
  });
});

describe('a waiting or rejected visit does not count towards eligibility or points', () => {
  it('before and after approve and reject; the explainer says why; the rollups follow the rows', async () => {
    await setRules(P.id, { amountAbove: 50_000 });
    const c = await newCustomer('Figures');
    // Approved: ₦8,000 and ₦250 (80 + 2 points). Waiting: ₦60,000 (600 points) and ₦70,000 (700 points).
    await record(visitBody(P.id, c.id, 8_000));
    await record(visitBody(P.id, c.id, 250));
    const big = (await record(visitBody(P.id, c.id, 60_000))).body.data!;
    const bigger = (await record(visitBody(P.id, c.id, 70_000))).body.data!;
    expect([big.review.state, bigger.review.state]).toEqual(['waiting', 'waiting']);

    expect(await spendOf(P.id, c.id)).toMatchObject({ totalSpent: 8_250, isEligible: false });
    expect(await pointsOf(P.id, c.id)).toBe(82);
    await expectFiguresMatchTheRows(P.id);
    const explained = await req<EligibleUserDetail>(
      'GET',
      `/admin/partners/visits/reward-eligible-users/${c.id}?partnerId=${P.id}&date=${DAY}`,
    );
    expect(explained.body.data).toMatchObject({
      totalSpent: 8_250,
      isEligible: false,
      message: 'Spent ₦8,250.00 of ₦10,000.00; not counted: 2 visits (₦130,000.00) waiting for review',
      notCounted: { waiting: 2, waitingAmount: 130_000, rejected: 0, rejectedAmount: 0 },
    });
    expect(explained.body.data!.visitHistory.map((v) => v.review.state).sort()).toEqual([
      'approved',
      'approved',
      'waiting',
      'waiting',
    ]);

    // Points by a reward cannot claim a waiting visit's points.
    const issue = (json: Record<string, unknown>) =>
      req<Reward>('POST', '/partners/rewards/issue-reward', {
        rewardType: 'COUPON',
        percentageDiscount: 10,
        title: 'Points',
        description: 'By points',
        promotionalImage: PNG_BASE64,
        issuedTo: c.id,
        partnerId: P.id,
        ...json,
      });

    const approved = await req<Visit>('POST', `/admin/visit-reviews/${big.id}/approve`);
    expect(approved.status, approved.text).toBe(200);
    expect(approved.body.message).toBe(rmsg.approved);
    expect(approved.body.data!.review).toMatchObject({
      state: 'approved',
      flags: ['amount_above'],
      reason: null,
      reviewedBy: { name: 'Ada Root' },
      reviewedAt: t.clock().toISOString(),
    });
    expect(await spendOf(P.id, c.id)).toMatchObject({ totalSpent: 68_250, isEligible: true });
    expect(await pointsOf(P.id, c.id)).toBe(682);
    await expectFiguresMatchTheRows(P.id);

    const rejected = await req<Visit>('POST', `/admin/visit-reviews/${bigger.id}/reject`, {
      reason: '  Receipt does not match the till  ',
    });
    expect(rejected.status, rejected.text).toBe(200);
    expect(rejected.body.data!.review).toMatchObject({
      state: 'rejected',
      reason: 'Receipt does not match the till',
    });
    expect(await spendOf(P.id, c.id)).toMatchObject({ totalSpent: 68_250 });
    expect(await pointsOf(P.id, c.id)).toBe(682);
    await expectFiguresMatchTheRows(P.id);
    const afterReject = await req<EligibleUserDetail>(
      'GET',
      `/admin/partners/visits/reward-eligible-users/${c.id}?partnerId=${P.id}&date=${DAY}`,
    );
    expect(afterReject.body.data!.message).toBe(
      'Spent ₦68,250.00 of ₦10,000.00; not counted: 1 visit (₦70,000.00) rejected in review',
    );

    // The 682 points that count are claimed; the rejected visit's 700 never are.
    const byPoints = await issue({ byPoints: true });
    expect(byPoints.status, byPoints.text).toBe(201);
    expect(await claimedBy(byPoints.body.data!.id)).toBe(682);
    expect(await pointsOf(P.id, c.id)).toBe(0);
    await expectFiguresMatchTheRows(P.id);
  });

  it('points by a reward: a customer whose only visit waits has none to claim (409)', async () => {
    await setRules(P.id, { amountAbove: 50_000 });
    const c = await newCustomer('Nopoints');
    const waiting = (await record(visitBody(P.id, c.id, 90_000))).body.data!;
    const body = {
      rewardType: 'COUPON',
      percentageDiscount: 10,
      title: 'Points',
      description: 'By points',
      promotionalImage: PNG_BASE64,
      issuedTo: c.id,
      partnerId: P.id,
      byPoints: true,
    };
    const refused = await req('POST', '/partners/rewards/issue-reward', body);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('no_points');
    await req('POST', `/admin/visit-reviews/${waiting.id}/approve`);
    const issued = await req<Reward>('POST', '/partners/rewards/issue-reward', body);
    expect(issued.status, issued.text).toBe(201);
    expect(await claimedBy(issued.body.data!.id)).toBe(900);
  });
});

describe('the queue and the decisions', () => {
  it('lists flagged visits by state and partner, oldest visit first; decides once (409); events and visit.reviewed', async () => {
    // A partner of its own: the queue holds its flagged visits only.
    const R = await createPartner(t.db, { organizationName: 'Queue Place' });
    await setRules(R.id, { amountAbove: 1_000 });
    const [hook] = await t.db
      .insert(webhookEndpoints)
      .values({
        url: 'https://till.example.com/reviews',
        events: ['visit.reviewed'],
        partnerId: R.id,
        secret: 'whsec_cmV2aWV3cw==',
      })
      .returning();
    const c = await newCustomer('Queue');
    await linkCustomer(t.db, R.id, c.id);
    const later = (await record(visitBody(R.id, c.id, 2_000, { visitDate: '2026-03-01T15:00:00.000Z' }))).body
      .data!;
    const earlier = (await record(visitBody(R.id, c.id, 3_000, { visitDate: '2026-02-20T15:00:00.000Z' })))
      .body.data!;
    await record(visitBody(R.id, c.id, 500));

    const queue = await req<ListData<Visit>>('GET', `/admin/visit-reviews?partnerId=${R.id}`);
    expect(queue.status, queue.text).toBe(200);
    expect(queue.body.data!.records.map((v) => v.id)).toEqual([earlier.id, later.id]);
    expect(queue.body.data!.meta.totalCount).toBe(2);
    for (const v of queue.body.data!.records) visitSchema.parse(v);

    expect((await req('POST', `/admin/visit-reviews/${earlier.id}/approve`)).status).toBe(200);
    const twice = await req('POST', `/admin/visit-reviews/${earlier.id}/approve`);
    expect(twice.status).toBe(409);
    expect(twice.body.message).toBe(rmsg.notWaiting('approved'));
    expect((await req('POST', `/admin/visit-reviews/${earlier.id}/reject`, { reason: 'No' })).status).toBe(
      409,
    );
    const unflagged = await record(visitBody(R.id, c.id, 100));
    expect((await req('POST', `/admin/visit-reviews/${unflagged.body.data!.id}/approve`)).status).toBe(409);
    expect((await req('POST', '/admin/visit-reviews/999999/approve')).status).toBe(404);

    // A reason is required; nothing changes without one.
    for (const body of [{}, { reason: '' }, { reason: '   ' }, { reason: 5 }, { reason: 'x'.repeat(501) }]) {
      const res = await req('POST', `/admin/visit-reviews/${later.id}/reject`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.errors?.[0]?.fieldName).toBe('reason');
    }
    const [still] = await t.db.select().from(visits).where(eq(visits.id, later.id));
    expect(still!.reviewState).toBe('waiting');
    expect(
      (await req('POST', `/admin/visit-reviews/${later.id}/reject`, { reason: 'Split bill' })).status,
    ).toBe(200);

    const approvedList = await req<ListData<Visit>>(
      'GET',
      `/admin/visit-reviews?partnerId=${R.id}&state=approved`,
    );
    expect(approvedList.body.data!.records.map((v) => v.id)).toEqual([earlier.id]);
    const rejectedList = await req<ListData<Visit>>(
      'GET',
      `/admin/visit-reviews?partnerId=${R.id}&state=rejected`,
    );
    expect(rejectedList.body.data!.records.map((v) => [v.id, v.review.reason])).toEqual([
      [later.id, 'Split bill'],
    ]);
    expect((await req('GET', '/admin/visit-reviews?state=maybe')).status).toBe(400);
    expect((await req('GET', '/admin/visit-reviews?partnerId=999999')).status).toBe(404);

    const sent = await t.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, hook!.id))
      .orderBy(webhookDeliveries.id);
    expect(sent.map((d) => d.eventType)).toEqual(['visit.reviewed', 'visit.reviewed']);
    expect(sent.map((d) => (d.payload as { data: unknown }).data)).toEqual([
      {
        visitId: earlier.id,
        partnerId: R.id,
        customerId: c.id,
        state: 'approved',
        flags: ['amount_above'],
        reason: null,
        totalAmount: 3_000,
        reviewedAt: t.clock().toISOString(),
      },
      {
        visitId: later.id,
        partnerId: R.id,
        customerId: c.id,
        state: 'rejected',
        flags: ['amount_above'],
        reason: 'Split bill',
        totalAmount: 2_000,
        reviewedAt: t.clock().toISOString(),
      },
    ]);
    const decided = await t.db.select().from(events).where(eq(events.entity, 'visit'));
    expect(decided.map((e) => e.action)).toContain(
      'Rejected a visit of Queue Review at Queue Place in review: Split bill',
    );
    expect(decided.map((e) => e.action)).toContain(
      'Approved a visit of Queue Review at Queue Place in review',
    );
  });
});

describe('scope', () => {
  it("a partner's staff cannot review or set rules, even holding visits.review; club staff without it neither", async () => {
    await setRules(P.id, { amountAbove: 50_000 });
    const c = await newCustomer('Scope');
    const waiting = (await record(visitBody(P.id, c.id, 80_000))).body.data!;
    const partnerRole = await createRole(
      t.db,
      'Partner reviewer',
      ['visits.view', 'visits.create', 'visits.review', 'partners.view'],
      false,
      true,
    );
    const staff = await createUser(t.db, { roleId: partnerRole.id, userType: 'PARTNER', partnerId: P.id });
    const staffToken = (await signIn(t, staff.email, staff.password)).accessToken;
    const clubRole = await createRole(t.db, 'Visits only', ['visits.view', 'partners.view']);
    const clerk = await createUser(t.db, { roleId: clubRole.id });
    const clerkToken = (await signIn(t, clerk.email, clerk.password)).accessToken;
    for (const as of [staffToken, clerkToken]) {
      expect((await req('GET', `/admin/visit-reviews?partnerId=${P.id}`, undefined, as)).status).toBe(403);
      expect((await req('POST', `/admin/visit-reviews/${waiting.id}/approve`, undefined, as)).status).toBe(
        403,
      );
      expect(
        (await req('POST', `/admin/visit-reviews/${waiting.id}/reject`, { reason: 'x' }, as)).status,
      ).toBe(403);
      expect((await setRules(P.id, { amountAbove: null }, as)).status).toBe(403);
    }
    const [row] = await t.db.select().from(visits).where(eq(visits.id, waiting.id));
    expect(row!.reviewState).toBe('waiting');
    expect((await req<Partner>('GET', `/admin/partners/${P.id}`)).body.data!.reviewRules.amountAbove).toBe(
      50_000,
    );

    // A reviewer holding visits.review alone (club staff) decides.
    const reviewerRole = await createRole(t.db, 'Reviewer', ['visits.review']);
    const reviewer = await createUser(t.db, {
      roleId: reviewerRole.id,
      firstName: 'Rita',
      lastName: 'Review',
    });
    const reviewerToken = (await signIn(t, reviewer.email, reviewer.password)).accessToken;
    const rejected = await req<Visit>(
      'POST',
      `/admin/visit-reviews/${waiting.id}/reject`,
      { reason: 'Not a real sale' },
      reviewerToken,
    );
    expect(rejected.status, rejected.text).toBe(200);
    expect(rejected.body.data!.review.reviewedBy).toEqual({ id: reviewer.id, name: 'Rita Review' });

    // The partner's staff see the state and the reason of their own visits, in the list and one by one.
    const list = await req<ListData<Visit>>(
      'GET',
      `/admin/partners/visits?partnerId=${P.id}&pageSize=100`,
      undefined,
      staffToken,
    );
    expect(list.status).toBe(200);
    expect(list.body.data!.records.find((v) => v.id === waiting.id)!.review).toMatchObject({
      state: 'rejected',
      reason: 'Not a real sale',
      flags: ['amount_above'],
    });
    const one = await req<Visit>('GET', `/admin/partners/visits/${waiting.id}`, undefined, staffToken);
    expect(one.body.data!.review.state).toBe('rejected');
    // And in the Visits tab's CSV: the state and the reason, not the reviewer.
    const csv = await req('GET', `/admin/partners/visits/export?partnerId=${P.id}`, undefined, staffToken);
    expect(csv.status, csv.text).toBe(200);
    const [header, ...rows] = parse(csv.text, { bom: true }) as string[][];
    expect(header!.slice(-2)).toEqual(['Review state', 'Review reason']);
    expect(header).not.toContain('Reviewed by');
    expect(rows.find((r) => r[0] === String(waiting.id))!.slice(-2)).toEqual(['rejected', 'Not a real sale']);
    // Not another partner's.
    const theirs = (await record(visitBody(Q.id, c.id, 100))).body.data!;
    expect((await req('GET', `/admin/partners/visits/${theirs.id}`, undefined, staffToken)).status).toBe(404);
    expect((await req('GET', `/admin/partners/visits?partnerId=${Q.id}`, undefined, staffToken)).status).toBe(
      404,
    );

    // A till (the partner's API key) reads the same.
    const key = await req<CreatedApiKey>('POST', `/admin/partners/${P.id}/api-keys`, {
      name: 'Till',
      permissions: ['visits.view', 'visits.create'],
    });
    expect(key.status, key.text).toBe(201);
    const till = await t.request<Visit>('GET', `/admin/partners/visits/${waiting.id}`, {
      headers: { 'X-Api-Key': key.body.data!.key },
    });
    expect(till.status, till.text).toBe(200);
    expect(till.body.data!.review).toMatchObject({ state: 'rejected', reason: 'Not a real sale' });
    const tillQueue = await t.request('GET', `/admin/visit-reviews?partnerId=${P.id}`, {
      headers: { 'X-Api-Key': key.body.data!.key },
    });
    expect(tillQueue.status).toBe(403);
  });
});
