import { eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CampaignSegment } from '../../contract/campaigns';
import {
  createCustomer,
  createPartner,
  createReward,
  linkCustomer,
  setupTestServer,
} from '../../tests/setup/server';
import { appSettings, campaigns, customerLinks, visits } from '../db/schema';
import {
  approvalSettings,
  type SegmentContext,
  saveApprovalSettings,
  segmentFigures,
  unknownListEntries,
} from './campaigns';

/*
 * Campaign segments and the club's thresholds on a database (docs/decisions/070, 074): a list names
 * customers by id, email (any case) and external id; a filter by visits at the partner in Lagos days
 * (or, without a period, the partner's linked customers) and by status. Skipped, in this order:
 * erased, blocked, not linked, already rewarded; entries naming nobody are not_found. The preview
 * counts each reason and names the first 100. Thresholds: null is none; the expiry days default to 7.
 */

const t = setupTestServer();
const now = new Date('2026-03-10T09:00:00.000Z');

let P: { id: number };
let campaignId: number;
const ctx = (segment: CampaignSegment): SegmentContext => ({
  campaignId,
  partnerId: P.id,
  minSpendToQualify: 10_000,
  segment,
  now,
});

const visit = (customerId: number, visitDate: string, totalAmount = 1000) =>
  t.db
    .insert(visits)
    .values({ partnerId: P.id, customerId, attendantName: 'B', visitDate: new Date(visitDate), totalAmount });

const NONE = { not_found: 0, erased: 0, blocked: 0, not_linked: 0, already_rewarded: 0 };

beforeAll(async () => {
  P = await createPartner(t.db);
  const [c] = await t.db
    .insert(campaigns)
    .values({
      name: 'Seg',
      partnerId: P.id,
      rewardType: 'GIFTCARD',
      title: 'T',
      description: 'D',
      segment: {},
      actor: {},
    })
    .returning({ id: campaigns.id });
  campaignId = c!.id;
});

describe('approvalSettings and saveApprovalSettings', () => {
  it('nothing set: no thresholds, 7 days; saved ones read back; the days kept when not sent', async () => {
    expect(await approvalSettings(t.db)).toEqual({
      campaignTotalAbove: null,
      singleRewardAbove: null,
      approvalExpiryDays: 7,
    });
    await saveApprovalSettings(t.db, {
      campaignTotalAbove: 100_000.5,
      singleRewardAbove: null,
      approvalExpiryDays: 3,
    });
    expect(await approvalSettings(t.db)).toEqual({
      campaignTotalAbove: 100_000.5,
      singleRewardAbove: null,
      approvalExpiryDays: 3,
    });
    const stored = Object.fromEntries((await t.db.select().from(appSettings)).map((r) => [r.key, r.value]));
    expect(stored).toMatchObject({
      approval_campaign_total_above: '100000.50',
      approval_single_reward_above: '',
      approval_expiry_days: '3',
    });
    await saveApprovalSettings(t.db, { campaignTotalAbove: null, singleRewardAbove: 50_000 });
    expect(await approvalSettings(t.db)).toEqual({
      campaignTotalAbove: null,
      singleRewardAbove: 50_000,
      approvalExpiryDays: 3,
    });
    await t.db
      .delete(appSettings)
      .where(
        inArray(appSettings.key, [
          'approval_campaign_total_above',
          'approval_single_reward_above',
          'approval_expiry_days',
        ]),
      );
  });
});

describe('a list segment', () => {
  it('names customers by id, email in any case and external id; skips with the reasons in order; entries naming nobody are not_found', async () => {
    const fine = await createCustomer(t.db, { email: 'Fine.One@mail.test', externalId: 'SEG-FINE' });
    const byEmail = await createCustomer(t.db, { email: 'by.email@mail.test' });
    const byExternal = await createCustomer(t.db, { externalId: 'SEG-EXT' });
    const blocked = await createCustomer(t.db, { accountStatus: 'BLOCKED' });
    const erasedBlocked = await createCustomer(t.db, { accountStatus: 'BLOCKED', erasedAt: now });
    const unlinked = await createCustomer(t.db);
    const blockedUnlinked = await createCustomer(t.db, { accountStatus: 'BLOCKED' });
    const rewarded = await createCustomer(t.db);
    const deleted = await createCustomer(t.db, {
      deletedAt: now,
      email: 'deleted@mail.test',
      externalId: 'SEG-DEL',
    });
    for (const c of [fine, byEmail, byExternal, blocked, erasedBlocked, rewarded, deleted])
      await linkCustomer(t.db, P.id, c.id);
    await createReward(t.db, { partnerId: P.id, customerId: rewarded.id, campaignId });

    const segment: CampaignSegment = {
      kind: 'list',
      customerIds: [
        fine.id,
        blocked.id,
        erasedBlocked.id,
        unlinked.id,
        blockedUnlinked.id,
        rewarded.id,
        deleted.id,
        1_999_999_999,
      ],
      emails: [
        'FINE.ONE@mail.test',
        'BY.EMAIL@MAIL.TEST',
        'nobody@mail.test',
        'nobody@mail.test',
        'deleted@mail.test',
      ],
      externalIds: ['SEG-EXT', 'SEG-NONE', 'SEG-DEL'],
    };
    const figures = await segmentFigures(t.db, ctx(segment));
    expect(figures.count).toBe(3);
    expect(figures.skipped.byReason).toEqual({
      not_found: 6,
      erased: 1,
      blocked: 2,
      not_linked: 1,
      already_rewarded: 1,
    });
    expect(figures.skipped.count).toBe(11);
    const named = [
      [blocked.id, 'blocked'],
      [erasedBlocked.id, 'erased'],
      [unlinked.id, 'not_linked'],
      [blockedUnlinked.id, 'blocked'],
      [rewarded.id, 'already_rewarded'],
    ] as const;
    // The customers skipped first, by id; then the entries naming nobody (a deleted customer is nobody).
    expect(figures.skipped.customers.slice(0, 5)).toEqual(
      [...named]
        .sort((a, b) => a[0] - b[0])
        .map(([customerId, reason]) => ({ customerId, ref: null, reason })),
    );
    const unknown = [
      String(deleted.id),
      '1999999999',
      'nobody@mail.test',
      'deleted@mail.test',
      'SEG-NONE',
      'SEG-DEL',
    ];
    expect(figures.skipped.customers.slice(5)).toEqual(
      expect.arrayContaining(unknown.map((ref) => ({ customerId: null, ref, reason: 'not_found' }))),
    );
    expect(figures.skipped.customers).toHaveLength(11);
    expect((await unknownListEntries(t.db, segment)).sort()).toEqual([...unknown].sort());
  });

  it('only ids, or only emails: the other lists are empty; the preview names at most 100 skipped', async () => {
    const ids = Array.from({ length: 101 }, (_, i) => 1_900_000_000 + i);
    const figures = await segmentFigures(t.db, ctx({ kind: 'list', customerIds: ids }));
    expect(figures.count).toBe(0);
    expect(figures.skipped.count).toBe(101);
    expect(figures.skipped.byReason).toEqual({ ...NONE, not_found: 101 });
    expect(figures.skipped.customers).toHaveLength(100);
    expect(figures.skipped.customers[99]).toEqual({
      customerId: null,
      ref: '1900000099',
      reason: 'not_found',
    });
    expect(await unknownListEntries(t.db, { kind: 'list', emails: ['none@mail.test'] })).toEqual([
      'none@mail.test',
    ]);
  });

  it('another kind has no list entries', async () => {
    expect(await unknownListEntries(t.db, { kind: 'eligible' })).toEqual([]);
    expect(
      await unknownListEntries(t.db, { kind: 'filter', customerIds: [1_900_000_000] } as CampaignSegment),
    ).toEqual([]);
  });
});

describe('a filter segment', () => {
  it('visits at the partner in Lagos days (from, to, both), then the status', async () => {
    const early = await createCustomer(t.db);
    const late = await createCustomer(t.db, { accountStatus: 'BLOCKED' });
    const linkedOnly = await createCustomer(t.db);
    for (const c of [early, late, linkedOnly]) await linkCustomer(t.db, P.id, c.id);
    // 1 March 00:00 Lagos is 28 February 23:00 UTC; 5 March ends at 5 March 23:00 UTC.
    await visit(early.id, '2026-02-28T22:59:59.999Z'); // 28 February in Lagos
    await visit(late.id, '2026-03-05T22:59:59.999Z'); // 5 March in Lagos
    const ids = (segment: CampaignSegment) => segmentFigures(t.db, ctx(segment));
    const named = async (segment: CampaignSegment) => {
      const f = await ids(segment);
      return f.count + f.skipped.count;
    };
    expect(await named({ kind: 'filter', visitedFrom: '2026-02-28' })).toBe(2);
    expect(await named({ kind: 'filter', visitedFrom: '2026-03-01' })).toBe(1);
    expect(await named({ kind: 'filter', visitedTo: '2026-03-04' })).toBe(1);
    expect(await named({ kind: 'filter', visitedTo: '2026-03-05' })).toBe(2);
    expect(await named({ kind: 'filter', visitedFrom: '2026-03-01', visitedTo: '2026-03-05' })).toBe(1);
    expect(await named({ kind: 'filter', visitedFrom: '2026-03-06', visitedTo: '2026-03-09' })).toBe(0);
    // With a status: the blocked one only, skipped as blocked.
    const blockedOnly = await ids({ kind: 'filter', visitedFrom: '2026-02-28', status: 'BLOCKED' });
    expect([blockedOnly.count, blockedOnly.skipped.byReason]).toEqual([0, { ...NONE, blocked: 1 }]);
    const activeOnly = await ids({ kind: 'filter', visitedFrom: '2026-02-28', status: 'ACTIVE' });
    expect([activeOnly.count, activeOnly.skipped.count]).toEqual([1, 0]);
  });

  it('without a period: the customers linked to the partner (confirmed), whatever their visits', async () => {
    const R = await createPartner(t.db);
    const linked = await createCustomer(t.db);
    const linkedBlocked = await createCustomer(t.db, { accountStatus: 'BLOCKED' });
    const asked = await createCustomer(t.db);
    const visitedOnly = await createCustomer(t.db);
    await linkCustomer(t.db, R.id, linked.id);
    await linkCustomer(t.db, R.id, linkedBlocked.id);
    await t.db
      .insert(customerLinks)
      .values({ partnerId: R.id, customerId: asked.id, requested: `member:${asked.id}`, state: 'PENDING' });
    await t.db.insert(visits).values({
      partnerId: R.id,
      customerId: visitedOnly.id,
      attendantName: 'B',
      visitDate: new Date('2026-03-01T12:00:00.000Z'),
      totalAmount: 5000,
    });
    const at = (segment: CampaignSegment) =>
      segmentFigures(t.db, { campaignId, partnerId: R.id, minSpendToQualify: 10_000, segment, now });
    const all = await at({ kind: 'filter' });
    expect([all.count, all.skipped.count, all.skipped.customers]).toEqual([
      1,
      1,
      [{ customerId: linkedBlocked.id, ref: null, reason: 'blocked' }],
    ]);
    const active = await at({ kind: 'filter', status: 'ACTIVE' });
    expect([active.count, active.skipped.count]).toEqual([1, 0]);
  });
});

describe('an eligible segment', () => {
  it("the partner's customers who spent at least its minimum in the 30 Lagos days up to today, approved visits only", async () => {
    const Q = await createPartner(t.db);
    const q = (segment: CampaignSegment) =>
      segmentFigures(t.db, { campaignId, partnerId: Q.id, minSpendToQualify: 10_000, segment, now });
    const at = (
      customerId: number,
      visitDate: string,
      totalAmount: number,
      reviewState: 'approved' | 'waiting' = 'approved',
    ) =>
      t.db.insert(visits).values({
        partnerId: Q.id,
        customerId,
        attendantName: 'B',
        visitDate: new Date(visitDate),
        totalAmount,
        reviewState,
      });
    const exactly = await createCustomer(t.db);
    const under = await createCustomer(t.db);
    const outside = await createCustomer(t.db);
    const waiting = await createCustomer(t.db);
    for (const c of [exactly, under, outside, waiting]) await linkCustomer(t.db, Q.id, c.id);
    // Today in Lagos is 10 March; the window is 9 February 00:00 to 10 March 23:59:59.999 (Lagos).
    await at(exactly.id, '2026-02-08T23:00:00.000Z', 6_000); // 9 February 00:00 Lagos: in
    await at(exactly.id, '2026-03-10T22:59:59.999Z', 4_000); // 10 March 23:59:59.999 Lagos: in
    await at(under.id, '2026-03-01T12:00:00.000Z', 9_999.99);
    await at(outside.id, '2026-02-08T22:59:59.999Z', 20_000); // 8 February in Lagos: out
    await at(outside.id, '2026-03-10T23:00:00.000Z', 20_000); // 11 March in Lagos: out
    await at(waiting.id, '2026-03-01T12:00:00.000Z', 20_000, 'waiting');
    const f = await q({ kind: 'eligible' });
    expect([f.count, f.skipped.count]).toEqual([1, 0]);
    await t.db.update(visits).set({ reviewState: 'approved' }).where(eq(visits.customerId, waiting.id));
    expect((await q({ kind: 'eligible' })).count).toBe(2);
  });
});
