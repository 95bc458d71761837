import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { partnerInactiveMessages } from '../../contract/partners';
import { TINY_PNG } from '../model/flow-paths';
import { isServable } from './support/admin-api';
import { DEMO_ADMIN, E2E_BASE_URL, MAIN_DATA_DIR } from './support/env';
import { LINK_CODE_PATTERN, latestMailedCode, mailsTo, naira, signIn } from './support/fixtures';

/**
 * Issue 16, the partner workspace: a seeded partner cashier (Segun Adeyemi, Staff#2026) on a phone
 * (375 px) does the day — records a visit with a receipt photo, issues a reward to the customer that
 * visit made eligible, redeems part of that gift card and a coupon through the guided flow (with a
 * reload at Confirm), and sees the history; the same cashier is refused another partner in the UI
 * and the API. Every record is chosen by what the test needs (an active customer of this partner,
 * rewards it issues itself), never by position or by today's date.
 */

const API = `${E2E_BASE_URL}/api/v1`;
const CASHIER = { email: 'segun.adeyemi@ekogrillhouse.com.ng', password: 'Staff#2026' };
const OTP_PATTERN = /redemption code is: (\d{6})/;

const PNG = Buffer.from(TINY_PNG, 'base64');
/** Amounts no seeded row has, so the rows the test made are found by them. */
const GIFT_AMOUNT = 7300;
const PART = 2500;
const COUPON_PERCENT = 17;
const VISIT = { item: 'Workday platter', quantity: 10, price: 50_000 };

type Page1<T> = { records: T[]; meta: { totalCount: number } };
interface RewardRow {
  id: number;
  code: string;
  status: string;
  rewardType: string;
  user: { id: number; firstName: string; lastName: string };
}

async function login(request: APIRequestContext, creds: { email: string; password: string }) {
  const res = await request.post(`${API}/admin/auth/login`, { data: creds });
  expect(res.ok(), `sign-in ${creds.email}: ${res.status()}`).toBe(true);
  return (await res.json()).data as { accessToken: string; user: { partnerId: number | null } };
}
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function apiGet<T>(request: APIRequestContext, token: string, path: string): Promise<T> {
  const res = await request.get(`${API}${path}`, { headers: bearer(token) });
  expect(res.ok(), `${path}: ${res.status()} ${await res.text()}`).toBe(true);
  return (await res.json()).data as T;
}

interface World {
  ownId: number;
  ownName: string;
  otherId: number;
  otherName: string;
  customer: { id: number; name: string; email: string };
  couponCode: string;
}
let world: World;

test.beforeAll(async ({ request }) => {
  const admin = (await login(request, DEMO_ADMIN)).accessToken;
  const ownId = (await login(request, CASHIER)).user.partnerId;
  expect(ownId, 'the cashier belongs to a partner').not.toBeNull();
  const own = await apiGet<{ organizationName: string; accountStatus: string }>(
    request,
    admin,
    `/admin/partners/${ownId}`,
  );
  expect(own.accountStatus).toBe('ACTIVE');
  // Another live partner: any one that is not the cashier's.
  const partners = await apiGet<Page1<{ id: number; organizationName: string }>>(
    request,
    admin,
    '/admin/partners?status=ACTIVE&pageSize=20',
  );
  const other = partners.records.find((p) => p.id !== ownId)!;
  // A customer the cashier can find (holds a reward at the partner) whose account is active.
  const rewards = await apiGet<Page1<RewardRow>>(
    request,
    admin,
    `/admin/partners/rewards?partnerId=${ownId}&pageSize=100`,
  );
  let customer: World['customer'] | undefined;
  for (const holder of new Map(rewards.records.map((r) => [r.user.id, r.user])).values()) {
    const c = await apiGet<{ email: string; accountStatus: string }>(
      request,
      admin,
      `/admin/user/customers/${holder.id}`,
    );
    if (c.accountStatus === 'ACTIVE') {
      customer = { id: holder.id, name: `${holder.firstName} ${holder.lastName}`, email: c.email };
      break;
    }
  }
  expect(customer, `an active customer holding a reward at ${own.organizationName}`).toBeDefined();
  // The coupon the cashier redeems later (issued here; the gift card is issued in the UI).
  const issued = await request.post(`${API}/partners/rewards/issue-reward`, {
    headers: { ...bearer(admin), 'Idempotency-Key': crypto.randomUUID() },
    data: {
      rewardType: 'COUPON',
      percentageDiscount: COUPON_PERCENT,
      title: 'Workday coupon',
      description: 'For the partner workday run',
      promotionalImage: TINY_PNG,
      issuedTo: customer!.id,
      partnerId: ownId,
    },
  });
  expect(issued.ok(), await issued.text()).toBe(true);
  world = {
    ownId: ownId!,
    ownName: own.organizationName,
    otherId: other.id,
    otherName: other.organizationName,
    customer: customer!,
    couponCode: ((await issued.json()).data as RewardRow).code,
  };
});

const currentStep = (page: Page) =>
  page.getByRole('list', { name: 'Steps' }).locator('[aria-current="step"]');

async function enterCode(page: Page, code: string) {
  await page.getByRole('textbox', { name: 'Digit 1 of 6' }).click();
  await page.keyboard.type(code);
  await page.getByRole('button', { name: 'Submit' }).click();
}

/** Guided redemption from the Find customer step to the code boxes; returns the mailed code. */
async function toCode(page: Page, rewardText: string | RegExp) {
  await expect(currentStep(page)).toHaveText('1. Find customer');
  await page.getByLabel('Customer name or email').fill(world.customer.email);
  await page.getByRole('button', { name: 'Search' }).click();
  await page
    .getByRole('list', { name: 'Customers' })
    .getByRole('listitem')
    .filter({ hasText: world.customer.name })
    .getByRole('button', { name: 'Choose' })
    .click();
  await page
    .getByRole('list', { name: 'Rewards' })
    .getByRole('listitem')
    .filter({ hasText: rewardText })
    .filter({ hasText: 'Active' })
    .first()
    .getByRole('button', { name: 'Choose' })
    .click();
  const before = mailsTo(MAIN_DATA_DIR, world.customer.email);
  await page.getByRole('button', { name: 'Send code' }).click();
  await expect(currentStep(page)).toHaveText('4. Enter code');
  await expect
    .poll(() => mailsTo(MAIN_DATA_DIR, world.customer.email), { message: 'the code mail' })
    .toBeGreaterThan(before);
  return latestMailedCode(MAIN_DATA_DIR, world.customer.email, OTP_PATTERN);
}

test.use({ viewport: { width: 375, height: 812 } });

test("a partner cashier's day at 375 px: visit, issue, guided redemptions with a reload, history; another partner refused", async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  // Signed in, the cashier lands on their own partner's page.
  await signIn(page, CASHIER);
  await expect(page).toHaveURL(new RegExp(`/dashboard/partners/${world.ownId}$`));
  await expect(page.getByRole('heading', { name: world.ownName })).toBeVisible();

  // The menu offers only what they can do there.
  await page.getByRole('button', { name: 'Open menu' }).click();
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link')).toHaveText(['My Partner', 'Redeem Reward', 'Issue Reward', 'Profile']);
  await page.keyboard.press('Escape');

  // 1. Record a visit with items and a receipt photo (the phone camera opens for it).
  const tabs = page.getByRole('tablist');
  // The seeded Partner Staff role reads its own partner (partners.view): its analytics too.
  await expect(tabs.getByRole('tab')).toHaveText(['Visits', 'Rewards', 'Eligible users', 'Analytics']);
  await page.getByRole('button', { name: 'Record visit' }).click();
  const form = page.getByRole('form', { name: 'Record a visit' });
  await form.getByLabel('Find customer (name or email)').fill(world.customer.email);
  await form.getByRole('button', { name: 'Find' }).click();
  await form
    .getByRole('list', { name: 'Customers found' })
    .getByRole('listitem')
    .filter({ hasText: world.customer.name })
    .getByRole('button', { name: 'Choose' })
    .click();
  await form.getByLabel('Item 1').fill(VISIT.item);
  await form.getByLabel('Qty').fill(String(VISIT.quantity));
  await form.getByLabel('Price (₦)').fill(String(VISIT.price));
  const receipt = form.getByLabel('Receipt photo');
  await expect(receipt).toHaveAttribute('accept', 'image/*');
  await expect(receipt).toHaveAttribute('capture', 'environment');
  // Defect 10: the file input looks like the other fields (same border, a styled chooser button).
  const looks = await receipt.evaluate((el) => {
    const text = el.closest('form')!.querySelector('input[type=text], input:not([type])')!;
    const button = getComputedStyle(el, '::file-selector-button');
    return {
      border: getComputedStyle(el).borderTopColor === getComputedStyle(text).borderTopColor,
      radius: getComputedStyle(el).borderTopLeftRadius,
      buttonBorder: button.borderTopStyle,
      buttonRadius: button.borderTopLeftRadius,
    };
  });
  expect(looks).toEqual({
    border: true,
    radius: expect.not.stringMatching(/^0px$/),
    buttonBorder: 'none',
    buttonRadius: expect.not.stringMatching(/^0px$/),
  });
  await receipt.setInputFiles({ name: 'receipt.png', mimeType: 'image/png', buffer: PNG });
  await expect(form).toContainText(naira(VISIT.quantity * VISIT.price));
  await form.getByRole('button', { name: 'Record visit' }).click();
  await expect(page.getByText('Visit recorded successfully')).toBeVisible();
  const visits = page.getByRole('table', { name: 'Visits' });
  await expect(
    visits
      .getByRole('row')
      .filter({ hasText: world.customer.name })
      .filter({ hasText: naira(VISIT.quantity * VISIT.price) }),
  ).toHaveCount(1);

  // 2. Issue a reward to the customer that visit made eligible (menu: Issue Reward).
  await page.getByRole('button', { name: 'Open menu' }).click();
  await nav.getByRole('link', { name: 'Issue Reward' }).click();
  const eligible = page.getByRole('table', { name: 'Eligible users' });
  const row = eligible.getByRole('row').filter({ hasText: world.customer.name });
  await expect(row).toContainText('Yes');
  await row.getByRole('button', { name: `Issue Reward to ${world.customer.name}` }).click();
  const issue = page.getByRole('form', { name: 'Issue reward' });
  await issue.getByLabel('Reward type').selectOption({ label: 'Gift card' });
  await issue.getByLabel('Issued amount (₦)').fill(String(GIFT_AMOUNT));
  await issue.getByLabel('Title').fill('Workday gift card');
  await issue.getByLabel('Description').fill('Thanks for the visit');
  await issue
    .getByLabel('Promotional image')
    .setInputFiles({ name: 'promo.png', mimeType: 'image/png', buffer: PNG });
  await issue.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Reward successfully issued')).toBeVisible();
  // The cashier lands on their partner's page, a screen they may see (issue 28, defect 5).
  await expect(page).toHaveURL(new RegExp(`/dashboard/partners/${world.ownId}(\\?|$)`));
  await expect(page.getByText('Not allowed')).toHaveCount(0);

  // 3. Redeem part of that gift card through the guided flow, with a reload at Confirm.
  await page.getByRole('button', { name: 'Open menu' }).click();
  await nav.getByRole('link', { name: 'Redeem Reward' }).click();
  const giftCode = await toCode(page, naira(GIFT_AMOUNT));
  await enterCode(page, giftCode);
  await expect(currentStep(page)).toHaveText('5. Amount');
  await page.getByLabel('Amount to redeem').fill(String(PART));
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(currentStep(page)).toHaveText('6. Confirm');
  await page.reload();
  await expect(currentStep(page)).toHaveText('6. Confirm');
  const check = page.getByLabel('Redemption');
  await expect(check).toContainText(naira(PART));
  await expect(check).toContainText(naira(GIFT_AMOUNT - PART));
  await page.getByRole('button', { name: 'Confirm' }).click();
  // The code is not kept across the reload: asked again (it is still valid), then redeemed.
  await enterCode(page, giftCode);
  await expect(currentStep(page)).toHaveText('7. Receipt');
  const giftReceipt = page.getByLabel('Receipt');
  for (const text of [
    world.ownName,
    world.customer.name,
    'Workday gift card',
    naira(PART),
    naira(GIFT_AMOUNT - PART),
  ])
    await expect(giftReceipt).toContainText(text);
  await expect(giftReceipt).toContainText(/Reference\s*RC-\d+-\d+/);
  await expect(page.getByRole('button', { name: 'Print receipt' })).toBeVisible();

  // 4. And a coupon: its discount shows before Confirm.
  await page.getByRole('button', { name: 'Redeem another' }).click();
  const couponCode = await toCode(page, world.couponCode);
  await enterCode(page, couponCode);
  await expect(currentStep(page)).toHaveText('6. Confirm');
  await expect(page.getByLabel('Redemption')).toContainText(`${COUPON_PERCENT}% off`);
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(currentStep(page)).toHaveText('7. Receipt');
  await expect(page.getByLabel('Receipt')).toContainText(`${COUPON_PERCENT}% off`);
  await expect(page.getByLabel('Receipt')).toContainText('Redeemed');

  // 5. The history: the partner's rewards with balances, the gift card's Redeem in view.
  await page.getByRole('button', { name: 'Open menu' }).click();
  await nav.getByRole('link', { name: 'My Partner' }).click();
  await page.getByRole('tab', { name: 'Rewards' }).click();
  const rewards = page.getByRole('table', { name: 'Rewards' });
  // At phone width the rows are cards (decision 067): nothing scrolls sideways, nor needs to.
  await expect(rewards.getByRole('row').first()).toBeVisible();
  await expect(page.getByText('Scroll sideways for more columns')).toHaveCount(0);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  const coupon = rewards
    .getByRole('row')
    .filter({ hasText: world.customer.name })
    .filter({ hasText: `${COUPON_PERCENT}%` });
  await expect(coupon).toContainText('Redeemed');
  const gift = rewards.getByRole('row').filter({ hasText: naira(GIFT_AMOUNT - PART) });
  await expect(gift).toContainText('Active');
  // Brought up the page (the partner's card is above the tabs), its Redeem is whole on screen: the
  // card's actions end it, inside the window.
  await gift.scrollIntoViewIfNeeded();
  await expect(gift.getByRole('button', { name: /^Redeem / })).toBeInViewport({ ratio: 1 });

  // 6. Another partner: 'not found' in the UI, nothing of it shown; refused by the API.
  await page.goto(`/dashboard/partners/${world.otherId}?activeTab=visits`);
  await expect(page.getByRole('heading', { name: 'Partner not found' })).toBeVisible();
  await expect(page.getByText(world.otherName)).toHaveCount(0);
  await expect(page.getByRole('table')).toHaveCount(0);
  const token = (await login(request, CASHIER)).accessToken;
  const refused = [
    await request.get(`${API}/admin/partners/${world.otherId}`, { headers: bearer(token) }),
    await request.get(`${API}/admin/partners/visits?partnerId=${world.otherId}`, { headers: bearer(token) }),
    await request.get(`${API}/admin/partners/rewards?partnerId=${world.otherId}`, { headers: bearer(token) }),
    await request.post(`${API}/user/visits`, {
      headers: bearer(token),
      data: {
        partnerId: world.otherId,
        customerId: world.customer.id,
        attendantName: 'Segun Adeyemi',
        visitDate: new Date().toISOString(),
        items: [{ name: 'Anything', quantity: 1, price: 100 }],
      },
    }),
  ];
  for (const res of refused) {
    expect([403, 404], res.url()).toContain(res.status());
    expect(JSON.stringify(await res.json())).not.toContain(world.otherName);
  }
});

test('the Rewards tab keeps Redeem in view at 1440 px (defect 9)', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page);
  await page.goto(`/dashboard/partners/${world.ownId}?activeTab=rewards`);
  const redeem = page.getByRole('table', { name: 'Rewards' }).getByRole('button', { name: /^Redeem / });
  await expect(redeem.first()).toBeVisible();
  // The whole table fits: no column is hidden to the right, every Redeem is inside the table's box.
  const fit = await page.getByRole('table', { name: 'Rewards' }).evaluate((table) => {
    const box = table.parentElement!;
    const inside = [...table.querySelectorAll('button[aria-label^="Redeem "]')].every((b) => {
      const r = b.getBoundingClientRect();
      const o = box.getBoundingClientRect();
      return r.left >= o.left && r.right <= o.right + 0.5 && r.right <= window.innerWidth;
    });
    return { overflow: box.scrollWidth - box.clientWidth, inside };
  });
  expect(fit).toEqual({ overflow: 0, inside: true });
});

test("a blocked partner's cashier sees why, and nothing is recorded", async ({ page, request }) => {
  const MUSA = { email: 'musa.abubakar@wusesuyaspot.com.ng', password: 'Staff#2026' };
  const admin = (await login(request, DEMO_ADMIN)).accessToken;
  const musa = await login(request, MUSA);
  const partnerId = musa.user.partnerId!;
  const setStatus = (accountStatus: 'ACTIVE' | 'BLOCKED') =>
    request.patch(`${API}/admin/partners/update-status`, {
      headers: bearer(admin),
      data: { partnerId, accountStatus },
    });
  expect((await setStatus('BLOCKED')).ok()).toBe(true);
  try {
    await signIn(page, MUSA);
    await expect(page).toHaveURL(new RegExp(`/dashboard/partners/${partnerId}$`));
    await expect(page.getByRole('alert')).toContainText(partnerInactiveMessages.BLOCKED);
    await expect(page.getByRole('table', { name: 'Visits' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Record visit' })).toHaveCount(0);
    const res = await request.post(`${API}/user/visits`, {
      headers: bearer(musa.accessToken),
      data: {
        partnerId,
        customerId: world.customer.id,
        attendantName: 'Musa Abubakar',
        visitDate: new Date().toISOString(),
        items: [{ name: 'Suya', quantity: 1, price: 1500 }],
      },
    });
    // A blocked partner's staff read and change nothing (issue 28, decision 053): 403 with the reason.
    expect(res.status()).toBe(403);
    const refusal = await res.json();
    expect(refusal.code).toBe('partner_blocked');
    expect(refusal.message).toMatch(/blocked by the club/);
  } finally {
    expect((await setStatus('ACTIVE')).ok()).toBe(true);
  }
});

test("a customer's first visit at the partner: found by the whole email, not by a name (decision 049)", async ({
  page,
  request,
}) => {
  const admin = (await login(request, DEMO_ADMIN)).accessToken;
  // An active customer with no visit and no reward at the cashier's partner, by the admin's lists.
  const candidates = await apiGet<
    Page1<{ id: number; firstName: string; lastName: string; email: string; erasedAt?: string }>
  >(request, admin, '/admin/user/customers?status=ACTIVE&pageSize=50');
  let newcomer: (typeof candidates.records)[number] | undefined;
  for (const c of candidates.records.filter(isServable)) {
    const name = `${c.firstName} ${c.lastName}`;
    const seen = await apiGet<Page1<{ user: { id: number } }>>(
      request,
      admin,
      `/admin/partners/visits?partnerId=${world.ownId}&searchText=${encodeURIComponent(name)}&pageSize=100`,
    );
    const held = await apiGet<Page1<RewardRow>>(
      request,
      admin,
      `/admin/partners/rewards?partnerId=${world.ownId}&userId=${c.id}`,
    );
    if (!seen.records.some((v) => v.user.id === c.id) && held.records.length === 0) {
      newcomer = c;
      break;
    }
  }
  expect(newcomer, `an active customer new to ${world.ownName}`).toBeDefined();
  const name = `${newcomer!.firstName} ${newcomer!.lastName}`;

  await signIn(page, CASHIER);
  await page.getByRole('button', { name: 'Record visit' }).click();
  const form = page.getByRole('form', { name: 'Record a visit' });
  const find = form.getByLabel('Find customer (name or email)');
  const found = form.getByRole('list', { name: 'Customers found' }).getByRole('listitem');
  // By name: not the partner's customer, so not found.
  await find.fill(name);
  await form.getByRole('button', { name: 'Find' }).click();
  await expect(form.getByRole('status').filter({ hasText: 'No customer matches' })).toHaveText(
    `No customer matches '${name}'`,
  );
  // By the whole address, as the customer says it (any case): not linked yet, so still nobody;
  // the cashier sends the customer a code and types the one from their mailbox (decision 053).
  await find.fill(newcomer!.email.toUpperCase());
  await form.getByRole('button', { name: 'Find' }).click();
  // The search's spinner is a status too: the answer is the one naming what was searched for.
  await expect(form.getByRole('status').filter({ hasText: 'No customer matches' })).toHaveText(
    `No customer matches '${newcomer!.email.toUpperCase()}'`,
  );
  await expect(found).toHaveCount(0);
  const before = mailsTo(MAIN_DATA_DIR, newcomer!.email);
  await form.getByRole('button', { name: 'Send the customer a code' }).click();
  await expect
    .poll(() => mailsTo(MAIN_DATA_DIR, newcomer!.email), { message: 'the link code mail' })
    .toBeGreaterThan(before);
  const code = await latestMailedCode(MAIN_DATA_DIR, newcomer!.email, LINK_CODE_PATTERN);
  await form.getByLabel('Code from the customer').fill(code);
  await form.getByRole('button', { name: 'Link customer' }).click();
  // Linked: the customer is chosen, the address masked.
  await expect(form.getByText(name)).toBeVisible();
  await expect(form).not.toContainText(newcomer!.email);
  await form.getByLabel('Item 1').fill('First visit tea');
  await form.getByLabel('Price (₦)').fill('1300');
  await form.getByRole('button', { name: 'Record visit' }).click();
  await expect(page.getByText('Visit recorded successfully')).toBeVisible();
  await expect(
    page
      .getByRole('table', { name: 'Visits' })
      .getByRole('row')
      .filter({ hasText: name })
      .filter({ hasText: naira(1300) }),
  ).toHaveCount(1);
});

test('the visit form shows each rule under its own field and sends nothing until they hold (decision 058)', async ({
  page,
}) => {
  const sent: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && /\/api\/v1\/user\/visits$/.test(r.url())) sent.push(r.url());
  });
  await signIn(page, CASHIER);
  await page.getByRole('button', { name: 'Record visit' }).click();
  const form = page.getByRole('form', { name: 'Record a visit' });
  // Submitted empty: the customer, the item's name and its price are asked for, each where it is.
  await form.getByRole('button', { name: 'Record visit' }).click();
  await expect(form.getByRole('group', { name: 'Customer' })).toContainText('Choose the customer first.');
  await expect(form.getByRole('group', { name: 'Customer' })).toHaveAttribute('aria-invalid', 'true');
  await expect(form.getByRole('textbox', { name: 'Item 1', exact: true })).toHaveAttribute(
    'aria-invalid',
    'true',
  );
  await expect(form.getByRole('textbox', { name: 'Item 1', exact: true })).toHaveAccessibleDescription(
    /Item name is required/,
  );
  await expect(form.getByLabel('Price (₦)')).toHaveAccessibleDescription(/Price must be a number/);
  await expect(form.getByLabel('Qty')).not.toHaveAttribute('aria-invalid', 'true');
  // Focus goes to the first field marked: the customer search inside the Customer group.
  await expect(form.getByLabel('Find customer (name or email)')).toBeFocused();

  // A second item whose price has three decimals: the message sits under that item's price only.
  await form.getByRole('textbox', { name: 'Item 1', exact: true }).fill('Jollof rice');
  await form.getByLabel('Price (₦)').fill('2500');
  await form.getByRole('button', { name: 'Add item' }).click();
  await form.getByRole('textbox', { name: 'Item 2', exact: true }).fill('Zobo');
  await form.getByLabel('Price (₦)').nth(1).fill('2.505');
  await form.getByLabel('Price (₦)').nth(1).blur();
  await expect(form.getByLabel('Price (₦)').nth(1)).toHaveAccessibleDescription(
    /Price can have at most 2 decimals/,
  );
  await expect(form.getByLabel('Price (₦)').first()).not.toHaveAttribute('aria-invalid', 'true');
  await expect(form.getByRole('textbox', { name: 'Item 1', exact: true })).not.toHaveAttribute(
    'aria-invalid',
    'true',
  );
  // Removing the second item takes its error with it.
  await form.getByRole('button', { name: 'Remove item 2' }).click();
  await expect(form.getByLabel('Price (₦)')).toHaveCount(1);
  await expect(form.getByLabel('Price (₦)')).not.toHaveAttribute('aria-invalid', 'true');
  await form.getByRole('button', { name: 'Record visit' }).click();
  await expect(form.getByRole('group', { name: 'Customer' })).toContainText('Choose the customer first.');
  expect(sent, 'no visit call while a rule fails').toEqual([]);
});
