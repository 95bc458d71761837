import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Campaign, CampaignPreview } from '../../contract/campaigns';
import { ALL_PERMISSION_NAMES } from '../../contract/permissions';
import {
  createCustomer,
  createPartner,
  createRole,
  createSuperAdmin,
  createUser,
  createVisit,
  PNG_BASE64,
  setupTestServer,
  signIn,
} from '../../tests/setup/server';
import { createCampaignWorker } from '../campaign-worker';
import { sqlState, UNIQUE_VIOLATION } from '../db/errors';
import { executeRows } from '../db/rows';
import { webhookEndpoints } from '../db/schema';

/**
 * Issue 35, campaigns and four eyes (docs/decisions/070): the preview against counts made apart in
 * SQL from the rules (eligibility: spend at the partner in the 30 Lagos days up to today at least its
 * minimum; consent: a confirmed link; blocked and erased customers skipped), the four-eyes rules,
 * double submit and approve, bad input, and the partner scope. The run is drained by hand here; the
 * kill-and-restart test is server/faults/campaign-kill.test.ts.
 */
const t = setupTestServer();

let superToken: string;
let makerToken: string;
let approverToken: string;
let plainAdminToken: string;
let ownStaffToken: string;
let P: { id: number; minSpendToQualify: number };
let Q: { id: number };
/** Customers at P by what the rules make of them. */
const at = {
  eligible: [] as number[],
  blocked: 0,
  erased: 0,
  unlinked: 0,
  low: 0,
  old: 0,
  qOnly: 0,
};

const n = (v: unknown) => Number(v);
const count = async (query: ReturnType<typeof sql>) =>
  n((await executeRows<{ n: number }>(t.db, query))[0]?.n ?? 0);

const drain = () => createCampaignWorker({ db: t.db, clock: t.clock, batchSize: 3 }).drain();

const GIFT = {
  rewardType: 'GIFTCARD',
  issuedAmount: 2500,
  title: 'Thank you',
  description: 'A gift card for our loyal customers',
  expiryDate: '2026-12-31',
  promotionalImage: PNG_BASE64,
} as const;

async function create(token: string, body: Record<string, unknown>) {
  return t.request<Campaign>('POST', '/admin/campaigns', { token, json: body });
}

async function draft(
  token: string,
  segment: Record<string, unknown>,
  reward: Record<string, unknown> = GIFT,
  partnerId?: number,
) {
  const res = await create(token, {
    name: 'December thank-you',
    partnerId: partnerId ?? P.id,
    reward,
    segment,
  });
  expect(res.status, res.text).toBe(201);
  return res.body.data!;
}

beforeAll(async () => {
  await createSuperAdmin(t.db);
  superToken = (await signIn(t, 'root@rewardclub.test', 'Sup3rSecret')).accessToken;
  const makerRole = await createRole(t.db, 'Campaigns', ['campaigns.manage', 'rewards.approve']);
  const approverRole = await createRole(t.db, 'Approver', ['rewards.approve']);
  const maker = await createUser(t.db, { roleId: makerRole.id, firstName: 'Mira', lastName: 'Maker' });
  const approver = await createUser(t.db, { roleId: approverRole.id, firstName: 'Ade', lastName: 'Checker' });
  const plain = await createUser(t.db, { roleId: makerRole.id });
  makerToken = (await signIn(t, maker.email, maker.password)).accessToken;
  approverToken = (await signIn(t, approver.email, approver.password)).accessToken;
  plainAdminToken = (await signIn(t, plain.email, plain.password)).accessToken;

  P = await createPartner(t.db, { organizationName: 'Mama Put', minSpendToQualify: 10_000 });
  Q = await createPartner(t.db, { organizationName: 'Other Shop' });
  const everything = await createRole(t.db, 'Partner, everything', ALL_PERMISSION_NAMES, false, true);
  const staff = await createUser(t.db, { roleId: everything.id, userType: 'PARTNER', partnerId: P.id });
  ownStaffToken = (await signIn(t, staff.email, staff.password)).accessToken;

  // The test clock is 2026-03-02 09:00Z: Lagos day 2026-03-02, window from 2026-02-01 00:00 Lagos.
  const inWindow = new Date('2026-02-20T12:00:00Z');
  for (let i = 0; i < 8; i++) {
    const c = await createCustomer(t.db);
    await createVisit(t.db, { partnerId: P.id, customerId: c.id, visitDate: inWindow, amount: 6_000 });
    await createVisit(t.db, { partnerId: P.id, customerId: c.id, visitDate: inWindow, amount: 4_000 + i });
    at.eligible.push(c.id);
  }
  const blocked = await createCustomer(t.db, { accountStatus: 'BLOCKED' });
  await createVisit(t.db, { partnerId: P.id, customerId: blocked.id, visitDate: inWindow, amount: 12_000 });
  at.blocked = blocked.id;
  const erased = await createCustomer(t.db);
  await createVisit(t.db, { partnerId: P.id, customerId: erased.id, visitDate: inWindow, amount: 12_000 });
  await t.db.execute(sql`update customers set erased_at = now() where id = ${erased.id}`);
  await t.db.execute(sql`delete from customer_links where customer_id = ${erased.id}`);
  at.erased = erased.id;
  const unlinked = await createCustomer(t.db);
  await createVisit(t.db, { partnerId: P.id, customerId: unlinked.id, visitDate: inWindow, amount: 20_000 });
  await t.db.execute(sql`delete from customer_links where customer_id = ${unlinked.id}`);
  at.unlinked = unlinked.id;
  const low = await createCustomer(t.db);
  await createVisit(t.db, { partnerId: P.id, customerId: low.id, visitDate: inWindow, amount: 9_999.99 });
  at.low = low.id;
  const old = await createCustomer(t.db);
  // 2026-01-31 23:59 Lagos: the minute before the window opens.
  await createVisit(t.db, {
    partnerId: P.id,
    customerId: old.id,
    visitDate: new Date('2026-01-31T22:59:00Z'),
    amount: 50_000,
  });
  at.old = old.id;
  const qOnly = await createCustomer(t.db, { externalId: 'SUB-Q-1' });
  await createVisit(t.db, { partnerId: Q.id, customerId: qOnly.id, visitDate: inWindow, amount: 50_000 });
  at.qOnly = qOnly.id;

  await t.db.insert(webhookEndpoints).values({
    url: 'https://till.example.com/hooks',
    events: ['reward.issued', 'campaign.completed'],
    partnerId: P.id,
    secret: 'whsec_dGVzdHRlc3R0ZXN0dGVzdHRlc3R0ZXN0dGVzdHRlc3Q=',
  });
});

/**
 * Counts made apart from the product's code: who of a set of customers P may reward (active, not
 * erased, a confirmed link to P), from the tables themselves.
 */
const reachable = (candidates: ReturnType<typeof sql>) => sql`select count(*)::int as n from customers c
  where c.id in (${candidates}) and c.deleted_at is null and c.erased_at is null and c.account_status = 'ACTIVE'
    and exists (select 1 from customer_links l where l.customer_id = c.id and l.partner_id = ${P.id} and l.state = 'CONFIRMED')`;
const eligibleAtP = () => sql`select customer_id from visits where partner_id = ${P.id}
  and visit_date >= '2026-01-31T23:00:00Z' and visit_date < '2026-03-02T23:00:00Z'
  group by customer_id having sum(total_amount) >= 10000`;

describe('preview', () => {
  it("eligible: the partner's eligible customers, blocked, erased and unlinked skipped with their reason", async () => {
    const c = await draft(makerToken, { kind: 'eligible' });
    const res = await t.request<CampaignPreview>('GET', `/admin/campaigns/${c.id}/preview`, {
      token: makerToken,
    });
    expect(res.status, res.text).toBe(200);
    const expected = await count(reachable(eligibleAtP()));
    expect(expected).toBe(8);
    const p = res.body.data!;
    expect(p.count).toBe(expected);
    expect(p.totalValue).toBe(expected * 2500);
    expect(p.skipped.byReason).toEqual({
      not_found: 0,
      erased: 1,
      blocked: 1,
      not_linked: 1,
      already_rewarded: 0,
    });
    expect(p.skipped.count).toBe(3);
    expect(p.skipped.customers).toEqual(
      expect.arrayContaining([
        { customerId: at.blocked, ref: null, reason: 'blocked' },
        { customerId: at.erased, ref: null, reason: 'erased' },
        { customerId: at.unlinked, ref: null, reason: 'not_linked' },
      ]),
    );
    expect(p.needsApproval).toBe(false);
  });

  it('filter: visits at the partner in a period (Lagos days), and status', async () => {
    const c = await draft(makerToken, { kind: 'filter', visitedFrom: '2026-02-01', visitedTo: '2026-02-28' });
    const p = (
      await t.request<CampaignPreview>('GET', `/admin/campaigns/${c.id}/preview`, { token: makerToken })
    ).body.data!;
    const inPeriod = sql`select customer_id from visits where partner_id = ${P.id}
      and visit_date >= '2026-01-31T23:00:00Z' and visit_date < '2026-02-28T23:00:00Z'`;
    expect(p.count).toBe(await count(reachable(inPeriod)));
    // The low spender counts here (no spend rule); the old visit is outside the period.
    expect(p.count).toBe(9);
    const blockedOnly = await draft(makerToken, { kind: 'filter', status: 'BLOCKED' });
    const b = (
      await t.request<CampaignPreview>('GET', `/admin/campaigns/${blockedOnly.id}/preview`, {
        token: makerToken,
      })
    ).body.data!;
    expect(b.count).toBe(0);
    // Without a period: the customers linked to the partner, of whom one is blocked.
    expect(b.skipped.byReason.blocked).toBe(1);
  });

  it("list: ids, emails (any case) and external ids; unknown entries and other partners' customers skipped", async () => {
    const [first] = await executeRows<{ email: string }>(
      t.db,
      sql`select email from customers where id = ${at.eligible[1]!}`,
    );
    const c = await draft(makerToken, {
      kind: 'list',
      customerIds: [at.eligible[0]!, at.blocked, 999_999],
      emails: [first!.email.toUpperCase(), 'nobody@mail.test'],
      externalIds: ['SUB-Q-1', 'SUB-NONE'],
    });
    const p = (
      await t.request<CampaignPreview>('GET', `/admin/campaigns/${c.id}/preview`, { token: makerToken })
    ).body.data!;
    expect(p.count).toBe(
      await count(
        reachable(
          sql`select unnest(array[${at.eligible[0]!}, ${at.blocked}, ${at.eligible[1]!}, ${at.qOnly}]::int[])`,
        ),
      ),
    );
    expect(p.count).toBe(2);
    expect(p.skipped.byReason).toEqual({
      not_found: 3,
      erased: 0,
      blocked: 1,
      not_linked: 1,
      already_rewarded: 0,
    });
    expect(
      p.skipped.customers
        .filter((s) => s.reason === 'not_found')
        .map((s) => s.ref)
        .sort(),
    ).toEqual(['999999', 'SUB-NONE', 'nobody@mail.test'].sort());
  });
});

describe('the run', () => {
  it('issues one ordinary reward per customer: ledger, events, reward.issued; then campaign.completed', async () => {
    const c = await draft(makerToken, { kind: 'eligible' });
    const rewardsAtP = () => count(sql`select count(*)::int as n from rewards where partner_id = ${P.id}`);
    const ledgerAtP = () =>
      count(
        sql`select count(*)::int as n from reward_ledger where reward_id in (select id from rewards where partner_id = ${P.id})`,
      );
    const [rewardsBefore, ledgerBefore] = [await rewardsAtP(), await ledgerAtP()];
    const sub = await t.request<Campaign>('POST', `/admin/campaigns/${c.id}/submit`, { token: makerToken });
    expect(sub.status, sub.text).toBe(200);
    expect(sub.body.data!.state).toBe('running');
    expect(sub.body.data!.total).toBe(11);
    await drain();
    const done = (await t.request<Campaign>('GET', `/admin/campaigns/${c.id}`, { token: makerToken })).body
      .data!;
    expect(done).toMatchObject({ state: 'done', issued: 8, skipped: 3, total: 11 });
    // Nothing but those 8 rewards and their 8 ledger entries was added at the partner.
    expect(await rewardsAtP()).toBe(rewardsBefore + 8);
    expect(await ledgerAtP()).toBe(ledgerBefore + 8);
    const ids = sql`select id from rewards where campaign_id = ${c.id}`;
    expect(await count(sql`select count(*)::int as n from rewards where campaign_id = ${c.id}`)).toBe(8);
    expect(
      await count(sql`select count(distinct customer_id)::int as n from rewards where campaign_id = ${c.id}
      and customer_id in (${sql.join(
        at.eligible.map((i) => sql`${i}`),
        sql`, `,
      )})`),
    ).toBe(8);
    expect(
      await count(sql`select count(*)::int as n from reward_ledger where kind = 'ISSUE' and amount = 2500
      and reward_id in (${ids})`),
    ).toBe(8);
    expect(
      await count(sql`select count(*)::int as n from events where entity = 'reward'
      and entity_id in (select id::text from rewards where campaign_id = ${c.id})`),
    ).toBe(8);
    expect(
      await count(sql`select count(*)::int as n from webhook_deliveries where event_type = 'reward.issued'
      and (payload->'data'->>'rewardId')::int in (${ids})`),
    ).toBe(8);
    expect(
      await count(sql`select count(*)::int as n from webhook_deliveries where event_type = 'campaign.completed'
      and (payload->'data'->>'campaignId')::int = ${c.id}`),
    ).toBe(1);
    // The customers now hold it: a preview says so.
    const p = (
      await t.request<CampaignPreview>('GET', `/admin/campaigns/${c.id}/preview`, { token: makerToken })
    ).body.data!;
    expect(p.count).toBe(0);
    expect(p.skipped.byReason.already_rewarded).toBe(8);
    // A second reward of the campaign for a customer is refused by the database itself.
    const again = await t.db
      .execute(sql`insert into rewards (partner_id, customer_id, reward_type, code, title, description, campaign_id)
        values (${P.id}, ${at.eligible[0]!}, 'GIFTCARD', 'GC-DUPLICATE', 'x', 'y', ${c.id})`)
      .catch((e: unknown) => e);
    expect(sqlState(again)).toBe(UNIQUE_VIOLATION);
  });

  it('submitting twice at once: one starts, the other is a 409; never a doubled reward', async () => {
    const c = await draft(makerToken, { kind: 'list', customerIds: at.eligible.slice(0, 3) });
    const both = await Promise.all([
      t.request<Campaign>('POST', `/admin/campaigns/${c.id}/submit`, { token: makerToken }),
      t.request<Campaign>('POST', `/admin/campaigns/${c.id}/submit`, { token: makerToken }),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    await drain();
    const late = await t.request('POST', `/admin/campaigns/${c.id}/submit`, { token: makerToken });
    expect(late.status).toBe(409);
    await drain();
    expect(await count(sql`select count(*)::int as n from rewards where campaign_id = ${c.id}`)).toBe(3);
  });

  it('cancelled while it runs: it stops after the batch in flight, keeps what it issued, completes once', async () => {
    const c = await draft(makerToken, { kind: 'list', customerIds: at.eligible });
    await t.request('POST', `/admin/campaigns/${c.id}/submit`, { token: makerToken });
    let batches = 0;
    const worker = createCampaignWorker({
      db: t.db,
      clock: t.clock,
      batchSize: 3,
      onBatch: async () => {
        batches++;
        if (batches === 1) {
          const res = await t.request('POST', `/admin/campaigns/${c.id}/cancel`, { token: makerToken });
          expect(res.status, res.text).toBe(200);
        }
      },
    });
    await worker.drain();
    await drain();
    const end = (await t.request<Campaign>('GET', `/admin/campaigns/${c.id}`, { token: makerToken })).body
      .data!;
    expect(end).toMatchObject({ state: 'cancelled', issued: 3, total: 8 });
    expect(await count(sql`select count(*)::int as n from rewards where campaign_id = ${c.id}`)).toBe(3);
    expect(
      await count(sql`select count(*)::int as n from webhook_deliveries where event_type = 'campaign.completed'
      and (payload->'data'->>'campaignId')::int = ${c.id}`),
    ).toBe(1);
    expect((await t.request('POST', `/admin/campaigns/${c.id}/submit`, { token: makerToken })).status).toBe(
      409,
    );
  });

  it('cancel stops it: nothing more is issued; a finished campaign is not cancelled', async () => {
    const c = await draft(makerToken, { kind: 'list', customerIds: at.eligible.slice(0, 4) });
    await t.request('POST', `/admin/campaigns/${c.id}/submit`, { token: makerToken });
    const res = await t.request<Campaign>('POST', `/admin/campaigns/${c.id}/cancel`, { token: makerToken });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data!.state).toBe('cancelled');
    await drain();
    expect(await count(sql`select count(*)::int as n from rewards where campaign_id = ${c.id}`)).toBe(0);
    expect((await t.request('POST', `/admin/campaigns/${c.id}/cancel`, { token: makerToken })).status).toBe(
      409,
    );
    expect(
      await count(sql`select count(*)::int as n from events where entity = 'campaign'
      and entity_id = ${String(c.id)} and payload->>'state' = 'cancelled'`),
    ).toBe(1);
  });
});

describe('four eyes', () => {
  it('the Super Admin holds both new permissions (the built-in role holds the whole catalogue)', async () => {
    const made = await draft(superToken, { kind: 'eligible' });
    expect(made.createdBy?.name).toBe('Ada Root');
    const queue = await t.request('GET', '/admin/campaigns?state=awaiting_approval', { token: superToken });
    expect(queue.status).toBe(200);
  });

  it('only a Super Admin sets the thresholds', async () => {
    const body = { campaignTotalAbove: 10_000, singleRewardAbove: 50_000 };
    expect(
      (await t.request('PUT', '/admin/settings/approvals', { token: plainAdminToken, json: body })).status,
    ).toBe(403);
    const res = await t.request('PUT', '/admin/settings/approvals', { token: superToken, json: body });
    expect(res.status, res.text).toBe(200);
    // The expiry days (decision 074) keep their default of 7 when the body leaves them out.
    expect(res.body.data).toEqual({ ...body, approvalExpiryDays: 7 });
  });

  it('above the threshold it waits; its maker cannot approve (403); a second person starts it; twice changes nothing', async () => {
    // 5 × ₦2,500 = ₦12,500 > ₦10,000.
    const c = await draft(makerToken, { kind: 'list', customerIds: at.eligible.slice(0, 5) });
    const preview = (
      await t.request<CampaignPreview>('GET', `/admin/campaigns/${c.id}/preview`, { token: makerToken })
    ).body.data!;
    expect(preview.needsApproval).toBe(true);
    const sub = await t.request<Campaign>('POST', `/admin/campaigns/${c.id}/submit`, { token: makerToken });
    expect(sub.body.data!.state).toBe('awaiting_approval');
    await drain();
    expect(await count(sql`select count(*)::int as n from rewards where campaign_id = ${c.id}`)).toBe(0);
    const queue = await t.request<{ records: Campaign[] }>(
      'GET',
      '/admin/campaigns?state=awaiting_approval',
      {
        token: approverToken,
      },
    );
    expect(queue.body.data!.records.map((r) => r.id)).toContain(c.id);

    const own = await t.request('POST', `/admin/campaigns/${c.id}/approve`, { token: makerToken });
    expect(own.status).toBe(403);
    expect(own.body.success).toBe(false);
    const both = await Promise.all([
      t.request<Campaign>('POST', `/admin/campaigns/${c.id}/approve`, { token: approverToken }),
      t.request<Campaign>('POST', `/admin/campaigns/${c.id}/approve`, { token: superToken }),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    const approved = both.find((r) => r.status === 200)!.body.data!;
    expect(approved.state).toBe('running');
    expect(approved.createdBy?.name).toBe('Mira Maker');
    expect(approved.approvedBy).not.toBeNull();
    await drain();
    expect(
      (await t.request('POST', `/admin/campaigns/${c.id}/approve`, { token: approverToken })).status,
    ).toBe(409);
    await drain();
    expect(await count(sql`select count(*)::int as n from rewards where campaign_id = ${c.id}`)).toBe(5);
    const done = (await t.request<Campaign>('GET', `/admin/campaigns/${c.id}`, { token: makerToken })).body
      .data!;
    expect(done).toMatchObject({ state: 'done', issued: 5, total: 5 });
  });

  it('a single reward above its threshold waits too; rejected with a reason, it issues nothing', async () => {
    const c = await draft(
      makerToken,
      { kind: 'list', customerIds: [at.eligible[0]!] },
      { ...GIFT, issuedAmount: 60_000 },
    );
    const sub = await t.request<Campaign>('POST', `/admin/campaigns/${c.id}/submit`, { token: makerToken });
    expect(sub.body.data!.state).toBe('awaiting_approval');
    expect(
      (
        await t.request('POST', `/admin/campaigns/${c.id}/reject`, {
          token: makerToken,
          json: { reason: 'x' },
        })
      ).status,
    ).toBe(403);
    const empty = await t.request('POST', `/admin/campaigns/${c.id}/reject`, {
      token: approverToken,
      json: { reason: ' ' },
    });
    expect(empty.status).toBe(400);
    const res = await t.request<Campaign>('POST', `/admin/campaigns/${c.id}/reject`, {
      token: approverToken,
      json: { reason: 'Too generous for one customer' },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toMatchObject({
      state: 'rejected',
      rejectionReason: 'Too generous for one customer',
    });
    expect(
      (await t.request('POST', `/admin/campaigns/${c.id}/approve`, { token: approverToken })).status,
    ).toBe(409);
    await drain();
    expect(await count(sql`select count(*)::int as n from rewards where campaign_id = ${c.id}`)).toBe(0);
  });

  it('a coupon (no face value) under the single threshold starts at once', async () => {
    const c = await draft(
      makerToken,
      { kind: 'list', customerIds: at.eligible.slice(0, 6) },
      { rewardType: 'COUPON', percentageDiscount: 15, title: 'Coupon', description: 'Fifteen off' },
    );
    const sub = await t.request<Campaign>('POST', `/admin/campaigns/${c.id}/submit`, { token: makerToken });
    expect(sub.body.data).toMatchObject({ state: 'running', totalValue: 0 });
  });
});

describe('bad input is a 400 in the envelope and changes nothing', () => {
  const good = { name: 'X', partnerId: 0, reward: GIFT, segment: { kind: 'eligible' } };
  const cases: [string, (p: number) => unknown, string][] = [
    ['no name', (p) => ({ ...good, partnerId: p, name: ' ' }), 'name'],
    ['unknown kind', (p) => ({ ...good, partnerId: p, segment: { kind: 'everyone' } }), 'segment.kind'],
    [
      'an empty list',
      (p) => ({ ...good, partnerId: p, segment: { kind: 'list', customerIds: [] } }),
      'segment.customerIds',
    ],
    [
      'list fields on eligible',
      (p) => ({ ...good, partnerId: p, segment: { kind: 'eligible', emails: ['a@b.ng'] } }),
      'segment.kind',
    ],
    [
      'a bad email',
      (p) => ({ ...good, partnerId: p, segment: { kind: 'list', emails: ['not-an-email'] } }),
      'segment.emails.0',
    ],
    [
      'a period backwards',
      (p) => ({
        ...good,
        partnerId: p,
        segment: { kind: 'filter', visitedFrom: '2026-02-10', visitedTo: '2026-02-01' },
      }),
      'segment.visitedTo',
    ],
    [
      'a gift card without amount',
      (p) => ({ ...good, partnerId: p, reward: { ...GIFT, issuedAmount: undefined } }),
      'reward.issuedAmount',
    ],
    [
      'a negative amount',
      (p) => ({ ...good, partnerId: p, reward: { ...GIFT, issuedAmount: -5 } }),
      'reward.issuedAmount',
    ],
    ['an unknown field', (p) => ({ ...good, partnerId: p, extra: 1 }), ''],
    ['a string partner', () => ({ ...good, partnerId: 'abc' }), 'partnerId'],
  ];
  it.each(cases)('%s', async (_name, body, field) => {
    const before = await count(sql`select count(*)::int as n from campaigns`);
    const res = await t.request('POST', '/admin/campaigns', { token: makerToken, json: body(P.id) });
    expect(res.status, res.text).toBe(400);
    expect(res.body.success).toBe(false);
    expect(res.body.errors.length).toBeGreaterThan(0);
    if (field) expect(res.body.errors.map((e) => e.fieldName)).toContain(field);
    expect(await count(sql`select count(*)::int as n from campaigns`)).toBe(before);
  });

  it('thresholds: negative or text is a 400 and keeps the old ones', async () => {
    const before = (await t.request('GET', '/admin/settings/approvals', { token: superToken })).body.data;
    for (const json of [
      { campaignTotalAbove: -1, singleRewardAbove: null },
      { campaignTotalAbove: 'lots', singleRewardAbove: null },
      {},
    ]) {
      const res = await t.request('PUT', '/admin/settings/approvals', { token: superToken, json });
      expect(res.status, res.text).toBe(400);
      expect(res.body.success).toBe(false);
    }
    expect((await t.request('GET', '/admin/settings/approvals', { token: superToken })).body.data).toEqual(
      before,
    );
  });

  it('an id that is not a number is a 404 route, an unknown one a 404', async () => {
    expect((await t.request('GET', '/admin/campaigns/999999', { token: makerToken })).status).toBe(404);
  });
});

describe('partner scope', () => {
  it("partner staff holding every permission reach neither another partner's campaigns nor its customers", async () => {
    const theirs = await draft(makerToken, { kind: 'eligible' }, GIFT, Q.id);
    for (const [method, path] of [
      ['GET', `/admin/campaigns/${theirs.id}`],
      ['GET', `/admin/campaigns/${theirs.id}/preview`],
      ['POST', `/admin/campaigns/${theirs.id}/submit`],
      ['POST', `/admin/campaigns/${theirs.id}/cancel`],
      ['GET', `/admin/campaigns?partnerId=${Q.id}`],
    ] as const) {
      const res = await t.request(method, path, { token: ownStaffToken });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    expect(
      (await t.request('POST', `/admin/campaigns/${theirs.id}/approve`, { token: ownStaffToken })).status,
    ).toBe(403);
    expect(
      (
        await create(ownStaffToken, {
          name: 'x',
          partnerId: Q.id,
          reward: GIFT,
          segment: { kind: 'eligible' },
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await t.request('PUT', '/admin/settings/approvals', {
          token: ownStaffToken,
          json: { campaignTotalAbove: null, singleRewardAbove: null },
        })
      ).status,
    ).toBe(403);
    expect(
      (await t.request('GET', `/admin/campaigns/${theirs.id}`, { token: makerToken })).body.data,
    ).toMatchObject({ state: 'draft' });

    // Their own partner's campaign naming Q's customer: skipped as not linked, never rewarded.
    const own = await draft(ownStaffToken, { kind: 'list', customerIds: [at.qOnly, at.eligible[7]!] });
    const list = await t.request<{ records: Campaign[] }>('GET', '/admin/campaigns', {
      token: ownStaffToken,
    });
    expect(new Set(list.body.data!.records.map((r) => r.partner.id))).toEqual(new Set([P.id]));
    const p = (
      await t.request<CampaignPreview>('GET', `/admin/campaigns/${own.id}/preview`, { token: ownStaffToken })
    ).body.data!;
    expect(p.count).toBe(1);
    expect(p.skipped.customers).toEqual([{ customerId: at.qOnly, ref: null, reason: 'not_linked' }]);
    const sub = await t.request<Campaign>('POST', `/admin/campaigns/${own.id}/submit`, {
      token: ownStaffToken,
    });
    expect(sub.status, sub.text).toBe(200);
    await drain();
    expect(
      await count(
        sql`select count(*)::int as n from rewards where campaign_id = ${own.id} and customer_id = ${at.qOnly}`,
      ),
    ).toBe(0);
  });
});
