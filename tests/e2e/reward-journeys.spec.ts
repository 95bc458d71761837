import { type APIRequestContext, type BrowserContext, expect, type Page, test } from '@playwright/test';
import { TINY_PNG } from '../model/flow-paths';
import { adminToken, apiCall, freshPartner, isServable } from './support/admin-api';
import { DEMO_ADMIN, E2E_BASE_URL, MAIN_DATA_DIR } from './support/env';
import { latestMailedCode, mailsTo, naira } from './support/fixtures';

/**
 * What the flow walk (npm run test:flows, decision 026) does not check, on the e2e server: the issue
 * form's default amount and the Rewards tab showing the new reward at once, the real server's answer
 * to a wrong code, the balance after a partial redemption, a coupon not redeemable twice. The machines'
 * paths themselves (every state and transition, offline refusals) are the walk's.
 * Each test makes its own partner, visit and rewards through the API; nothing seeded is relied on
 * but an active customer with an email address (the API cannot create customers).
 */

const API = `${E2E_BASE_URL}/api/v1`;
const OTP_PATTERN = /redemption code is: (\d{6})/;
const PNG = Buffer.from(TINY_PNG, 'base64');

interface World {
  token: string;
  partnerId: number;
  customer: { id: number; name: string; email: string };
}

/** A partner of this spec's own and an active customer made eligible there by a visit. */
async function makeWorld(request: APIRequestContext): Promise<World> {
  const token = await adminToken(request);
  const partner = await freshPartner(request, token, 'Journeys Grill', 'journeys');
  const customers = await apiCall<{
    records: { id: number; firstName: string; lastName: string; email: string; erasedAt?: string }[];
  }>(request, token, 'GET', '/admin/user/customers?status=ACTIVE&pageSize=50&pageNumber=1');
  const customer = customers.records.find(isServable);
  expect(customer, 'an active customer with an email address').toBeTruthy();
  await apiCall(request, token, 'POST', '/user/visits', {
    partnerId: partner.id,
    customerId: customer!.id,
    attendantName: 'Journeys',
    visitDate: new Date().toISOString(),
    items: [{ name: 'Dinner for two', quantity: 1, price: 12_000 }],
  });
  return {
    token,
    partnerId: partner.id,
    customer: {
      id: customer!.id,
      name: `${customer!.firstName} ${customer!.lastName}`,
      email: customer!.email,
    },
  };
}

async function issueFresh(request: APIRequestContext, world: World, rewardType: 'GIFTCARD' | 'COUPON') {
  const res = await request.post(`${API}/partners/rewards/issue-reward`, {
    headers: { authorization: `Bearer ${world.token}`, 'Idempotency-Key': crypto.randomUUID() },
    data: {
      rewardType,
      ...(rewardType === 'GIFTCARD' ? { issuedAmount: 5000 } : { percentageDiscount: 10 }),
      title: `Journeys ${rewardType}`,
      description: 'Issued for the reward journeys',
      promotionalImage: TINY_PNG,
      issuedTo: world.customer.id,
      partnerId: world.partnerId,
    },
  });
  expect(res.ok(), await res.text()).toBe(true);
  return (await res.json()).data as { code: string };
}

async function signInFast(context: BrowserContext, request: APIRequestContext) {
  const res = await request.post(`${API}/admin/auth/login`, { data: DEMO_ADMIN });
  const session = JSON.stringify((await res.json()).data);
  await context.addInitScript((s) => {
    if (!localStorage.getItem('admin')) localStorage.setItem('admin', s);
  }, session);
}

/** Opens the reward's redeem dialog and returns the code then mailed to the customer. */
async function openRedeem(page: Page, world: World, code: string): Promise<string> {
  await page.goto(`/dashboard/partners/${world.partnerId}?activeTab=rewards`);
  const before = mailsTo(MAIN_DATA_DIR, world.customer.email);
  await page.getByRole('button', { name: `Redeem ${code}` }).click();
  await expect(page.getByRole('dialog').getByRole('group', { name: 'One-time code' })).toBeVisible();
  await expect.poll(() => mailsTo(MAIN_DATA_DIR, world.customer.email)).toBeGreaterThan(before);
  return latestMailedCode(MAIN_DATA_DIR, world.customer.email, OTP_PATTERN);
}

async function typeCode(page: Page, code: string) {
  const group = page.getByRole('group', { name: 'One-time code' });
  await group.getByRole('textbox', { name: 'Digit 1 of 6' }).click();
  await page.keyboard.type(code);
  await page.getByRole('dialog').getByRole('button', { name: 'Submit' }).click();
}

const wrongCodeFor = (code: string) => code.replace(/\d$/, (d) => String((Number(d) + 1) % 10));

let world: World;

test.beforeAll(async ({ playwright }) => {
  const request = await playwright.request.newContext();
  world = await makeWorld(request);
  await request.dispose();
});

test.beforeEach(async ({ context, request }) => {
  await signInFast(context, request);
});

test('a gift card is issued with the default amount and shows in the Rewards tab at once', async ({
  page,
}) => {
  await page.goto(`/dashboard/partners/${world.partnerId}?activeTab=eligible`);
  await page
    .getByRole('button', { name: `Issue Reward to ${world.customer.name}` })
    .first()
    .click();
  const dialog = page.getByRole('dialog', { name: 'Issue Reward' });
  await dialog.getByLabel('Reward type').selectOption('GIFTCARD');
  await expect(dialog.getByLabel('Issued amount (₦)')).toHaveValue('2000');
  await dialog.getByLabel('Title').fill('Thank you gift');
  await dialog.getByLabel('Description').fill('For dining with us this month');
  await dialog
    .getByLabel('Promotional image')
    .setInputFiles({ name: 'p.png', mimeType: 'image/png', buffer: PNG });
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Reward successfully issued')).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard\/eligibility$/);
  // The partner's Rewards tab shows it at once (its query was marked stale); the partner has no other.
  await page.goto(`/dashboard/partners/${world.partnerId}?activeTab=rewards`);
  const rows = page
    .getByRole('table', { name: 'Rewards' })
    .getByRole('row')
    .filter({ has: page.getByRole('button', { name: /^History of / }) });
  await expect(rows).toHaveCount(1, { timeout: 30_000 });
  await expect(rows).toContainText(naira(2000));
});

test('part of a gift card is redeemed with the mailed code after a wrong one; the balance drops', async ({
  page,
  request,
}) => {
  const { code } = await issueFresh(request, world, 'GIFTCARD');
  const mailed = await openRedeem(page, world, code);
  const dialog = page.getByRole('dialog');

  // The real server's answer to a wrong code.
  await typeCode(page, wrongCodeFor(mailed));
  await expect(dialog.getByRole('alert')).toContainText('The code is not correct. 4 attempts left.');
  // A wrong code empties the boxes; the right one is typed from the first box.
  await typeCode(page, mailed);

  await dialog.getByLabel('Amount to redeem').fill('1250.50');
  await dialog.getByRole('button', { name: 'Redeem', exact: true }).click();
  await expect(page.getByText('Gift card redeemed successfully')).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard\/rewards$/);
  await expect(page.getByRole('dialog')).toHaveCount(0);

  await page.goto(`/dashboard/partners/${world.partnerId}?activeTab=rewards`);
  const row = page.getByRole('row').filter({ has: page.getByRole('button', { name: `Redeem ${code}` }) });
  // After the reload the saved list shows first and is fetched again (slow on a busy machine).
  await expect(row).toContainText(naira(3749.5), { timeout: 30_000 });
});

test('a coupon is redeemed once', async ({ page, request }) => {
  const { code } = await issueFresh(request, world, 'COUPON');
  const mailed = await openRedeem(page, world, code);
  const dialog = page.getByRole('dialog');
  await typeCode(page, mailed);
  await expect(dialog.getByText('Redeem this coupon now?')).toBeVisible();
  await dialog.getByRole('button', { name: 'Redeem', exact: true }).click();
  await expect(page.getByText('Coupon redeemed successfully')).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard\/rewards$/);
  // Redeemed: its row stays, without a Redeem action.
  await page.goto(`/dashboard/partners/${world.partnerId}?activeTab=rewards`);
  await expect(page.getByRole('button', { name: `History of ${code}` })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('button', { name: `Redeem ${code}` })).toHaveCount(0);
});
