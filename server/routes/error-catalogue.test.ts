import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedApiKey } from '../../contract/api-keys';
import { ERROR_CATALOGUE, type ErrorCode } from '../../contract/error-codes';
import type { RedemptionResult, ReversalResult } from '../../contract/redemption';
import type { Reward } from '../../contract/rewards';
import {
  createCustomer,
  createPartner,
  createSuperAdmin,
  linkCustomer,
  PNG_BASE64,
  type Res,
  setupTestServer,
  signIn,
} from '../../tests/setup/server';
import { buildOpenApiDocument } from '../openapi';

/**
 * The error catalogue walked (issue 31, docs/decisions/063-error-catalogue.md): each refusal a till
 * can meet is provoked through the API (a partner's API key, or club staff where only they can
 * meet it) and must answer its own `code`, with a status the catalogue gives that code, and the
 * OpenAPI document must list that code on that operation's answer of that status. Every 429 carries
 * Retry-After. The numbers (5 tries, 10 codes a day, 20 wrong codes per caller) are the product's
 * rules (docs/product.md, decision 013).
 */
const t = setupTestServer();

type DocAnswer = { 'x-error-codes'?: string[]; headers?: Record<string, unknown> };
const doc = JSON.parse(JSON.stringify(buildOpenApiDocument())) as {
  paths: Record<string, Record<string, { responses: Record<string, DocAnswer> }>>;
};

/** code → the operations it was provoked on. */
const provoked = new Map<ErrorCode, Set<string>>();

/** A refusal: its own code, a status of that code, documented there, a Retry-After on a 429. */
function refused(op: string, res: Res, status: number, code: ErrorCode) {
  expect(res.status, `${op}: ${res.text}`).toBe(status);
  expect(res.body.success).toBe(false);
  expect(res.body.code, `${op}: ${res.text}`).toBe(code);
  expect(ERROR_CATALOGUE[code].statuses as readonly number[]).toContain(status);
  const [method, path] = op.split(' ') as [string, string];
  const answer = doc.paths[path]?.[method.toLowerCase()]?.responses[String(status)];
  expect(answer, `${op} documents ${status}`).toBeTruthy();
  expect(answer!['x-error-codes'], `${op} ${status} lists ${code}`).toContain(code);
  if (status === 429) {
    const retry = res.headers.get('retry-after');
    expect(retry, `${op}: Retry-After`).toMatch(/^[1-9]\d*$/);
  }
  const ops = provoked.get(code) ?? new Set<string>();
  ops.add(op);
  provoked.set(code, ops);
}

let admin: string;
let adminUser: { email: string; password: string };
let partner: { id: number };
let blockedPartner: { id: number };
let customer: { id: number; email: string };
let unlinked: { id: number };
let toBlock: { id: number };
let pointless: { id: number };
/** The till's key (every permission a key may hold), one for the blocked partner, one that guesses. */
let key: string;
let blockedKey: string;
let guesser: string;
let linker: string;
let visitsOnly: string;

const ALL_KEY_PERMISSIONS = [
  'visits.create',
  'visits.view',
  'clients.view',
  'rewards.view',
  'rewards.issue',
  'rewards.redeem',
  'rewards.reverse',
];

async function createKey(partnerId: number, permissions: string[], name: string) {
  const res = await t.request<CreatedApiKey>('POST', `/admin/partners/${partnerId}/api-keys`, {
    token: admin,
    json: { name, permissions },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.data!.key;
}

const withKey = (k: string, json?: unknown, headers: Record<string, string> = {}) => ({
  headers: { 'X-Api-Key': k, ...headers },
  ...(json === undefined ? {} : { json }),
});

const rewardsCall = <T = unknown>(k: string, path: string, json: unknown) =>
  t.request<T>('POST', `/partners/rewards/${path}`, withKey(k, json));

async function issue(k: string, body: Record<string, unknown> = {}) {
  const res = await rewardsCall<Reward>(k, 'issue-reward', {
    rewardType: 'GIFTCARD',
    issuedAmount: 5000,
    title: 'Thank you',
    description: 'For visiting',
    promotionalImage: PNG_BASE64,
    issuedTo: customer.id,
    ...body,
  });
  expect(res.status, res.text).toBe(201);
  return res.body.data!;
}

async function sendCode(k: string, code: string) {
  const res = await rewardsCall(k, 'initiate-reward-redemption-auth', { userId: customer.id, code });
  expect(res.status, res.text).toBe(200);
  return { otp: (await t.lastOtp(customer.email))!, res };
}

const wrongOf = (otp: string) => String((Number(otp) + 1) % 1_000_000).padStart(6, '0');

/** The members of a RateLimit field: name → remaining, in order. */
const rateLimitMembers = (res: Res) =>
  (res.headers.get('ratelimit') ?? '')
    .split(', ')
    .filter(Boolean)
    .map((m) => {
      const [, name, r, tt] = /^"([^"]+)";r=(\d+);t=(\d+)$/.exec(m) ?? [];
      return { name, r: Number(r), t: Number(tt) };
    });

const visitBody = (customerId: number, extra: Record<string, unknown> = {}) => ({
  partnerId: partner.id,
  customerId,
  attendantName: 'Till 1',
  visitDate: new Date(t.clock().getTime() - 60 * 60 * 1000).toISOString(),
  items: [{ name: 'Suya', quantity: 1, price: 12_000 }],
  ...extra,
});

beforeAll(async () => {
  adminUser = await createSuperAdmin(t.db);
  admin = (await signIn(t, adminUser.email, adminUser.password)).accessToken;
  partner = await createPartner(t.db, { organizationName: 'Mama Put' });
  blockedPartner = await createPartner(t.db, { organizationName: 'Soon Blocked' });
  customer = await createCustomer(t.db, { email: 'ada.obi@mail.ng' });
  unlinked = await createCustomer(t.db, { email: 'stranger@mail.ng' });
  toBlock = await createCustomer(t.db, { email: 'blocked.one@mail.ng' });
  pointless = await createCustomer(t.db, { email: 'no.points@mail.ng' });
  // The customers who confirmed a link with the partner (decision 053); `unlinked` never did.
  for (const c of [customer, toBlock, pointless]) await linkCustomer(t.db, partner.id, c.id);
  await linkCustomer(t.db, blockedPartner.id, customer.id);
  key = await createKey(partner.id, ALL_KEY_PERMISSIONS, 'Front till');
  guesser = await createKey(partner.id, ALL_KEY_PERMISSIONS, 'Guessing till');
  linker = await createKey(partner.id, ALL_KEY_PERMISSIONS, 'Linking till');
  visitsOnly = await createKey(partner.id, ['visits.create'], 'Visits only');
  blockedKey = await createKey(blockedPartner.id, ALL_KEY_PERMISSIONS, 'Blocked till');
});

afterAll(() => {
  console.log(
    `[figure] error catalogue: ${provoked.size} codes provoked through the API on ${new Set([...provoked.values()].flatMap((s) => [...s])).size} operations, each documented there`,
  );
});

describe('gift card, coupon and reversal refusals', () => {
  it('an amount over the balance is insufficient_balance (409), and keeps the code for a corrected amount', async () => {
    const gc = await issue(key);
    const { otp } = await sendCode(key, gc.code);
    const over = await rewardsCall(key, 'redeem-giftcard', {
      userId: customer.id,
      code: gc.code,
      otp,
      amountToRedeem: 5000.01,
    });
    refused('POST /partners/rewards/redeem-giftcard', over, 409, 'insufficient_balance');
    const ok = await rewardsCall<RedemptionResult>(key, 'redeem-giftcard', {
      userId: customer.id,
      code: gc.code,
      otp,
      amountToRedeem: 5000,
    });
    expect(ok.status, ok.text).toBe(200);
  });

  it('a used coupon is reward_already_redeemed (409); a reversed redemption is reward_reversed; a reversal is not_a_redemption', async () => {
    const coupon = await issue(key, { rewardType: 'COUPON', issuedAmount: undefined });
    const { otp } = await sendCode(key, coupon.code);
    const body = { userId: customer.id, code: coupon.code, otp };
    const first = await rewardsCall<RedemptionResult>(key, 'redeem-coupon', body);
    expect(first.status, first.text).toBe(200);
    refused(
      'POST /partners/rewards/redeem-coupon',
      await rewardsCall(key, 'redeem-coupon', body),
      409,
      'reward_already_redeemed',
    );
    refused(
      'POST /partners/rewards/initiate-reward-redemption-auth',
      await rewardsCall(key, 'initiate-reward-redemption-auth', { userId: customer.id, code: coupon.code }),
      409,
      'reward_already_redeemed',
    );
    const reverse = { ledgerEntryId: first.body.data!.ledgerEntryId, reason: 'Customer changed their mind' };
    const reversed = await rewardsCall<ReversalResult>(key, 'reverse-redemption', reverse);
    expect(reversed.status, reversed.text).toBe(200);
    refused(
      'POST /partners/rewards/reverse-redemption',
      await rewardsCall(key, 'reverse-redemption', reverse),
      409,
      'reward_reversed',
    );
    refused(
      'POST /partners/rewards/reverse-redemption',
      await rewardsCall(key, 'reverse-redemption', {
        ledgerEntryId: reversed.body.data!.ledgerEntryId,
        reason: 'Reverse the reversal',
      }),
      409,
      'not_a_redemption',
    );
  });

  it('the wrong redeem call for the reward type is not_a_coupon / not_a_giftcard (400)', async () => {
    const gc = await issue(key);
    const coupon = await issue(key, { rewardType: 'COUPON', issuedAmount: undefined });
    refused(
      'POST /partners/rewards/redeem-coupon',
      await rewardsCall(key, 'redeem-coupon', { userId: customer.id, code: gc.code, otp: '123456' }),
      400,
      'not_a_coupon',
    );
    refused(
      'POST /partners/rewards/redeem-giftcard',
      await rewardsCall(key, 'redeem-giftcard', {
        userId: customer.id,
        code: coupon.code,
        otp: '123456',
        amountToRedeem: 100,
      }),
      400,
      'not_a_giftcard',
    );
  });

  it('a reward by points without points is no_points (409)', async () => {
    const res = await rewardsCall(key, 'issue-reward', {
      rewardType: 'COUPON',
      title: 'Points coupon',
      description: 'By points',
      promotionalImage: PNG_BASE64,
      issuedTo: pointless.id,
      byPoints: true,
    });
    refused('POST /partners/rewards/issue-reward', res, 409, 'no_points');
  });
});

describe('one-time code refusals', () => {
  it('no code sent is otp_missing, a wrong one otp_invalid (400)', async () => {
    const gc = await issue(key);
    const check = (otp: string) =>
      rewardsCall(key, 'redemption-auth-otp-validity-check', { userId: customer.id, code: gc.code, otp });
    refused(
      'POST /partners/rewards/redemption-auth-otp-validity-check',
      await check('123456'),
      400,
      'otp_missing',
    );
    refused(
      'POST /partners/rewards/redeem-giftcard',
      await rewardsCall(key, 'redeem-giftcard', {
        userId: customer.id,
        code: gc.code,
        otp: '123456',
        amountToRedeem: 1,
      }),
      400,
      'otp_missing',
    );
    const { otp } = await sendCode(key, gc.code);
    const wrong = await check(wrongOf(otp));
    refused('POST /partners/rewards/redemption-auth-otp-validity-check', wrong, 400, 'otp_invalid');
    expect(wrong.body.message).toBe('The code is not correct. 4 attempts left.');
    refused(
      'POST /partners/rewards/redeem-giftcard',
      await rewardsCall(key, 'redeem-giftcard', {
        userId: customer.id,
        code: gc.code,
        otp: wrongOf(otp),
        amountToRedeem: 1,
      }),
      400,
      'otp_invalid',
    );
  });

  it('defect 2: a code locked by 5 wrong tries is otp_locked (429) WITH Retry-After, on the check and on the redeem', async () => {
    const gc = await issue(key);
    const { otp } = await sendCode(key, gc.code);
    const check = (o: string) =>
      rewardsCall(key, 'redemption-auth-otp-validity-check', { userId: customer.id, code: gc.code, otp: o });
    for (let i = 0; i < 5; i++) expect((await check(wrongOf(otp))).body.code).toBe('otp_invalid');
    refused('POST /partners/rewards/redemption-auth-otp-validity-check', await check(otp), 429, 'otp_locked');
    refused(
      'POST /partners/rewards/redeem-giftcard',
      await rewardsCall(key, 'redeem-giftcard', {
        userId: customer.id,
        code: gc.code,
        otp,
        amountToRedeem: 1,
      }),
      429,
      'otp_locked',
    );
    // A new code is the way out, and may be sent at once.
    const again = await sendCode(key, gc.code);
    const ok = await check(again.otp);
    expect(ok.status, ok.text).toBe(200);
  });

  it('a used code is otp_used, an old one otp_expired (400)', async () => {
    const gc = await issue(key);
    const { otp } = await sendCode(key, gc.code);
    const redeem = () =>
      rewardsCall(key, 'redeem-giftcard', { userId: customer.id, code: gc.code, otp, amountToRedeem: 100 });
    expect((await redeem()).status).toBe(200);
    refused('POST /partners/rewards/redeem-giftcard', await redeem(), 400, 'otp_used');
    const fresh = await sendCode(key, gc.code);
    t.clock.advance(5 * 60 * 1000 + 1000);
    refused(
      'POST /partners/rewards/redemption-auth-otp-validity-check',
      await rewardsCall(key, 'redemption-auth-otp-validity-check', {
        userId: customer.id,
        code: gc.code,
        otp: fresh.otp,
      }),
      400,
      'otp_expired',
    );
  });

  it('defect 2: the 10 codes a reward may be sent a day show in RateLimit, and the 11th is otp_daily_cap (429) with the same wait', async () => {
    const gc = await issue(key);
    let last: Res | undefined;
    for (let i = 1; i <= 10; i++) {
      last = (await sendCode(key, gc.code)).res;
      const day = rateLimitMembers(last).find((m) => m.name === 'otp-reward-day');
      expect(day?.r, `send ${i}: ${last.headers.get('ratelimit')}`).toBe(10 - i);
    }
    expect(last!.headers.get('ratelimit-policy')).toContain('"otp-reward-day";q=10;w=86400');
    // The tightest first: none left of the day's codes, while the key has hundreds of calls left.
    const members = rateLimitMembers(last!);
    expect(members[0]).toMatchObject({ name: 'otp-reward-day', r: 0 });
    expect(members.map((m) => m.name)).toContain('api-key');
    const capped = await rewardsCall(key, 'initiate-reward-redemption-auth', {
      userId: customer.id,
      code: gc.code,
    });
    refused('POST /partners/rewards/initiate-reward-redemption-auth', capped, 429, 'otp_daily_cap');
    const day = rateLimitMembers(capped)[0]!;
    expect(day).toMatchObject({ name: 'otp-reward-day', r: 0 });
    expect(Number(capped.headers.get('retry-after'))).toBe(day.t);
    expect(day.t).toBeLessThanOrEqual(24 * 60 * 60);
  });

  it('defect 3: wrong codes tried with a key count under the key: the 21st in 15 minutes is rate_limited (429)', async () => {
    const gc = await issue(guesser);
    const check = (otp: string) =>
      rewardsCall(guesser, 'redemption-auth-otp-validity-check', { userId: customer.id, code: gc.code, otp });
    let first: Res | undefined;
    for (let code = 0; code < 4; code++) {
      const { otp } = await sendCode(guesser, gc.code);
      for (let i = 0; i < 5; i++) {
        const res = await check(wrongOf(otp));
        expect(res.body.code, res.text).toBe('otp_invalid');
        first ??= res;
      }
    }
    // The key's limit and the wrong-code limit both show, neither overwriting the other.
    const names = rateLimitMembers(first!).map((m) => m.name);
    expect(names).toEqual(expect.arrayContaining(['api-key', 'otp-guess']));
    const { otp } = await sendCode(guesser, gc.code);
    const over = await check(otp);
    refused('POST /partners/rewards/redemption-auth-otp-validity-check', over, 429, 'rate_limited');
    expect(rateLimitMembers(over)[0]).toMatchObject({ name: 'otp-guess', r: 0 });
    // The other key of the same partner is not slowed by this one's guesses.
    const other = await rewardsCall(key, 'redemption-auth-otp-validity-check', {
      userId: customer.id,
      code: gc.code,
      otp,
    });
    expect(other.status, other.text).toBe(200);
  });

  it('a customer asked for a link code more than 10 times a day is link_daily_cap (429) with Retry-After', async () => {
    const ask = () =>
      t.request('POST', '/partners/customer-links', withKey(linker, { email: 'stranger@mail.ng' }));
    for (let i = 0; i < 10; i++) expect((await ask()).status).toBe(201);
    refused('POST /partners/customer-links', await ask(), 429, 'link_daily_cap');
  });
});

describe('who may act', () => {
  it('a customer not linked to the partner is customer_not_linked (403)', async () => {
    refused(
      'POST /user/visits',
      await t.request('POST', '/user/visits', withKey(key, visitBody(unlinked.id))),
      403,
      'customer_not_linked',
    );
  });

  it('a blocked customer is customer_blocked (400)', async () => {
    const blocked = await t.request('PATCH', '/admin/user/customers/status', {
      token: admin,
      json: { customerId: toBlock.id, accountStatus: 'BLOCKED' },
    });
    expect(blocked.status, blocked.text).toBe(200);
    refused(
      'POST /user/visits',
      await t.request('POST', '/user/visits', withKey(key, visitBody(toBlock.id))),
      400,
      'customer_blocked',
    );
  });

  it('a blocked partner is partner_blocked: 403 for its own key, 409 when club staff act for it', async () => {
    const blocked = await t.request('PATCH', '/admin/partners/update-status', {
      token: admin,
      json: { partnerId: blockedPartner.id, accountStatus: 'BLOCKED' },
    });
    expect(blocked.status, blocked.text).toBe(200);
    const body = visitBody(customer.id, { partnerId: blockedPartner.id });
    refused(
      'POST /user/visits',
      await t.request('POST', '/user/visits', withKey(blockedKey, body)),
      403,
      'partner_blocked',
    );
    refused(
      'POST /user/visits',
      await t.request('POST', '/user/visits', { token: admin, json: body }),
      409,
      'partner_blocked',
    );
  });

  it('the generic refusals keep their codes', async () => {
    const visits = (opts: Parameters<typeof t.request>[2]) => t.request('POST', '/user/visits', opts);
    refused(
      'POST /user/visits',
      await visits(withKey(key, visitBody(customer.id, { items: [] }))),
      400,
      'validation_failed',
    );
    refused(
      'POST /user/visits',
      await visits({ headers: { 'X-Api-Key': key, 'Content-Type': 'application/json' }, body: '{not json' }),
      400,
      'invalid_json',
    );
    refused(
      'POST /user/visits',
      await visits(withKey(`rck_000000000000_${'A'.repeat(43)}`, visitBody(customer.id))),
      401,
      'unauthenticated',
    );
    refused(
      'POST /partners/rewards/redeem-coupon',
      await rewardsCall(visitsOnly, 'redeem-coupon', {
        userId: customer.id,
        code: 'CP-AAAAAAAA',
        otp: '123456',
      }),
      403,
      'forbidden',
    );
    refused(
      'POST /partners/rewards/redeem-coupon',
      await rewardsCall(key, 'redeem-coupon', { userId: customer.id, code: 'CP-AAAAAAAA', otp: '123456' }),
      404,
      'not_found',
    );
    const first = await visits(withKey(key, visitBody(customer.id), { 'Idempotency-Key': 'sale-1' }));
    expect(first.status, first.text).toBe(201);
    refused(
      'POST /user/visits',
      await visits(
        withKey(key, visitBody(customer.id, { attendantName: 'Till 2' }), { 'Idempotency-Key': 'sale-1' }),
      ),
      422,
      'idempotency_key_reused',
    );
  });

  it('an expired reward is reward_expired (409)', async () => {
    const lagosToday = new Date(t.clock().getTime() + 60 * 60 * 1000).toISOString().slice(0, 10);
    const gc = await issue(key, { expiryDate: lagosToday });
    t.clock.advance(2 * 24 * 60 * 60 * 1000);
    refused(
      'POST /partners/rewards/initiate-reward-redemption-auth',
      await rewardsCall(key, 'initiate-reward-redemption-auth', { userId: customer.id, code: gc.code }),
      409,
      'reward_expired',
    );
  });
});

describe('the reference', () => {
  it('documents 409, 422 and 429 on POST /user/visits, and 429 rate_limited on every call a key can make', () => {
    const visits = doc.paths['/user/visits']!.post!.responses;
    expect(visits['409']?.['x-error-codes']).toEqual(
      expect.arrayContaining(['idempotency_in_progress', 'partner_blocked']),
    );
    expect(visits['422']?.['x-error-codes']).toEqual(['idempotency_key_reused']);
    expect(visits['429']?.['x-error-codes']).toEqual(['rate_limited']);
    const keyed = Object.values(doc.paths).flatMap((item) =>
      Object.values(item).filter(
        (op) =>
          typeof op === 'object' &&
          JSON.stringify((op as { security?: unknown }).security ?? []).includes('ApiKey'),
      ),
    );
    expect(keyed.length).toBeGreaterThan(20);
    for (const op of keyed) expect(op.responses['429']?.['x-error-codes']).toContain('rate_limited');
  });

  it('walked every refusal of the POS day through the API', () => {
    const pos: ErrorCode[] = [
      'insufficient_balance',
      'reward_already_redeemed',
      'reward_reversed',
      'not_a_redemption',
      'reward_expired',
      'no_points',
      'otp_invalid',
      'otp_expired',
      'otp_used',
      'otp_missing',
      'otp_locked',
      'otp_daily_cap',
      'link_daily_cap',
      'not_a_coupon',
      'not_a_giftcard',
      'partner_blocked',
      'customer_blocked',
      'customer_not_linked',
      'rate_limited',
      'validation_failed',
      'invalid_json',
      'unauthenticated',
      'forbidden',
      'not_found',
      'idempotency_key_reused',
    ];
    expect([...provoked.keys()].sort()).toEqual(expect.arrayContaining(pos));
  });
});
