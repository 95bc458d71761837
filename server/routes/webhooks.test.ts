import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_PERMISSIONS } from '../../contract/api-keys';
import type { ListData } from '../../contract/envelope';
import { ALL_PERMISSION_NAMES } from '../../contract/permissions';
import type { RedemptionResult } from '../../contract/redemption';
import type { Reward } from '../../contract/rewards';
import {
  type CreatedWebhook,
  type Webhook,
  type WebhookEventType,
  webhookMessageSchema,
  webhookMessages,
  webhookSchema,
} from '../../contract/webhooks';
import {
  createCustomer,
  createPartner,
  createRole,
  createSuperAdmin,
  createUser,
  PNG_BASE64,
  setupTestServer,
  signIn,
} from '../../tests/setup/server';
import { events, webhookDeliveries, webhookEndpoints } from '../db/schema';

/** /admin/webhooks on the default configuration (private addresses refused). */
const t = setupTestServer();
let admin: string;
let partnerStaff: string;
let noPermission: string;
let partnerId: number;
let otherPartnerId: number;
let customer: { id: number; email: string };

const create = (token: string, json: unknown) =>
  t.request<CreatedWebhook>('POST', '/admin/webhooks', { token, json });

beforeAll(async () => {
  const root = await createSuperAdmin(t.db);
  admin = (await signIn(t, root.email, root.password)).accessToken;
  partnerId = (await createPartner(t.db, { organizationName: 'Suya Spot' })).id;
  otherPartnerId = (await createPartner(t.db, { organizationName: 'Other Grill' })).id;
  const c = await createCustomer(t.db);
  customer = { id: c.id, email: c.email };
  const role = await createRole(t.db, 'Partner integrator', ['integrations.manage', 'visits.create']);
  const staff = await createUser(t.db, { roleId: role.id, userType: 'PARTNER', partnerId });
  partnerStaff = (await signIn(t, staff.email, staff.password)).accessToken;
  const viewer = await createRole(
    t.db,
    'Everything but integrations',
    ALL_PERMISSION_NAMES.filter((p) => p !== 'integrations.manage'),
  );
  const plain = await createUser(t.db, { roleId: viewer.id });
  noPermission = (await signIn(t, plain.email, plain.password)).accessToken;
});

describe('/admin/webhooks', () => {
  it('creates one (201) with its secret, once; reads and lists never show it; the activity log keeps no secret', async () => {
    const res = await create(admin, {
      url: 'https://pos.example.com/hooks',
      events: ['visit.recorded', 'reward.issued', 'visit.recorded'],
      partnerId,
      description: 'Till 1',
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.message).toBe(webhookMessages.created);
    const hook = res.body.data!;
    expect(hook).toMatchObject({
      url: 'https://pos.example.com/hooks',
      events: ['visit.recorded', 'reward.issued'],
      partnerId,
      partnerName: 'Suya Spot',
      enabled: true,
      description: 'Till 1',
    });
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const [row] = await t.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, hook.id));
    expect(row!.secret).toBe(hook.secret);

    const one = await t.request<Webhook>('GET', `/admin/webhooks/${hook.id}`, { token: admin });
    expect(one.status).toBe(200);
    expect(webhookSchema.parse(one.body.data)).toMatchObject({ id: hook.id });
    expect(one.text).not.toContain(hook.secret);
    const list = await t.request<ListData<Webhook>>('GET', '/admin/webhooks?pageSize=50', { token: admin });
    expect(list.body.data!.records.map((w) => w.id)).toContain(hook.id);
    expect(list.text).not.toContain('whsec_');

    const logged = await t.db.select().from(events).where(eq(events.entity, 'webhook'));
    expect(logged.map((e) => e.action)).toContain('Created webhook https://pos.example.com/hooks');
    expect(JSON.stringify(logged)).not.toContain('whsec_');
  });

  it.each([
    ['a loopback address', 'http://127.0.0.1:8080/hook'],
    ['localhost', 'http://localhost/hook'],
    ['localhost with the root dot', 'http://localhost./hook'],
    ['a name under localhost with the root dot', 'https://api.localhost./hook'],
    ['the metadata address', 'http://169.254.169.254/latest'],
    ['a private network', 'https://192.168.1.10/hook'],
    ['IPv6 loopback', 'http://[::1]/hook'],
  ])('refuses %s at creation (400, validation_failed)', async (_name, url) => {
    const res = await create(admin, { url, events: ['visit.recorded'] });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'validation_failed',
      errors: [{ fieldName: 'url', message: webhookMessages.urlPrivate }],
    });
  });

  it.each([
    ['no events', { url: 'https://a.example.com', events: [] }, 'events'],
    ['an unknown event', { url: 'https://a.example.com', events: ['visit.deleted'] }, 'events.0'],
    ['a ftp URL', { url: 'ftp://a.example.com', events: ['visit.recorded'] }, 'url'],
    ['credentials in the URL', { url: 'https://u:p@a.example.com', events: ['visit.recorded'] }, 'url'],
  ])('refuses %s (400 naming the field)', async (_name, json, field) => {
    const res = await create(admin, json);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors.map((e) => e.fieldName)).toContain(field);
  });

  it('needs integrations.manage (403 forbidden otherwise)', async () => {
    const res = await t.request('GET', '/admin/webhooks', { token: noPermission });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('forbidden');
  });

  it("partner staff subscribe only their own partner's events; other webhooks do not exist for them", async () => {
    const mine = await create(partnerStaff, {
      url: 'https://till.example.com/a',
      events: ['visit.recorded'],
    });
    expect(mine.status, mine.text).toBe(201);
    expect(mine.body.data!.partnerId).toBe(partnerId);
    const same = await create(partnerStaff, {
      url: 'https://till.example.com/b',
      events: ['visit.recorded'],
      partnerId,
    });
    expect(same.status).toBe(201);
    const foreign = await create(partnerStaff, {
      url: 'https://till.example.com/c',
      events: ['visit.recorded'],
      partnerId: otherPartnerId,
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('not_found');

    const clubWide = await create(admin, { url: 'https://club.example.com/all', events: ['reward.issued'] });
    const theirs = await create(admin, {
      url: 'https://other.example.com/x',
      events: ['reward.issued'],
      partnerId: otherPartnerId,
    });
    for (const id of [clubWide.body.data!.id, theirs.body.data!.id]) {
      for (const [method, path, json] of [
        ['GET', `/admin/webhooks/${id}`, undefined],
        ['PATCH', `/admin/webhooks/${id}`, { description: 'mine now' }],
        ['DELETE', `/admin/webhooks/${id}`, undefined],
        ['GET', `/admin/webhooks/${id}/deliveries`, undefined],
        ['POST', `/admin/webhooks/${id}/deliveries/1/replay`, undefined],
      ] as const) {
        const res = await t.request(method, path, { token: partnerStaff, json });
        expect(res.status, `${method} ${path}`).toBe(404);
        expect(res.body.message).toBe(webhookMessages.notFound);
      }
    }
    const list = await t.request<ListData<Webhook>>('GET', '/admin/webhooks?pageSize=100', {
      token: partnerStaff,
    });
    expect(new Set(list.body.data!.records.map((w) => w.partnerId))).toEqual(new Set([partnerId]));
    const filtered = await t.request('GET', `/admin/webhooks?partnerId=${otherPartnerId}`, {
      token: partnerStaff,
    });
    expect(filtered.status).toBe(404);
    // Admins see them all.
    const all = await t.request<ListData<Webhook>>('GET', '/admin/webhooks?pageSize=100', { token: admin });
    expect(all.body.data!.records.map((w) => w.id)).toEqual(
      expect.arrayContaining([mine.body.data!.id, clubWide.body.data!.id, theirs.body.data!.id]),
    );
  });

  it("a partner's endpoint is not subscribed to the club-only customer.created and customer.updated (400 on events, nothing stored); a club-wide one is", async () => {
    const count = async () => (await t.db.select({ id: webhookEndpoints.id }).from(webhookEndpoints)).length;
    const before = await count();
    for (const [token, json] of [
      [
        partnerStaff,
        { url: 'https://till.example.com/customers', events: ['visit.recorded', 'customer.created'] },
      ],
      [admin, { url: 'https://pos.example.com/customers', events: ['customer.updated'], partnerId }],
    ] as const) {
      const refused = await create(token, json);
      expect(refused.status, refused.text).toBe(400);
      expect(refused.body.errors).toEqual([
        {
          fieldName: 'events',
          message:
            "customer.created and customer.updated reach club-wide endpoints only: a partner's endpoint never receives them",
        },
      ]);
    }
    expect(await count()).toBe(before);
    // What a partner's endpoint does hear of its customers stays open to it.
    const linked = await create(partnerStaff, {
      url: 'https://till.example.com/linked',
      events: ['customer.linked', 'customer.blocked', 'customer.erased'],
    });
    expect(linked.status, linked.text).toBe(201);
    const patched = await t.request('PATCH', `/admin/webhooks/${linked.body.data!.id}`, {
      token: partnerStaff,
      json: { events: ['customer.created'] },
    });
    expect(patched.status).toBe(400);
    const kept = await t.request<Webhook>('GET', `/admin/webhooks/${linked.body.data!.id}`, { token: admin });
    expect(kept.body.data!.events).toEqual(['customer.linked', 'customer.blocked', 'customer.erased']);
    const clubWide = await create(admin, {
      url: 'https://crm.example.com/customers',
      events: ['customer.created'],
    });
    expect(clubWide.status, clubWide.text).toBe(201);
  });

  it('patches (disable, enable, events) and deletes with its deliveries; unknown ids are 404', async () => {
    const hook = (
      await create(admin, { url: 'https://pos.example.com/p', events: ['visit.recorded'], partnerId })
    ).body.data!;
    const off = await t.request<Webhook>('PATCH', `/admin/webhooks/${hook.id}`, {
      token: admin,
      json: { enabled: false, events: ['reward.redeemed'] },
    });
    expect(off.body.data).toMatchObject({ enabled: false, events: ['reward.redeemed'] });
    expect(off.body.data!.disabledReason).toContain('disabled by');
    const on = await t.request<Webhook>('PATCH', `/admin/webhooks/${hook.id}`, {
      token: admin,
      json: { enabled: true },
    });
    expect(on.body.data).toMatchObject({ enabled: true, disabledReason: null });
    const gone = await t.request('DELETE', `/admin/webhooks/${hook.id}`, { token: admin });
    expect(gone.status).toBe(200);
    expect((await t.request('GET', `/admin/webhooks/${hook.id}`, { token: admin })).status).toBe(404);
    expect((await t.request('GET', '/admin/webhooks/999999/deliveries', { token: admin })).status).toBe(404);
  });

  it('rotate-secret answers a new secret once; the old one signs beside it for 24 hours; reads show neither', async () => {
    const hook = (
      await create(admin, { url: 'https://pos.example.com/rotate', events: ['visit.recorded'], partnerId })
    ).body.data!;
    const rotatedAt = t.clock().getTime();
    const res = await t.request<CreatedWebhook>('POST', `/admin/webhooks/${hook.id}/rotate-secret`, {
      token: admin,
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.message).toBe(webhookMessages.rotated);
    const rotated = res.body.data!;
    expect(rotated.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(rotated.secret).not.toBe(hook.secret);
    // The product's rule (decision 065): the old secret keeps signing for 24 hours.
    expect(rotated.previousSecretExpiresAt).toBe(new Date(rotatedAt + 24 * 3_600_000).toISOString());
    expect(hook.previousSecretExpiresAt).toBeNull();
    const [row] = await t.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, hook.id));
    expect(row!.secret).toBe(rotated.secret);
    expect(row!.previousSecrets.map((p) => p.secret)).toEqual([hook.secret]);
    // Neither secret is read back, nor kept in the activity log.
    const read = await t.request('GET', `/admin/webhooks/${hook.id}`, { token: admin });
    expect(read.text).not.toContain(rotated.secret);
    expect(read.text).not.toContain(hook.secret);
    expect(read.body.data).toMatchObject({ previousSecretExpiresAt: rotated.previousSecretExpiresAt });
    const logged = await t.db
      .select()
      .from(events)
      .where(eq(events.entityId, String(hook.id)));
    expect(logged.map((e) => e.action)).toContain(
      'Rotated the signing secret of webhook https://pos.example.com/rotate',
    );
    expect(JSON.stringify(logged)).not.toContain(rotated.secret.slice(6));
    expect(JSON.stringify(logged)).not.toContain(hook.secret.slice(6));

    // Rotated again within the day (the first answer lost, say): the first secret still signs too.
    const again = await t.request<CreatedWebhook>('POST', `/admin/webhooks/${hook.id}/rotate-secret`, {
      token: admin,
    });
    expect(again.status).toBe(200);
    const [after] = await t.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, hook.id));
    expect(after!.previousSecrets.map((p) => p.secret)).toEqual([hook.secret, rotated.secret]);
    expect(after!.secret).toBe(again.body.data!.secret);
  });

  it("rotate-secret: a partner's staff rotate only their own partner's endpoints; another's, or a club-wide one, is a 404 and keeps its secret", async () => {
    // The attacker: staff of another partner holding every permission there is.
    const everything = await createRole(t.db, 'Every permission', [...ALL_PERMISSION_NAMES]);
    const intruder = await createUser(t.db, {
      roleId: everything.id,
      userType: 'PARTNER',
      partnerId: otherPartnerId,
    });
    const intruderToken = (await signIn(t, intruder.email, intruder.password)).accessToken;
    const mine = (
      await create(admin, { url: 'https://pos.example.com/mine', events: ['visit.recorded'], partnerId })
    ).body.data!;
    const clubWide = (
      await create(admin, { url: 'https://club.example.com/rot', events: ['visit.recorded'] })
    ).body.data!;
    for (const [token, target] of [
      [intruderToken, mine],
      [intruderToken, clubWide],
      [partnerStaff, clubWide],
    ] as const) {
      const res = await t.request('POST', `/admin/webhooks/${target.id}/rotate-secret`, { token });
      expect(res.status, res.text).toBe(404);
      expect(res.body.code).toBe('not_found');
      const [row] = await t.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, target.id));
      expect(row).toMatchObject({ secret: target.secret, previousSecrets: [] });
    }
    const forbidden = await t.request('POST', `/admin/webhooks/${mine.id}/rotate-secret`, {
      token: noPermission,
    });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.code).toBe('forbidden');
    // A partner's API key, with every permission a key may hold, manages no webhooks (403).
    const key = await t.request<{ key: string }>('POST', `/admin/partners/${partnerId}/api-keys`, {
      token: admin,
      json: { name: 'Till with everything', permissions: [...API_KEY_PERMISSIONS] },
    });
    expect(key.status, key.text).toBe(201);
    const byKey = await t.request('POST', `/admin/webhooks/${mine.id}/rotate-secret`, {
      headers: { 'X-Api-Key': key.body.data!.key },
    });
    expect(byKey.status, byKey.text).toBe(403);
    expect(byKey.body.code).toBe('forbidden');
    // Its own partner's staff may.
    const own = await t.request<CreatedWebhook>('POST', `/admin/webhooks/${mine.id}/rotate-secret`, {
      token: partnerStaff,
    });
    expect(own.status, own.text).toBe(200);
    expect(own.body.data!.partnerId).toBe(partnerId);
    expect((await t.request('POST', '/admin/webhooks/999999/rotate-secret', { token: admin })).status).toBe(
      404,
    );
  });

  it('PATCH with `secret` is refused (400 on secret, pointing to rotate-secret) and changes nothing', async () => {
    const hook = (
      await create(admin, { url: 'https://pos.example.com/patch', events: ['visit.recorded'], partnerId })
    ).body.data!;
    for (const secret of [`whsec_${Buffer.alloc(32, 9).toString('base64')}`, null, '']) {
      const res = await t.request('PATCH', `/admin/webhooks/${hook.id}`, {
        token: admin,
        json: { secret, description: 'changed' },
      });
      expect(res.status, res.text).toBe(400);
      expect(res.body.code).toBe('validation_failed');
      expect(res.body.errors).toEqual([{ fieldName: 'secret', message: webhookMessages.secretNotPatchable }]);
    }
    const [row] = await t.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, hook.id));
    expect(row).toMatchObject({ secret: hook.secret, description: '' });
  });

  it('issue, redeem and reverse queue reward.issued, reward.redeemed and reward.reversed with the change', async () => {
    const hook = (
      await create(admin, {
        url: 'https://pos.example.com/rewards',
        events: ['reward.issued', 'reward.redeemed', 'reward.reversed'],
        partnerId,
      })
    ).body.data!;
    const issued = await t.request<Reward>('POST', '/partners/rewards/issue-reward', {
      token: admin,
      json: {
        rewardType: 'GIFTCARD',
        issuedAmount: 5000,
        promotionalImage: PNG_BASE64,
        title: 'Welcome card',
        description: 'For a loyal guest',
        issuedTo: customer.id,
        partnerId,
      },
    });
    expect(issued.status, issued.text).toBe(201);
    const code = issued.body.data!.code;
    const sent = await t.request('POST', '/partners/rewards/initiate-reward-redemption-auth', {
      token: admin,
      json: { userId: customer.id, code },
    });
    expect(sent.status, sent.text).toBe(200);
    const otp = await t.lastOtp(customer.email);
    const redeemed = await t.request<RedemptionResult>('POST', '/partners/rewards/redeem-giftcard', {
      token: admin,
      json: { userId: customer.id, code, otp, amountToRedeem: 1500 },
    });
    expect(redeemed.status, redeemed.text).toBe(200);
    const reversed = await t.request('POST', '/partners/rewards/reverse-redemption', {
      token: admin,
      json: { ledgerEntryId: redeemed.body.data!.ledgerEntryId, reason: 'Charged twice' },
    });
    expect(reversed.status, reversed.text).toBe(200);

    const queued = await t.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, hook.id))
      .orderBy(webhookDeliveries.id);
    expect(queued.map((d) => d.eventType)).toEqual(['reward.issued', 'reward.redeemed', 'reward.reversed']);
    expect(queued.map((d) => (d.payload as { data: { code: string } }).data.code)).toEqual([
      code,
      code,
      code,
    ]);
    expect((queued[1]!.payload as { data: unknown }).data).toMatchObject({
      amountRedeemed: 1500,
      balance: 3500,
    });
    expect((queued[2]!.payload as { data: unknown }).data).toMatchObject({
      amountReversed: 1500,
      balance: 5000,
    });
    expect(new Set(queued.map((d) => d.messageId)).size).toBe(3);
    // Each message is what the reference documents under `webhooks` (strict: no field left out).
    for (const d of queued) {
      const parsed = webhookMessageSchema(d.eventType as WebhookEventType).safeParse(d.payload);
      expect(parsed.success, `${d.eventType}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
    }
  });
});
