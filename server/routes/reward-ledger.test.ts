import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RedemptionResult, ReversalResult, RewardLedger } from '../../contract/redemption';
import type { Reward } from '../../contract/rewards';
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
import { executeRows } from '../db/rows';
import { rewardStats } from '../domain/analytics';
import { ledgerBalance } from '../domain/ledger';

/**
 * A reward's ledger (GET /partners/rewards/:rewardId/ledger) and its reversal from the user's side:
 * what the SPA lists and reverses, partner-scoped, and every refused reversal changes nothing.
 */
const t = setupTestServer();
let admin: string;
let cashier: string;
let viewer: string;
let redeemOnly: string;
let otherStaff: string;
let partner: { id: number };
let other: { id: number };
let customer: { id: number; email: string };

const post = <T = unknown>(path: string, json: unknown, token: string, key?: string) =>
  t.request<T>('POST', `/partners/rewards/${path}`, {
    json,
    token,
    headers: key ? { 'Idempotency-Key': key } : {},
  });
const ledgerOf = (rewardId: number | string, token: string) =>
  t.request<RewardLedger>('GET', `/partners/rewards/${rewardId}/ledger`, { token });

/** Everything a reversal could change. */
async function tally() {
  const [row] = await executeRows<Record<string, number>>(
    t.db,
    sql`select (select count(*) from reward_ledger)::int as ledger,
      (select coalesce(sum(balance), 0) from rewards)::float as balances,
      (select count(*) from rewards where status = 'Redeemed')::int as redeemed,
      (select count(*) from events where action like 'Reversed%')::int as reversalEvents,
      (select count(*) from idempotency_keys)::int as keys`,
  );
  return row;
}

/** Issues a gift card at `partnerId` as `token`, then redeems `amounts` with mailed codes. */
async function giftcardWithRedemptions(token: string, amounts: number[], issuedAmount = 1000) {
  const issued = await post<Reward>(
    'issue-reward',
    {
      rewardType: 'GIFTCARD',
      title: 'Thanks',
      description: 'For visiting',
      promotionalImage: PNG_BASE64,
      issuedTo: customer.id,
      issuedAmount,
    },
    token,
  );
  expect(issued.status, issued.text).toBe(201);
  const reward = issued.body.data!;
  const redemptions: RedemptionResult[] = [];
  for (const amount of amounts) {
    const sent = await post(
      'initiate-reward-redemption-auth',
      { userId: customer.id, code: reward.code },
      token,
    );
    expect(sent.status, sent.text).toBe(200);
    const otp = (await t.lastOtp(customer.email))!;
    const red = await post<RedemptionResult>(
      'redeem-giftcard',
      { userId: customer.id, code: reward.code, amountToRedeem: amount, otp },
      token,
    );
    expect(red.status, red.text).toBe(200);
    redemptions.push(red.body.data!);
  }
  return { reward, redemptions };
}

beforeAll(async () => {
  const root = await createSuperAdmin(t.db);
  admin = (await signIn(t, root.email, root.password)).accessToken;
  partner = await createPartner(t.db, { organizationName: 'Mama Put' });
  other = await createPartner(t.db, { organizationName: 'Elsewhere' });
  customer = await createCustomer(t.db, { email: 'ada.obi@mail.ng' });
  // A partner acts only for a customer linked to it (issue 28): Ada came to Mama Put.
  await linkCustomer(t.db, partner.id, customer.id);
  const staff = async (permissions: string[], partnerId: number, lastName: string) => {
    const role = await createRole(t.db, `Role ${lastName}`, permissions);
    const u = await createUser(t.db, {
      roleId: role.id,
      userType: 'PARTNER',
      partnerId,
      firstName: 'Bola',
      lastName,
    });
    return (await signIn(t, u.email, u.password)).accessToken;
  };
  cashier = await staff(
    ['rewards.view', 'rewards.issue', 'rewards.redeem', 'rewards.reverse'],
    partner.id,
    'Cashier',
  );
  viewer = await staff(['rewards.view'], partner.id, 'Viewer');
  redeemOnly = await staff(['rewards.redeem'], partner.id, 'Till');
  otherStaff = await staff(
    ['rewards.view', 'rewards.issue', 'rewards.redeem', 'rewards.reverse'],
    other.id,
    'Elsewhere',
  );
});

describe('GET /partners/rewards/:rewardId/ledger', () => {
  it('lists issue, redemptions and reversals oldest first, with who, why and which redemption is reversed', async () => {
    const { reward, redemptions } = await giftcardWithRedemptions(cashier, [300, 200]);
    t.clock.advance(60_000);
    const rev = await post<ReversalResult>(
      'reverse-redemption',
      { ledgerEntryId: redemptions[0]!.ledgerEntryId, reason: 'Charged twice' },
      cashier,
      'ledger-rev-1',
    );
    expect(rev.status, rev.text).toBe(200);

    const res = await ledgerOf(reward.id, viewer);
    expect(res.status, res.text).toBe(200);
    const { reward: now, entries } = res.body.data!;
    expect(now).toMatchObject({ id: reward.id, balance: 800, status: 'Active' });
    expect(entries.map((e) => [e.kind, e.amount])).toEqual([
      ['ISSUE', 1000],
      ['REDEEM', -300],
      ['REDEEM', -200],
      ['REVERSAL', 300],
    ]);
    const [issued, first, second, reversal] = entries;
    expect(issued!.by).toEqual({ id: expect.any(Number), name: 'Bola Cashier' });
    expect(first).toMatchObject({ id: redemptions[0]!.ledgerEntryId, reversedById: reversal!.id });
    expect(second).toMatchObject({ id: redemptions[1]!.ledgerEntryId, reversedById: null });
    expect(reversal).toMatchObject({
      reason: 'Charged twice',
      reversesId: first!.id,
      reversedById: null,
      by: { name: 'Bola Cashier' },
    });
    expect(Date.parse(reversal!.at)).toBe(t.clock().getTime());
    // The sum of the entries is the balance shown.
    expect(entries.reduce((a, e) => a + e.amount, 0)).toBe(800);
    expect(await ledgerBalance(t.db, reward.id)).toBe(800);
    // The reward stats read redeemed naira from issued - balance (decision 011): after real
    // redemptions and a reversal it equals what the ledger rows of the partner's gift cards say.
    const [fromLedger] = await executeRows<{ redeemed: string }>(
      t.db,
      sql`select coalesce(-sum(l.amount), 0)::text as redeemed from reward_ledger l join rewards r on r.id = l.reward_id
        where r.partner_id = ${partner.id} and r.reward_type = 'GIFTCARD' and l.kind in ('REDEEM', 'REVERSAL')`,
    );
    const stats = await rewardStats(t.db, { partnerId: partner.id });
    expect(Number(fromLedger!.redeemed)).toBeGreaterThanOrEqual(200);
    expect(stats.totalRedeemedIssuedGiftcards).toBe(Number(fromLedger!.redeemed));
  });

  it('answers redeem-only staff and admins; another partner is 404 to staff; bad ids are 400', async () => {
    const { reward } = await giftcardWithRedemptions(cashier, []);
    expect((await ledgerOf(reward.id, redeemOnly)).status).toBe(200);
    expect((await ledgerOf(reward.id, admin)).status).toBe(200);
    const hidden = await ledgerOf(reward.id, otherStaff);
    expect(hidden.status).toBe(404);
    expect(hidden.body).toMatchObject({ success: false, data: null, message: 'Reward not found' });
    expect((await ledgerOf(999_999, viewer)).status).toBe(404);
    for (const bad of ['abc', '0', '-1', '1.5', '99999999999']) {
      const res = await ledgerOf(bad, viewer);
      expect(res.status, bad).toBe(400);
      expect(res.body.errors[0]!.fieldName).toBe('rewardId');
    }
  });

  it('a coupon shows its zero REDEEM entry, reversible once', async () => {
    const issued = await post<Reward>(
      'issue-reward',
      {
        rewardType: 'COUPON',
        title: '10% off',
        description: 'Coupon',
        promotionalImage: PNG_BASE64,
        issuedTo: customer.id,
      },
      cashier,
    );
    const coupon = issued.body.data!;
    await post('initiate-reward-redemption-auth', { userId: customer.id, code: coupon.code }, cashier);
    const otp = (await t.lastOtp(customer.email))!;
    const red = await post<RedemptionResult>(
      'redeem-coupon',
      { userId: customer.id, code: coupon.code, otp },
      cashier,
    );
    expect(red.status, red.text).toBe(200);
    const before = (await ledgerOf(coupon.id, cashier)).body.data!;
    expect(before.reward.status).toBe('Redeemed');
    expect(before.entries).toEqual([
      expect.objectContaining({ kind: 'REDEEM', amount: 0, reversedById: null }),
    ]);
    await post(
      'reverse-redemption',
      { ledgerEntryId: red.body.data!.ledgerEntryId, reason: 'Till error' },
      cashier,
    );
    const after = (await ledgerOf(coupon.id, cashier)).body.data!;
    expect(after.reward.status).toBe('Active');
    expect(after.entries.map((e) => e.kind)).toEqual(['REDEEM', 'REVERSAL']);
    expect(after.entries[0]!.reversedById).toBe(after.entries[1]!.id);
  });
});

describe('POST /partners/rewards/reverse-redemption: refusals change nothing', () => {
  it('unknown entry, twice, a reversal, an issue row, missing or short reason, another partner: clear 4xx', async () => {
    const { reward, redemptions } = await giftcardWithRedemptions(cashier, [400]);
    const redeemId = redemptions[0]!.ledgerEntryId!;
    const done = await post<ReversalResult>(
      'reverse-redemption',
      { ledgerEntryId: redeemId, reason: 'Wrong card' },
      cashier,
      'refusals-first',
    );
    expect(done.status, done.text).toBe(200);
    expect(done.body.data).toMatchObject({ amountReversed: 400, balance: 1000, reversedEntryId: redeemId });
    const reversalId = done.body.data!.ledgerEntryId;
    const { entries } = (await ledgerOf(reward.id, cashier)).body.data!;
    const issueId = entries.find((e) => e.kind === 'ISSUE')!.id;
    const { redemptions: fresh } = await giftcardWithRedemptions(cashier, [100]);
    const freshId = fresh[0]!.ledgerEntryId!;

    const before = await tally();
    const cases: [string, unknown, string, number, string, string?][] = [
      [
        'unknown entry',
        { ledgerEntryId: 999_999, reason: 'Nothing' },
        cashier,
        404,
        'Ledger entry not found',
      ],
      [
        'reversing twice',
        { ledgerEntryId: redeemId, reason: 'Again' },
        cashier,
        409,
        'This redemption was already reversed',
      ],
      [
        'reversing a reversal',
        { ledgerEntryId: reversalId, reason: 'Undo' },
        cashier,
        409,
        'Only a redemption can be reversed',
      ],
      [
        'an issue entry',
        { ledgerEntryId: issueId, reason: 'Undo issue' },
        cashier,
        409,
        'Only a redemption can be reversed',
      ],
      [
        'missing reason',
        { ledgerEntryId: freshId },
        cashier,
        400,
        'Validation failed',
        'A reason is required',
      ],
      [
        'blank reason',
        { ledgerEntryId: freshId, reason: '   ' },
        cashier,
        400,
        'Validation failed',
        'A reason is required',
      ],
      [
        'short reason',
        { ledgerEntryId: freshId, reason: 'ab' },
        cashier,
        400,
        'Validation failed',
        'The reason must be at least 3 characters',
      ],
      [
        'long reason',
        { ledgerEntryId: freshId, reason: 'x'.repeat(501) },
        cashier,
        400,
        'Validation failed',
        'The reason must be at most 500 characters',
      ],
      ['entry id 0', { ledgerEntryId: 0, reason: 'Zero' }, cashier, 400, 'Validation failed'],
      [
        "another partner's entry",
        { ledgerEntryId: freshId, reason: 'Not mine' },
        otherStaff,
        404,
        'Ledger entry not found',
      ],
      [
        'without rewards.reverse',
        { ledgerEntryId: freshId, reason: 'No right' },
        viewer,
        403,
        'You do not have permission to do this',
      ],
    ];
    for (const [label, json, token, status, message, field] of cases) {
      const res = await post('reverse-redemption', json, token, `refusal-${label.replace(/\W/g, '-')}`);
      expect(res.status, `${label}: ${res.text}`).toBe(status);
      expect(res.body, label).toMatchObject({ success: false, data: null, message });
      if (field) expect(res.body.errors[0], label).toEqual({ fieldName: 'reason', message: field });
    }
    expect(await tally()).toEqual(before);
    // The fresh redemption is still open, and reversible by its own partner.
    const open = await post(
      'reverse-redemption',
      { ledgerEntryId: freshId, reason: 'Customer changed mind' },
      cashier,
    );
    expect(open.status, open.text).toBe(200);
  });

  it('the same Idempotency-Key again gives the first answer and one reversal row', async () => {
    const { reward, redemptions } = await giftcardWithRedemptions(cashier, [250]);
    const body = { ledgerEntryId: redemptions[0]!.ledgerEntryId, reason: 'Refund' };
    const first = await post<ReversalResult>('reverse-redemption', body, cashier, 'same-key-rev');
    const again = await post<ReversalResult>('reverse-redemption', body, cashier, 'same-key-rev');
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(first.body.data);
    const other = await post('reverse-redemption', { ...body, reason: 'Refund!' }, cashier, 'same-key-rev');
    expect(other.status).toBe(422);
    const { entries } = (await ledgerOf(reward.id, cashier)).body.data!;
    expect(entries.filter((e) => e.kind === 'REVERSAL')).toHaveLength(1);
  });
});

describe('the guided redemption lookups', () => {
  it('GET /partners/rewards/customers: holders of a reward at the own partner, by name, email or code, masked', async () => {
    const { reward } = await giftcardWithRedemptions(cashier, []);
    const elsewhere = await createCustomer(t.db, {
      firstName: 'Zainab',
      lastName: 'Far',
      email: 'zf@mail.ng',
    });
    await linkCustomer(t.db, other.id, elsewhere.id);
    await post(
      'issue-reward',
      {
        rewardType: 'GIFTCARD',
        title: 'Elsewhere',
        description: 'Other partner',
        promotionalImage: PNG_BASE64,
        issuedTo: elsewhere.id,
      },
      otherStaff,
    );
    const find = (query: string, token = redeemOnly) =>
      t.request<{ id: number; email: string }[]>('GET', `/partners/rewards/customers${query}`, { token });
    for (const search of ['', 'ada', 'ADA.OBI@mail', reward.code.toLowerCase()]) {
      const res = await find(`?search=${encodeURIComponent(search)}`);
      expect(res.status, res.text).toBe(200);
      expect(res.body.data, search).toEqual([
        expect.objectContaining({ id: customer.id, email: 'a***@mail.ng' }),
      ]);
    }
    // The other partner's reward holder is not found by the staff of this one, whatever they type.
    expect((await find('?search=Zainab')).body.data).toEqual([]);
    expect((await find('?search=%25')).body.data).toEqual([]);
    expect((await find(`?partnerId=${other.id}`)).status).toBe(404);
    // Admins name the partner.
    expect((await find('', admin)).status).toBe(400);
    expect((await find(`?partnerId=${other.id}&search=zainab`, admin)).body.data).toEqual([
      expect.objectContaining({ id: elsewhere.id }),
    ]);
    expect((await find(`?search=${'x'.repeat(101)}`)).status).toBe(400);
  });

  it("redeem-only staff look a reward up (get-reward) and list a customer's rewards (userId filter)", async () => {
    const { reward } = await giftcardWithRedemptions(cashier, []);
    const got = await post<Reward>('get-reward', { userId: customer.id, code: reward.code }, redeemOnly);
    expect(got.status, got.text).toBe(200);
    expect(got.body.data!.id).toBe(reward.id);
    const list = await t.request<{ records: Reward[] }>(
      'GET',
      `/admin/partners/rewards?partnerId=${partner.id}&userId=${customer.id}&pageSize=100`,
      { token: redeemOnly },
    );
    expect(list.status, list.text).toBe(200);
    expect(list.body.data!.records.length).toBeGreaterThan(0);
    expect(list.body.data!.records.every((r) => r.user.id === customer.id)).toBe(true);
    const none = await t.request<{ records: Reward[] }>(
      'GET',
      `/admin/partners/rewards?partnerId=${partner.id}&userId=999999`,
      { token: redeemOnly },
    );
    // A customer who is not linked (here: no such customer) is refused like any unlinked one (issue 28).
    expect(none.status, none.text).toBe(403);
    expect(none.body.code).toBe('customer_not_linked');
    // Another partner's staff: Ada is not linked to their partner (issue 28).
    expect((await post('get-reward', { userId: customer.id, code: reward.code }, otherStaff)).status).toBe(
      403,
    );
  });
});
