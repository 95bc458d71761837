import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CreatedApiKey } from '../../contract/api-keys';
import {
  createCustomer,
  createPartner,
  createReward,
  createSuperAdmin,
  setupTestServer,
  signIn,
} from '../../tests/setup/server';
import { redemptionOtps } from '../db/schema';
import { OTP_MAIL_SUBJECT } from '../domain/otp';

/**
 * Issue 31 item 8: the code request honours Idempotency-Key. A till that lost the answer and retries
 * with the same key gets the first answer back: no second code (which would replace the one the
 * customer is reading out), no second mail, no place taken in the send limits.
 */
const t = setupTestServer();
let key: string;
let customer: { id: number; email: string };
let partnerId: number;

const send = (code: string, idempotencyKey?: string) =>
  t.request<{ expiresAt: string; sentTo: string }>(
    'POST',
    '/partners/rewards/initiate-reward-redemption-auth',
    {
      json: { userId: customer.id, code },
      headers: { 'X-Api-Key': key, ...(idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {}) },
    },
  );

const codeMails = async () =>
  (await t.mails()).filter((m) => m.raw.includes(customer.email) && m.raw.includes(OTP_MAIL_SUBJECT)).length;

beforeAll(async () => {
  const root = await createSuperAdmin(t.db);
  const admin = (await signIn(t, root.email, root.password)).accessToken;
  partnerId = (await createPartner(t.db, { organizationName: 'Mama Put' })).id;
  customer = await createCustomer(t.db, { email: 'ada.obi@mail.ng' });
  const created = await t.request<CreatedApiKey>('POST', `/admin/partners/${partnerId}/api-keys`, {
    token: admin,
    json: { name: 'Front till', permissions: ['rewards.view', 'rewards.redeem'] },
  });
  expect(created.status, created.text).toBe(201);
  key = created.body.data!.key;
});

describe('POST /partners/rewards/initiate-reward-redemption-auth with an Idempotency-Key', () => {
  it('a retry with the same key returns the first answer, sends no new code and no second mail', async () => {
    const reward = await createReward(t.db, { partnerId, customerId: customer.id });
    const first = await send(reward.code, 'till-1-code-1');
    expect(first.status, first.text).toBe(200);
    const otp = (await t.lastOtp(customer.email))!;
    expect(await codeMails()).toBe(1);

    const retry = await send(reward.code, 'till-1-code-1');
    expect(retry.status, retry.text).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body.data).toEqual(first.body.data);
    expect(await codeMails()).toBe(1);
    const rows = await t.db.select().from(redemptionOtps).where(eq(redemptionOtps.rewardId, reward.id));
    expect(rows).toHaveLength(1);
    // The code the customer got still works.
    const check = await t.request('POST', '/partners/rewards/redemption-auth-otp-validity-check', {
      json: { userId: customer.id, code: reward.code, otp },
      headers: { 'X-Api-Key': key },
    });
    expect(check.status, check.text).toBe(200);
  });

  it('another key, or none, sends a new code that replaces the first', async () => {
    const reward = await createReward(t.db, { partnerId, customerId: customer.id });
    expect((await send(reward.code, 'till-1-code-2')).status).toBe(200);
    expect((await send(reward.code, 'till-1-code-3')).status).toBe(200);
    expect((await send(reward.code)).status).toBe(200);
    const rows = await t.db.select().from(redemptionOtps).where(eq(redemptionOtps.rewardId, reward.id));
    expect(rows).toHaveLength(3);
    expect(rows.filter((r) => r.replacedAt === null)).toHaveLength(1);
  });

  it('the same key for another reward is 422 idempotency_key_reused, and sends nothing', async () => {
    const a = await createReward(t.db, { partnerId, customerId: customer.id });
    const b = await createReward(t.db, { partnerId, customerId: customer.id });
    expect((await send(a.code, 'till-1-code-4')).status).toBe(200);
    const before = await codeMails();
    const reused = await send(b.code, 'till-1-code-4');
    expect(reused.status, reused.text).toBe(422);
    expect(reused.body.code).toBe('idempotency_key_reused');
    expect(await codeMails()).toBe(before);
    expect(await t.db.select().from(redemptionOtps).where(eq(redemptionOtps.rewardId, b.id))).toHaveLength(0);
  });
});
