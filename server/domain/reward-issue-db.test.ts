import { eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, createPartner, createUser, setupTestServer } from '../../tests/setup/server';
import { campaigns, events, rewardLedger, rewards, webhookDeliveries, webhookEndpoints } from '../db/schema';
import type { Actor } from './events';
import { type IssueRewardInput, insertIssuedReward, insertIssuedRewards } from './reward-issue';

/*
 * What issuing a reward writes, on a database (docs/product.md's issue rule, decision 070 for a
 * campaign's batch): an Active reward whose balance is the amount issued, a gift card's ISSUE ledger
 * entry of that amount, the event "Issued <gift card|coupon> <code> to <customer> at <partner>" and
 * its `reward.issued` message; a campaign's customer gets its reward at most once.
 */

const t = setupTestServer();
const now = new Date('2026-03-02T09:00:00.000Z');
const expiry = new Date('2026-06-30T22:59:59.999Z');

let P: { id: number; organizationName: string };
let maker: { id: number };
let actor: Actor;

const template = (o: Partial<IssueRewardInput> = {}): Omit<IssueRewardInput, 'customer'> => ({
  partner: { id: P.id, organizationName: P.organizationName },
  rewardType: 'GIFTCARD',
  rewardTypeCategory: 'GENERAL',
  title: 'Thank you',
  description: 'For your visits',
  promotionalImage: '/api/v1/files/promo',
  expiryDate: expiry,
  issuedAmount: 2500,
  percentageDiscount: null,
  pointsClaimed: 0,
  issuedBy: maker.id,
  actor,
  now,
  ...o,
});

const newCampaign = async () =>
  (
    await t.db
      .insert(campaigns)
      .values({
        name: 'Loyal',
        partnerId: P.id,
        rewardType: 'GIFTCARD',
        title: 'Thank you',
        description: 'x',
        segment: {},
        actor: {},
      })
      .returning({ id: campaigns.id })
  )[0]!.id;

const eventsOf = (rewardIds: number[]) =>
  t.db
    .select()
    .from(events)
    .where(inArray(events.entityId, rewardIds.map(String)));

const messagesOf = async (rewardIds: number[]) =>
  (await t.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.eventType, 'reward.issued')))
    .map((d) => d.payload as { type: string; data: { rewardId: number } & Record<string, unknown> })
    .filter((p) => rewardIds.includes(p.data.rewardId));

beforeAll(async () => {
  P = await createPartner(t.db, { organizationName: 'Mama Put' });
  maker = await createUser(t.db, { firstName: 'Bola', lastName: 'Maker' });
  actor = { id: maker.id, type: 'ADMIN', name: 'Bola Maker', organization: 'Reward Club' };
  await t.db.insert(webhookEndpoints).values({
    url: 'https://hooks.example.com/p',
    events: ['reward.issued'],
    partnerId: P.id,
    secret: 'whsec_eA==',
  });
});

describe('insertIssuedReward', () => {
  it('a gift card: the Active reward, its ISSUE entry, the event and reward.issued', async () => {
    const ada = await createCustomer(t.db, { firstName: 'Ada', lastName: 'Obi' });
    const made = await insertIssuedReward(t.db, { ...template({ pointsClaimed: 30 }), customer: ada });
    expect(made).not.toBeNull();
    const { rewardId, code } = made!;
    expect(code).toMatch(/^GC-[A-Z0-9]{8}$/);

    const [reward] = await t.db.select().from(rewards).where(eq(rewards.id, rewardId));
    expect(reward).toMatchObject({
      partnerId: P.id,
      customerId: ada.id,
      rewardType: 'GIFTCARD',
      rewardTypeCategory: 'GENERAL',
      code,
      title: 'Thank you',
      description: 'For your visits',
      promotionalImage: '/api/v1/files/promo',
      expiryDate: expiry,
      issuedAmount: 2500,
      percentageDiscount: null,
      balance: 2500,
      status: 'Active',
      pointsClaimed: 30,
      issuedBy: maker.id,
      campaignId: null,
      createdAt: now,
      updatedAt: now,
    });
    const ledger = await t.db.select().from(rewardLedger).where(eq(rewardLedger.rewardId, rewardId));
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({ kind: 'ISSUE', amount: 2500, actorId: maker.id, at: now });

    const issued = {
      rewardType: 'GIFTCARD',
      rewardTypeCategory: 'GENERAL',
      partnerId: P.id,
      customerId: ada.id,
      issuedAmount: 2500,
      percentageDiscount: null,
      pointsClaimed: 30,
      expiryDate: '2026-06-30T22:59:59.999Z',
    };
    const [event] = await eventsOf([rewardId]);
    expect(event).toMatchObject({
      action: `Issued gift card ${code} to Ada Obi at Mama Put`,
      entity: 'reward',
      entityId: String(rewardId),
      actorName: 'Bola Maker',
      actorId: maker.id,
      at: now,
      payload: issued,
    });
    expect(await messagesOf([rewardId])).toEqual([
      {
        type: 'reward.issued',
        timestamp: now.toISOString(),
        data: { rewardId, code, title: 'Thank you', ...issued, issuedAt: now.toISOString() },
      },
    ]);
  });

  it('a coupon: no ledger entry, no balance; "Issued coupon"; no expiry is null', async () => {
    const ada = await createCustomer(t.db, { firstName: 'Ada', lastName: 'Obi' });
    const { rewardId, code } = (await insertIssuedReward(t.db, {
      ...template({ rewardType: 'COUPON', issuedAmount: null, percentageDiscount: 15, expiryDate: null }),
      customer: ada,
    }))!;
    expect(code).toMatch(/^CP-[A-Z0-9]{8}$/);
    const [reward] = await t.db.select().from(rewards).where(eq(rewards.id, rewardId));
    expect(reward).toMatchObject({
      balance: null,
      percentageDiscount: 15,
      expiryDate: null,
      status: 'Active',
    });
    expect(await t.db.select().from(rewardLedger).where(eq(rewardLedger.rewardId, rewardId))).toEqual([]);
    const [event] = await eventsOf([rewardId]);
    expect(event!.action).toBe(`Issued coupon ${code} to Ada Obi at Mama Put`);
    expect(event!.payload).toMatchObject({ expiryDate: null, percentageDiscount: 15, issuedAmount: null });
  });

  it("a campaign's reward: the campaign named; a customer who holds it gets nothing more (null)", async () => {
    const campaignId = await newCampaign();
    const bisi = await createCustomer(t.db, { firstName: 'Bisi', lastName: 'Ade' });
    const first = await insertIssuedReward(t.db, { ...template({ campaignId }), customer: bisi });
    expect(first).not.toBeNull();
    const [reward] = await t.db.select().from(rewards).where(eq(rewards.id, first!.rewardId));
    expect(reward!.campaignId).toBe(campaignId);
    const [event] = await eventsOf([first!.rewardId]);
    expect(event!.payload).toMatchObject({ campaignId });

    const again = await insertIssuedReward(t.db, { ...template({ campaignId }), customer: bisi });
    expect(again).toBeNull();
    const held = await t.db.select().from(rewards).where(eq(rewards.customerId, bisi.id));
    expect(held).toHaveLength(1);
    expect(
      await t.db.select().from(rewardLedger).where(eq(rewardLedger.rewardId, first!.rewardId)),
    ).toHaveLength(1);

    // Without a campaign, a second reward is simply another reward.
    const plain = await insertIssuedReward(t.db, { ...template(), customer: bisi });
    expect(plain).not.toBeNull();
    const [plainEvent] = await eventsOf([plain!.rewardId]);
    expect(plainEvent!.payload).not.toHaveProperty('campaignId');
  });
});

describe('insertIssuedRewards (a batch)', () => {
  it('one reward per customer, even when named twice, in the order given; the rows of one issue each', async () => {
    const a = await createCustomer(t.db, { firstName: 'Chi', lastName: 'One' });
    const b = await createCustomer(t.db, { firstName: 'Dayo', lastName: 'Two' });
    const made = await insertIssuedRewards(t.db, template(), [b, a, b]);
    expect(made.map((m) => m.customerId)).toEqual([b.id, a.id]);
    const ids = made.map((m) => m.rewardId);
    const rows = await t.db.select().from(rewards).where(inArray(rewards.id, ids));
    for (const m of made) {
      expect(rows.find((r) => r.id === m.rewardId)).toMatchObject({
        customerId: m.customerId,
        code: m.code,
        balance: 2500,
        status: 'Active',
        campaignId: null,
        createdAt: now,
      });
    }
    const ledger = await t.db.select().from(rewardLedger).where(inArray(rewardLedger.rewardId, ids));
    expect(ledger.map((l) => [l.rewardId, l.kind, l.amount]).sort()).toEqual(
      ids.map((id) => [id, 'ISSUE', 2500]).sort(),
    );
    const evs = await eventsOf(ids);
    expect(evs.map((e) => e.action).sort()).toEqual(
      [
        `Issued gift card ${made[0]!.code} to Dayo Two at Mama Put`,
        `Issued gift card ${made[1]!.code} to Chi One at Mama Put`,
      ].sort(),
    );
    expect((await messagesOf(ids)).map((m) => m.data.customerId).sort()).toEqual([a.id, b.id].sort());
  });

  it("a campaign's batch skips the customers who hold its reward; a coupon batch writes no ledger", async () => {
    const campaignId = await newCampaign();
    const a = await createCustomer(t.db);
    const b = await createCustomer(t.db);
    const c = await createCustomer(t.db);
    const coupon = template({ campaignId, rewardType: 'COUPON', issuedAmount: null, percentageDiscount: 10 });
    const first = await insertIssuedRewards(t.db, coupon, [a]);
    expect(first.map((m) => m.customerId)).toEqual([a.id]);
    const second = await insertIssuedRewards(t.db, coupon, [a, b, c]);
    expect(second.map((m) => m.customerId)).toEqual([b.id, c.id]);
    const ids = [...first, ...second].map((m) => m.rewardId);
    expect(await t.db.select().from(rewardLedger).where(inArray(rewardLedger.rewardId, ids))).toEqual([]);
    const rows = await t.db.select().from(rewards).where(inArray(rewards.id, ids));
    expect(rows.map((r) => r.campaignId)).toEqual([campaignId, campaignId, campaignId]);
    expect(
      (await eventsOf(ids)).every((e) => (e.payload as { campaignId?: number }).campaignId === campaignId),
    ).toBe(true);
    // Everyone holds it: nothing at all.
    expect(await insertIssuedRewards(t.db, coupon, [a, b, c])).toEqual([]);
    expect(await insertIssuedRewards(t.db, coupon, [])).toEqual([]);
  });
});
