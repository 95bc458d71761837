import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient, setApiClient } from './client';
import { issueReward, redeemGiftcard, redeemReward } from './rewards';

const result = {
  rewardId: 11,
  ledgerEntryId: 31,
  code: 'GC-7QK2',
  rewardType: 'GIFTCARD',
  amountRedeemed: 250,
  balance: 4750,
  status: 'Active',
  redeemedAt: '2026-03-01T10:02:00.000Z',
};

function fakeServer(answer: unknown = result) {
  const requests: Array<{ url: string; key: string | null; body: unknown }> = [];
  const fetch = (async (url: RequestInfo | URL, init?: RequestInit) => {
    requests.push({
      url: String(url),
      key: new Headers(init?.headers).get('Idempotency-Key'),
      body: init?.body ? JSON.parse(String(init.body)) : null,
    });
    return new Response(
      JSON.stringify({ success: true, data: answer, message: 'Gift card redeemed', errors: [] }),
      {
        status: 200,
        headers: { 'Content-Type': 'application/json' },
      },
    );
  }) as typeof globalThis.fetch;
  setApiClient(
    createApiClient({ tokens: { accessToken: async () => 't', rejected: async () => null }, fetch }),
  );
  return requests;
}

afterEach(() => setApiClient(null));

describe('reward calls', () => {
  const body = { userId: 7, code: 'GC-7QK2', amountToRedeem: 250, otp: '123456' };

  it('a retry of the same attempt sends the same Idempotency-Key', async () => {
    const requests = fakeServer();
    await redeemGiftcard(body, 'attempt-1');
    await redeemGiftcard(body, 'attempt-1');
    expect(requests.map((r) => r.key)).toEqual(['attempt-1', 'attempt-1']);
    expect(requests[0]?.url).toBe('/api/v1/partners/rewards/redeem-giftcard');
  });

  it('separate attempts without a key get a fresh UUID each', async () => {
    const requests = fakeServer();
    const outcome = await redeemGiftcard(body);
    await redeemGiftcard(body);
    expect(outcome).toEqual({ result, message: 'Gift card redeemed' });
    const [a, b] = requests.map((r) => r.key);
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(b).not.toBe(a);
  });

  it('redeemReward picks the coupon call for a coupon and sends no amount', async () => {
    const requests = fakeServer({
      ...result,
      rewardType: 'COUPON',
      ledgerEntryId: null,
      amountRedeemed: null,
    });
    await redeemReward({ rewardType: 'COUPON', userId: 7, code: 'CP-1', otp: '123456', idempotencyKey: 'k' });
    expect(requests[0]).toEqual({
      url: '/api/v1/partners/rewards/redeem-coupon',
      key: 'k',
      body: { userId: 7, code: 'CP-1', otp: '123456' },
    });
  });

  it('issueReward sends its key', async () => {
    const requests = fakeServer({
      id: 12,
      user: { id: 42, firstName: 'Ngozi', lastName: 'Eze' },
      partner: { id: 3, organizationName: 'Mama Put' },
      rewardType: 'COUPON',
      rewardTypeCategory: 'GENERAL',
      code: 'CP-2',
      title: 't',
      description: 'd',
      promotionalImage: null,
      expiryDate: null,
      issuedAmount: null,
      percentageDiscount: 10,
      balance: null,
      status: 'Active',
      issuedTo: 42,
      createdAt: '2026-03-01T10:00:00.000Z',
    });
    await issueReward(
      {
        rewardType: 'COUPON',
        percentageDiscount: 10,
        promotionalImage: 'x',
        title: 't',
        description: 'd',
        issuedTo: 42,
      },
      'issue-1',
    );
    expect(requests[0]?.key).toBe('issue-1');
  });
});
