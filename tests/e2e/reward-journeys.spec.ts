import { readdirSync, readFileSync } from 'node:fs';
import { type APIRequestContext, type BrowserContext, expect, type Page, test } from '@playwright/test';
import { TINY_PNG } from '../model/flow-paths';
import { DEMO_ADMIN, E2E_BASE_URL, MAIN_DATA_DIR } from './support/env';
import { firstOfActiveCustomer, naira } from './support/fixtures';

/**
 * Reward journeys end to end, with what the flow walk (`npm run test:flows`, decision 026) does not
 * look at after a path: the issued gift card's default amount and the Rewards tab refreshed at once,
 * the real server's wrong-code answer, the balance left after a partial redemption, and a coupon
 * that cannot be redeemed twice. (Moved from tests/e2e/flows.spec.ts when its model run of the
 * redeem and issue paths became the walk.)
 */

const PARTNER = 'Eko Grill House';
const API = `${E2E_BASE_URL}/api/v1`;
const OTP_PATTERN = /redemption code is: (\d{6})/;
const PNG = Buffer.from(TINY_PNG, 'base64');

// ---- Setup through the API (what the journeys need, not what they check) -----------------------------

interface World {
  partnerId: number;
  customer: { id: number; name: string; email: string };
}

async function login(request: APIRequestContext) {
  const res = await request.post(`${API}/admin/auth/login`, { data: DEMO_ADMIN });
  expect(res.ok(), `sign-in: ${res.status()} ${await res.text()}`).toBe(true);
  return (await res.json()).data as { accessToken: string };
}

async function apiGet<T>(request: APIRequestContext, token: string, path: string): Promise<T> {
  const res = await request.get(`${API}${path}`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.ok(), `${path}: ${res.status()}`).toBe(true);
  return (await res.json()).data as T;
}

async function findWorld(request: APIRequestContext): Promise<World> {
  const { accessToken } = await login(request);
  const partners = await apiGet<{ records: { id: number; organizationName: string }[] }>(
    request,
    accessToken,
    `/admin/partners?status=ACTIVE&searchText=${encodeURIComponent(PARTNER)}`,
  );
  const partnerId = partners.records.find((p) => p.organizationName === PARTNER)!.id;
  const eligible = await apiGet<{
    records: { user: { id: number; firstName: string; lastName: string }; isEligible: boolean }[];
  }>(request, accessToken, `/admin/partners/visits/reward-eligible-users?partnerId=${partnerId}`);
  // An eligible customer whose account is active (issue 16, defect 11: never just the first).
  const found = await firstOfActiveCustomer(
    request,
    accessToken,
    eligible.records.filter((u) => u.isEligible),
    (u) => u.user.id,
  );
  expect(found, `an eligible, active customer at ${PARTNER}`).toBeTruthy();
  const first = found!.candidate.user;
  return {
    partnerId,
    customer: { id: first.id, name: `${first.firstName} ${first.lastName}`, email: found!.email },
  };
}

/** A fresh reward for one path (a coupon is single use, a gift card's balance is the model's 5,000). */
async function issueFresh(
  request: APIRequestContext,
  world: World,
  rewardType: 'GIFTCARD' | 'COUPON',
  issuedAmount = 5000,
): Promise<{ code: string; balance: number | null }> {
  const { accessToken } = await login(request);
  const res = await request.post(`${API}/partners/rewards/issue-reward`, {
    headers: { authorization: `Bearer ${accessToken}`, 'Idempotency-Key': crypto.randomUUID() },
    data: {
      rewardType,
      ...(rewardType === 'GIFTCARD' ? { issuedAmount } : { percentageDiscount: 10 }),
      title: `Model run ${rewardType}`,
      description: 'Issued for the Playwright model run',
      promotionalImage: TINY_PNG,
      issuedTo: world.customer.id,
      partnerId: world.partnerId,
    },
  });
  expect(res.ok(), await res.text()).toBe(true);
  const reward = (await res.json()).data as { code: string; balance: number | null };
  return reward;
}

async function signInFast(context: BrowserContext, request: APIRequestContext) {
  const res = await request.post(`${API}/admin/auth/login`, { data: DEMO_ADMIN });
  const session = JSON.stringify((await res.json()).data);
  await context.addInitScript((s) => {
    if (!localStorage.getItem('admin')) localStorage.setItem('admin', s);
  }, session);
}

// ---- Mail: the code the server mailed the customer -----------------------------------------------

const mailFiles = () => {
  try {
    return readdirSync(`${MAIN_DATA_DIR}/mail`).filter((f) => f.endsWith('.eml'));
  } catch {
    return [];
  }
};

/** The code in the first mail to `to` that was not in `before` (the outbox may deliver a bit later). */
async function newMailedCode(to: string, before: Set<string>): Promise<string> {
  let code = '';
  await expect
    .poll(
      () => {
        for (const file of mailFiles().sort().reverse()) {
          if (before.has(file)) continue;
          const text = readFileSync(`${MAIN_DATA_DIR}/mail/${file}`, 'utf8');
          const match = text.toLowerCase().includes(to.toLowerCase()) ? text.match(OTP_PATTERN) : null;
          if (match?.[1]) {
            code = match[1];
            return true;
          }
        }
        return false;
      },
      { message: `a code mailed to ${to}` },
    )
    .toBe(true);
  return code;
}

const wrongCodeFor = (code: string) => code.replace(/\d$/, (d) => String((Number(d) + 1) % 10));

async function typeCode(page: Page, code: string) {
  const group = page.getByRole('group', { name: 'One-time code' });
  await group.getByRole('textbox', { name: 'Digit 1 of 6' }).click();
  await page.keyboard.type(code);
  await page.getByRole('dialog').getByRole('button', { name: 'Submit' }).click();
}

let world: World;

test.beforeAll(async ({ playwright }) => {
  const request = await playwright.request.newContext();
  world = await findWorld(request);
  await request.dispose();
});

const partnerTab = (w: World, tab: 'rewards' | 'eligible') =>
  `/dashboard/partners/${w.partnerId}?activeTab=${tab}`;

test.describe('reward journeys', () => {
  test.beforeEach(async ({ context, request }) => {
    await signInFast(context, request);
  });

  test('a gift card is issued from the Eligible users tab', async ({ page }) => {
    await page.goto(partnerTab(world, 'eligible'));
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
    // The partner's Rewards tab shows it at once (its query was marked stale).
    await page.goto(partnerTab(world, 'rewards'));
    await expect(page.getByRole('table', { name: 'Rewards' }).getByRole('row').nth(1)).toContainText(
      naira(2000),
    );
  });

  test('part of a gift card is redeemed with the mailed code, a wrong code first', async ({
    page,
    request,
  }) => {
    const { code } = await issueFresh(request, world, 'GIFTCARD', 5000);
    await page.goto(partnerTab(world, 'rewards'));
    const before = new Set(mailFiles());
    await page.getByRole('button', { name: `Redeem ${code}` }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByRole('group', { name: 'One-time code' })).toBeVisible();
    const mailed = await newMailedCode(world.customer.email, before);

    await typeCode(page, wrongCodeFor(mailed));
    await expect(dialog.getByRole('alert')).toContainText('The code is not correct. 4 attempts left.');
    // A wrong code empties the boxes; the right one is typed from the first box.
    await typeCode(page, mailed);

    await dialog.getByLabel('Amount to redeem').fill('1250.50');
    await dialog.getByRole('button', { name: 'Redeem', exact: true }).click();
    await expect(page.getByText('Gift card redeemed successfully')).toBeVisible();
    await expect(page).toHaveURL(/\/dashboard\/rewards$/);
    await expect(page.getByRole('dialog')).toHaveCount(0);

    // The balance dropped in the partner's Rewards tab.
    await page.goto(partnerTab(world, 'rewards'));
    const row = page.getByRole('row').filter({ has: page.getByRole('button', { name: `Redeem ${code}` }) });
    await expect(row).toContainText(naira(3749.5));
  });

  test('a coupon is redeemed once', async ({ page, request }) => {
    const { code } = await issueFresh(request, world, 'COUPON');
    await page.goto(partnerTab(world, 'rewards'));
    const before = new Set(mailFiles());
    await page.getByRole('button', { name: `Redeem ${code}` }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByRole('group', { name: 'One-time code' })).toBeVisible();
    await typeCode(page, await newMailedCode(world.customer.email, before));
    await expect(dialog.getByText('Redeem this coupon now?')).toBeVisible();
    await dialog.getByRole('button', { name: 'Redeem', exact: true }).click();
    await expect(page.getByText('Coupon redeemed successfully')).toBeVisible();
    await expect(page).toHaveURL(/\/dashboard\/rewards$/);
    // Redeemed: no Redeem action any more.
    await page.goto(partnerTab(world, 'rewards'));
    await expect(page.getByRole('table', { name: 'Rewards' }).getByRole('row').nth(1)).toBeVisible();
    await expect(page.getByRole('button', { name: `Redeem ${code}` })).toHaveCount(0);
  });
});
