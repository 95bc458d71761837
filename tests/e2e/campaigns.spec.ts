import { type APIRequestContext, type Browser, expect, type Page, test } from '@playwright/test';
import type { ApprovalSettings, Campaign, CampaignPreview } from '../../contract/campaigns';
import type { Reward } from '../../contract/rewards';
import { TEXTS } from '../../src/lib/texts';
import { adminToken, apiCall, freshPartner } from './support/admin-api';
import { E2E_BASE_URL, MAIN_DATA_DIR } from './support/env';
import { linkCustomerByMail, naira, signIn } from './support/fixtures';
import { layoutProblems, settled } from './support/layout-check';

/**
 * Campaigns in the console (issue 35, decision 073): an admin makes a campaign for a partner's
 * eligible customers, previews it, submits it and sees it finish; the customers hold the reward.
 * The test sets up its own partner (minimum spend ₦10,000) and five customers of its own, so the
 * preview's figures follow from the product's rules (eligibility: spend in the last 30 days at least
 * the partner's minimum; only customers with a confirmed link are rewarded; a blocked one is skipped):
 *   A ₦12,000, linked          → rewarded
 *   B ₦15,000, linked          → rewarded
 *   C ₦4,000, linked           → not eligible: not in the segment at all
 *   D ₦12,000, not linked      → skipped, not linked
 *   E ₦12,000, linked, blocked → skipped, blocked
 * so 2 customers to reward, 2 × ₦1,500 = ₦3,000 of face value, 2 skipped. Then every campaign screen
 * is checked for fit at 375 and 1440 px.
 */

const AMOUNT = 1500;
const API = `${E2E_BASE_URL}/api/v1`;

interface Made {
  id: number;
  email: string;
}

async function customer(request: APIRequestContext, token: string, stamp: string, n: string): Promise<Made> {
  const email = `campaign.${stamp}.${n}@customers.ng`;
  const made = await apiCall<{ customer: { id: number } }>(request, token, 'POST', '/admin/user/customers', {
    externalId: `CMP-${stamp}-${n}`,
    firstName: 'Campaign',
    lastName: `Customer ${n.toUpperCase()}`,
    email,
    status: 'ACTIVE',
  });
  return { id: made.customer.id, email };
}

async function visit(
  request: APIRequestContext,
  token: string,
  partnerId: number,
  customerId: number,
  price: number,
) {
  await apiCall(request, token, 'POST', '/user/visits', {
    partnerId,
    customerId,
    attendantName: 'Campaign test',
    visitDate: new Date(Date.now() - 60_000).toISOString(),
    items: [{ name: 'Dinner', quantity: 1, price }],
  });
}

async function fits(page: Page, what: string) {
  await settled(page);
  expect(await layoutProblems(page), `${what} at ${page.viewportSize()?.width} px`).toEqual([]);
}

async function signedInAt(browser: Browser, width: number) {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  await signIn(page);
  return { context, page };
}

test('an admin runs a campaign for the eligible customers: the preview counts them, it finishes, they hold the reward', async ({
  browser,
  request,
}) => {
  test.setTimeout(240_000);
  const token = await adminToken(request);
  const partner = await freshPartner(request, token, 'Campaign Grill', 'campaign');
  const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;
  const [a, b, c, d, e] = await Promise.all(
    ['a', 'b', 'c', 'd', 'e'].map((n) => customer(request, token, stamp, n)),
  );
  for (const [who, price] of [
    [a, 12_000],
    [b, 15_000],
    [c, 4_000],
    [d, 12_000],
    [e, 12_000],
  ] as const)
    await visit(request, token, partner.id, who!.id, price);
  for (const who of [a, b, c, e])
    await linkCustomerByMail(request, {
      headers: { authorization: `Bearer ${token}` },
      dataDir: MAIN_DATA_DIR,
      email: who!.email,
      partnerId: partner.id,
      baseUrl: E2E_BASE_URL,
    });
  await apiCall(request, token, 'PATCH', '/admin/user/customers/status', {
    customerId: e!.id,
    accountStatus: 'BLOCKED',
  });
  // The club's four-eyes thresholds must let ₦3,000 (₦1,500 each) start at once.
  const limits = await apiCall<ApprovalSettings>(request, token, 'GET', '/admin/settings/approvals');
  if ((limits.campaignTotalAbove ?? Infinity) < 2 * AMOUNT || (limits.singleRewardAbove ?? Infinity) < AMOUNT)
    await request.put(`${API}/admin/settings/approvals`, {
      headers: { authorization: `Bearer ${token}` },
      data: { campaignTotalAbove: null, singleRewardAbove: null },
    });

  const { context, page } = await signedInAt(browser, 1440);
  await page
    .getByRole('navigation', { name: 'Main' })
    .first()
    .getByRole('link', { name: 'Campaigns' })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Campaigns' })).toBeVisible();
  await page.getByRole('button', { name: 'New campaign' }).click();

  const name = `Thank you ${stamp}`;
  const form = page.getByRole('form', { name: 'New campaign' });
  await form.getByLabel('Name').fill(name);
  await form.getByLabel('Partner').selectOption({ label: partner.organizationName });
  await form.getByLabel('Reward type').selectOption({ label: 'Gift card' });
  await form.getByLabel('Issued amount (₦)').fill(String(AMOUNT));
  await form.getByLabel('Title').fill(name);
  await form.getByLabel('Description').fill('For being with us this year');
  await expect(form.getByLabel('Segment')).toHaveValue('eligible');
  await form.getByRole('button', { name: 'Save draft' }).click();

  await expect(page).toHaveURL(/\/dashboard\/campaigns\/\d+$/);
  const id = Number(page.url().split('/').at(-1));
  const preview = page.getByTestId('campaign-preview');
  await expect(preview).toContainText(/Customers to reward\s*2/);
  await expect(preview).toContainText(`Total face value${naira(2 * AMOUNT)}`);
  await expect(preview).toContainText(/Skipped\s*2/);
  const reasons = page.getByRole('list', { name: 'Skipped, by reason' });
  await expect(reasons.getByRole('listitem')).toHaveText([
    `${TEXTS.campaign.skipReasons.blocked}: 1`,
    `${TEXTS.campaign.skipReasons.not_linked}: 1`,
  ]);
  const figures = await apiCall<CampaignPreview>(request, token, 'GET', `/admin/campaigns/${id}/preview`);
  expect([figures.count, figures.totalValue, figures.skipped.count]).toEqual([2, 2 * AMOUNT, 2]);
  await fits(page, 'the preview');

  await page.getByRole('button', { name: 'Submit', exact: true }).click();
  await expect(page.getByRole('heading', { name: TEXTS.campaign.states.done, exact: true })).toBeVisible({
    timeout: 60_000,
  });
  await expect(page.getByTestId('campaign-outcome')).toHaveText('Finished: 2 rewards issued, 2 skipped.');

  // On the server: done, the counts, and each customer's reward (by the campaign's title).
  const done = await apiCall<Campaign>(request, token, 'GET', `/admin/campaigns/${id}`);
  expect([done.state, done.issued, done.skipped, done.total, done.totalValue]).toEqual([
    'done',
    2,
    2,
    4,
    2 * AMOUNT,
  ]);
  for (const [who, holds] of [
    [a, 1],
    [b, 1],
    [c, 0],
    [d, 0],
    [e, 0],
  ] as const) {
    const rewards = await apiCall<{ records: Reward[] }>(
      request,
      token,
      'GET',
      `/admin/partners/rewards?partnerId=${partner.id}&userId=${who!.id}&pageSize=100`,
    );
    const ours = rewards.records.filter((r) => r.title === name);
    expect(
      ours.map((r) => [r.rewardType, r.issuedAmount, r.balance, r.status]),
      `customer ${who!.email}`,
    ).toEqual(holds ? [['GIFTCARD', AMOUNT, AMOUNT, 'Active']] : []);
  }

  // A reload shows what the server holds.
  await page.reload();
  await expect(page.getByRole('heading', { name: TEXTS.campaign.states.done, exact: true })).toBeVisible();
  await fits(page, 'the finished campaign');

  // The list: its state, counts and maker.
  await page.getByRole('button', { name: 'Back' }).click();
  const row = page.getByRole('row', { name: new RegExp(name) });
  await expect(row).toContainText(TEXTS.campaign.states.done);
  await expect(row).toContainText('2 issued · 2 skipped · 4 in all');
  await expect(row).toContainText(done.createdBy?.name ?? '-');
  await fits(page, 'the campaign list');
  // The state filter: a finished campaign is not among the drafts, and is among the finished ones.
  const stateFilter = page.getByLabel('State', { exact: true });
  await stateFilter.selectOption({ label: TEXTS.campaign.states.draft });
  await expect(page).toHaveURL(/[?&]state=draft(&|$)/);
  await expect(row).toHaveCount(0);
  await stateFilter.selectOption({ label: TEXTS.campaign.states.done });
  await expect(page).toHaveURL(/[?&]state=done(&|$)/);
  await expect(row).toContainText('2 issued · 2 skipped · 4 in all');
  await fits(page, 'the campaign list of one state');
  await context.close();

  // Every campaign screen fits a phone and a wide screen.
  for (const width of [375, 1440]) {
    const at = await signedInAt(browser, width);
    await at.page.goto('/dashboard/campaigns');
    await expect(at.page.getByRole('heading', { level: 1, name: 'Campaigns' })).toBeVisible();
    await expect(at.page.getByText(name).first()).toBeVisible();
    await fits(at.page, 'the campaign list');
    await at.page.goto('/dashboard/campaigns/new');
    const phoneForm = at.page.getByRole('form', { name: 'New campaign' });
    await phoneForm.getByLabel('Reward type').selectOption({ label: 'Gift card' });
    await phoneForm.getByLabel('Segment').selectOption('filter');
    await fits(at.page, 'the form with a filter');
    await phoneForm.getByLabel('Segment').selectOption('list');
    await phoneForm.getByRole('button', { name: 'Save draft' }).click();
    await expect(phoneForm.getByText('Give at least one customer id, email or external id')).toBeVisible();
    await fits(at.page, 'the form with a list and its errors');
    await at.page.goto(`/dashboard/campaigns/${id}`);
    await expect(at.page.getByTestId('campaign-outcome')).toBeVisible();
    await fits(at.page, 'the finished campaign');
    await at.context.close();
  }
});
