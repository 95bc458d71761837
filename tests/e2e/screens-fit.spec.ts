import { type Browser, expect, type Locator, type Page, test } from '@playwright/test';
import { rewardMessages } from '../../contract/rewards';
import { signIn } from './support/fixtures';
import { dialogOnTopAt, layoutProblems, settled } from './support/layout-check';
import { adminCall, adminToken, type RedeemedGiftcard, redeemedGiftcard } from './support/redeemed-giftcard';

/**
 * Issue 32, the defects found screen by screen at 375, 768 and 1440 px, one test each (decision
 * 067). Data is picked by what a test needs (a partner with an eligible customer and points, a
 * gift card with a redemption made for the test), never by position.
 */

const PARTNER = 'Eko Grill House';
const POINTS_DIALOG_TITLE = 'Eligible Users For Reward By Accumulated Points';

type Records<T> = { records: T[] };
interface EligibleRow {
  user: { id: number; firstName: string; lastName: string };
  isEligible: boolean;
}

let redeemed: RedeemedGiftcard;
let partnerId: number;
let eligibleName: string;

test.beforeAll(async ({ request }) => {
  redeemed = await redeemedGiftcard(request, PARTNER);
  partnerId = redeemed.partnerId;
  const token = await adminToken(request);
  const eligible = await adminCall<Records<EligibleRow>>(
    request,
    token,
    'GET',
    `/admin/partners/visits/reward-eligible-users?partnerId=${partnerId}&pageSize=100`,
  );
  const first = eligible.records.find((r) => r.isEligible);
  expect(first, `an eligible customer at ${PARTNER} today`).toBeTruthy();
  eligibleName = `${first!.user.firstName} ${first!.user.lastName}`;
  const points = await adminCall<Records<unknown>>(
    request,
    token,
    'GET',
    `/admin/partners/visits/eligible-users-bypoints?partnerId=${partnerId}`,
  );
  expect(points.records.length, `customers with points at ${PARTNER}`).toBeGreaterThan(0);
});

async function signedInAt(browser: Browser, width: number, height = 812) {
  const context = await browser.newContext({ viewport: { width, height } });
  const page = await context.newPage();
  await signIn(page);
  return { context, page };
}

/**
 * The centres of the parts of the page's sticky cells (the tables' action column) that lie under
 * the open dialog, in the window.
 */
async function stickyCellsUnder(page: Page): Promise<[number, number][]> {
  return page.evaluate(() => {
    const dialog = Array.from(document.querySelectorAll('[role="dialog"]')).at(-1);
    if (!dialog) return [];
    const d = dialog.getBoundingClientRect();
    const w = document.documentElement.clientWidth;
    const h = document.documentElement.clientHeight;
    const centres: [number, number][] = [];
    for (const cell of document.querySelectorAll('td, th')) {
      if (dialog.contains(cell) || getComputedStyle(cell).position !== 'sticky') continue;
      const r = cell.getBoundingClientRect();
      const left = Math.max(r.left, d.left, 0);
      const right = Math.min(r.right, d.right, w);
      const top = Math.max(r.top, d.top, 0);
      const bottom = Math.min(r.bottom, d.bottom, h);
      if (right - left > 2 && bottom - top > 2) centres.push([(left + right) / 2, (top + bottom) / 2]);
    }
    return centres;
  });
}

/**
 * Nothing of the page is painted over the open dialog: the layout check's hit test over every
 * text, field and button of the dialog, the title by name, and, where the page's sticky action
 * column lies under the dialog (`stickyUnder`, from the tablet width up where tables keep it),
 * every point where a sticky cell meets the dialog is drawn by the dialog.
 */
async function expectDialogOnTop(page: Page, dialog: Locator, what: string, stickyUnder: boolean) {
  await expect(dialog).toBeVisible();
  await settled(page);
  const over = (await layoutProblems(page)).filter((p) => p.includes('painted over'));
  expect(over, `${what}: parts of the page painted over the dialog`).toEqual([]);
  // And by name: the title is drawn by the dialog itself.
  const title = dialog.getByRole('heading').first();
  const box = (await title.boundingBox())!;
  expect(
    await dialogOnTopAt(page, box.x + box.width / 2, box.y + box.height / 2),
    `${what}: the title is on top`,
  ).toBe(true);
  const cells = await stickyCellsUnder(page);
  if (stickyUnder)
    expect(cells.length, `${what}: the page's sticky column lies under the dialog`).toBeGreaterThan(0);
  for (const [x, y] of cells) {
    expect(
      await dialogOnTopAt(page, x, y),
      `${what}: the dialog is on top at ${x},${y} over a sticky cell`,
    ).toBe(true);
  }
}

// 375 px: rows are cards (no sticky cells). 768 px: the tablet width, where tables keep their
// sticky action column and the Issue Reward form and the points dialog open over part of it (with
// the sticky cells above the dialog layer, issue 32 item 1, this test fails there).
for (const width of [375, 768]) {
  const stickyUnder = width >= 768;
  test(`item 1: the Issue Reward form, the points dialog and Reverse are on top of the page at ${width} px`, async ({
    browser,
  }) => {
    const { context, page } = await signedInAt(browser, width);
    await page.goto(`/dashboard/partners/${partnerId}?activeTab=eligible`);
    const issue = page.getByRole('button', { name: `Issue Reward to ${eligibleName}` }).first();
    await issue.click();
    const form = page.getByRole('dialog', { name: 'Issue Reward' });
    // Submitted empty: the error texts show under the fields.
    await form.getByRole('button', { name: 'Submit' }).click();
    await expect(form.getByText(rewardMessages.titleRequired)).toBeVisible();
    await expectDialogOnTop(page, form, 'Issue Reward', stickyUnder);
    await page.keyboard.press('Escape');
    await expect(form).toBeHidden();

    await page.getByRole('button', { name: 'By Points Accumulated' }).click();
    const points = page.getByRole('dialog', { name: POINTS_DIALOG_TITLE });
    await expect(points.getByRole('row').nth(1)).toBeVisible();
    await expectDialogOnTop(page, points, 'points dialog', stickyUnder);
    await page.keyboard.press('Escape');
    await expect(points).toBeHidden();

    await page.getByRole('tab', { name: 'Rewards' }).click();
    await page.getByRole('button', { name: `History of ${redeemed.code}` }).click();
    const history = page.getByRole('table', { name: `Ledger of ${redeemed.code}` });
    const reverse = history
      .getByRole('row')
      .filter({ hasText: 'Redeemed' })
      .getByRole('button', { name: 'Reverse' });
    // Item 3: Reverse is reachable without a sideways scroll (inside the window).
    const r = (await reverse.boundingBox())!;
    expect(r.x + r.width, 'Reverse inside the window').toBeLessThanOrEqual(width);
    await reverse.click();
    const dialog = page.getByRole('dialog', { name: 'Reverse redemption' });
    // The ledger opens below the table, so the page has scrolled past the rows: whatever sticky
    // cell is still under the dialog is checked, none is required.
    await expectDialogOnTop(page, dialog, 'Reverse redemption', false);
    await context.close();
  });
}

test('item 2: at 1440 x 900 and 1280 px the lists fit without a sideways scroll; Delete is not cut', async ({
  browser,
  request,
}) => {
  // Nine lists at two widths: 18 screens.
  test.setTimeout(180_000);
  // Long names, as a real club has them, on the first page of the staff and roles lists (newest
  // first): they wrap rather than widen the table (decision 067). A CI run found the staff list
  // 68 px too wide at 1280 px with the names earlier tests had left, kept on one line.
  const token = await adminToken(request);
  const stamp = Date.now().toString(36);
  const catalogue = await adminCall<{ id: number; name: string }[]>(request, token, 'GET', '/authz');
  const role = await adminCall<{ id: number }>(request, token, 'POST', '/admin/user/create-role', {
    roleName: `Weekend partner support supervisor Lagos mainland ${stamp}`.slice(0, 60),
    permissionIds: catalogue.filter((p) => p.name === 'dashboard.view').map((p) => p.id),
  });
  await adminCall(request, token, 'POST', '/admin/user/new-admin-user', {
    firstName: 'Oluwadamilare Chukwuemeka',
    lastName: `Adebayo-Okonkwo-Balogun ${stamp}`,
    email: `long.names.${stamp}@rewardclub.ng`,
    roleId: role.id,
  });
  const { context, page } = await signedInAt(browser, 1440, 900);
  const lists: [string, string][] = [
    ['/dashboard/staff', 'Staff'],
    ['/dashboard/staff?activeTab=roles', 'Roles'],
    ['/dashboard/partners', 'Partners'],
    ['/dashboard/clients', 'Customers'],
    ['/dashboard/extservices', 'Extended services'],
    ['/dashboard/activities', 'Activity log'],
    [`/dashboard/partners/${partnerId}?activeTab=visits`, 'Visits'],
    [`/dashboard/partners/${partnerId}?activeTab=rewards`, 'Rewards'],
    [`/dashboard/partners/${partnerId}?activeTab=eligible`, 'Eligible users'],
  ];
  for (const w of [1440, 1280]) {
    await page.setViewportSize({ width: w, height: 900 });
    for (const [path, label] of lists) {
      await page.goto(path);
      const table = page.getByRole('table', { name: label });
      await expect(table.getByRole('row').nth(1)).toBeVisible();
      await settled(page);
      const box = table.locator('xpath=..');
      const size = await box.evaluate((el) => ({ client: el.clientWidth, scroll: el.scrollWidth }));
      expect(size.scroll, `${path} at ${w} px: the table is wider than its box`).toBeLessThanOrEqual(
        size.client,
      );
      const right = await box.evaluate((el) => el.getBoundingClientRect().right);
      for (const button of await table.getByRole('button', { name: 'Delete' }).all()) {
        const b = (await button.boundingBox())!;
        expect(b.x + b.width, `${path} at ${w} px: Delete inside the table`).toBeLessThanOrEqual(right);
      }
    }
  }
  await context.close();
});

test('item 3: at 375 px lists are cards, every tab shows, the receipt and history fit', async ({
  browser,
}) => {
  const { context, page } = await signedInAt(browser, 375);
  await page.goto(`/dashboard/partners/${partnerId}?activeTab=rewards`);
  // Every tab of the strip inside the window, none scrolled out of view.
  const tabs = page.getByRole('tablist', { name: 'Partner activity' }).getByRole('tab');
  await expect(tabs).toHaveCount(5);
  for (const tab of await tabs.all()) {
    const b = (await tab.boundingBox())!;
    expect(b.x, `${await tab.textContent()} tab`).toBeGreaterThanOrEqual(0);
    expect(b.x + b.width, `${await tab.textContent()} tab`).toBeLessThanOrEqual(375);
  }
  const rewards = page.getByRole('table', { name: 'Rewards' });
  const rows = rewards.getByRole('row');
  await expect(rows.first()).toBeVisible();
  await settled(page);
  // Cards: each row is a box inside the window, its actions buttons inside it.
  const texts: string[] = [];
  for (const row of await rows.all()) {
    const b = (await row.boundingBox())!;
    expect(b.x).toBeGreaterThanOrEqual(0);
    expect(b.x + b.width).toBeLessThanOrEqual(375);
    const history = row.getByRole('button', { name: /^History of / });
    const h = (await history.boundingBox())!;
    expect(h.x + h.width, 'History inside its card').toBeLessThanOrEqual(b.x + b.width);
    texts.push((await row.innerText()).replace(/\s+/g, ' '));
  }
  // Rows of the same customer are told apart by what the card shows (type, amount, date).
  expect(new Set(texts).size, 'every card reads differently').toBe(texts.length);
  // Each field under its label (the cell's ::before): the second is the reward type.
  const label = await rows
    .first()
    .getByRole('cell')
    .nth(1)
    .evaluate((cell) => getComputedStyle(cell, '::before').content);
  expect(label).toBe('"Reward Type"');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  expect(await layoutProblems(page)).toEqual([]);
  await context.close();
});

test('item 4: on a phone a toast covers neither the page title nor the submit button', async ({
  browser,
}) => {
  const { context, page } = await signedInAt(browser, 375);
  await page.goto('/dashboard/extservices/add');
  // Submitted empty: the error toast, the form still there with its submit button.
  const submit = page.getByRole('button', { name: 'Submit' });
  await page.getByLabel('Title').fill(`Fit check ${Date.now()}`);
  await page.getByLabel('Description').fill('Added by the screens-fit spec');
  await submit.click();
  // Saved: the list with its title, and the success toast.
  const toast = page.locator('[data-scope="toast"][data-part="root"]').first();
  await expect(toast).toBeVisible();
  const covered = async (target: Locator) => {
    const b = (await target.boundingBox())!;
    return page.evaluate(
      ([x, y]) =>
        document.elementFromPoint(x as number, y as number)?.closest('[data-scope="toast"]') !== null,
      [b.x + b.width / 2, b.y + b.height / 2],
    );
  };
  const title = page.getByRole('heading', { level: 1 }).first();
  await expect(title).toBeVisible();
  expect(await covered(title), 'the toast covers the page title').toBe(false);
  // A form that stays after a failure: a wrong password at sign-in, its error toast clear of the
  // heading and of the Sign in button.
  await page.evaluate(() => localStorage.clear());
  await context.clearCookies();
  const fresh = await context.newPage();
  await fresh.goto('/');
  await fresh.getByPlaceholder('Enter your email').fill('nobody@example.ng');
  await fresh.getByPlaceholder('Enter your password').fill('Wrong#2026');
  const signInButton = fresh.getByRole('button', { name: 'Sign in' });
  await signInButton.click();
  const failure = fresh.locator('[data-scope="toast"][data-part="root"]').first();
  await expect(failure).toBeVisible();
  const coveredOn = async (p: Page, target: Locator) => {
    const b = (await target.boundingBox())!;
    return p.evaluate(
      ([x, y]) =>
        document.elementFromPoint(x as number, y as number)?.closest('[data-scope="toast"]') !== null,
      [b.x + b.width / 2, b.y + b.height / 2],
    );
  };
  await expect(signInButton).toBeVisible();
  expect(
    await coveredOn(fresh, fresh.getByRole('heading', { level: 1 }).first()),
    'toast over the heading',
  ).toBe(false);
  expect(await coveredOn(fresh, signInButton), 'toast over Sign in').toBe(false);
  await context.close();
});

test('item 5: at 768 px the points dialog shows its Reward column', async ({ browser }) => {
  const { context, page } = await signedInAt(browser, 768);
  await page.goto(`/dashboard/partners/${partnerId}?activeTab=eligible`);
  await page.getByRole('button', { name: 'By Points Accumulated' }).click();
  const dialog = page.getByRole('dialog', { name: POINTS_DIALOG_TITLE });
  await expect(dialog.getByRole('row').nth(1)).toBeVisible();
  await settled(page);
  const d = (await dialog.boundingBox())!;
  const header = (await dialog.getByRole('columnheader', { name: 'Reward' }).boundingBox())!;
  const button = (await dialog
    .getByRole('button', { name: /^Issue Reward to / })
    .first()
    .boundingBox())!;
  expect(d.x, 'the dialog inside the window').toBeGreaterThanOrEqual(0);
  expect(d.x + d.width, 'the dialog inside the window').toBeLessThanOrEqual(768);
  for (const [what, b] of [
    ['Reward header', header],
    ['Issue Reward', button],
  ] as const) {
    expect(b.x + b.width, `${what} inside the dialog`).toBeLessThanOrEqual(d.x + d.width);
  }
  const box = dialog.getByRole('table').locator('xpath=..');
  const size = await box.evaluate((el) => ({ client: el.clientWidth, scroll: el.scrollWidth }));
  expect(size.scroll, 'the points table fits the dialog').toBeLessThanOrEqual(size.client);
  await context.close();
});

test('item 6: deleting a partner says what goes with it and what stays; totals say what they count', async ({
  page,
}) => {
  await signIn(page);
  await expect(page.getByRole('region', { name: 'Reward', exact: true })).toContainText(
    /deleted partners included/,
  );
  await expect(page.getByRole('region', { name: 'Users', exact: true })).toContainText(
    /deleted .* not counted/,
  );
  await page.goto(`/dashboard/partners/${partnerId}`);
  await page.getByRole('button', { name: 'Delete' }).click();
  const dialog = page.getByRole('dialog', { name: 'Confirm Deletion' });
  await expect(dialog).toContainText(
    'Are you sure you want to delete this partner? This action cannot be undone.',
  );
  await expect(dialog).toContainText(/staff accounts of this partner\. They can no longer sign in/);
  await expect(dialog).toContainText(/rewards still count in the club's reward totals/);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await page.goto('/dashboard/partners');
  await expect(page.getByRole('region', { name: 'Partner statistics' })).toContainText(
    /deleted partners are not counted/,
  );
});

test('item 7: switching tabs drops the other tab’s pageSize from the address', async ({ page }) => {
  await signIn(page);
  await page.goto(`/dashboard/partners/${partnerId}?activeTab=rewards&pageSize=50`);
  await expect(page.getByRole('table', { name: 'Rewards' }).getByRole('row').nth(1)).toBeVisible();
  await page.getByRole('tab', { name: 'Analytics' }).click();
  await expect(page).toHaveURL(/activeTab=analytics/);
  expect(new URL(page.url()).searchParams.get('pageSize')).toBeNull();
});

test('item 8: offline, a customer never opened says "Not available offline" with Retry', async ({
  page,
  context,
  request,
}) => {
  const token = await adminToken(request);
  const customers = await adminCall<Records<{ id: number; firstName: string; lastName: string }>>(
    request,
    token,
    'GET',
    '/admin/user/customers?status=ACTIVE&pageSize=10',
  );
  const customer = customers.records.at(-1)!;
  await signIn(page);
  await page.goto('/dashboard/clients');
  await expect(page.getByRole('table', { name: 'Customers' }).getByRole('row').nth(1)).toBeVisible();
  // The screen's code comes from the service worker's precache offline.
  await expect.poll(() => page.evaluate(async () => navigator.serviceWorker.controller !== null)).toBe(true);
  await context.setOffline(true);
  await page.evaluate((id) => {
    window.history.pushState({}, '', `/dashboard/clients/${id}`);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, customer.id);
  await expect(page.getByText('Not available offline')).toBeVisible();
  await expect(page.getByText('Network Error')).toHaveCount(0);
  const retry = page.getByRole('button', { name: 'Retry' });
  await expect(retry).toBeVisible();
  // Back online: the screen loads (on its own when the network returns, or by Retry).
  await context.setOffline(false);
  if (await retry.isVisible()) await retry.click().catch(() => undefined);
  await expect(page.getByText('Fiber Account')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toContainText(customer.firstName);
});
