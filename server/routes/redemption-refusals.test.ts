import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RedemptionResult } from '../../contract/redemption';
import type { Reward } from '../../contract/rewards';
import {
  createCustomer,
  createPartner,
  createReward,
  createRole,
  createSuperAdmin,
  createUser,
  linkCustomer,
  type Res,
  setupTestServer,
  signIn,
} from '../../tests/setup/server';
import { executeRows } from '../db/rows';
import { events, redemptionOtps, rewards, webhookDeliveries } from '../db/schema';
import { debitGiftcard, redeemCouponRow } from '../domain/ledger';
import { buckets, OTP_GUESS_LIMIT, recordHit } from '../domain/rate-limit';
import { countWrong } from '../domain/redemption';
import { rewardById } from '../domain/rewards';

/**
 * The refusals of the redemption calls, each with its field, its code and (only on a 429) its
 * Retry-After (docs/decisions/007-ledger-and-otp.md, 063-error-catalogue.md): the daily cap of 10
 * codes per reward in a rolling 24 hours and its wait, a code bound to its reward, the checks made
 * before the code is spent, what a redemption records, and a redemption that loses to a change made
 * meanwhile (the guarded UPDATE re-checks; no row back is a 409, and the code is not spent).
 */
const t = setupTestServer();

const HOUR = 60 * 60;
let staff: { id: number; email: string; password: string };
let adminUser: { email: string; password: string };
let token: string;
let admin: string;
let partner: { id: number };
let otherPartner: { id: number };
let customer: { id: number; email: string };
let cashierRole: { id: number };

/** After the clock moves an hour or more the access tokens have run out: sign in again. */
async function relogin() {
  token = (await signIn(t, staff.email, staff.password)).accessToken;
  admin = (await signIn(t, adminUser.email, adminUser.password)).accessToken;
}

const post = <T = unknown>(path: string, json: unknown, as = token) =>
  t.request<T>('POST', `/partners/rewards/${path}`, { json, token: as });

async function sendCode(code: string, userId = customer.id, email = customer.email) {
  const res = await post('initiate-reward-redemption-auth', { userId, code });
  expect(res.status, res.text).toBe(200);
  return { otp: (await t.lastOtp(email))!, res };
}

const wrongOf = (otp: string) => String((Number(otp) + 1) % 1_000_000).padStart(6, '0');

/** The members of a RateLimit field (decision 063): name, remaining, seconds to reset. */
const rateLimitMember = (res: Res, name: string) =>
  (res.headers.get('ratelimit') ?? '')
    .split(', ')
    .map((m) => /^"([^"]+)";r=(\d+);t=(\d+)$/.exec(m))
    .filter((m) => m?.[1] === name)
    .map((m) => ({ r: Number(m![2]), t: Number(m![3]) }))[0];

/** A refusal in the envelope: status, code, message, errors, and no Retry-After unless a 429. */
function refused(
  res: Res,
  status: number,
  code: string,
  message: string,
  errors: { fieldName: string; message: string }[],
) {
  expect(res.status, res.text).toBe(status);
  expect(res.body).toMatchObject({ success: false, data: null, code, message, errors });
  if (status !== 429) expect(res.headers.get('retry-after')).toBeNull();
}

const giftcard = (extra: Partial<typeof rewards.$inferInsert> = {}) =>
  createReward(t.db, { partnerId: partner.id, customerId: customer.id, ...extra });
const coupon = () =>
  giftcard({ rewardType: 'COUPON', issuedAmount: null, balance: null, percentageDiscount: 10 });

const otpRow = async (rewardId: number) =>
  (
    await t.db
      .select()
      .from(redemptionOtps)
      .where(eq(redemptionOtps.rewardId, rewardId))
      .orderBy(sql`id desc`)
      .limit(1)
  )[0]!;

const eventsOf = (rewardId: number) =>
  t.db
    .select()
    .from(events)
    .where(and(eq(events.entity, 'reward'), eq(events.entityId, String(rewardId))))
    .orderBy(events.id);

beforeAll(async () => {
  adminUser = await createSuperAdmin(t.db);
  partner = await createPartner(t.db, { organizationName: 'Mama Put' });
  otherPartner = await createPartner(t.db, { organizationName: 'Elsewhere' });
  cashierRole = await createRole(t.db, 'Cashier', ['rewards.view', 'rewards.redeem']);
  staff = await createUser(t.db, { roleId: cashierRole.id, userType: 'PARTNER', partnerId: partner.id });
  customer = await createCustomer(t.db, { email: 'ada.obi@mail.ng' });
  await linkCustomer(t.db, partner.id, customer.id);
  await relogin();
});

describe('the codes a reward may be sent in 24 hours (10, rolling)', () => {
  it('the 11th waits until the oldest of the 10 is 24 hours old: Retry-After and RateLimit say when', async () => {
    const gc = await giftcard();
    const first = (await sendCode(gc.code)).res;
    expect(first.headers.get('ratelimit-policy')).toContain('"otp-reward-day";q=10;w=86400');
    expect(rateLimitMember(first, 'otp-reward-day')).toEqual({ r: 9, t: 24 * HOUR });
    // An hour later the other nine: none left, and the first code frees a place 23 hours from now.
    t.clock.advance(HOUR * 1000);
    await relogin();
    let last: Res | undefined;
    for (let i = 2; i <= 10; i++) last = (await sendCode(gc.code)).res;
    expect(rateLimitMember(last!, 'otp-reward-day')).toEqual({ r: 0, t: 23 * HOUR });
    const capped = await post('initiate-reward-redemption-auth', { userId: customer.id, code: gc.code });
    refused(
      capped,
      429,
      'otp_daily_cap',
      'Too many codes were sent for this reward today. Try again tomorrow.',
      [],
    );
    expect(capped.headers.get('retry-after')).toBe(String(23 * HOUR));
    expect(rateLimitMember(capped, 'otp-reward-day')).toEqual({ r: 0, t: 23 * HOUR });

    // The tenth code locked by 5 wrong tries: a new one may be sent when the cap frees a place.
    const otp = (await t.lastOtp(customer.email))!;
    const check = (o: string) =>
      post('redemption-auth-otp-validity-check', { userId: customer.id, code: gc.code, otp: o });
    for (let i = 0; i < 5; i++) expect((await check(wrongOf(otp))).status).toBe(400);
    const locked = await check(otp);
    const lockedMessage = 'Too many wrong codes. Send a new code.';
    refused(locked, 429, 'otp_locked', lockedMessage, [{ fieldName: 'otp', message: lockedMessage }]);
    expect(locked.headers.get('retry-after')).toBe(String(23 * HOUR));

    // One second before the first code is 24 hours old: still capped, one second to wait.
    t.clock.advance((23 * HOUR - 1) * 1000);
    await relogin();
    const almost = await post('initiate-reward-redemption-auth', { userId: customer.id, code: gc.code });
    expect(almost.status).toBe(429);
    expect(almost.headers.get('retry-after')).toBe('1');
    t.clock.advance(1000);
    await relogin();
    await sendCode(gc.code);
  });
});

describe('a code belongs to its reward', () => {
  it("a check naming reward A finds A's code though a code for B was sent since", async () => {
    const a = await giftcard();
    const b = await giftcard();
    const otpA = (await sendCode(a.code)).otp;
    const otpB = (await sendCode(b.code)).otp;
    for (const [reward, otp] of [
      [a, otpA],
      [b, otpB],
    ] as const) {
      const res = await post('redemption-auth-otp-validity-check', {
        userId: customer.id,
        code: reward.code,
        otp,
      });
      expect(res.status, res.text).toBe(200);
      expect(res.body.data).toEqual({ valid: true, attemptsLeft: 5 });
    }
  });
});

describe('a redeem call refuses a code that cannot be used, on the otp field', () => {
  it('no code sent, a used code, an expired code: 400, and no Retry-After', async () => {
    const gc = await giftcard();
    const redeem = (otp: string) =>
      post('redeem-giftcard', { userId: customer.id, code: gc.code, otp, amountToRedeem: 100 });
    const none = 'No code was sent for this reward. Send a code first.';
    refused(await redeem('123456'), 400, 'otp_missing', none, [{ fieldName: 'otp', message: none }]);
    const { otp } = await sendCode(gc.code);
    expect((await redeem(otp)).status).toBe(200);
    const used = 'The code was already used. Send a new code.';
    refused(await redeem(otp), 400, 'otp_used', used, [{ fieldName: 'otp', message: used }]);
    const fresh = await sendCode(gc.code);
    t.clock.advance(5 * 60 * 1000);
    const expired = 'The code has expired. Send a new code.';
    refused(await redeem(fresh.otp), 400, 'otp_expired', expired, [{ fieldName: 'otp', message: expired }]);
    const [row] = await t.db.select().from(rewards).where(eq(rewards.id, gc.id));
    expect(row!.balance).toBe(4900);
  });

  it('wrong codes count, each an event on the reward naming the customer; then 429 with Retry-After 1', async () => {
    await relogin();
    const gc = await giftcard();
    const { otp } = await sendCode(gc.code);
    const redeem = (o: string) =>
      post('redeem-giftcard', { userId: customer.id, code: gc.code, otp: o, amountToRedeem: 100 });
    for (let left = 4; left >= 0; left--) {
      const message = `The code is not correct. ${left} attempt${left === 1 ? '' : 's'} left.`;
      refused(await redeem(wrongOf(otp)), 400, 'otp_invalid', message, [{ fieldName: 'otp', message }]);
    }
    const wrong = (await eventsOf(gc.id)).filter((e) => e.action.startsWith('Wrong redemption code'));
    expect(wrong.map((e) => e.payload)).toEqual(
      [1, 2, 3, 4, 5].map((attempts) => ({ customerId: customer.id, attempts })),
    );
    const message = 'Too many wrong codes. Send a new code.';
    const locked = await redeem(otp);
    refused(locked, 429, 'otp_locked', message, [{ fieldName: 'otp', message }]);
    // The reward may be sent a new code at once (decision 063: 1 second).
    expect(locked.headers.get('retry-after')).toBe('1');
    const [row] = await t.db.select().from(rewards).where(eq(rewards.id, gc.id));
    expect(row!.balance).toBe(5000);
  });

  it('a code locked by tries counted meanwhile: 429 otp_locked on otp, and no try counted', async () => {
    const gc = await giftcard();
    await sendCode(gc.code);
    const otp = await otpRow(gc.id);
    // Five concurrent wrong tries got in first (the atomic count lets only five through).
    await t.db.update(redemptionOtps).set({ attempts: 5 }).where(eq(redemptionOtps.id, otp.id));
    const before = (await eventsOf(gc.id)).length;
    const answer = await t.db.transaction(async (tx) =>
      countWrong(tx, {
        otpId: otp.id,
        row: (await rewardById(tx, gc.id))!,
        now: t.clock(),
        callerId: staff.id,
        actor: { id: staff.id, type: 'PARTNER', name: 'Cashier', partnerId: partner.id },
        meta: { ipAddress: null, userAgent: null },
      }),
    );
    const message = 'Too many wrong codes. Send a new code.';
    expect(answer.status).toBe(429);
    expect(answer.body).toMatchObject({
      code: 'otp_locked',
      message,
      errors: [{ fieldName: 'otp', message }],
    });
    expect(answer.headers).toEqual({ 'Retry-After': '1' });
    expect((await eventsOf(gc.id)).length).toBe(before);
    expect((await otpRow(gc.id)).attempts).toBe(5);
  });
});

describe('wrong codes per staff member (decision 013: 20 in 15 minutes)', () => {
  it('a wrong code in a redeem call counts; at 20 the next redeem is 429 on otp, even with the right code', async () => {
    await relogin();
    const guesser = await createUser(t.db, {
      roleId: cashierRole.id,
      userType: 'PARTNER',
      partnerId: partner.id,
    });
    const as = (await signIn(t, guesser.email, guesser.password)).accessToken;
    // Nineteen wrong codes of this staff member already counted, at other rewards.
    for (let i = 0; i < 19; i++)
      await recordHit(t.db, buckets.otpGuess(guesser.id), OTP_GUESS_LIMIT, t.clock());
    const gc = await giftcard();
    const sent = await post('initiate-reward-redemption-auth', { userId: customer.id, code: gc.code }, as);
    expect(sent.status, sent.text).toBe(200);
    const otp = (await t.lastOtp(customer.email))!;
    const redeem = (o: string) =>
      post('redeem-giftcard', { userId: customer.id, code: gc.code, otp: o, amountToRedeem: 100 }, as);
    expect((await redeem(wrongOf(otp))).body.code).toBe('otp_invalid');
    const res = await redeem(otp);
    const message = 'Too many wrong codes were tried. Try again in 15 minutes.';
    refused(res, 429, 'rate_limited', message, [{ fieldName: 'otp', message }]);
    expect(res.headers.get('retry-after')).toBe('900');
    expect((await otpRow(gc.id)).usedAt).toBeNull();
    // Another staff member's tries are their own.
    expect(
      (await post('redeem-giftcard', { userId: customer.id, code: gc.code, otp, amountToRedeem: 100 }))
        .status,
    ).toBe(200);
  });
});

describe('what a redeem call refuses before the code is spent', () => {
  it('a blocked customer: 400 on userId; the code is not spent', async () => {
    const blocked = await createCustomer(t.db, { email: 'soon.blocked@mail.ng' });
    const gc = await createReward(t.db, { partnerId: partner.id, customerId: blocked.id });
    const { otp } = await sendCode(gc.code, blocked.id, blocked.email);
    const status = await t.request('PATCH', '/admin/user/customers/status', {
      token: admin,
      json: { customerId: blocked.id, accountStatus: 'BLOCKED' },
    });
    expect(status.status, status.text).toBe(200);
    const res = await post('redeem-giftcard', {
      userId: blocked.id,
      code: gc.code,
      otp,
      amountToRedeem: 100,
    });
    refused(res, 400, 'customer_blocked', 'Customer is blocked', [
      { fieldName: 'userId', message: 'Customer is blocked' },
    ]);
    expect((await otpRow(gc.id)).usedAt).toBeNull();
  });

  it('the wrong call for the reward type: 400 on code', async () => {
    const gc = await giftcard();
    const cp = await coupon();
    const notCoupon = 'This reward is not a coupon';
    refused(
      await post('redeem-coupon', { userId: customer.id, code: gc.code, otp: '123456' }),
      400,
      'not_a_coupon',
      notCoupon,
      [{ fieldName: 'code', message: notCoupon }],
    );
    const notGiftcard = 'This reward is not a gift card';
    refused(
      await post('redeem-giftcard', { userId: customer.id, code: cp.code, otp: '123456', amountToRedeem: 1 }),
      400,
      'not_a_giftcard',
      notGiftcard,
      [{ fieldName: 'code', message: notGiftcard }],
    );
  });

  it('an amount over the balance: 409 on amountToRedeem; the code then redeems the right amount', async () => {
    const gc = await giftcard();
    const { otp } = await sendCode(gc.code);
    const over = 'The amount is more than the balance of ₦5,000.00';
    refused(
      await post('redeem-giftcard', { userId: customer.id, code: gc.code, otp, amountToRedeem: 5000.01 }),
      409,
      'insufficient_balance',
      over,
      [{ fieldName: 'amountToRedeem', message: over }],
    );
    // Refused before the code is looked at: a wrong code with it counts no try (decision 007).
    refused(
      await post('redeem-giftcard', {
        userId: customer.id,
        code: gc.code,
        otp: wrongOf(otp),
        amountToRedeem: 5000.01,
      }),
      409,
      'insufficient_balance',
      over,
      [{ fieldName: 'amountToRedeem', message: over }],
    );
    expect((await otpRow(gc.id)).attempts).toBe(0);
    const ok = await post<RedemptionResult>('redeem-giftcard', {
      userId: customer.id,
      code: gc.code,
      otp,
      amountToRedeem: 5000,
    });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.data).toMatchObject({ balance: 0, status: 'Redeemed' });
  });

  it('a card redeemed to 0: 409 reward_already_redeemed, whatever the code', async () => {
    const gc = await giftcard();
    const { otp } = await sendCode(gc.code);
    const redeem = (amountToRedeem: number) =>
      post('redeem-giftcard', { userId: customer.id, code: gc.code, otp, amountToRedeem });
    expect((await redeem(5000)).status).toBe(200);
    const message = 'This reward has already been redeemed';
    refused(await redeem(1), 409, 'reward_already_redeemed', message, []);
  });
});

describe('an expired reward', () => {
  it('reads Expired from its expiry instant on and is refused there; the expiry is logged once', async () => {
    await relogin();
    const expiry = new Date(t.clock().getTime() + 60_000);
    const gc = await giftcard({ expiryDate: expiry });
    const { otp } = await sendCode(gc.code);
    const read = async () =>
      (await post<Reward>('get-reward', { userId: customer.id, code: gc.code })).body.data!;
    expect(await read()).toMatchObject({ status: 'Active', expiryDate: expiry.toISOString() });
    // The guard redeems only while expiry > now (decision 007): at the instant itself it is Expired.
    t.clock.set(expiry);
    expect((await read()).status).toBe('Expired');
    const message = 'This reward has expired and cannot be redeemed';
    const redeem = () =>
      post('redeem-giftcard', { userId: customer.id, code: gc.code, otp, amountToRedeem: 100 });
    const logged = async () =>
      (await eventsOf(gc.id)).filter((e) => e.action === `Reward ${gc.code} expired`).map((e) => e.payload);
    // The first refusal persists Expired and logs it; the next finds it Expired and logs nothing.
    refused(await redeem(), 409, 'reward_expired', message, []);
    expect(await logged()).toEqual([{ expiryDate: expiry.toISOString() }]);
    refused(await redeem(), 409, 'reward_expired', message, []);
    expect(await logged()).toEqual([{ expiryDate: expiry.toISOString() }]);
    const [row] = await t.db.select().from(rewards).where(eq(rewards.id, gc.id));
    expect(row).toMatchObject({ status: 'Expired', balance: 5000 });
    expect((await otpRow(gc.id)).usedAt).toBeNull();
  });

  it('a reward redeemed before its expiry still reads Redeemed after it (only an Active one expires)', async () => {
    const used = await coupon();
    await t.db
      .update(rewards)
      .set({ status: 'Redeemed', expiryDate: new Date(t.clock().getTime() - 60_000) })
      .where(eq(rewards.id, used.id));
    const res = await post<Reward>('get-reward', { userId: customer.id, code: used.code });
    expect(res.body.data?.status, res.text).toBe('Redeemed');
  });
});

describe('who may find a reward', () => {
  it("staff find their partner's rewards only, admins every partner's; a code typed with spaces and in any case", async () => {
    await relogin();
    const elsewhere = await createReward(t.db, { partnerId: otherPartner.id, customerId: customer.id });
    const older = await giftcard({ code: 'gc-older01' });
    const find = (code: string, as = token) => post<Reward>('get-reward', { userId: customer.id, code }, as);
    expect((await find(elsewhere.code)).status).toBe(404);
    const byAdmin = await find(elsewhere.code, admin);
    expect(byAdmin.status, byAdmin.text).toBe(200);
    expect(byAdmin.body.data!.id).toBe(elsewhere.id);
    // Issued codes are upper case; one stored in lower case (an older code) is found as typed.
    const gc = await giftcard({ code: 'GC-TYPED01' });
    expect((await find(' gc-Typed01 ')).body.data?.id).toBe(gc.id);
    expect((await find(' gc-older01 ')).body.data?.id).toBe(older.id);
  });
});

describe('what a redemption records', () => {
  it('each redemption is an event on the reward naming the customer, and a reward.redeemed webhook; a coupon answers as a coupon', async () => {
    const hook = await t.request<{ id: number }>('POST', '/admin/webhooks', {
      token: admin,
      json: { url: 'https://pos.example.com/rewards', events: ['reward.redeemed'], partnerId: partner.id },
    });
    expect(hook.status, hook.text).toBe(201);
    const gc = await giftcard();
    const cp = await coupon();
    const card = await post<RedemptionResult>('redeem-giftcard', {
      userId: customer.id,
      code: gc.code,
      otp: (await sendCode(gc.code)).otp,
      amountToRedeem: 1200,
    });
    expect(card.status, card.text).toBe(200);
    const used = await post<RedemptionResult>('redeem-coupon', {
      userId: customer.id,
      code: cp.code,
      otp: (await sendCode(cp.code)).otp,
    });
    expect(used.status, used.text).toBe(200);
    expect(used.body.data).toMatchObject({ rewardType: 'COUPON', status: 'Redeemed', amountRedeemed: null });
    const [cardEvent] = (await eventsOf(gc.id)).filter((e) => e.action.startsWith('Redeemed'));
    expect(cardEvent!.payload).toEqual({
      amount: 1200,
      balance: 3800,
      ledgerEntryId: card.body.data!.ledgerEntryId,
      customerId: customer.id,
    });
    const [couponEvent] = (await eventsOf(cp.id)).filter((e) => e.action.startsWith('Redeemed'));
    expect(couponEvent!.payload).toEqual({
      ledgerEntryId: used.body.data!.ledgerEntryId,
      customerId: customer.id,
      percentageDiscount: 10,
    });
    // The webhook carries the answer, where and for whom (decision 027).
    const sent = await t.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, hook.body.data!.id))
      .orderBy(webhookDeliveries.id);
    expect(sent.map((d) => d.eventType)).toEqual(['reward.redeemed', 'reward.redeemed']);
    expect(sent.map((d) => (d.payload as { data: unknown }).data)).toEqual([
      { ...card.body.data, partnerId: partner.id, customerId: customer.id },
      { ...used.body.data, partnerId: partner.id, customerId: customer.id },
    ]);
  });
});

/**
 * A change another transaction commits between the redemption's read and its guarded UPDATE,
 * played by a trigger that runs when the code is consumed (the step just before the UPDATE).
 */
async function meanwhile<T>(rewardId: number, change: string, run: () => Promise<T>): Promise<T> {
  await executeRows(
    t.db,
    sql.raw(`create or replace function test_meanwhile() returns trigger language plpgsql as $$
      begin update rewards set ${change} where id = ${rewardId}; return new; end $$`),
  );
  await executeRows(
    t.db,
    sql.raw(`create trigger test_meanwhile after update of used_at on redemption_otps
      for each row execute function test_meanwhile()`),
  );
  try {
    return await run();
  } finally {
    await executeRows(t.db, sql.raw('drop trigger test_meanwhile on redemption_otps'));
    await executeRows(t.db, sql.raw('drop function test_meanwhile()'));
  }
}

describe('a redemption that loses to a change made meanwhile: 409, nothing spent', () => {
  it('a card spent meanwhile: the balance left; the code then redeems a corrected amount', async () => {
    const gc = await giftcard({ issuedAmount: 1000, balance: 1000 });
    const { otp } = await sendCode(gc.code);
    const body = { userId: customer.id, code: gc.code, otp, amountToRedeem: 500 };
    const res = await meanwhile(gc.id, 'balance = 300', () => post('redeem-giftcard', body));
    const over = 'The amount is more than the balance of ₦300.00';
    refused(res, 409, 'insufficient_balance', over, [{ fieldName: 'amountToRedeem', message: over }]);
    expect((await otpRow(gc.id)).usedAt).toBeNull();
    const ok = await post<RedemptionResult>('redeem-giftcard', body);
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.data!.balance).toBe(500);
  });

  it('a card redeemed meanwhile: reward_already_redeemed', async () => {
    const gc = await giftcard();
    const { otp } = await sendCode(gc.code);
    const res = await meanwhile(gc.id, "status = 'Redeemed'", () =>
      post('redeem-giftcard', { userId: customer.id, code: gc.code, otp, amountToRedeem: 100 }),
    );
    refused(res, 409, 'reward_already_redeemed', 'This reward has already been redeemed', []);
    expect((await otpRow(gc.id)).usedAt).toBeNull();
  });

  it('a card or a coupon another call marked Expired meanwhile: reward_expired', async () => {
    const message = 'This reward has expired and cannot be redeemed';
    const gc = await giftcard();
    const card = await sendCode(gc.code);
    refused(
      await meanwhile(gc.id, "status = 'Expired'", () =>
        post('redeem-giftcard', { userId: customer.id, code: gc.code, otp: card.otp, amountToRedeem: 100 }),
      ),
      409,
      'reward_expired',
      message,
      [],
    );
    const cp = await coupon();
    const c = await sendCode(cp.code);
    refused(
      await meanwhile(cp.id, "status = 'Expired'", () =>
        post('redeem-coupon', { userId: customer.id, code: cp.code, otp: c.otp }),
      ),
      409,
      'reward_expired',
      message,
      [],
    );
    expect((await otpRow(gc.id)).usedAt).toBeNull();
    expect((await otpRow(cp.id)).usedAt).toBeNull();
  });

  it('a coupon redeemed meanwhile: reward_already_redeemed', async () => {
    const cp = await coupon();
    const { otp } = await sendCode(cp.code);
    const res = await meanwhile(cp.id, "status = 'Redeemed'", () =>
      post('redeem-coupon', { userId: customer.id, code: cp.code, otp }),
    );
    refused(res, 409, 'reward_already_redeemed', 'This reward has already been redeemed', []);
    expect((await otpRow(cp.id)).usedAt).toBeNull();
  });
});

describe("the ledger's guards (decision 007: Active, not expired, the type, enough balance)", () => {
  it('a gift card is debited only while Active, before its expiry and with the amount left', async () => {
    const now = t.clock();
    const debit = (rewardId: number, amount = 100) =>
      debitGiftcard(t.db, { rewardId, amount, actorId: staff.id, now });
    expect(await debit((await giftcard({ expiryDate: now })).id)).toBeNull();
    expect(await debit((await giftcard({ status: 'Redeemed' })).id)).toBeNull();
    expect(await debit((await giftcard()).id, 5000.01)).toBeNull();
    expect(await debit((await coupon()).id)).toBeNull();
    const ok = await giftcard({ expiryDate: new Date(now.getTime() + 1) });
    expect(await debit(ok.id, 5000)).toMatchObject({ balance: 0, status: 'Redeemed' });
  });

  it('a coupon is used only while Active and before its expiry', async () => {
    const now = t.clock();
    const use = (rewardId: number) => redeemCouponRow(t.db, { rewardId, actorId: staff.id, now });
    expect(await use((await coupon()).id)).toMatchObject({ ledgerEntryId: expect.any(Number) });
    const expired = await coupon();
    await t.db.update(rewards).set({ expiryDate: now }).where(eq(rewards.id, expired.id));
    expect(await use(expired.id)).toBeNull();
    expect(await use((await giftcard()).id)).toBeNull();
  });
});
