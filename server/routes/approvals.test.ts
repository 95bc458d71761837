import { sql } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApprovalItem, RewardRequest } from '../../contract/approvals';
import type { ApprovalSettings, Campaign } from '../../contract/campaigns';
import type { ListData } from '../../contract/envelope';
import type { Reward } from '../../contract/rewards';
import {
  createCustomer,
  createPartner,
  createRole,
  createSuperAdmin,
  createUser,
  linkCustomer,
  PNG_BASE64,
  setupTestServer,
  signIn,
} from '../../tests/setup/server';
import { createApprovalExpiry } from '../approval-expiry';
import { executeRows } from '../db/rows';
import { campaigns } from '../db/schema';

/**
 * Issue 35, four eyes, the rest (docs/decisions/074): a single reward above the club's
 * `singleRewardAbove` waits instead of being issued; a second person (never the maker) approves it,
 * once, or rejects it with a reason; what waits longer than `approvalExpiryDays` expires; the
 * approvals queue; the approvers' mail. Time moves by the data (created_at / submitted_at put in the
 * past against the server's clock), never by today's date.
 */
const APP_URL = 'https://console.rewardclub.example';
const t = setupTestServer({ config: { appUrl: APP_URL } });
const DAY = 24 * 60 * 60 * 1000;

let superToken: string;
let makerToken: string;
let approverToken: string;
let secondToken: string;
let issuerOnlyToken: string;
const people = {} as Record<'maker' | 'approver' | 'second' | 'issuerOnly' | 'partnerApprover', string>;
let P: { id: number };
let customer: { id: number; firstName: string; lastName: string };

const n = async (query: ReturnType<typeof sql>) =>
  Number((await executeRows<{ n: number }>(t.db, query))[0]?.n ?? 0);

const issue = (token: string, amount: number, headers: Record<string, string> = {}) =>
  t.request<Reward | RewardRequest>('POST', '/partners/rewards/issue-reward', {
    token,
    headers,
    json: {
      rewardType: 'GIFTCARD',
      issuedAmount: amount,
      title: 'Big thank-you',
      description: 'For a year of visits',
      promotionalImage: PNG_BASE64,
      issuedTo: customer.id,
      partnerId: P.id,
    },
  });

const approve = (token: string, id: number, headers: Record<string, string> = {}) =>
  t.request<RewardRequest>('POST', `/admin/approvals/rewards/${id}/approve`, { token, headers });
const reject = (token: string, id: number, reason: string) =>
  t.request<RewardRequest>('POST', `/admin/approvals/rewards/${id}/reject`, { token, json: { reason } });
const queue = (token: string, state = 'awaiting_approval') =>
  t.request<ListData<ApprovalItem>>('GET', `/admin/approvals?state=${state}&pageSize=100`, { token });

const rewardsOfCustomer = () =>
  n(sql`select count(*)::int as n from rewards where customer_id = ${customer.id}`);

/** The mails delivered to an address, parsed as a mail client would. */
async function mailsTo(to: string) {
  const mine = (await t.mails()).filter((m) => m.raw.toLowerCase().includes(`to: ${to.toLowerCase()}`));
  return Promise.all(mine.map((m) => simpleParser(m.raw)));
}

beforeAll(async () => {
  const root = await createSuperAdmin(t.db);
  superToken = (await signIn(t, root.email, root.password)).accessToken;
  const makerRole = await createRole(t.db, 'Issuer and approver', [
    'rewards.issue',
    'rewards.approve',
    'campaigns.manage',
  ]);
  const approverRole = await createRole(t.db, 'Approver', ['rewards.approve']);
  const issuerRole = await createRole(t.db, 'Issuer', ['rewards.issue']);
  const maker = await createUser(t.db, { roleId: makerRole.id, firstName: 'Mira', lastName: 'Maker' });
  const approver = await createUser(t.db, { roleId: approverRole.id, firstName: 'Ade', lastName: 'Checker' });
  const second = await createUser(t.db, { roleId: approverRole.id, firstName: 'Bola', lastName: 'Second' });
  const issuerOnly = await createUser(t.db, { roleId: issuerRole.id, firstName: 'Ife', lastName: 'Issuer' });
  makerToken = (await signIn(t, maker.email, maker.password)).accessToken;
  approverToken = (await signIn(t, approver.email, approver.password)).accessToken;
  secondToken = (await signIn(t, second.email, second.password)).accessToken;
  issuerOnlyToken = (await signIn(t, issuerOnly.email, issuerOnly.password)).accessToken;
  Object.assign(people, {
    maker: maker.email,
    approver: approver.email,
    second: second.email,
    issuerOnly: issuerOnly.email,
  });
  P = await createPartner(t.db, { organizationName: 'Mama Put' });
  // Partner staff never decide (the approve routes are the club's): they are not mailed either.
  const partnerRole = await createRole(
    t.db,
    'Partner approver',
    ['rewards.approve', 'rewards.issue'],
    false,
    true,
  );
  const partnerApprover = await createUser(t.db, {
    roleId: partnerRole.id,
    userType: 'PARTNER',
    partnerId: P.id,
  });
  people.partnerApprover = partnerApprover.email;
  customer = await createCustomer(t.db, { firstName: 'Ngozi', lastName: 'Obi' });
  await linkCustomer(t.db, P.id, customer.id);
  const set = await t.request('PUT', '/admin/settings/approvals', {
    token: superToken,
    json: { campaignTotalAbove: 100_000, singleRewardAbove: 50_000 },
  });
  expect(set.status, set.text).toBe(200);
});

describe('a single reward above the threshold', () => {
  it('under or at the threshold it is issued at once (201)', async () => {
    const before = await rewardsOfCustomer();
    const res = await issue(makerToken, 50_000);
    expect(res.status, res.text).toBe(201);
    expect((res.body.data as Reward).issuedAmount).toBe(50_000);
    expect(await rewardsOfCustomer()).toBe(before + 1);
  });

  it('above it waits (202): nothing issued; every approver but the maker is mailed a link to Approvals', async () => {
    const before = await rewardsOfCustomer();
    const mailsBefore = (await t.mails()).length;
    const res = await issue(makerToken, 60_000);
    expect(res.status, res.text).toBe(202);
    const request = res.body.data as RewardRequest;
    expect(request).toMatchObject({
      state: 'awaiting_approval',
      issuedAmount: 60_000,
      customer: { id: customer.id, name: 'Ngozi Obi' },
      createdBy: { name: 'Mira Maker' },
      decidedBy: null,
    });
    // Expires 7 days (the default) after it was made.
    expect(Date.parse(request.expiresAt!) - Date.parse(request.createdAt)).toBe(7 * DAY);
    expect(await rewardsOfCustomer()).toBe(before);

    const mails = (await t.mails()).slice(mailsBefore);
    const to = mails.map((m) => /^To: (.*)$/m.exec(m.raw)?.[1]?.trim().toLowerCase());
    // The two approvers and the Super Admin; not the maker, not an issuer without the permission,
    // not partner staff.
    expect(to.sort()).toEqual(
      [people.approver, 'root@rewardclub.test', people.second].map((e) => e.toLowerCase()).sort(),
    );
    const [mail] = await mailsTo(people.approver);
    expect(mail!.subject).toContain('Waiting for your approval');
    expect(mail!.text).toContain('Mira Maker');
    expect(mail!.text).toContain('Ngozi Obi');
    expect(mail!.text).toContain('60,000');
    expect(mail!.text).toContain(`${APP_URL}/dashboard/approvals`);
    expect(mail!.html).toContain(`href="${APP_URL}/dashboard/approvals"`);
    expect(await mailsTo(people.maker)).toHaveLength(0);
    expect(await mailsTo(people.issuerOnly)).toHaveLength(0);
    expect(await mailsTo(people.partnerApprover)).toHaveLength(0);
  });

  it('the maker cannot approve or reject it (403); a second person issues it exactly once', async () => {
    const request = (await issue(makerToken, 75_000)).body.data as RewardRequest;
    const before = await rewardsOfCustomer();
    const own = await approve(makerToken, request.id);
    expect(own.status).toBe(403);
    expect(own.body.code).toBe('maker_cannot_decide');
    expect((await reject(makerToken, request.id, 'mine')).status).toBe(403);
    // An issuer without the permission does not reach the queue.
    expect((await approve(issuerOnlyToken, request.id)).status).toBe(403);

    // Two approvers at once: one issues, the other is told it is decided.
    const both = await Promise.all([approve(approverToken, request.id), approve(secondToken, request.id)]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(both.find((r) => r.status === 409)!.body.code).toBe('not_awaiting_approval');
    const approved = both.find((r) => r.status === 200)!.body.data!;
    expect(approved.state).toBe('approved');
    expect(approved.rewardId).not.toBeNull();
    expect(await rewardsOfCustomer()).toBe(before + 1);
    // The reward is an ordinary one: ₦75,000, issued by the maker, with its ISSUE ledger entry.
    const [row] = await executeRows<{ amount: string; issued_by: number; kind: string; maker: number }>(
      t.db,
      sql`select l.amount::text as amount, l.kind, r.issued_by, (select id from users where email = ${people.maker}) as maker
          from rewards r join reward_ledger l on l.reward_id = r.id where r.id = ${approved.rewardId}`,
    );
    expect(Number(row!.amount)).toBe(75_000);
    expect(row!.kind).toBe('ISSUE');
    expect(row!.issued_by).toBe(row!.maker);

    // Approving twice: 409, nothing more.
    const again = await approve(approverToken, request.id);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('not_awaiting_approval');
    expect(await rewardsOfCustomer()).toBe(before + 1);
  });

  it('a lost answer retried with its Idempotency-Key answers the first answer and issues nothing more', async () => {
    const request = (await issue(makerToken, 80_000)).body.data as RewardRequest;
    const before = await rewardsOfCustomer();
    const first = await approve(approverToken, request.id, { 'Idempotency-Key': `approve-${request.id}` });
    expect(first.status, first.text).toBe(200);
    const retry = await approve(approverToken, request.id, { 'Idempotency-Key': `approve-${request.id}` });
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body.data).toEqual(first.body.data);
    expect(await rewardsOfCustomer()).toBe(before + 1);
  });

  it('an issue retried with its key asks once (one request, one 202)', async () => {
    const key = { 'Idempotency-Key': 'issue-big-once' };
    const before = await n(sql`select count(*)::int as n from reward_requests`);
    const first = await issue(makerToken, 90_000, key);
    const retry = await issue(makerToken, 90_000, key);
    expect([first.status, retry.status]).toEqual([202, 202]);
    expect(retry.body.data).toEqual(first.body.data);
    expect(await n(sql`select count(*)::int as n from reward_requests`)).toBe(before + 1);
  });

  it('rejected with a reason it issues nothing; the maker reads the state and the reason', async () => {
    const request = (await issue(makerToken, 65_000)).body.data as RewardRequest;
    const before = await rewardsOfCustomer();
    expect((await reject(approverToken, request.id, '  ')).status).toBe(400);
    const res = await reject(approverToken, request.id, 'Too generous for one customer');
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toMatchObject({
      state: 'rejected',
      rejectionReason: 'Too generous for one customer',
      decidedBy: { name: 'Ade Checker' },
      rewardId: null,
    });
    const seen = await t.request<RewardRequest>('GET', `/partners/rewards/requests/${request.id}`, {
      token: makerToken,
    });
    expect(seen.status).toBe(200);
    expect(seen.body.data).toMatchObject({
      state: 'rejected',
      rejectionReason: 'Too generous for one customer',
    });
    const listed = await t.request<ListData<RewardRequest>>(
      'GET',
      `/partners/rewards/requests?partnerId=${P.id}`,
      {
        token: issuerOnlyToken,
      },
    );
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.data!.records.find((r) => r.id === request.id)).toMatchObject({
      state: 'rejected',
      rejectionReason: 'Too generous for one customer',
    });
    const late = await approve(secondToken, request.id);
    expect(late.status).toBe(409);
    expect(late.body.code).toBe('not_awaiting_approval');
    expect(await rewardsOfCustomer()).toBe(before);
  });

  it('a coupon has no face value in naira: it never waits', async () => {
    const res = await t.request('POST', '/partners/rewards/issue-reward', {
      token: makerToken,
      json: {
        rewardType: 'COUPON',
        percentageDiscount: 90,
        title: 'Coupon',
        description: 'Ninety off',
        promotionalImage: PNG_BASE64,
        issuedTo: customer.id,
        partnerId: P.id,
      },
    });
    expect(res.status, res.text).toBe(201);
  });
});

describe('expiry', () => {
  it('a request not decided in approvalExpiryDays expires: listed as expired, cannot be approved, an event', async () => {
    const old = (await issue(makerToken, 61_000)).body.data as RewardRequest;
    const young = (await issue(makerToken, 62_000)).body.data as RewardRequest;
    const now = t.clock().getTime();
    // 7 days (the default) and a second ago; and 7 days less a minute ago.
    await t.db.execute(
      sql`update reward_requests set created_at = ${new Date(now - 7 * DAY - 1000).toISOString()}::timestamptz where id = ${old.id}`,
    );
    await t.db.execute(
      sql`update reward_requests set created_at = ${new Date(now - 7 * DAY + 60_000).toISOString()}::timestamptz where id = ${young.id}`,
    );
    const before = await rewardsOfCustomer();
    const waiting = (await queue(approverToken)).body.data!.records;
    expect(waiting.some((i) => i.kind === 'reward' && i.id === young.id)).toBe(true);
    expect(waiting.some((i) => i.kind === 'reward' && i.id === old.id)).toBe(false);
    const expired = (await queue(approverToken, 'expired')).body.data!.records;
    expect(expired.find((i) => i.kind === 'reward' && i.id === old.id)).toMatchObject({
      state: 'expired',
      expiresAt: null,
    });
    const res = await approve(approverToken, old.id);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('approval_expired');
    expect(await rewardsOfCustomer()).toBe(before);
    const seen = await t.request<RewardRequest>('GET', `/partners/rewards/requests/${old.id}`, {
      token: makerToken,
    });
    expect(seen.body.data!.state).toBe('expired');
    expect(
      await n(sql`select count(*)::int as n from events where entity = 'reward_request' and entity_id = ${String(old.id)}
        and action like '%expired: not decided within 7 days'`),
    ).toBe(1);
  });

  it('the days are a setting (Super Admin); a campaign waiting too long expires by the sweep', async () => {
    const bad = [0, 366, 2.5, '7'];
    for (const approvalExpiryDays of bad) {
      const res = await t.request('PUT', '/admin/settings/approvals', {
        token: superToken,
        json: { campaignTotalAbove: 100_000, singleRewardAbove: 50_000, approvalExpiryDays },
      });
      expect(res.status, `${approvalExpiryDays}`).toBe(400);
    }
    const set = await t.request<ApprovalSettings>('PUT', '/admin/settings/approvals', {
      token: superToken,
      json: { campaignTotalAbove: 100_000, singleRewardAbove: 50_000, approvalExpiryDays: 2 },
    });
    expect(set.body.data).toEqual({
      campaignTotalAbove: 100_000,
      singleRewardAbove: 50_000,
      approvalExpiryDays: 2,
    });
    // Absent: unchanged.
    const kept = await t.request<ApprovalSettings>('PUT', '/admin/settings/approvals', {
      token: superToken,
      json: { campaignTotalAbove: 100_000, singleRewardAbove: 50_000 },
    });
    expect(kept.body.data!.approvalExpiryDays).toBe(2);
    expect(
      await n(
        sql`select count(*)::int as n from events where entity = 'settings' and action like '%requests expire after 2 days'`,
      ),
    ).toBe(2);

    const now = t.clock().getTime();
    const [c] = await t.db
      .insert(campaigns)
      .values({
        name: 'Old campaign',
        partnerId: P.id,
        state: 'awaiting_approval',
        rewardType: 'GIFTCARD',
        issuedAmount: 60_000,
        title: 'Old',
        description: 'Old',
        segment: { kind: 'list', customerIds: [customer.id] },
        total: 1,
        totalValue: 60_000,
        actor: { id: null, type: 'ADMIN', name: 'Mira Maker' },
        submittedAt: new Date(now - 2 * DAY - 1000),
      })
      .returning({ id: campaigns.id });
    const swept = await createApprovalExpiry({ db: t.db, clock: t.clock }).sweep();
    expect(swept).toBeGreaterThanOrEqual(1);
    const read = await t.request<Campaign>('GET', `/admin/campaigns/${c!.id}`, { token: approverToken });
    expect(read.body.data!.state).toBe('expired');
    const res = await t.request('POST', `/admin/campaigns/${c!.id}/approve`, { token: approverToken });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('approval_expired');
    expect(
      await n(sql`select count(*)::int as n from events where entity = 'campaign' and entity_id = ${String(c!.id)}
        and action = 'Campaign Old campaign expired: not approved within 2 days'`),
    ).toBe(1);
    await t.request('PUT', '/admin/settings/approvals', {
      token: superToken,
      json: { campaignTotalAbove: 100_000, singleRewardAbove: 50_000, approvalExpiryDays: 7 },
    });
  });
});

describe('the approvals queue', () => {
  it('lists waiting campaigns and rewards with the maker, the figures and the preview; approvers only', async () => {
    // 3 linked customers × ₦40,000 = ₦120,000 > ₦100,000; one unlinked customer is skipped.
    const linked = [];
    for (let i = 0; i < 3; i++) {
      const c = await createCustomer(t.db);
      await linkCustomer(t.db, P.id, c.id);
      linked.push(c.id);
    }
    const unlinked = await createCustomer(t.db);
    const made = await t.request<Campaign>('POST', '/admin/campaigns', {
      token: makerToken,
      json: {
        name: 'Big December',
        partnerId: P.id,
        reward: { rewardType: 'GIFTCARD', issuedAmount: 40_000, title: 'December', description: 'Thanks' },
        segment: { kind: 'list', customerIds: [...linked, unlinked.id] },
      },
    });
    expect(made.status, made.text).toBe(201);
    const mailsBefore = (await t.mails()).length;
    const sub = await t.request<Campaign>('POST', `/admin/campaigns/${made.body.data!.id}/submit`, {
      token: makerToken,
    });
    expect(sub.body.data!.state).toBe('awaiting_approval');
    const mailed = (await t.mails()).slice(mailsBefore);
    expect(mailed).toHaveLength(3);
    const subjects = await Promise.all(mailed.map(async (m) => (await simpleParser(m.raw)).subject));
    expect(subjects.every((x) => x?.includes('campaign Big December at Mama Put: 3 customers'))).toBe(true);

    const request = (await issue(makerToken, 70_000)).body.data as RewardRequest;
    const res = await queue(approverToken);
    expect(res.status, res.text).toBe(200);
    const campaignItem = res.body.data!.records.find(
      (i) => i.kind === 'campaign' && i.id === made.body.data!.id,
    );
    expect(campaignItem).toMatchObject({
      name: 'Big December',
      maker: { name: 'Mira Maker' },
      count: 3,
      totalValue: 120_000,
      issuedAmount: 40_000,
      preview: { count: 3, totalValue: 120_000, skipped: { count: 1, byReason: { not_linked: 1 } } },
    });
    expect(campaignItem!.approvalReasons.length).toBe(1);
    const rewardItem = res.body.data!.records.find((i) => i.kind === 'reward' && i.id === request.id);
    expect(rewardItem).toMatchObject({
      count: 1,
      totalValue: 70_000,
      customer: { name: 'Ngozi Obi' },
      maker: { name: 'Mira Maker' },
      preview: null,
    });
    // Waiting: the oldest first.
    const since = res.body.data!.records.map((i) => i.waitingSince);
    expect([...since].sort()).toEqual(since);

    expect((await queue(issuerOnlyToken)).status).toBe(403);
    // Decided ones are on their own tab.
    const decided = (await queue(approverToken, 'decided')).body.data!.records;
    expect(decided.every((i) => i.state !== 'awaiting_approval')).toBe(true);
    expect(decided.some((i) => i.kind === 'reward' && i.state === 'rejected')).toBe(true);
  });

  it('bad input is a 400 in the envelope', async () => {
    const res = await t.request('GET', '/admin/approvals?state=everything', { token: approverToken });
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
    expect((await approve(approverToken, 999_999)).status).toBe(404);
    expect(
      (await t.request('POST', '/admin/approvals/rewards/1/reject', { token: approverToken, json: {} }))
        .status,
    ).toBe(400);
  });
});
