import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { TINY_PNG } from '../model/flow-paths';
import { DEMO_ADMIN, E2E_PORT, E2E_TMP } from './support/env';
import { latestMailedCode, mailsTo, naira, signIn } from './support/fixtures';
import { type RunningServer, startServer } from './support/server';

/**
 * Issue 17, defect 5: money after a lost reply, in the browser against the real server. A reply is
 * lost as on a bad link: the request reaches the server (route.fetch) and its answer never reaches
 * the SPA (route.abort). Whatever the cashier does next (Back then Confirm, a reload, Start over and
 * a new code; Submit again, a new form), the reward's ledger, read through the API, holds one charge
 * (one reward issued), and the screen says plainly that it went through.
 */

const PORT = E2E_PORT + 7;
const DATA_DIR = `${E2E_TMP}lost-replies`;
const API = `http://127.0.0.1:${PORT}/api/v1`;
const CASHIER = { email: 'segun.adeyemi@ekogrillhouse.com.ng', password: 'Staff#2026' };
const OTP_PATTERN = /redemption code is: (\d{6})/;
const REDEEM = /\/api\/v1\/partners\/rewards\/redeem-giftcard$/;
const ISSUE = /\/api\/v1\/partners\/rewards\/issue-reward$/;
const PNG = Buffer.from(TINY_PNG, 'base64');

let server: RunningServer;
let admin = '';
let partnerId = 0;
let customer = { id: 0, name: '', email: '' };

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function login(request: APIRequestContext, creds: { email: string; password: string }) {
  const res = await request.post(`${API}/admin/auth/login`, { data: creds });
  expect(res.ok(), `sign-in ${creds.email}: ${res.status()}`).toBe(true);
  return (await res.json()).data as { accessToken: string; user: { partnerId: number | null } };
}

async function apiGet<T>(request: APIRequestContext, path: string): Promise<T> {
  const res = await request.get(`${API}${path}`, { headers: bearer(admin) });
  expect(res.ok(), `${path}: ${res.status()}`).toBe(true);
  return (await res.json()).data as T;
}

type Row = {
  id: number;
  code: string;
  title: string;
  user: { id: number; firstName: string; lastName: string };
};

/** A fresh ₦5,000 gift card of the customer's at the cashier's partner. */
async function freshGiftcard(request: APIRequestContext): Promise<Row> {
  const res = await request.post(`${API}/partners/rewards/issue-reward`, {
    headers: { ...bearer(admin), 'Idempotency-Key': crypto.randomUUID() },
    data: {
      rewardType: 'GIFTCARD',
      issuedAmount: 5000,
      title: 'Lost reply gift card',
      description: 'For the lost-replies spec',
      promotionalImage: TINY_PNG,
      issuedTo: customer.id,
      partnerId,
    },
  });
  expect(res.ok(), await res.text()).toBe(true);
  return (await res.json()).data as Row;
}

/** The reward's ledger through the API: its balance and its REDEEM entries. */
async function ledger(request: APIRequestContext, rewardId: number) {
  const data = await apiGet<{ reward: { balance: number }; entries: { kind: string; amount: number }[] }>(
    request,
    `/partners/rewards/${rewardId}/ledger`,
  );
  return {
    balance: data.reward.balance,
    charges: data.entries.filter((e) => e.kind === 'REDEEM').map((e) => e.amount),
  };
}

/** The next call to `url` reaches the server; its reply is lost. */
const loseNextReply = (page: Page, url: RegExp) =>
  page.route(
    url,
    async (route) => {
      await route.fetch();
      await route.abort('connectionreset');
    },
    { times: 1 },
  );

test.beforeAll(async ({ request }) => {
  server = await startServer({ port: PORT, dataDir: DATA_DIR });
  admin = (await login(request, DEMO_ADMIN)).accessToken;
  partnerId = (await login(request, CASHIER)).user.partnerId ?? 0;
  expect(partnerId).toBeGreaterThan(0);
  // A customer of the partner's (holds a reward there, so the guided search finds them), active.
  const rewards = await apiGet<{ records: Row[] }>(
    request,
    `/admin/partners/rewards?partnerId=${partnerId}&pageSize=100`,
  );
  for (const holder of new Map(rewards.records.map((r) => [r.user.id, r.user])).values()) {
    const c = await apiGet<{ email: string; accountStatus: string }>(
      request,
      `/admin/user/customers/${holder.id}`,
    );
    if (c.accountStatus !== 'ACTIVE') continue;
    customer = { id: holder.id, name: `${holder.firstName} ${holder.lastName}`, email: c.email };
    break;
  }
  expect(customer.id, 'an active customer holding a reward at the partner').toBeGreaterThan(0);
});
test.afterAll(async () => {
  await server?.stop();
});
test.use({ baseURL: `http://127.0.0.1:${PORT}` });

const step = (page: Page) => page.getByRole('list', { name: 'Steps' }).locator('[aria-current="step"]');

/** The guided flow from Find customer to Confirm for `code`, `amount`; returns the mailed code. */
async function guidedToConfirm(page: Page, code: string, amount: number) {
  await expect(step(page)).toHaveText('1. Find customer');
  await page.getByLabel('Customer name or email').fill(customer.email);
  await page.getByRole('button', { name: 'Search' }).click();
  await page
    .getByRole('list', { name: 'Customers' })
    .getByRole('listitem')
    .filter({ hasText: customer.name })
    .getByRole('button', { name: 'Choose' })
    .click();
  await page
    .getByRole('list', { name: 'Rewards' })
    .getByRole('listitem')
    .filter({ hasText: code })
    .getByRole('button', { name: 'Choose' })
    .click();
  const before = mailsTo(DATA_DIR, customer.email);
  await page.getByRole('button', { name: 'Send code' }).click();
  await expect(step(page)).toHaveText('4. Enter code');
  await expect
    .poll(() => mailsTo(DATA_DIR, customer.email), { message: 'the code mail' })
    .toBeGreaterThan(before);
  const otp = await latestMailedCode(DATA_DIR, customer.email, OTP_PATTERN);
  await page.getByRole('textbox', { name: 'Digit 1 of 6' }).click();
  await page.keyboard.type(otp);
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(step(page)).toHaveText('5. Amount');
  await page.getByLabel('Amount to redeem').fill(String(amount));
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(step(page)).toHaveText('6. Confirm');
}

/** Confirm with the redeem reply lost: the screen says it may have gone through; it did, once. */
async function confirmLosingReply(page: Page, request: APIRequestContext, rewardId: number) {
  await loseNextReply(page, REDEEM);
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByRole('alert')).toContainText(
    'No answer from the server: the redemption may have gone through',
  );
  expect(await ledger(request, rewardId)).toEqual({ balance: 4300, charges: [-700] });
}

async function expectWentThrough(page: Page, request: APIRequestContext, rewardId: number) {
  await expect(step(page)).toHaveText('7. Receipt');
  await expect(page.getByRole('heading', { name: 'Redeemed: it went through' })).toBeVisible();
  const receipt = page.getByLabel('Receipt');
  await expect(receipt).toContainText(naira(700));
  await expect(receipt).toContainText(naira(4300));
  expect(await ledger(request, rewardId)).toEqual({ balance: 4300, charges: [-700] });
}

test.describe('guided redemption: the redeem reply is lost, one charge whatever the cashier does next', () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page, CASHIER);
    await page.goto('/dashboard/redeem');
  });

  test('Back, then Confirm again', async ({ page, request }) => {
    const card = await freshGiftcard(request);
    await guidedToConfirm(page, card.code, 700);
    await confirmLosingReply(page, request, card.id);
    await page.getByRole('button', { name: 'Back' }).click();
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expectWentThrough(page, request, card.id);
  });

  test('a reload, then Confirm (no code asked: the open attempt carries it)', async ({ page, request }) => {
    const card = await freshGiftcard(request);
    await guidedToConfirm(page, card.code, 700);
    await confirmLosingReply(page, request, card.id);
    await page.reload();
    await expect(step(page)).toHaveText('6. Confirm');
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expectWentThrough(page, request, card.id);
  });

  test('Start over, a new code and another amount', async ({ page, request }) => {
    const card = await freshGiftcard(request);
    await guidedToConfirm(page, card.code, 700);
    await confirmLosingReply(page, request, card.id);
    await page.getByRole('button', { name: 'Start over' }).click();
    await guidedToConfirm(page, card.code, 900);
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expectWentThrough(page, request, card.id);
  });
});

test.describe('issuing a reward: the issue reply is lost, one reward issued', () => {
  let eligible = { name: '', id: 0 };
  test.beforeAll(async ({ request }) => {
    const list = await apiGet<{
      records: { user: { id: number; firstName: string; lastName: string }; isEligible: boolean }[];
    }>(request, `/admin/partners/visits/reward-eligible-users?partnerId=${partnerId}`);
    for (const u of list.records.filter((r) => r.isEligible)) {
      const c = await apiGet<{ accountStatus: string }>(request, `/admin/user/customers/${u.user.id}`);
      if (c.accountStatus !== 'ACTIVE') continue;
      eligible = { id: u.user.id, name: `${u.user.firstName} ${u.user.lastName}` };
      break;
    }
    expect(eligible.id, 'an eligible, active customer').toBeGreaterThan(0);
  });

  const issuedTitled = async (request: APIRequestContext, title: string) =>
    (
      await apiGet<{ records: Row[] }>(
        request,
        `/admin/partners/rewards?partnerId=${partnerId}&userId=${eligible.id}&pageSize=100`,
      )
    ).records.filter((r) => r.title === title).length;

  async function openForm(page: Page, title: string) {
    await page.goto(`/dashboard/partners/${partnerId}?activeTab=eligible`);
    await page
      .getByRole('button', { name: `Issue Reward to ${eligible.name}` })
      .first()
      .click();
    const form = page.getByRole('form', { name: 'Issue reward' });
    await form.getByLabel('Reward type').selectOption('GIFTCARD');
    await form.getByLabel('Title').fill(title);
    await form.getByLabel('Description').fill('For the lost-replies spec');
    await form
      .getByLabel('Promotional image')
      .setInputFiles({ name: 'p.png', mimeType: 'image/png', buffer: PNG });
    return form;
  }

  for (const next of ['Submit again', 'a new form after a reload'] as const) {
    test(`${next}`, async ({ page, request }) => {
      await signIn(page);
      const title = `Lost reply ${next} ${Date.now()}`;
      let form = await openForm(page, title);
      await loseNextReply(page, ISSUE);
      await form.getByRole('button', { name: 'Submit' }).click();
      await expect(form.getByRole('alert')).toContainText(
        'No answer from the server: the reward may have been issued',
      );
      expect(await issuedTitled(request, title)).toBe(1);
      if (next === 'a new form after a reload') {
        await page.reload();
        form = await openForm(page, `${title} (typed again)`);
      }
      await form.getByRole('button', { name: 'Submit' }).click();
      await expect(page.getByText('Reward issued: it went through')).toBeVisible();
      await expect(page).toHaveURL(/\/dashboard\/eligibility$/);
      expect(await issuedTitled(request, title)).toBe(1);
      expect(await issuedTitled(request, `${title} (typed again)`)).toBe(0);
    });
  }
});
