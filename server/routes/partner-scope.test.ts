import { beforeAll, describe, expect, it } from 'vitest';
import type { RedemptionResult } from '../../contract/redemption';
import {
  createCustomer,
  createPartner,
  createReward,
  createRole,
  createUser,
  createVisit,
  PNG_BASE64,
  type Res,
  setupTestServer,
  signIn,
} from '../../tests/setup/server';
import { rewardLedger } from '../db/schema';

/**
 * Partner staff (userType PARTNER with a partnerId) see and act only at their own partner: every
 * partner-scoped call answers 404 for another partner's data, by id and by list filter, and changes
 * nothing (the rule lives in server/http/access.ts `partnerScope`).
 */
const t = setupTestServer();
let own: { id: number };
let other: { id: number };
let token: string;
let otherToken: string;
let customer: { id: number; email: string };
let ownVisit: { id: number };
let otherVisit: { id: number };
let ownReward: { id: number; code: string };
let otherReward: { id: number; code: string };
let otherCoupon: { id: number; code: string };
let otherEntryId: number;

const ALL = [
  'partners.view',
  'visits.view',
  'visits.create',
  'rewards.view',
  'rewards.issue',
  'rewards.redeem',
  'rewards.reverse',
  'dashboard.view',
] as const;

beforeAll(async () => {
  own = await createPartner(t.db, { organizationName: 'Own Shop' });
  other = await createPartner(t.db, { organizationName: 'Other Shop' });
  const role = await createRole(t.db, 'Partner staff, everything', [...ALL]);
  const staff = await createUser(t.db, { roleId: role.id, userType: 'PARTNER', partnerId: own.id });
  const otherStaff = await createUser(t.db, { roleId: role.id, userType: 'PARTNER', partnerId: other.id });
  token = (await signIn(t, staff.email, staff.password)).accessToken;
  otherToken = (await signIn(t, otherStaff.email, otherStaff.password)).accessToken;
  customer = await createCustomer(t.db);
  const day = new Date('2026-03-01T10:00:00Z');
  ownVisit = await createVisit(t.db, {
    partnerId: own.id,
    customerId: customer.id,
    visitDate: day,
    amount: 15_000,
  });
  otherVisit = await createVisit(t.db, {
    partnerId: other.id,
    customerId: customer.id,
    visitDate: day,
    amount: 15_000,
  });
  ownReward = await createReward(t.db, { partnerId: own.id, customerId: customer.id });
  otherReward = await createReward(t.db, { partnerId: other.id, customerId: customer.id });
  otherCoupon = await createReward(t.db, {
    partnerId: other.id,
    customerId: customer.id,
    rewardType: 'COUPON',
    issuedAmount: null,
    balance: null,
    percentageDiscount: 10,
  });
  // A redemption at the other partner, made by its own staff.
  const sent = await t.request('POST', '/partners/rewards/initiate-reward-redemption-auth', {
    token: otherToken,
    json: { userId: customer.id, code: otherReward.code },
  });
  expect(sent.status, sent.text).toBe(200);
  const otp = (await t.lastOtp(customer.email))!;
  const red = await t.request<RedemptionResult>('POST', '/partners/rewards/redeem-giftcard', {
    token: otherToken,
    json: { userId: customer.id, code: otherReward.code, amountToRedeem: 100, otp },
  });
  expect(red.status, red.text).toBe(200);
  otherEntryId = red.body.data!.ledgerEntryId!;
});

type Call = {
  name: string;
  method: 'GET' | 'POST';
  path: () => string;
  json?: () => unknown;
  ownPath?: () => string;
};

const CALLS: Call[] = [
  {
    name: 'partner detail',
    method: 'GET',
    path: () => `/admin/partners/${other.id}`,
    ownPath: () => `/admin/partners/${own.id}`,
  },
  {
    name: 'partner analytics',
    method: 'GET',
    path: () => `/admin/partners/stats/partner?partnerId=${other.id}`,
    ownPath: () => `/admin/partners/stats/partner?partnerId=${own.id}`,
  },
  {
    name: 'visits list filter',
    method: 'GET',
    path: () => `/admin/partners/visits?partnerId=${other.id}`,
    ownPath: () => `/admin/partners/visits?partnerId=${own.id}`,
  },
  {
    name: 'visit by id',
    method: 'GET',
    path: () => `/admin/partners/visits/${otherVisit.id}`,
    ownPath: () => `/admin/partners/visits/${ownVisit.id}`,
  },
  {
    name: 'eligible users',
    method: 'GET',
    path: () => `/admin/partners/visits/reward-eligible-users?partnerId=${other.id}&date=2026-03-02`,
    ownPath: () => `/admin/partners/visits/reward-eligible-users?partnerId=${own.id}&date=2026-03-02`,
  },
  {
    name: 'eligible user detail',
    method: 'GET',
    path: () =>
      `/admin/partners/visits/reward-eligible-users/${customer.id}?partnerId=${other.id}&date=2026-03-02`,
    ownPath: () =>
      `/admin/partners/visits/reward-eligible-users/${customer.id}?partnerId=${own.id}&date=2026-03-02`,
  },
  {
    name: 'points',
    method: 'GET',
    path: () => `/admin/partners/visits/eligible-users-bypoints?partnerId=${other.id}`,
    ownPath: () => `/admin/partners/visits/eligible-users-bypoints?partnerId=${own.id}`,
  },
  {
    name: 'rewards list filter',
    method: 'GET',
    path: () => `/admin/partners/rewards?partnerId=${other.id}`,
    ownPath: () => `/admin/partners/rewards?partnerId=${own.id}`,
  },
  {
    name: 'gift-card balance',
    method: 'GET',
    path: () => `/partners/rewards/redeemed-giftcard-balance?partnerId=${other.id}`,
    ownPath: () => `/partners/rewards/redeemed-giftcard-balance?partnerId=${own.id}`,
  },
  {
    name: 'reward stats',
    method: 'GET',
    path: () => `/partners/stats/reward?partnerId=${other.id}`,
    ownPath: () => `/partners/stats/reward?partnerId=${own.id}`,
  },
  {
    name: 'redemption customer search',
    method: 'GET',
    path: () => `/partners/rewards/customers?partnerId=${other.id}`,
    ownPath: () => `/partners/rewards/customers?partnerId=${own.id}`,
  },
  {
    name: 'visit customer search',
    method: 'GET',
    path: () => `/partners/visits/customers?partnerId=${other.id}`,
    ownPath: () => `/partners/visits/customers?partnerId=${own.id}`,
  },
  {
    name: 'reward ledger',
    method: 'GET',
    path: () => `/partners/rewards/${otherReward.id}/ledger`,
    ownPath: () => `/partners/rewards/${ownReward.id}/ledger`,
  },
  {
    name: 'get-reward',
    method: 'POST',
    path: () => '/partners/rewards/get-reward',
    json: () => ({ userId: customer.id, code: otherReward.code }),
  },
  {
    name: 'send code',
    method: 'POST',
    path: () => '/partners/rewards/initiate-reward-redemption-auth',
    json: () => ({ userId: customer.id, code: otherReward.code }),
  },
  {
    name: 'redeem gift card',
    method: 'POST',
    path: () => '/partners/rewards/redeem-giftcard',
    json: () => ({ userId: customer.id, code: otherReward.code, amountToRedeem: 10, otp: '123456' }),
  },
  {
    name: 'redeem coupon',
    method: 'POST',
    path: () => '/partners/rewards/redeem-coupon',
    json: () => ({ userId: customer.id, code: otherCoupon.code, otp: '123456' }),
  },
  {
    name: 'reverse',
    method: 'POST',
    path: () => '/partners/rewards/reverse-redemption',
    json: () => ({ ledgerEntryId: otherEntryId, reason: 'Not mine' }),
  },
  {
    name: 'issue',
    method: 'POST',
    path: () => '/partners/rewards/issue-reward',
    json: () => ({
      rewardType: 'GIFTCARD',
      title: 'x',
      description: 'y',
      promotionalImage: PNG_BASE64,
      issuedTo: customer.id,
      partnerId: other.id,
    }),
  },
  {
    name: 'record visit',
    method: 'POST',
    path: () => '/user/visits',
    json: () => ({
      partnerId: other.id,
      customerId: customer.id,
      attendantName: 'Bisi',
      visitDate: '2026-03-02T08:00:00.000Z',
      items: [{ name: 'Rice', quantity: 1, price: 100 }],
    }),
  },
];

describe('partner staff: another partner is 404 everywhere, their own works', () => {
  for (const call of CALLS) {
    it(call.name, async () => {
      const before = await t.db.select().from(rewardLedger);
      const res: Res = await t.request(call.method, call.path(), { token, json: call.json?.() });
      expect(res.status, `${call.name}: ${res.text}`).toBe(404);
      expect(res.body).toMatchObject({ success: false, data: null });
      expect(await t.db.select().from(rewardLedger)).toEqual(before);
      if (call.ownPath) {
        const mine = await t.request(call.method, call.ownPath(), { token });
        expect(mine.status, `${call.name} (own): ${mine.text}`).toBe(200);
      }
    });
  }

  it('the partner list is club-wide (403, decision 023); figures are the own partner only', async () => {
    const list = await t.request('GET', '/admin/partners', { token });
    expect(list.status).toBe(403);
    const reward = await t.request<{ id: number }>('POST', '/partners/rewards/get-reward', {
      token,
      json: { userId: customer.id, code: ownReward.code },
    });
    expect(reward.status).toBe(200);
    const stats = await t.request<{ totalIssuedGiftcardsCount: number }>(
      'GET',
      '/admin/partners/stats/reward',
      { token },
    );
    expect(stats.body.data!.totalIssuedGiftcardsCount).toBe(1);
    const balance = await t.request<{ totalRedeemed: number }>(
      'GET',
      '/partners/rewards/redeemed-giftcard-balance',
      { token },
    );
    expect(balance.body.data!.totalRedeemed).toBe(0);
  });
});
