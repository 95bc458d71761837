import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RedemptionResult, ReversalResult } from '../../contract/redemption';
import type { GiftcardBalance, Reward } from '../../contract/rewards';
import {
  createCustomer,
  createPartner,
  createRole,
  createSuperAdmin,
  createUser,
  createVisit,
  linkCustomer,
  PNG_BASE64,
  setupTestServer,
  signIn,
} from '../../tests/setup/server';
import { executeRows } from '../db/rows';
import { events, idempotencyKeys, redemptionOtps, rewardLedger, rewards } from '../db/schema';
import { ledgerBalance } from '../domain/ledger';

const t = setupTestServer();
let admin: string;
let staffToken: string;
let staffUser: { email: string; password: string };
let adminUser: { email: string; password: string };

/** After the test clock jumps, the access tokens have run out: sign in again. */
async function relogin() {
  staffToken = (await signIn(t, staffUser.email, staffUser.password)).accessToken;
  admin = (await signIn(t, adminUser.email, adminUser.password)).accessToken;
}
let partner: { id: number };
let other: { id: number };
let customer: { id: number; email: string };

const post = <T = unknown>(
  path: string,
  json: unknown,
  token = staffToken,
  headers: Record<string, string> = {},
) => t.request<T>('POST', `/partners/rewards/${path}`, { json, token, headers });

const issue = (body: Record<string, unknown>, token = staffToken, key?: string) =>
  post<Reward>(
    'issue-reward',
    {
      rewardType: 'GIFTCARD',
      title: 'Thank you',
      description: 'For visiting',
      promotionalImage: PNG_BASE64,
      issuedTo: customer.id,
      ...body,
    },
    token,
    key ? { 'Idempotency-Key': key } : {},
  );

/** Everything that could change, to show a refused call changed nothing. */
async function tally() {
  const [row] = await executeRows<Record<string, number>>(
    t.db,
    sql`select (select count(*) from rewards)::int as rewards, (select count(*) from reward_ledger)::int as ledger,
      (select coalesce(sum(balance), 0) from rewards)::float as balances,
      (select count(*) from rewards where status = 'Redeemed')::int as redeemed`,
  );
  return row;
}

async function sendCode(code: string, userId = customer.id, token = staffToken) {
  const res = await post<{ expiresAt: string; sentTo: string }>(
    'initiate-reward-redemption-auth',
    { userId, code },
    token,
  );
  expect(res.status, res.text).toBe(200);
  return (await t.lastOtp(customer.email))!;
}

/** A PNG just over 5 MiB whose base64 text is under the 7,000,000-character cap: the decoder's 413. */
const bigPng = Buffer.concat([Buffer.from(PNG_BASE64, 'base64'), Buffer.alloc(5_245_000)]).toString('base64');

const wrongOf = (otp: string) => String((Number(otp) + 1) % 1_000_000).padStart(6, '0');

beforeAll(async () => {
  adminUser = await createSuperAdmin(t.db);
  partner = await createPartner(t.db, { organizationName: 'Mama Put' });
  other = await createPartner(t.db, { organizationName: 'Elsewhere' });
  const role = await createRole(t.db, 'Cashier', [
    'rewards.view',
    'rewards.issue',
    'rewards.redeem',
    'rewards.reverse',
  ]);
  staffUser = await createUser(t.db, { roleId: role.id, userType: 'PARTNER', partnerId: partner.id });
  await relogin();
  customer = await createCustomer(t.db, { email: 'ada.obi@mail.ng' });
  // The cashier's partner acts for the customer once they are linked (decision 053).
  await linkCustomer(t.db, partner.id, customer.id);
});

describe('POST /partners/rewards/issue-reward', () => {
  it('issues a gift card with the default ₦2,000, an ISSUE ledger row, a code, status Active (201)', async () => {
    const res = await issue({ percentageDiscount: 50 });
    expect(res.status, res.text).toBe(201);
    expect(res.body.message).toBe('Reward successfully issued');
    const r = res.body.data!;
    expect(r).toMatchObject({
      rewardType: 'GIFTCARD',
      issuedAmount: 2000,
      balance: 2000,
      percentageDiscount: null,
      status: 'Active',
    });
    expect(r.partner.id).toBe(partner.id);
    expect(r.code).toMatch(/^GC-[A-Z2-9]{8}$/);
    expect(r.promotionalImage).toMatch(/^\/api\/v1\/files\/[0-9a-f]{64}$/);
    expect(await ledgerBalance(t.db, r.id)).toBe(2000);
    const [ev] = await t.db
      .select()
      .from(events)
      .where(sql`${events.entity} = 'reward' and ${events.entityId} = ${String(r.id)}`);
    expect(ev!.action).toContain('Issued gift card');
  });

  it('issues a coupon with the default 10 percent and no amount; explicit values are kept', async () => {
    const coupon = await issue({ rewardType: 'COUPON', issuedAmount: 9000 });
    expect(coupon.status).toBe(201);
    expect(coupon.body.data).toMatchObject({ percentageDiscount: 10, issuedAmount: null, balance: null });
    expect(coupon.body.data!.code).toMatch(/^CP-/);
    const sub = await issue({
      rewardType: 'COUPON',
      percentageDiscount: 25,
      rewardTypeCategory: 'DISCOUNTED_SUBSCRIPTION',
    });
    expect(sub.body.data).toMatchObject({
      percentageDiscount: 25,
      rewardTypeCategory: 'DISCOUNTED_SUBSCRIPTION',
    });
    const gc = await issue({ issuedAmount: 7500.5 });
    expect(gc.body.data).toMatchObject({ issuedAmount: 7500.5, balance: 7500.5 });
  });

  it('admins name the partner (required); staff cannot issue for another partner (404)', async () => {
    const missing = await issue({}, admin);
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual([{ fieldName: 'partnerId', message: 'partnerId is required' }]);
    expect((await issue({ partnerId: other.id }, admin)).body.data?.partner.id).toBe(other.id);
    const before = await tally();
    const foreign = await issue({ partnerId: other.id });
    expect(foreign.status).toBe(404);
    expect(await tally()).toEqual(before);
  });

  it('refuses bad images (400), a 5 MiB+ image (413), unknown or blocked customers, past expiry', async () => {
    const before = await tally();
    expect(
      (await issue({ promotionalImage: Buffer.from('GIF89a not allowed').toString('base64') })).status,
    ).toBe(400);
    expect((await issue({ promotionalImage: bigPng })).status).toBe(413);
    expect((await issue({ promotionalImage: 'A'.repeat(7_100_000) })).status).toBe(413);
    // An unknown customer is one the partner is not linked to (decision 053): 403, as any unlinked one.
    expect((await issue({ issuedTo: 999_999 })).status).toBe(403);
    const blocked = await createCustomer(t.db, { accountStatus: 'BLOCKED' });
    await linkCustomer(t.db, partner.id, blocked.id);
    expect((await issue({ issuedTo: blocked.id })).status).toBe(400);
    expect((await issue({ expiryDate: '2026-03-01' })).status).toBe(400);
    for (const bad of [
      { issuedAmount: 0 },
      { issuedAmount: -1 },
      { issuedAmount: 1.005 },
      { issuedAmount: '100' },
      { issuedAmount: 1e308 },
      { rewardType: 'CASH' },
      { title: ' ' },
    ]) {
      const res = await issue(bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.success).toBe(false);
    }
    expect(await tally()).toEqual(before);
  });

  it('byPoints claims the unclaimed points once; none left is a 409', async () => {
    const c = await createCustomer(t.db);
    await createVisit(t.db, {
      partnerId: partner.id,
      customerId: c.id,
      visitDate: new Date('2026-03-01T10:00:00Z'),
      amount: 1250,
    });
    const first = await issue({ issuedTo: c.id, byPoints: true });
    expect(first.status, first.text).toBe(201);
    const [row] = await t.db.select().from(rewards).where(eq(rewards.id, first.body.data!.id));
    expect(row!.pointsClaimed).toBe(12);
    const again = await issue({ issuedTo: c.id, byPoints: true });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('This customer has no unclaimed points at this partner');
  });

  it('Idempotency-Key: a repeat returns the first answer and issues nothing more; another body is 422', async () => {
    const first = await issue({ issuedAmount: 3000 }, staffToken, 'issue-key-1');
    const before = await tally();
    const again = await issue({ issuedAmount: 3000 }, staffToken, 'issue-key-1');
    expect(again.status).toBe(201);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await tally()).toEqual(before);
    const changed = await issue({ issuedAmount: 3001 }, staffToken, 'issue-key-1');
    expect(changed.status).toBe(422);
    expect(changed.body.message).toBe('Idempotency-Key was used with a different request');
    expect((await issue({}, staffToken, 'bad key with spaces')).status).toBe(400);
    expect(await tally()).toEqual(before);
  });
});

describe('get-reward, OTP, redemption, reversal', () => {
  let card: Reward;
  let coupon: Reward;

  beforeAll(async () => {
    card = (await issue({ issuedAmount: 10_000 })).body.data!;
    coupon = (await issue({ rewardType: 'COUPON' })).body.data!;
  });

  it('get-reward finds a reward by code and customer, code case-insensitive; else 404', async () => {
    const res = await post<Reward>('get-reward', { userId: customer.id, code: card.code.toLowerCase() });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: card.id, balance: 10_000, status: 'Active' });
    const someoneElse = await createCustomer(t.db);
    await linkCustomer(t.db, partner.id, someoneElse.id);
    for (const body of [
      { userId: someoneElse.id, code: card.code },
      { userId: customer.id, code: 'GC-UNKNOWN1' },
    ]) {
      const miss = await post('get-reward', body);
      expect(miss.status).toBe(404);
      expect(miss.body.message).toBe('Reward not found');
    }
    // A customer who does not exist is not linked: the link gate's 403 (decision 053).
    expect((await post('get-reward', { userId: 999_999, code: card.code })).status).toBe(403);
    expect((await post('get-reward', { userId: 'x', code: '' })).status).toBe(400);
  });

  it('sends a 6-digit code by mail, masked address, valid 5 minutes; the check does not consume it', async () => {
    const res = await post<{ expiresAt: string; sentTo: string }>('initiate-reward-redemption-auth', {
      userId: customer.id,
      code: card.code,
    });
    expect(res.status).toBe(200);
    expect(res.body.data!.sentTo).toBe('a***@mail.ng');
    expect(new Date(res.body.data!.expiresAt).getTime() - t.clock().getTime()).toBe(5 * 60 * 1000);
    const mail = (await t.mails()).at(-1)!.raw;
    expect(mail).toContain('Subject: Your Reward Club redemption code');
    const otp = (await t.lastOtp(customer.email))!;
    expect(otp).toMatch(/^\d{6}$/);
    const [row] = await t.db.select().from(redemptionOtps).orderBy(sql`id desc`).limit(1);
    expect(row!.codeHash).not.toContain(otp);
    expect(JSON.stringify(await t.db.select().from(events))).not.toContain(otp);
    for (let i = 0; i < 2; i++) {
      const ok = await post('redemption-auth-otp-validity-check', { userId: customer.id, otp });
      expect(ok.status).toBe(200);
      expect(ok.body.data).toEqual({ valid: true, attemptsLeft: 5 });
    }
  });

  it('5 wrong tries, then 429 even for the right code; failed tries are in the event log', async () => {
    const otp = await sendCode(card.code);
    for (let left = 4; left >= 0; left--) {
      const res = await post('redemption-auth-otp-validity-check', {
        userId: customer.id,
        otp: wrongOf(otp),
      });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([
        {
          fieldName: 'otp',
          message: `The code is not correct. ${left} attempt${left === 1 ? '' : 's'} left.`,
        },
      ]);
    }
    const locked = await post('redemption-auth-otp-validity-check', { userId: customer.id, otp });
    expect(locked.status).toBe(429);
    expect(locked.body.message).toBe('Too many wrong codes. Send a new code.');
    const redeem = await post('redeem-giftcard', {
      userId: customer.id,
      code: card.code,
      amountToRedeem: 100,
      otp,
    });
    expect(redeem.status).toBe(429);
    const logged = await t.db
      .select()
      .from(events)
      .where(sql`${events.action} like 'Wrong redemption code%'`);
    expect(logged.length).toBeGreaterThanOrEqual(5);
  });

  it('a code expires after 5 minutes; a new code replaces the old one', async () => {
    const old = await sendCode(card.code);
    const fresh = await sendCode(card.code);
    if (old !== fresh) {
      expect(
        (await post('redemption-auth-otp-validity-check', { userId: customer.id, otp: old })).status,
      ).toBe(400);
    }
    expect(
      (await post('redemption-auth-otp-validity-check', { userId: customer.id, otp: fresh })).status,
    ).toBe(200);
    t.clock.advance(5 * 60 * 1000);
    await relogin();
    const expired = await post('redemption-auth-otp-validity-check', { userId: customer.id, otp: fresh });
    expect(expired.status).toBe(400);
    expect(expired.body.message).toBe('The code has expired. Send a new code.');
    const before = await tally();
    expect(
      (
        await post('redeem-giftcard', {
          userId: customer.id,
          code: card.code,
          amountToRedeem: 100,
          otp: fresh,
        })
      ).status,
    ).toBe(400);
    expect(await tally()).toEqual(before);
  });

  it('redeems partial amounts; the cached balance equals the ledger; a used code is refused', async () => {
    let otp = await sendCode(card.code);
    const first = await post<RedemptionResult>(
      'redeem-giftcard',
      { userId: customer.id, code: card.code, amountToRedeem: 2500.25, otp },
      staffToken,
      { 'Idempotency-Key': 'redeem-1' },
    );
    expect(first.status, first.text).toBe(200);
    expect(first.body.message).toBe('Gift card redeemed successfully');
    expect(first.body.data).toMatchObject({
      amountRedeemed: 2500.25,
      balance: 7499.75,
      status: 'Active',
      rewardType: 'GIFTCARD',
    });
    const replay = await post(
      'redeem-giftcard',
      { userId: customer.id, code: card.code, amountToRedeem: 2500.25, otp },
      staffToken,
      { 'Idempotency-Key': 'redeem-1' },
    );
    expect(replay.body).toEqual(first.body);
    const other = await post(
      'redeem-giftcard',
      { userId: customer.id, code: card.code, amountToRedeem: 1, otp },
      staffToken,
      { 'Idempotency-Key': 'redeem-1' },
    );
    expect(other.status).toBe(422);
    const reused = await post('redeem-giftcard', {
      userId: customer.id,
      code: card.code,
      amountToRedeem: 1,
      otp,
    });
    expect(reused.status).toBe(400);
    expect(reused.body.message).toBe('The code was already used. Send a new code.');
    otp = await sendCode(card.code);
    const over = await post('redeem-giftcard', {
      userId: customer.id,
      code: card.code,
      amountToRedeem: 7500,
      otp,
    });
    expect(over.status).toBe(409);
    expect(over.body.message).toBe('The amount is more than the balance of ₦7,499.75');
    const rest = await post<RedemptionResult>('redeem-giftcard', {
      userId: customer.id,
      code: card.code,
      amountToRedeem: 7499.75,
      otp,
    });
    expect(rest.status, rest.text).toBe(200);
    expect(rest.body.data).toMatchObject({ balance: 0, status: 'Redeemed' });
    const [row] = await t.db.select().from(rewards).where(eq(rewards.id, card.id));
    expect(row!.balance).toBe(await ledgerBalance(t.db, card.id));
    expect(row!.balance).toBe(0);
    expect((await t.db.select().from(idempotencyKeys)).length).toBeGreaterThan(0);
  });

  it('bad input on redeem is a clear 4xx and changes nothing', async () => {
    const c2 = (await issue({ issuedAmount: 1000 })).body.data!;
    const otp = await sendCode(c2.code);
    const before = await tally();
    const base = { userId: customer.id, code: c2.code, amountToRedeem: 100, otp };
    const cases: Record<string, unknown>[] = [
      { amountToRedeem: 0 },
      { amountToRedeem: -1 },
      { amountToRedeem: 1.005 },
      { amountToRedeem: '100' },
      { amountToRedeem: 1e308 },
      { otp: '12345' },
      { otp: '1234567' },
      { otp: '１２３４５６' },
      { code: 'GC-UNKNOWN1' },
      { code: coupon.code },
      { userId: -1 },
    ];
    for (const change of cases) {
      const res = await post('redeem-giftcard', { ...base, ...change });
      expect(res.status, JSON.stringify(change)).toBeGreaterThanOrEqual(400);
      expect(res.status, JSON.stringify(change)).toBeLessThan(500);
      expect(res.body).toMatchObject({ success: false, data: null });
    }
    for (const change of [
      { otp: '12345' },
      { otp: '１２３４５６' },
      { code: 'CP-UNKNOWN1' },
      { code: c2.code },
    ]) {
      const res = await post('redeem-coupon', { userId: customer.id, code: coupon.code, otp, ...change });
      expect(res.status, JSON.stringify(change)).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    }
    for (const body of [
      { userId: customer.id, otp: '12345' },
      { userId: customer.id, otp: '１２３４５６' },
      { otp },
    ]) {
      expect((await post('redemption-auth-otp-validity-check', body)).status).toBe(400);
    }
    expect(
      (await post('initiate-reward-redemption-auth', { userId: customer.id, code: 'GC-UNKNOWN1' })).status,
    ).toBe(404);
    expect(await tally()).toEqual(before);
    // The code still works after all that.
    expect((await post('redeem-giftcard', base)).status).toBe(200);
  });

  it('a coupon is redeemed once; reversal gives it back once, with who and why in the event log', async () => {
    const otp = await sendCode(coupon.code);
    const res = await post<RedemptionResult>('redeem-coupon', {
      userId: customer.id,
      code: coupon.code,
      otp,
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.message).toBe('Coupon redeemed successfully');
    expect(res.body.data).toMatchObject({ status: 'Redeemed', balance: null });
    const again = await post('initiate-reward-redemption-auth', { userId: customer.id, code: coupon.code });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('This reward has already been redeemed');
    const rev = await post<ReversalResult>('reverse-redemption', {
      ledgerEntryId: res.body.data!.ledgerEntryId,
      reason: 'Till error',
    });
    expect(rev.status, rev.text).toBe(200);
    expect(rev.body.data).toMatchObject({ status: 'Active', reason: 'Till error' });
    const twice = await post('reverse-redemption', {
      ledgerEntryId: res.body.data!.ledgerEntryId,
      reason: 'Till error',
    });
    expect(twice.status).toBe(409);
    expect(twice.body.message).toBe('This redemption was already reversed');
  });

  it('reversal of a gift-card redemption: the balance and Active status come back; ledger = cache', async () => {
    const gc = (await issue({ issuedAmount: 500 })).body.data!;
    const otp = await sendCode(gc.code);
    const red = await post<RedemptionResult>('redeem-giftcard', {
      userId: customer.id,
      code: gc.code,
      amountToRedeem: 500,
      otp,
    });
    expect(red.body.data!.status).toBe('Redeemed');
    const [issueRow] = await t.db.select().from(rewardLedger).where(eq(rewardLedger.rewardId, gc.id));
    expect(
      (await post('reverse-redemption', { ledgerEntryId: issueRow!.id, reason: 'Not a redemption' })).status,
    ).toBe(409);
    expect((await post('reverse-redemption', { ledgerEntryId: 999_999, reason: 'Nothing' })).status).toBe(
      404,
    );
    expect(
      (await post('reverse-redemption', { ledgerEntryId: red.body.data!.ledgerEntryId, reason: '' })).status,
    ).toBe(400);
    const rev = await post<ReversalResult>(
      'reverse-redemption',
      { ledgerEntryId: red.body.data!.ledgerEntryId, reason: 'Customer was overcharged' },
      staffToken,
      { 'Idempotency-Key': 'rev-1' },
    );
    expect(rev.body.data).toMatchObject({ amountReversed: 500, balance: 500, status: 'Active' });
    const replay = await post(
      'reverse-redemption',
      { ledgerEntryId: red.body.data!.ledgerEntryId, reason: 'Customer was overcharged' },
      staffToken,
      { 'Idempotency-Key': 'rev-1' },
    );
    expect(replay.status).toBe(200);
    expect(await ledgerBalance(t.db, gc.id)).toBe(500);
    const [ev] = await t.db
      .select()
      .from(events)
      .where(sql`${events.action} like 'Reversed a redemption%'`)
      .orderBy(sql`id desc`)
      .limit(1);
    expect(ev!.action).toBe(`Reversed a redemption of ₦500.00 on ${gc.code}: Customer was overcharged`);
    expect(ev!.actorType).toBe('PARTNER');
  });

  it('an expired reward reads Expired and cannot be redeemed (persisted on the attempt)', async () => {
    const gc = (await issue({ issuedAmount: 800, expiryDate: '2026-03-03' })).body.data!;
    const otp = await sendCode(gc.code);
    t.clock.set(new Date('2026-03-04T00:00:00.000Z'));
    await relogin();
    expect((await post<Reward>('get-reward', { userId: customer.id, code: gc.code })).body.data!.status).toBe(
      'Expired',
    );
    const res = await post('redeem-giftcard', {
      userId: customer.id,
      code: gc.code,
      amountToRedeem: 100,
      otp,
    });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('This reward has expired and cannot be redeemed');
    const [row] = await t.db.select().from(rewards).where(eq(rewards.id, gc.id));
    expect(row).toMatchObject({ status: 'Expired', balance: 800 });
    expect(
      (await post('initiate-reward-redemption-auth', { userId: customer.id, code: gc.code })).status,
    ).toBe(409);
  });

  it('a daily cap of 10 codes per reward: then 429 with Retry-After', async () => {
    const gc = (await issue({ issuedAmount: 100 })).body.data!;
    for (let i = 0; i < 10; i++) {
      expect(
        (await post('initiate-reward-redemption-auth', { userId: customer.id, code: gc.code })).status,
      ).toBe(200);
    }
    const capped = await post('initiate-reward-redemption-auth', { userId: customer.id, code: gc.code });
    expect(capped.status).toBe(429);
    expect(Number(capped.headers.get('Retry-After'))).toBeGreaterThan(0);
    t.clock.advance(24 * 60 * 60 * 1000 + 1000);
    await relogin();
    expect(
      (await post('initiate-reward-redemption-auth', { userId: customer.id, code: gc.code })).status,
    ).toBe(200);
  });

  it('figures: redeemed gift-card balance, reward stats, types and categories', async () => {
    const bal = await t.request<GiftcardBalance>('GET', '/partners/rewards/redeemed-giftcard-balance', {
      token: staffToken,
    });
    expect(bal.status).toBe(200);
    const [sums] = await executeRows<{ redeemed: string; outstanding: string }>(
      t.db,
      sql`select (select -coalesce(sum(l.amount), 0) from reward_ledger l join rewards r on r.id = l.reward_id
          where r.partner_id = ${partner.id} and r.reward_type = 'GIFTCARD' and l.kind <> 'ISSUE')::text as redeemed,
        (select coalesce(sum(balance), 0) from rewards where partner_id = ${partner.id} and reward_type = 'GIFTCARD'
          and status = 'Active' and (expiry_date is null or expiry_date > ${t.clock().toISOString()}::timestamptz))::text as outstanding`,
    );
    expect(bal.body.data).toEqual({
      totalRedeemed: Number(sums!.redeemed),
      outstandingBalance: Number(sums!.outstanding),
    });
    expect(
      (
        await t.request('GET', `/partners/rewards/redeemed-giftcard-balance?partnerId=${other.id}`, {
          token: staffToken,
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await t.request('GET', `/partners/rewards/redeemed-giftcard-balance?partnerId=${other.id}`, {
          token: admin,
        })
      ).status,
    ).toBe(200);
    const stats = await t.request<{ totalIssuedGiftcardsCount: number }>('GET', '/partners/stats/reward', {
      token: staffToken,
    });
    expect(stats.status).toBe(200);
    expect(stats.body.data!.totalIssuedGiftcardsCount).toBeGreaterThan(0);
    expect(
      (await t.request('GET', `/partners/stats/reward?partnerId=${other.id}`, { token: staffToken })).status,
    ).toBe(404);
    expect((await t.request('GET', '/partners/reward-types', { token: staffToken })).body.data).toEqual([
      'GIFTCARD',
      'COUPON',
    ]);
    expect(
      (await t.request('GET', '/partners/reward-type-categories', { token: staffToken })).body.data,
    ).toEqual(['GENERAL', 'DISCOUNTED_SUBSCRIPTION']);
  });
});
