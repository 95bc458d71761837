import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { rewardMessages } from '../../contract/rewards';
import { TINY_PNG } from '../model/flow-paths';
import { DEMO_ADMIN, E2E_BASE_URL, MAIN_DATA_DIR } from './support/env';
import { latestMailedCode, mailsTo, naira, signIn } from './support/fixtures';

/**
 * Partner staff (seeded, Staff#2026) in the browser against the real server: they see only their
 * partner (another partner's pages and rewards are 'not found' or not theirs to open, figures and
 * searches are filtered), and they walk the guided redemption /dashboard/redeem end to end with a
 * mailed code, a reload mid-flow that resumes at the same step, and a redemption refused offline
 * that sends nothing.
 */

const API = `${E2E_BASE_URL}/api/v1`;
const OWN = 'Eko Grill House';
const OTHER = 'Jollof Republic';
const STAFF = { email: 'segun.adeyemi@ekogrillhouse.com.ng', password: 'Staff#2026' };
const OTP_PATTERN = /redemption code is: (\d{6})/;

type Page1<T> = { records: T[]; meta: { totalCount: number } };
interface RewardRow {
  id: number;
  code: string;
  user: { id: number; firstName: string; lastName: string };
  balance: number | null;
}

async function login(request: APIRequestContext, creds: { email: string; password: string }) {
  const res = await request.post(`${API}/admin/auth/login`, { data: creds });
  expect(res.ok(), `sign-in ${creds.email}: ${res.status()} ${await res.text()}`).toBe(true);
  return ((await res.json()).data as { accessToken: string }).accessToken;
}

async function apiGet<T>(request: APIRequestContext, token: string, path: string): Promise<T> {
  const res = await request.get(`${API}${path}`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.ok(), `${path}: ${res.status()} ${await res.text()}`).toBe(true);
  return (await res.json()).data as T;
}

async function partnerId(request: APIRequestContext, token: string, name: string) {
  const list = await apiGet<Page1<{ id: number; organizationName: string }>>(
    request,
    token,
    `/admin/partners?searchText=${encodeURIComponent(name)}`,
  );
  return list.records.find((p) => p.organizationName === name)!.id;
}

async function issueGiftcard(
  request: APIRequestContext,
  token: string,
  o: { partnerId: number; customerId: number; amount: number; title: string },
) {
  const res = await request.post(`${API}/partners/rewards/issue-reward`, {
    headers: { authorization: `Bearer ${token}`, 'Idempotency-Key': crypto.randomUUID() },
    data: {
      rewardType: 'GIFTCARD',
      issuedAmount: o.amount,
      title: o.title,
      description: 'Issued for the partner staff run',
      promotionalImage: TINY_PNG,
      issuedTo: o.customerId,
      partnerId: o.partnerId,
    },
  });
  expect(res.ok(), await res.text()).toBe(true);
  return (await res.json()).data as RewardRow;
}

const currentStep = (page: Page) =>
  page.getByRole('list', { name: 'Steps' }).locator('[aria-current="step"]');

interface World {
  ownId: number;
  otherId: number;
  customer: { id: number; name: string; first: string; email: string };
  reward: RewardRow;
  /** A customer holding a reward at the other partner only, and that reward. */
  stranger: { id: number; name: string };
  otherReward: RewardRow;
  otherVisitId: number;
}

let world: World;

test.beforeAll(async ({ request }) => {
  const admin = await login(request, DEMO_ADMIN);
  const ownId = await partnerId(request, admin, OWN);
  const otherId = await partnerId(request, admin, OTHER);
  // A customer of the own partner gets a fresh ₦4,000 gift card there (other specs use the seeded ones).
  const ownRewards = await apiGet<Page1<RewardRow>>(
    request,
    admin,
    `/admin/partners/rewards?partnerId=${ownId}&pageSize=50`,
  );
  let holder: RewardRow['user'] | undefined;
  let email = '';
  for (const r of ownRewards.records.toReversed()) {
    const c = await apiGet<{ email: string; accountStatus: string }>(
      request,
      admin,
      `/admin/user/customers/${r.user.id}`,
    );
    if (c.accountStatus === 'ACTIVE') {
      holder = r.user;
      email = c.email;
      break;
    }
  }
  if (!holder) throw new Error(`no active reward holder at ${OWN}`);
  const reward = await issueGiftcard(request, admin, {
    partnerId: ownId,
    customerId: holder.id,
    amount: 4000,
    title: 'Partner staff run gift card',
  });
  // Someone with rewards at the other partner and none at the own one.
  const otherRewards = await apiGet<Page1<RewardRow>>(
    request,
    admin,
    `/admin/partners/rewards?partnerId=${otherId}&pageSize=100`,
  );
  let otherReward: RewardRow | undefined;
  for (const r of otherRewards.records) {
    const atOwn = await apiGet<Page1<RewardRow>>(
      request,
      admin,
      `/admin/partners/rewards?partnerId=${ownId}&userId=${r.user.id}`,
    );
    // Not linked to the own partner either (decision 053): what the partner's staff may not act for.
    const links = await apiGet<{ partnerId: number }[]>(
      request,
      admin,
      `/admin/user/customers/${r.user.id}/links`,
    );
    if (atOwn.meta.totalCount === 0 && !links.some((l) => l.partnerId === ownId)) {
      otherReward = r;
      break;
    }
  }
  expect(otherReward, 'a customer of the other partner only').toBeDefined();
  const visits = await apiGet<Page1<{ id: number }>>(
    request,
    admin,
    `/admin/partners/visits?partnerId=${otherId}&pageSize=10`,
  );
  world = {
    ownId,
    otherId,
    customer: {
      id: holder.id,
      first: holder.firstName,
      name: `${holder.firstName} ${holder.lastName}`,
      email,
    },
    reward,
    stranger: {
      id: otherReward!.user.id,
      name: `${otherReward!.user.firstName} ${otherReward!.user.lastName}`,
    },
    otherReward: otherReward!,
    otherVisitId: visits.records[0]!.id,
  };
});

test('partner staff see only their partner', async ({ page, request }) => {
  await signIn(page, STAFF);
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Redeem Reward' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Partner', exact: true })).toHaveCount(0);

  // Another partner's pages: the partner detail is 'not found' (nothing of it shown), a visit there too.
  await page.goto(`/dashboard/partners/${world.otherId}?activeTab=rewards`);
  await expect(page.getByRole('heading', { name: 'Partner not found' })).toBeVisible();
  await expect(page.getByText(OTHER)).toHaveCount(0);
  await expect(page.getByRole('table', { name: 'Rewards' })).toHaveCount(0);
  await page.goto(`/dashboard/visits/${world.otherVisitId}`);
  await expect(page.getByRole('alert')).toContainText('Visit not found');

  // Their figures are their partner's, not the club's.
  const admin = await login(request, DEMO_ADMIN);
  const own = await apiGet<{ totalRedeemed: number }>(
    request,
    admin,
    `/partners/rewards/redeemed-giftcard-balance?partnerId=${world.ownId}`,
  );
  const club = await apiGet<{ totalRedeemed: number }>(
    request,
    admin,
    '/partners/rewards/redeemed-giftcard-balance',
  );
  expect(own.totalRedeemed).toBeLessThan(club.totalRedeemed);
  await page.goto('/dashboard/rewards');
  const balance = page.getByRole('region', { name: 'Gift-card balance' });
  await expect(balance).toContainText(naira(own.totalRedeemed));
  await expect(balance).not.toContainText(naira(club.totalRedeemed));

  // The guided redemption finds their partner's customers only.
  await page.goto('/dashboard/redeem');
  await page.getByLabel('Customer name or email').fill(world.stranger.name);
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByRole('list', { name: 'Customers' }).getByRole('listitem')).toHaveCount(0);
  await page.getByLabel('Customer name or email').fill(world.customer.name);
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByRole('list', { name: 'Customers' })).toContainText(world.customer.name);

  // Reward lookups with their own credentials: another partner's reward is 'not found'.
  const staff = await login(request, STAFF);
  const auth = { authorization: `Bearer ${staff}` };
  // A customer not linked to their partner: the one refusal of decision 053, which says nothing of
  // the reward.
  const byCode = await request.post(`${API}/partners/rewards/get-reward`, {
    headers: auth,
    data: { userId: world.stranger.id, code: world.otherReward.code },
  });
  expect(byCode.status()).toBe(403);
  expect((await byCode.json()).code).toBe('customer_not_linked');
  const lookups = [
    await request.get(`${API}/partners/rewards/${world.otherReward.id}/ledger`, { headers: auth }),
    await request.get(`${API}/admin/partners/rewards?partnerId=${world.otherId}`, { headers: auth }),
    await request.get(`${API}/partners/rewards/customers?partnerId=${world.otherId}`, { headers: auth }),
  ];
  for (const res of lookups) {
    expect(res.status(), res.url()).toBe(404);
    expect((await res.json()).success).toBe(false);
  }
  // Their own reward is found.
  const mine = await request.post(`${API}/partners/rewards/get-reward`, {
    headers: auth,
    data: { userId: world.customer.id, code: world.reward.code },
  });
  expect(mine.status()).toBe(200);
  console.log(`partner staff: ${lookups.length} lookups of another partner's data, all 404`);
});

test('guided redemption end to end: reload mid-flow resumes, offline sends nothing, receipt', async ({
  page,
  context,
}) => {
  const timings: [string, number][] = [];
  let mark = Date.now();
  const step = (name: string) => {
    const now = Date.now();
    timings.push([name, now - mark]);
    mark = now;
  };
  await signIn(page, STAFF);
  await page.goto('/dashboard/redeem');
  await expect(currentStep(page)).toHaveText('1. Find customer');
  step('open');

  // 1. Find customer.
  await page.getByLabel('Customer name or email').fill(world.customer.name);
  await page.getByRole('button', { name: 'Search' }).click();
  const hit = page
    .getByRole('list', { name: 'Customers' })
    .getByRole('listitem')
    .filter({ hasText: world.customer.name });
  await expect(hit).toContainText('***@');
  await hit.getByRole('button', { name: 'Choose' }).click();
  step('find customer');

  // 2. Pick reward.
  await expect(currentStep(page)).toHaveText('2. Pick reward');
  const card = page
    .getByRole('list', { name: 'Rewards' })
    .getByRole('listitem')
    .filter({ hasText: world.reward.code });
  await expect(card).toContainText(naira(4000));
  await card.getByRole('button', { name: 'Choose' }).click();
  step('pick reward');

  // 3. Send code.
  await expect(currentStep(page)).toHaveText('3. Send code');
  const mailsBefore = mailsTo(MAIN_DATA_DIR, world.customer.email);
  await page.getByRole('button', { name: 'Send code' }).click();
  await expect(currentStep(page)).toHaveText('4. Enter code');
  await expect
    .poll(() => mailsTo(MAIN_DATA_DIR, world.customer.email), { message: 'the code mail' })
    .toBeGreaterThan(mailsBefore);
  const code = await latestMailedCode(MAIN_DATA_DIR, world.customer.email, OTP_PATTERN);
  step('send code');

  // A reload mid-flow resumes at the same step, with the same customer and reward.
  await page.reload();
  await expect(currentStep(page)).toHaveText('4. Enter code');
  await expect(page.getByRole('group', { name: 'One-time code' })).toBeVisible();
  step('reload');

  // 4. Enter code (typed into the six boxes).
  await page.getByRole('textbox', { name: 'Digit 1 of 6' }).click();
  await page.keyboard.type(code);
  await page.getByRole('button', { name: 'Submit' }).click();
  step('enter code');

  // 5. Amount.
  await expect(currentStep(page)).toHaveText('5. Amount');
  await page.getByLabel('Amount to redeem').fill('1500');
  await page.getByRole('button', { name: 'Next' }).click();
  step('amount');

  // 6. Confirm, first offline: refused with the message, nothing sent.
  await expect(currentStep(page)).toHaveText('6. Confirm');
  await expect(page.getByText(`Redeem ${world.reward.code} for ${naira(1500)}`)).toBeVisible();
  const offlineRequests: string[] = [];
  let offline = false;
  page.on('request', (r) => {
    if (offline && r.url().includes('/api/v1')) offlineRequests.push(`${r.method()} ${r.url()}`);
  });
  await context.setOffline(true);
  offline = true;
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByRole('alert')).toHaveText(rewardMessages.networkRequired);
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByRole('alert')).toHaveText(rewardMessages.networkRequired);
  offline = false;
  await context.setOffline(false);
  expect(offlineRequests, 'requests to /api/v1 while offline').toEqual([]);
  console.log(`offline redemption attempts: 2, requests to /api/v1 while offline: ${offlineRequests.length}`);
  step('offline refusal');

  // Back online: confirm.
  await page.getByRole('button', { name: 'Confirm' }).click();
  step('confirm');

  // 7. Receipt, and the reward's history without a Reverse action (the role lacks rewards.reverse).
  await expect(currentStep(page)).toHaveText('7. Receipt');
  await expect(page.getByRole('heading', { name: 'Gift card redeemed successfully' })).toBeVisible();
  await expect(
    page
      .locator('dd')
      .filter({ hasText: naira(2500) })
      .first(),
  ).toBeVisible();
  await expect(page.getByTestId('ledger-balance')).toHaveText(`Balance ${naira(2500)} · Active`);
  const history = page.getByRole('table', { name: `Ledger of ${world.reward.code}` });
  await expect(history.getByRole('row').filter({ hasText: 'Redeemed' })).toContainText(`-${naira(1500)}`);
  await expect(history.getByRole('row').filter({ hasText: 'Redeemed' })).toContainText('Segun Adeyemi');
  await expect(history.getByRole('button', { name: 'Reverse' })).toHaveCount(0);
  step('receipt');

  const walked = timings.filter(([n]) => !['open', 'reload', 'offline refusal'].includes(n)).length;
  console.log(
    `guided redemption: ${walked} steps walked in ${timings.reduce((a, [, ms]) => a + ms, 0)} ms; ` +
      timings.map(([n, ms]) => `${n} ${ms} ms`).join(', '),
  );
});
