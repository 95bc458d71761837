import { eq, inArray, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createCustomer,
  createPartner,
  createRole,
  createSuperAdmin,
  createUser,
  setupTestServer,
} from '../../tests/setup/server';
import { appSettings, campaigns, events, rewardRequests, rewards, visits } from '../db/schema';
import type { MailMessage } from '../mail';
import { expireOverdue, mailApprovers, selectRewardRequests, unclaimedPoints } from './approvals';

/*
 * Four eyes on a database (docs/decisions/074-four-eyes-queue-and-expiry.md): a request waiting
 * `approvalExpiryDays` days (exactly) has expired, with an event named for its maker; who is mailed
 * that something waits (live, active club staff holding rewards.approve, never the maker, never
 * partner staff); the requests as the API answers them; and a customer's unclaimed points at a
 * partner (decision 075: 1 per ₦100 of each approved visit, less those claimed).
 */

const t = setupTestServer();
const DAY = 24 * 60 * 60 * 1000;
const now = new Date('2026-03-09T09:00:00.000Z');
const ago = (ms: number) => new Date(now.getTime() - ms);

let P: { id: number; organizationName: string };
let ada: { id: number };
let maker: { id: number };
let decider: { id: number };

const makerActor = { id: 0, type: 'ADMIN', name: 'Mira Maker', organization: 'Reward Club' };

const request = (o: Partial<typeof rewardRequests.$inferInsert> = {}) =>
  t.db
    .insert(rewardRequests)
    .values({
      partnerId: P.id,
      customerId: ada.id,
      rewardType: 'GIFTCARD',
      issuedAmount: 60_000,
      title: 'Big thanks',
      description: 'x',
      approvalReasons: ['above'],
      createdBy: maker.id,
      actor: makerActor,
      createdAt: now,
      ...o,
    })
    .returning({ id: rewardRequests.id })
    .then((r) => r[0]!.id);

const campaign = (o: Partial<typeof campaigns.$inferInsert> = {}) =>
  t.db
    .insert(campaigns)
    .values({
      name: 'Loyal',
      partnerId: P.id,
      state: 'awaiting_approval',
      rewardType: 'GIFTCARD',
      issuedAmount: 60_000,
      title: 'T',
      description: 'D',
      segment: {},
      actor: makerActor,
      submittedAt: now,
      ...o,
    })
    .returning({ id: campaigns.id })
    .then((r) => r[0]!.id);

beforeAll(async () => {
  P = await createPartner(t.db, { organizationName: 'Mama Put' });
  ada = await createCustomer(t.db, { firstName: 'Ada', lastName: 'Obi' });
  maker = await createUser(t.db, { firstName: 'Mira', lastName: 'Maker' });
  decider = await createUser(t.db, { firstName: 'Dele', lastName: 'Decider' });
});

describe('expireOverdue', () => {
  it('nothing waiting that long: nothing changes', async () => {
    const id = await request({ createdAt: ago(7 * DAY - 1) });
    const c = await campaign({ submittedAt: ago(7 * DAY - 1) });
    expect(await expireOverdue(t.db, now)).toBe(0);
    const [r] = await t.db.select().from(rewardRequests).where(eq(rewardRequests.id, id));
    const [k] = await t.db.select().from(campaigns).where(eq(campaigns.id, c));
    expect([r!.state, k!.state]).toEqual(['awaiting_approval', 'awaiting_approval']);
    await t.db.delete(rewardRequests).where(eq(rewardRequests.id, id));
    await t.db.delete(campaigns).where(eq(campaigns.id, c));
  });

  it('exactly the days (7 by default) after it began waiting it has expired, with an event for its maker', async () => {
    const due = await request({ createdAt: ago(7 * DAY) });
    const young = await request({ createdAt: ago(7 * DAY - 1) });
    const decided = await request({ createdAt: ago(30 * DAY), state: 'rejected' });
    const dueCampaign = await campaign({ name: 'Old one', submittedAt: ago(7 * DAY) });
    const youngCampaign = await campaign({ submittedAt: ago(7 * DAY - 1) });
    const draft = await campaign({ state: 'draft', submittedAt: ago(30 * DAY) });

    expect(await expireOverdue(t.db, now)).toBe(2);

    const states = await t.db
      .select({ id: rewardRequests.id, state: rewardRequests.state, updatedAt: rewardRequests.updatedAt })
      .from(rewardRequests)
      .where(inArray(rewardRequests.id, [due, young, decided]));
    expect(states.find((s) => s.id === due)).toEqual({ id: due, state: 'expired', updatedAt: now });
    expect(states.find((s) => s.id === young)!.state).toBe('awaiting_approval');
    expect(states.find((s) => s.id === decided)!.state).toBe('rejected');
    const cs = await t.db
      .select()
      .from(campaigns)
      .where(inArray(campaigns.id, [dueCampaign, youngCampaign, draft]));
    expect(cs.find((c) => c.id === dueCampaign)).toMatchObject({
      state: 'expired',
      finishedAt: now,
      updatedAt: now,
    });
    expect(cs.find((c) => c.id === youngCampaign)!.state).toBe('awaiting_approval');
    expect(cs.find((c) => c.id === draft)!.state).toBe('draft');

    const [requestEvent] = await t.db
      .select()
      .from(events)
      .where(sql`${events.entity} = 'reward_request' and ${events.entityId} = ${String(due)}`);
    expect(requestEvent).toMatchObject({
      action:
        'Request for a gift card of ₦60,000.00 for Ada Obi at Mama Put expired: not decided within 7 days',
      actorName: 'Mira Maker',
      at: now,
      payload: { partnerId: P.id, customerId: ada.id, createdAt: ago(7 * DAY).toISOString(), days: 7 },
    });
    const [campaignEvent] = await t.db
      .select()
      .from(events)
      .where(sql`${events.entity} = 'campaign' and ${events.entityId} = ${String(dueCampaign)}`);
    expect(campaignEvent).toMatchObject({
      action: 'Campaign Old one expired: not approved within 7 days',
      actorName: 'Mira Maker',
      at: now,
      payload: { partnerId: P.id, submittedAt: ago(7 * DAY).toISOString(), days: 7 },
    });
    // Once expired, a second sweep finds nothing.
    expect(await expireOverdue(t.db, now)).toBe(0);
    await t.db.delete(rewardRequests).where(inArray(rewardRequests.id, [young, decided]));
    await t.db.delete(campaigns).where(inArray(campaigns.id, [youngCampaign, draft]));
  });

  it("the club's days decide; a request alone (no campaign) expires too", async () => {
    await t.db.insert(appSettings).values({ key: 'approval_expiry_days', value: '1' });
    try {
      const due = await request({
        createdAt: ago(DAY),
        rewardType: 'COUPON',
        issuedAmount: null,
        percentageDiscount: 15,
      });
      expect(await expireOverdue(t.db, now)).toBe(1);
      const [e] = await t.db
        .select()
        .from(events)
        .where(sql`${events.entity} = 'reward_request' and ${events.entityId} = ${String(due)}`);
      expect(e!.action).toBe(
        'Request for a 15% coupon for Ada Obi at Mama Put expired: not decided within 1 day',
      );
    } finally {
      await t.db.delete(appSettings).where(eq(appSettings.key, 'approval_expiry_days'));
    }
  });
});

describe('selectRewardRequests', () => {
  it('as the API answers them: people named, expiry only while waiting, oldest first unless asked', async () => {
    const waiting = await request({
      createdAt: ago(DAY),
      expiryDate: new Date('2026-06-30T22:59:59.999Z'),
      promotionalImage: '/api/v1/files/p',
      byPoints: true,
    });
    const reward = await t.db
      .insert(rewards)
      .values({
        partnerId: P.id,
        customerId: ada.id,
        rewardType: 'GIFTCARD',
        code: 'GC-SELECT01',
        title: 'x',
        description: 'x',
      })
      .returning({ id: rewards.id });
    const approved = await request({
      createdAt: ago(2 * DAY),
      state: 'approved',
      decidedBy: decider.id,
      decidedAt: ago(DAY / 2),
      rewardId: reward[0]!.id,
      createdBy: null,
    });
    const rejected = await request({
      state: 'rejected',
      decidedBy: decider.id,
      decidedAt: now,
      rejectionReason: 'Too much',
      rewardType: 'COUPON',
      issuedAmount: null,
      percentageDiscount: 20,
    });
    const where = inArray(rewardRequests.id, [waiting, approved, rejected]);
    const all = await selectRewardRequests(t.db, where, 7);
    expect(all.map((r) => r.id)).toEqual([waiting, approved, rejected]);
    expect(all[0]).toEqual({
      id: waiting,
      state: 'awaiting_approval',
      partner: { id: P.id, organizationName: 'Mama Put' },
      customer: { id: ada.id, name: 'Ada Obi' },
      rewardType: 'GIFTCARD',
      rewardTypeCategory: 'GENERAL',
      issuedAmount: 60_000,
      percentageDiscount: null,
      title: 'Big thanks',
      description: 'x',
      expiryDate: '2026-06-30T22:59:59.999Z',
      promotionalImage: '/api/v1/files/p',
      byPoints: true,
      approvalReasons: ['above'],
      createdBy: { id: maker.id, name: 'Mira Maker' },
      decidedBy: null,
      rejectionReason: null,
      rewardId: null,
      createdAt: ago(DAY).toISOString(),
      expiresAt: ago(DAY - 7 * DAY).toISOString(),
      decidedAt: null,
    });
    expect(all[1]).toMatchObject({
      state: 'approved',
      createdBy: null,
      decidedBy: { id: decider.id, name: 'Dele Decider' },
      rewardId: reward[0]!.id,
      expiresAt: null,
      expiryDate: null,
      decidedAt: ago(DAY / 2).toISOString(),
    });
    expect(all[2]).toMatchObject({
      state: 'rejected',
      rejectionReason: 'Too much',
      percentageDiscount: 20,
      expiresAt: null,
    });

    const desc = await selectRewardRequests(t.db, where, 7, { order: 'desc' });
    expect(desc.map((r) => r.id)).toEqual([rejected, approved, waiting]);
    const page = await selectRewardRequests(t.db, where, 7, { order: 'desc', limit: 1, offset: 1 });
    expect(page.map((r) => r.id)).toEqual([approved]);
    const first = await selectRewardRequests(t.db, where, 7, { limit: 2 });
    expect(first.map((r) => r.id)).toEqual([waiting, approved]);
    // The club's days set the expiry.
    expect((await selectRewardRequests(t.db, where, 2))[0]!.expiresAt).toBe(ago(DAY - 2 * DAY).toISOString());
  });
});

describe('mailApprovers', () => {
  it('every live, active club staff member holding rewards.approve, but the maker; the expiry in Lagos time', async () => {
    const root = await createSuperAdmin(t.db, 'root-approvals@rewardclub.test');
    const approverRole = await createRole(t.db, 'Approver', ['dashboard.view', 'rewards.approve']);
    const otherRole = await createRole(t.db, 'Viewer', ['dashboard.view', 'rewards.view']);
    const partnerRole = await createRole(t.db, 'Till approve', ['rewards.approve'], false, true);
    const approver = await createUser(t.db, {
      roleId: approverRole.id,
      firstName: 'Ayo',
      email: 'ayo@rewardclub.test',
    });
    const makerWithRole = await createUser(t.db, { roleId: approverRole.id, email: 'maker@rewardclub.test' });
    await createUser(t.db, { roleId: approverRole.id, accountStatus: 'BLOCKED' });
    await createUser(t.db, { roleId: approverRole.id, deletedAt: now });
    await createUser(t.db, { roleId: otherRole.id });
    await createUser(t.db, { roleId: partnerRole.id, userType: 'PARTNER', partnerId: P.id });
    await createUser(t.db, { roleId: null });

    const sent: MailMessage[] = [];
    const enqueue = async (_tx: unknown, m: MailMessage, at: Date) => {
      expect(at).toEqual(now);
      sent.push(m);
      return sent.length;
    };
    const count = await mailApprovers(t.db, enqueue, {
      makerId: makerWithRole.id,
      makerName: 'Mira Maker',
      what: 'a gift card of ₦60,000.00 for Ada Obi at Mama Put',
      reasons: ['The reward of ₦60,000.00 is above the ₦50,000.00 that needs a second person'],
      waitingSince: new Date('2026-03-02T09:00:00.000Z'),
      days: 7,
      appUrl: 'https://admin.rewardclub.test',
      now,
    });
    expect(count).toBe(2);
    expect(sent.map((m) => m.to).sort()).toEqual([root.email, approver.email].sort());
    const mine = sent.find((m) => m.to === approver.email)!;
    expect(mine.subject).toBe('Waiting for your approval: a gift card of ₦60,000.00 for Ada Obi at Mama Put');
    expect(mine.text).toContain('Hello Ayo,');
    expect(mine.text).toContain('Mira Maker asks for');
    // Waiting since 2 March 09:00 UTC, 7 days: 9 March, 10:00 in Lagos (UTC+1).
    expect(mine.text).toContain('If nobody decides by 9 March 2026 at 10:00 (Lagos time), it expires');

    // With no maker (a key), every approver is mailed.
    const all: MailMessage[] = [];
    const n = await mailApprovers(
      t.db,
      async (_tx, m) => {
        all.push(m);
        return all.length;
      },
      {
        makerId: null,
        makerName: 'API key Till',
        what: 'x',
        reasons: [],
        waitingSince: new Date('2026-03-02T22:30:00.000Z'),
        days: 1,
        appUrl: 'https://admin.rewardclub.test',
        now,
      },
    );
    expect(n).toBe(3);
    expect(all.map((m) => m.to).sort()).toEqual([root.email, approver.email, makerWithRole.email].sort());
    // Waiting since 2 March 22:30 UTC, 1 day: 3 March 22:30 UTC, 23:30 in Lagos.
    expect(all[0]!.text).toContain('by 3 March 2026 at 23:30 (Lagos time)');
  });
});

describe('unclaimedPoints', () => {
  it('1 point per whole ₦100 of each approved visit at the partner, less those claimed; never below 0', async () => {
    const c = await createCustomer(t.db);
    const other = await createPartner(t.db);
    const visit = (
      partnerId: number,
      totalAmount: number,
      reviewState: 'approved' | 'waiting' | 'rejected' = 'approved',
    ) =>
      t.db.insert(visits).values({
        partnerId,
        customerId: c.id,
        attendantName: 'B',
        visitDate: now,
        totalAmount,
        reviewState,
      });
    expect(await unclaimedPoints(t.db, P.id, c.id)).toBe(0);
    await visit(P.id, 250); // 2
    await visit(P.id, 199.99); // 1
    await visit(P.id, 99.99); // 0
    await visit(P.id, 5000, 'waiting');
    await visit(P.id, 5000, 'rejected');
    await visit(other.id, 5000);
    expect(await unclaimedPoints(t.db, P.id, c.id)).toBe(3);
    await t.db.insert(rewards).values({
      partnerId: P.id,
      customerId: c.id,
      rewardType: 'COUPON',
      code: 'CP-POINTS01',
      title: 'x',
      description: 'x',
      pointsClaimed: 2,
    });
    expect(await unclaimedPoints(t.db, P.id, c.id)).toBe(1);
    expect(await unclaimedPoints(t.db, other.id, c.id)).toBe(50);
    await t.db.insert(rewards).values({
      partnerId: P.id,
      customerId: c.id,
      rewardType: 'COUPON',
      code: 'CP-POINTS02',
      title: 'x',
      description: 'x',
      pointsClaimed: 5,
    });
    expect(await unclaimedPoints(t.db, P.id, c.id)).toBe(0);
  });
});
