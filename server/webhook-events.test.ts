import { and, eq, inArray } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type CreatedWebhook,
  reachesPartnerEndpoint,
  WEBHOOK_EVENT_TYPES,
  type WebhookEventType,
  webhookMessageSchema,
} from '../contract/webhooks';
import {
  createCustomer,
  createPartner,
  createReward,
  createSuperAdmin,
  linkCustomer,
  setupTestServer,
  signIn,
} from '../tests/setup/server';
import { customerLinks, rewards, webhookDeliveries, webhookEndpoints } from './db/schema';
import { WEBHOOK_BACKOFF_MS, WEBHOOK_MAX_ATTEMPTS } from './domain/webhooks';
import { createExpiryNotices } from './reward-expiry-notices';
import { createWebhookSender } from './webhook-sender';

/**
 * The events a till needs besides visits and rewards (issue 31, docs/decisions/065): who receives
 * each (the partner's own endpoints, the club-wide ones) and who does not (another partner; a
 * partner the customer is not linked to, decision 053), and that a partner's message names ids only.
 */
const t = setupTestServer();
let token: string;
let adminEmail: string;
let adminPassword: string;
/** Partner A (the customer is linked here) and partner B (not linked). */
let A: number;
let B: number;
/** Endpoints subscribed to every event they can receive: A's, B's and a club-wide one. */
const hook = { A: 0, B: 0, club: 0 };

const freshToken = async () => {
  token = (await signIn(t, adminEmail, adminPassword)).accessToken;
};

const subscribe = async (name: string, partnerId?: number) => {
  const res = await t.request<CreatedWebhook>('POST', '/admin/webhooks', {
    token,
    json: {
      url: `https://${name}.example.com/hooks`,
      // A partner's endpoint cannot be subscribed to the club-only events (400 on events).
      events:
        partnerId === undefined
          ? [...WEBHOOK_EVENT_TYPES]
          : WEBHOOK_EVENT_TYPES.filter(reachesPartnerEndpoint),
      ...(partnerId === undefined ? {} : { partnerId }),
    },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.data!.id;
};

beforeAll(async () => {
  const admin = await createSuperAdmin(t.db);
  adminEmail = admin.email;
  adminPassword = admin.password;
  await freshToken();
  A = (await createPartner(t.db, { organizationName: 'Linked Grill' })).id;
  B = (await createPartner(t.db, { organizationName: 'Unlinked Cafe' })).id;
  hook.A = await subscribe('partner-a', A);
  hook.B = await subscribe('partner-b', B);
  hook.club = await subscribe('club');
});

beforeEach(async () => {
  await freshToken();
  // Each test reads only what it queued.
  await t.db.delete(webhookDeliveries);
});

/** The queued messages of `type`, by endpoint: A, B and club. */
async function queued(type: WebhookEventType) {
  const rows = await t.db
    .select()
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.eventType, type),
        inArray(webhookDeliveries.endpointId, [hook.A, hook.B, hook.club]),
      ),
    )
    .orderBy(webhookDeliveries.id);
  const dataOf = (endpointId: number) =>
    rows
      .filter((r) => r.endpointId === endpointId)
      .map((r) => {
        // Each message is one its documented schema accepts.
        const parsed = webhookMessageSchema(type).safeParse(r.payload);
        expect(parsed.success, `${type}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
        return (r.payload as { data: Record<string, unknown> }).data;
      });
  return { A: dataOf(hook.A), B: dataOf(hook.B), club: dataOf(hook.club) };
}

/** What a partner's message may name: ids, the status and when; no personal data. */
const PARTNER_CUSTOMER_KEYS = ['accountStatus', 'changedAt', 'customerId', 'partnerId'];

describe('customer.blocked and customer.unblocked', () => {
  it('blocked in the console: the linked partner hears the ids only, club-wide endpoints the record, another partner nothing', async () => {
    const customer = await createCustomer(t.db);
    await linkCustomer(t.db, A, customer.id);
    const at = t.clock().toISOString();
    const block = await t.request('PATCH', '/admin/user/customers/status', {
      token,
      json: { customerId: customer.id, accountStatus: 'BLOCKED' },
    });
    expect(block.status, block.text).toBe(200);
    const blocked = await queued('customer.blocked');
    expect(blocked.A).toEqual([
      { partnerId: A, customerId: customer.id, accountStatus: 'BLOCKED', changedAt: at },
    ]);
    expect(Object.keys(blocked.A[0]!).sort()).toEqual(PARTNER_CUSTOMER_KEYS);
    expect(blocked.B).toEqual([]);
    expect(blocked.club).toEqual([
      expect.objectContaining({
        customerId: customer.id,
        email: customer.email,
        accountStatus: 'BLOCKED',
        changed: ['status'],
        changedAt: at,
      }),
    ]);

    const unblock = await t.request('PATCH', '/admin/user/customers/status', {
      token,
      json: { customerId: customer.id, accountStatus: 'ACTIVE' },
    });
    expect(unblock.status, unblock.text).toBe(200);
    const unblocked = await queued('customer.unblocked');
    expect(unblocked.A).toEqual([
      { partnerId: A, customerId: customer.id, accountStatus: 'ACTIVE', changedAt: at },
    ]);
    expect(unblocked.B).toEqual([]);
    expect(unblocked.club).toEqual([
      expect.objectContaining({ customerId: customer.id, accountStatus: 'ACTIVE', changed: ['status'] }),
    ]);

    // The same status again changes nothing and says nothing.
    await t.db.delete(webhookDeliveries);
    await t.request('PATCH', '/admin/user/customers/status', {
      token,
      json: { customerId: customer.id, accountStatus: 'ACTIVE' },
    });
    expect(await queued('customer.unblocked')).toEqual({ A: [], B: [], club: [] });
  });

  it('a customer linked to no partner (or only asked, not confirmed): only the club-wide endpoints hear of it', async () => {
    const customer = await createCustomer(t.db);
    await t.db.insert(customerLinks).values({
      partnerId: B,
      customerId: customer.id,
      requested: `member:${customer.id}`,
      state: 'PENDING',
    });
    await t.request('PATCH', '/admin/user/customers/status', {
      token,
      json: { customerId: customer.id, accountStatus: 'BLOCKED' },
    });
    const blocked = await queued('customer.blocked');
    expect(blocked.A).toEqual([]);
    expect(blocked.B).toEqual([]);
    expect(blocked.club).toHaveLength(1);
  });

  it('blocked and unblocked by the subscriber sync: the same, and the unblock is customer.unblocked', async () => {
    const externalId = `SUB-EV-${Date.now()}`;
    const record = { firstName: 'Ngozi', lastName: 'Eze', email: `${externalId.toLowerCase()}@mail.test` };
    const put = (status: 'ACTIVE' | 'BLOCKED') =>
      t.request<{ customer: { id: number } }>('PUT', `/admin/customers/external/${externalId}`, {
        token,
        json: { ...record, status },
      });
    const created = await put('ACTIVE');
    expect(created.status, created.text).toBe(200);
    const customerId = created.body.data!.customer.id;
    await linkCustomer(t.db, A, customerId);
    await t.db.delete(webhookDeliveries);

    expect((await put('BLOCKED')).status).toBe(200);
    const blocked = await queued('customer.blocked');
    expect(blocked.A).toEqual([
      expect.objectContaining({ partnerId: A, customerId, accountStatus: 'BLOCKED' }),
    ]);
    expect(Object.keys(blocked.A[0]!).sort()).toEqual(PARTNER_CUSTOMER_KEYS);
    expect(blocked.B).toEqual([]);
    expect(blocked.club).toEqual([
      expect.objectContaining({ customerId, externalId, accountStatus: 'BLOCKED' }),
    ]);

    expect((await put('ACTIVE')).status).toBe(200);
    const unblocked = await queued('customer.unblocked');
    expect(unblocked.A).toEqual([
      expect.objectContaining({ partnerId: A, customerId, accountStatus: 'ACTIVE' }),
    ]);
    expect(unblocked.B).toEqual([]);
    expect(unblocked.club).toEqual([expect.objectContaining({ customerId, accountStatus: 'ACTIVE' })]);
    expect(await queued('customer.updated')).toEqual({ A: [], B: [], club: [] });
  });
});

describe('partner.blocked and partner.unblocked', () => {
  it("to the partner's endpoints and the club-wide ones, not to another partner's", async () => {
    const at = t.clock().toISOString();
    for (const [accountStatus, type] of [
      ['BLOCKED', 'partner.blocked'],
      ['ACTIVE', 'partner.unblocked'],
    ] as const) {
      const res = await t.request('PATCH', '/admin/partners/update-status', {
        token,
        json: { partnerId: A, accountStatus },
      });
      expect(res.status, res.text).toBe(200);
      const got = await queued(type);
      const data = { partnerId: A, accountStatus, changedAt: at };
      expect(got).toEqual({ A: [data], B: [], club: [data] });
    }
  });
});

describe('api_key.revoked', () => {
  it("a partner's key: to that partner's endpoints and the club-wide ones; a club key: club-wide only", async () => {
    const key = await t.request<{ id: number; prefix: string }>('POST', `/admin/partners/${A}/api-keys`, {
      token,
      json: { name: 'Front till', permissions: ['visits.create'] },
    });
    expect(key.status, key.text).toBe(201);
    const at = t.clock().toISOString();
    const revoke = await t.request('DELETE', `/admin/partners/${A}/api-keys/${key.body.data!.id}`, { token });
    expect(revoke.status, revoke.text).toBe(200);
    const data = {
      apiKeyId: key.body.data!.id,
      partnerId: A,
      name: 'Front till',
      prefix: key.body.data!.prefix,
      revokedAt: at,
    };
    expect(data.prefix).toMatch(/^rck_/);
    expect(await queued('api_key.revoked')).toEqual({ A: [data], B: [], club: [data] });

    await t.db.delete(webhookDeliveries);
    const club = await t.request<{ id: number; prefix: string }>('POST', '/admin/api-keys', {
      token,
      json: { name: 'CRM', scopes: ['customers.read'] },
    });
    expect(club.status, club.text).toBe(201);
    expect((await t.request('DELETE', `/admin/api-keys/${club.body.data!.id}`, { token })).status).toBe(200);
    const clubKey = await queued('api_key.revoked');
    expect(clubKey.A).toEqual([]);
    expect(clubKey.B).toEqual([]);
    expect(clubKey.club).toEqual([
      expect.objectContaining({ apiKeyId: club.body.data!.id, partnerId: null, name: 'CRM' }),
    ]);
    expect(String(clubKey.club[0]!.prefix)).toMatch(/^rcc_/);
  });
});

describe('webhook.disabled', () => {
  it("disabled by hand: to the partner's other endpoints and the club-wide ones, not to itself or another partner", async () => {
    const second = await subscribe('partner-a-second', A);
    const at = t.clock().toISOString();
    const off = await t.request('PATCH', `/admin/webhooks/${second}`, { token, json: { enabled: false } });
    expect(off.status, off.text).toBe(200);
    const got = await queued('webhook.disabled');
    const expected = [
      expect.objectContaining({
        webhookId: second,
        partnerId: A,
        url: 'https://partner-a-second.example.com/hooks',
        disabledAt: at,
      }),
    ];
    expect(got).toEqual({ A: expected, B: [], club: expected });
    expect(
      await t.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, second)),
    ).toEqual([]);
    await t.request('DELETE', `/admin/webhooks/${second}`, { token });
  });

  it('disabled after a day of failures: the same, with the reason', async () => {
    const failing = await subscribe('partner-a-failing', A);
    // One message for the failing endpoint only (the others' are set aside).
    await t.request('PATCH', '/admin/partners/update-status', {
      token,
      json: { partnerId: A, accountStatus: 'BLOCKED' },
    });
    await t.db
      .delete(webhookDeliveries)
      .where(inArray(webhookDeliveries.endpointId, [hook.A, hook.B, hook.club]));
    await t.request('PATCH', '/admin/partners/update-status', {
      token,
      json: { partnerId: A, accountStatus: 'ACTIVE' },
    });
    await t.db
      .delete(webhookDeliveries)
      .where(inArray(webhookDeliveries.endpointId, [hook.A, hook.B, hook.club]));
    const sender = createWebhookSender({
      db: t.db,
      clock: t.clock,
      resolve: async () => {
        throw new Error('does not resolve');
      },
    });
    for (let i = 0; i < WEBHOOK_MAX_ATTEMPTS; i++) {
      await sender.deliverDue();
      if (i < WEBHOOK_BACKOFF_MS.length) t.clock.advance(WEBHOOK_BACKOFF_MS[i]!);
    }
    const [row] = await t.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, failing));
    expect(row!.disabledAt).not.toBeNull();
    const got = await queued('webhook.disabled');
    expect(got.B).toEqual([]);
    for (const data of [got.A, got.club]) {
      expect(data).toEqual([
        expect.objectContaining({
          webhookId: failing,
          partnerId: A,
          url: 'https://partner-a-failing.example.com/hooks',
          disabledAt: row!.disabledAt!.toISOString(),
        }),
      ]);
      expect(String(data[0]!.reason)).toContain('does not resolve');
    }
    await freshToken();
    await t.request('DELETE', `/admin/webhooks/${failing}`, { token });
  });
});

describe('reward.expiring', () => {
  const DAY = 86_400_000;
  /** The rule (decision 065): 7 days or less before the expiry, once. */
  const NOTICE_DAYS = 7;

  it('once per reward, 7 days before its expiry; not earlier; not again after a restart; not twice with two instances', async () => {
    const customer = await createCustomer(t.db);
    const now = t.clock().getTime();
    const expiring = await createReward(t.db, {
      partnerId: A,
      customerId: customer.id,
      expiryDate: new Date(now + NOTICE_DAYS * DAY + 3_600_000),
    });
    const later = await createReward(t.db, {
      partnerId: A,
      customerId: customer.id,
      expiryDate: new Date(now + 30 * DAY),
    });
    const notices = createExpiryNotices({ db: t.db, clock: t.clock });
    // More than 7 days left: nothing yet.
    expect(await notices.queueDue()).toBe(0);
    expect(await queued('reward.expiring')).toEqual({ A: [], B: [], club: [] });

    // An hour later it is 7 days from expiry: queued once, to A and club-wide.
    t.clock.advance(3_600_000);
    const [first, second] = await Promise.all([
      createExpiryNotices({ db: t.db, clock: t.clock }).queueDue(),
      createExpiryNotices({ db: t.db, clock: t.clock }).queueDue(),
    ]);
    expect(first + second).toBe(1);
    const got = await queued('reward.expiring');
    const data = {
      rewardId: expiring.id,
      code: expiring.code,
      rewardType: 'GIFTCARD',
      partnerId: A,
      customerId: customer.id,
      title: expiring.title,
      expiryDate: expiring.expiryDate!.toISOString(),
      balance: 5000,
      percentageDiscount: null,
      noticeAt: t.clock().toISOString(),
    };
    expect(got).toEqual({ A: [data], B: [], club: [data] });

    // A restart (a new job over the same database) and later scans send it no more.
    t.clock.advance(DAY);
    expect(await createExpiryNotices({ db: t.db, clock: t.clock }).queueDue()).toBe(0);
    expect((await queued('reward.expiring')).A).toHaveLength(1);
    const [stamped] = await t.db.select().from(rewards).where(eq(rewards.id, later.id));
    expect(stamped!.expiryNoticeAt).toBeNull();
    // Put the clock back where it was for the other tests.
    t.clock.set(new Date(now));
  });

  it("a customer no longer linked to the partner: club-wide only; a redeemed, expired or blocked customer's reward: nobody", async () => {
    const now = t.clock().getTime();
    const soon = new Date(now + 2 * DAY);
    const unlinked = await createCustomer(t.db);
    const unlinkedReward = await createReward(t.db, {
      partnerId: A,
      customerId: unlinked.id,
      expiryDate: soon,
    });
    await t.db.delete(customerLinks).where(eq(customerLinks.customerId, unlinked.id));
    const other = await createCustomer(t.db);
    await createReward(t.db, { partnerId: A, customerId: other.id, expiryDate: soon, status: 'Redeemed' });
    await createReward(t.db, { partnerId: A, customerId: other.id, expiryDate: new Date(now - DAY) });
    const blocked = await createCustomer(t.db, { accountStatus: 'BLOCKED' });
    await createReward(t.db, { partnerId: A, customerId: blocked.id, expiryDate: soon });

    expect(await createExpiryNotices({ db: t.db, clock: t.clock }).queueDue()).toBe(1);
    const got = await queued('reward.expiring');
    expect(got.A).toEqual([]);
    expect(got.B).toEqual([]);
    expect(got.club).toEqual([expect.objectContaining({ rewardId: unlinkedReward.id, partnerId: A })]);
  });
});
