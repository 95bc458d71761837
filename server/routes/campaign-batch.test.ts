import { createHash } from 'node:crypto';
import { asc, eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Campaign } from '../../contract/campaigns';
import {
  createCustomer,
  createPartner,
  createSuperAdmin,
  linkCustomer,
  PNG_BASE64,
  setupTestServer,
  signIn,
} from '../../tests/setup/server';
import { createCampaignWorker } from '../campaign-worker';
import { events, rewardLedger, rewards, webhookDeliveries, webhookEndpoints } from '../db/schema';

/**
 * Issue 35, "Speed and size" (docs/decisions/070, "Speed at 100,000"): a campaign's run issues a whole
 * batch set-based, and what it writes per customer is what issuing one reward (POST
 * /partners/rewards/issue-reward) writes. Two customers get the reward one at a time, two others
 * through a campaign with the same template run as ONE batch; each customer's reward row, ledger
 * entries, event and webhook deliveries are checked against values worked out from the rules (not
 * from the code), and the two ways' rows against each other, column by column.
 *
 * The rules: a reward is Active, its balance the amount issued, its code GC-/CP- and 8 characters of
 * the reset-code alphabet, its expiry the end of its day in Lagos (UTC+1); a gift card gets one ISSUE
 * ledger entry of its amount by the issuer, a coupon none; one event "Issued gift card <code> to
 * <customer> at <partner>" by the issuer; one `reward.issued` message (one id) to each enabled
 * endpoint subscribed to it, the partner's and the club-wide ones (decision 027). A campaign's
 * reward names its campaign (in the row and the event's payload; the webhook data is the same).
 */
const t = setupTestServer();

let token: string;
let adminId: number;
let P: { id: number; organizationName: string };
let partnerEndpoint: number;
let clubEndpoint: number;

const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const NAMES = [
  ['Ngozi', 'Eze'],
  ['Musa', 'Bello'],
  ['Folake', 'Adeyemi'],
  ['Obinna', 'Okafor'],
] as const;

/** YYYY-MM-DD of the Lagos day `days` after the test clock's. */
const lagosDay = (days: number) =>
  new Date(t.clock().getTime() + 60 * 60_000 + days * 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  const admin = await createSuperAdmin(t.db);
  adminId = admin.id;
  token = (await signIn(t, 'root@rewardclub.test', 'Sup3rSecret')).accessToken;
  P = await createPartner(t.db, { organizationName: 'Suya Spot Lekki' });
  const [a, b] = await t.db
    .insert(webhookEndpoints)
    .values([
      {
        url: 'https://till.example.com/hooks',
        events: ['reward.issued'],
        partnerId: P.id,
        secret: 'whsec_dGlsbHRpbGx0aWxsdGlsbA==',
      },
      {
        url: 'https://club.example.com/hooks',
        events: ['reward.issued'],
        secret: 'whsec_Y2x1YmNsdWJjbHViY2x1Yg==',
      },
      // Disabled, and subscribed to something else: neither hears of a reward.
      {
        url: 'https://old.example.com/hooks',
        events: ['reward.issued'],
        partnerId: P.id,
        secret: 'whsec_b2xkb2xkb2xkb2xkb2xk',
        disabledAt: new Date('2026-01-01T00:00:00Z'),
      },
      {
        url: 'https://visits.example.com/hooks',
        events: ['visit.recorded'],
        partnerId: P.id,
        secret: 'whsec_dmlzaXR2aXNpdHZpc2l0',
      },
    ])
    .returning({ id: webhookEndpoints.id });
  partnerEndpoint = a!.id;
  clubEndpoint = b!.id;
});

type Template = {
  rewardType: 'GIFTCARD' | 'COUPON';
  issuedAmount?: number;
  percentageDiscount?: number;
  title: string;
  description: string;
};

const TEMPLATES: [string, Template][] = [
  [
    'gift card',
    { rewardType: 'GIFTCARD', issuedAmount: 2500, title: 'Thank you', description: 'A gift card for you' },
  ],
  [
    'coupon',
    { rewardType: 'COUPON', percentageDiscount: 15, title: 'Fifteen off', description: 'A coupon for you' },
  ],
];

describe('a batch writes per customer what issuing one reward writes', () => {
  it.each(TEMPLATES)('%s: two issued one at a time, two by a campaign in one batch', async (_, template) => {
    const customers = [];
    for (const [firstName, lastName] of NAMES) {
      const c = await createCustomer(t.db, { firstName, lastName });
      await linkCustomer(t.db, P.id, c.id);
      customers.push(c);
    }
    const expiryDate = lagosDay(45);
    const now = t.clock();
    const reward = { ...template, expiryDate, promotionalImage: PNG_BASE64 };

    // One at a time, as a till or the console issues.
    for (const c of customers.slice(0, 2)) {
      const res = await t.request('POST', '/partners/rewards/issue-reward', {
        token,
        json: { ...reward, issuedTo: c.id, partnerId: P.id },
      });
      expect(res.status, res.text).toBe(201);
    }
    // The other two by a campaign: both in the run's first (and only) batch.
    const made = await t.request<Campaign>('POST', '/admin/campaigns', {
      token,
      json: {
        name: `Same rows ${template.rewardType}`,
        partnerId: P.id,
        reward,
        segment: { kind: 'list', customerIds: customers.slice(2).map((c) => c.id) },
      },
    });
    expect(made.status, made.text).toBe(201);
    const campaignId = made.body.data!.id;
    const sub = await t.request<Campaign>('POST', `/admin/campaigns/${campaignId}/submit`, { token });
    expect(sub.status, sub.text).toBe(200);
    let batches = 0;
    await createCampaignWorker({
      db: t.db,
      clock: t.clock,
      batchSize: 1000,
      onBatch: () => {
        batches++;
      },
    }).drain();
    // One batch issued both; the run's end is a second pass (nothing left: done).
    expect(batches).toBe(2);
    const done = await t.request<Campaign>('GET', `/admin/campaigns/${campaignId}`, { token });
    expect(done.body.data).toMatchObject({ state: 'done', issued: 2, skipped: 0 });

    const ids = customers.map((c) => c.id);
    const rows = await t.db
      .select()
      .from(rewards)
      .where(inArray(rewards.customerId, ids))
      .orderBy(asc(rewards.id));
    expect(rows.map((r) => r.customerId)).toEqual(ids);

    // The image is stored once by its content (sha256) and named by it.
    const image = `/api/v1/files/${createHash('sha256').update(Buffer.from(PNG_BASE64, 'base64')).digest('hex')}`;
    const giftcard = template.rewardType === 'GIFTCARD';
    const prefix = giftcard ? 'GC-' : 'CP-';
    const codes = new Set<string>();
    const ledgerOf: unknown[] = [];
    const eventOf: unknown[] = [];
    const deliveriesOf: unknown[] = [];
    for (const [k, r] of rows.entries()) {
      const byCampaign = k >= 2;
      const [firstName, lastName] = NAMES[k]!;
      expect(r).toMatchObject({
        partnerId: P.id,
        customerId: ids[k],
        rewardType: template.rewardType,
        rewardTypeCategory: 'GENERAL',
        title: template.title,
        description: template.description,
        promotionalImage: image,
        // The end of the expiry day in Lagos.
        expiryDate: new Date(`${expiryDate}T23:59:59.999+01:00`),
        issuedAmount: giftcard ? 2500 : null,
        percentageDiscount: giftcard ? null : 15,
        balance: giftcard ? 2500 : null,
        status: 'Active',
        pointsClaimed: 0,
        issuedBy: adminId,
        campaignId: byCampaign ? campaignId : null,
        createdAt: now,
        updatedAt: now,
        redeemedAt: null,
      });
      expect(r.code).toHaveLength(prefix.length + 8);
      expect(r.code.startsWith(prefix)).toBe(true);
      for (const ch of r.code.slice(prefix.length)) expect(CODE_ALPHABET).toContain(ch);
      codes.add(r.code);

      const ledger = await t.db.select().from(rewardLedger).where(eq(rewardLedger.rewardId, r.id));
      expect(ledger).toEqual(
        giftcard
          ? [
              expect.objectContaining({
                kind: 'ISSUE',
                amount: 2500,
                actorId: adminId,
                reason: null,
                reversesId: null,
                at: now,
              }),
            ]
          : [],
      );
      ledgerOf.push(ledger.map(({ id: _, rewardId: __, ...rest }) => rest));

      const issued = {
        rewardType: template.rewardType,
        rewardTypeCategory: 'GENERAL',
        partnerId: P.id,
        customerId: ids[k],
        issuedAmount: giftcard ? 2500 : null,
        percentageDiscount: giftcard ? null : 15,
        pointsClaimed: 0,
        expiryDate: new Date(`${expiryDate}T23:59:59.999+01:00`).toISOString(),
      };
      const evs = await t.db
        .select()
        .from(events)
        .where(eq(events.entityId, String(r.id)));
      const rewardEvents = evs.filter((e) => e.entity === 'reward');
      expect(rewardEvents).toHaveLength(1);
      const e = rewardEvents[0]!;
      expect(e).toMatchObject({
        at: now,
        actorId: adminId,
        actorType: 'ADMIN',
        actorName: 'Ada Root',
        actorOrganization: 'Reward Club',
        action: `Issued ${giftcard ? 'gift card' : 'coupon'} ${r.code} to ${firstName} ${lastName} at Suya Spot Lekki`,
        entity: 'reward',
        partnerId: null,
        payload: byCampaign ? { ...issued, campaignId } : issued,
      });
      // What the request said of its caller (address, browser) is the request's; a run has none.
      const {
        id: _e,
        entityId: _i,
        action: _a,
        payload: _p,
        ipAddress,
        ipLocation,
        userAgent,
        ...eventRest
      } = e;
      if (byCampaign)
        expect({ ipAddress, ipLocation, userAgent }).toEqual({
          ipAddress: null,
          ipLocation: null,
          userAgent: null,
        });
      eventOf.push(eventRest);

      const deliveries = await t.db
        .select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.eventType, 'reward.issued'))
        .then((all) =>
          all.filter((d) => (d.payload as { data: { rewardId: number } }).data.rewardId === r.id),
        );
      // One message (one id) to the partner's endpoint and the club-wide one; none to the others.
      expect(deliveries.map((d) => d.endpointId).sort()).toEqual([partnerEndpoint, clubEndpoint].sort());
      expect(new Set(deliveries.map((d) => d.messageId)).size).toBe(1);
      for (const d of deliveries)
        expect(d).toMatchObject({
          status: 'pending',
          failures: 0,
          createdAt: now,
          nextAttemptAt: now,
          payload: {
            type: 'reward.issued',
            timestamp: now.toISOString(),
            data: {
              rewardId: r.id,
              code: r.code,
              title: template.title,
              ...issued,
              issuedAt: now.toISOString(),
            },
          },
        });
      deliveriesOf.push(
        deliveries
          .sort((x, y) => x.endpointId - y.endpointId)
          .map(({ id: _, messageId: __, payload, ...rest }) => ({
            ...rest,
            payload: {
              ...(payload as object),
              data: { ...(payload as { data: object }).data, rewardId: 0, code: '', customerId: 0 },
            },
          })),
      );
    }
    // Four rewards, four codes; each message id is one reward's.
    expect(codes.size).toBe(4);

    // Column by column, the two ways write the same but for the customer, the code, the ids and the campaign.
    const same = (r: (typeof rows)[number]) => {
      const { id: _, customerId: __, code: ___, campaignId: ____, ...rest } = r;
      return rest;
    };
    for (const k of [2, 3]) {
      expect(same(rows[k]!)).toEqual(same(rows[0]!));
      expect(ledgerOf[k]).toEqual(ledgerOf[0]);
      expect(eventOf[k]).toEqual(eventOf[0]);
      expect(deliveriesOf[k]).toEqual(deliveriesOf[0]);
    }
  });
});
