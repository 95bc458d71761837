import { type APIRequestContext, expect } from '@playwright/test';
import { TINY_PNG } from '../../model/flow-paths';
import { DEMO_ADMIN, E2E_BASE_URL, MAIN_DATA_DIR } from './env';
import { latestMailedCode, mailsTo } from './fixtures';

const API = `${E2E_BASE_URL}/api/v1`;
const OTP_PATTERN = /redemption code is: (\d{6})/;

/** One call as the demo admin, its `data` (any failure fails the test with the answer). */
export async function adminCall<T>(
  request: APIRequestContext,
  token: string,
  method: 'GET' | 'POST',
  path: string,
  data?: unknown,
): Promise<T> {
  const res = await request.fetch(`${API}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'Idempotency-Key': crypto.randomUUID() },
    data,
  });
  expect(res.ok(), `${method} ${path}: ${res.status()} ${await res.text()}`).toBe(true);
  return (await res.json()).data as T;
}

export async function adminToken(request: APIRequestContext): Promise<string> {
  const login = await request.post(`${API}/admin/auth/login`, { data: DEMO_ADMIN });
  expect(login.ok()).toBe(true);
  return ((await login.json()).data as { accessToken: string }).accessToken;
}

async function partnerIdByName(request: APIRequestContext, token: string, name: string) {
  const partners = await adminCall<{ records: { id: number; organizationName: string }[] }>(
    request,
    token,
    'GET',
    `/admin/partners?searchText=${encodeURIComponent(name)}`,
  );
  return partners.records.find((p) => p.organizationName === name)!.id;
}

export interface RedeemedGiftcard {
  partnerId: number;
  code: string;
  rewardId: number;
}

/**
 * A fresh ₦5,000 gift card at `partner` with ₦1,200 redeemed through the real calls and a mailed
 * code, for an active customer who already holds a reward there.
 */
export async function redeemedGiftcard(
  request: APIRequestContext,
  partner: string,
): Promise<RedeemedGiftcard> {
  const token = await adminToken(request);
  const partnerId = await partnerIdByName(request, token, partner);
  const rewards = await adminCall<{ records: { user: { id: number } }[] }>(
    request,
    token,
    'GET',
    `/admin/partners/rewards?partnerId=${partnerId}&pageSize=50`,
  );
  for (const { user } of rewards.records) {
    const customer = await adminCall<{ email: string; accountStatus: string }>(
      request,
      token,
      'GET',
      `/admin/user/customers/${user.id}`,
    );
    if (customer.accountStatus !== 'ACTIVE') continue;
    const reward = await adminCall<{ id: number; code: string }>(
      request,
      token,
      'POST',
      '/partners/rewards/issue-reward',
      {
        rewardType: 'GIFTCARD',
        issuedAmount: 5000,
        title: 'Reversal run gift card',
        description: 'Issued for the reversal run',
        promotionalImage: TINY_PNG,
        issuedTo: user.id,
        partnerId,
      },
    );
    const before = mailsTo(MAIN_DATA_DIR, customer.email);
    await adminCall(request, token, 'POST', '/partners/rewards/initiate-reward-redemption-auth', {
      userId: user.id,
      code: reward.code,
    });
    await expect.poll(() => mailsTo(MAIN_DATA_DIR, customer.email)).toBeGreaterThan(before);
    const otp = await latestMailedCode(MAIN_DATA_DIR, customer.email, OTP_PATTERN);
    await adminCall(request, token, 'POST', '/partners/rewards/redeem-giftcard', {
      userId: user.id,
      code: reward.code,
      amountToRedeem: 1200,
      otp,
    });
    return { partnerId, code: reward.code, rewardId: reward.id };
  }
  throw new Error(`no active reward holder at ${partner}`);
}
