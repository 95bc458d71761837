import { readdirSync, readFileSync } from 'node:fs';
import {
  type APIRequestContext,
  type BrowserContext,
  test as base,
  expect,
  type Locator,
  type Page,
} from '@playwright/test';
import { USER_BUCKET } from '../../src/db/user-bucket';
import { TINY_PNG } from '../model/flow-paths';
import { AxeLedger, focusIndicator, forgetSavedQueries, holdApi } from './support/axe';
import { DEMO_ADMIN, E2E_BASE_URL, MAIN_DATA_DIR } from './support/env';
import { firstOfActiveCustomer, signIn } from './support/fixtures';

/**
 * Issue 9, accessibility. axe (WCAG 2.0/2.1/2.2 A and AA) on every route of src/routes in each of
 * its states: loading (its API calls held at the browser's edge, then let through to the real
 * server), loaded, empty (a search that matches nothing, a page opened without its data) and error
 * (an unknown id answered 404 by the server, or the server's own 400 envelope in place of the
 * data), every dialog and menu, and the 'not allowed' screens of a partner staff member. Every
 * violation is counted and printed as a table; serious and critical ones fail. Then a keyboard-only
 * walk with a visible focus indicator on every stop, and the OTP boxes as a screen reader gets them.
 */

const API = `${E2E_BASE_URL}/api/v1`;
const PARTNER = 'Eko Grill House';
const STAFF = { email: 'segun.adeyemi@ekogrillhouse.com.ng', password: 'Staff#2026' };
const NO_MATCH = 'zz-no-such-record-zz';
const UNKNOWN_ID = 987654321;
const OTP_PATTERN = /redemption code is: (\d{6})/;

const ledger = new AxeLedger();

interface World {
  partnerId: number;
  customerId: number;
  customerName: string;
  customerEmail: string;
  staffId: number;
  roleId: number;
  serviceId: number;
  visitId: number;
  /** The server's own 400 envelope (a page size it refuses): what a failed list call answers. */
  badRequest: { status: number; body: string };
}

// ---- Setup through the API -------------------------------------------------------------------------

async function token(request: APIRequestContext, creds: { email: string; password: string } = DEMO_ADMIN) {
  const res = await request.post(`${API}/admin/auth/login`, { data: creds });
  expect(res.ok(), `sign-in: ${res.status()}`).toBe(true);
  return (await res.json()).data.accessToken as string;
}

async function apiGet<T>(request: APIRequestContext, bearer: string, path: string): Promise<T> {
  const res = await request.get(`${API}${path}`, { headers: { authorization: `Bearer ${bearer}` } });
  expect(res.ok(), `${path}: ${res.status()}`).toBe(true);
  return (await res.json()).data as T;
}

type List<T> = { records: T[] };

async function findWorld(request: APIRequestContext): Promise<World> {
  const bearer = await token(request);
  const partners = await apiGet<List<{ id: number; organizationName: string }>>(
    request,
    bearer,
    `/admin/partners?searchText=${encodeURIComponent(PARTNER)}`,
  );
  const partnerId = partners.records.find((p) => p.organizationName === PARTNER)!.id;
  const eligible = await apiGet<
    List<{ user: { id: number; firstName: string; lastName: string }; isEligible: boolean }>
  >(request, bearer, `/admin/partners/visits/reward-eligible-users?partnerId=${partnerId}`);
  // An eligible customer whose account is active (never the list's first row: issue 16, defect 11).
  const found = await firstOfActiveCustomer(
    request,
    bearer,
    eligible.records.filter((u) => u.isEligible),
    (u) => u.user.id,
  );
  expect(found, `an eligible, active customer at ${PARTNER}`).toBeTruthy();
  const customer = found!.candidate.user;
  const email = found!.email;
  const staff = await apiGet<List<{ id: number; email: string }>>(request, bearer, '/admin/user/admin-users');
  const roles = await apiGet<List<{ id: number; name: string }>>(request, bearer, '/admin/user/get-roles');
  const services = await apiGet<List<{ id: number }>>(request, bearer, '/admin/partners/extended-services');
  const visits = await apiGet<List<{ id: number; imageUrl: string | null }>>(
    request,
    bearer,
    `/admin/partners/visits?partnerId=${partnerId}&pageSize=100`,
  );
  const refused = await request.get(`${API}/admin/partners?pageSize=7`, {
    headers: { authorization: `Bearer ${bearer}` },
  });
  expect(refused.status()).toBe(400);
  return {
    partnerId,
    customerId: customer.id,
    customerName: `${customer.firstName} ${customer.lastName}`,
    customerEmail: email,
    staffId: staff.records.find((s) => s.email !== DEMO_ADMIN.email)!.id,
    roleId: roles.records.find((r) => r.name !== 'Super Admin')!.id,
    serviceId: services.records[0]!.id,
    // A visit with a receipt, for the magnifier.
    visitId: visits.records.find((v) => v.imageUrl)!.id,
    badRequest: { status: refused.status(), body: await refused.text() },
  };
}

// ---- The browser: one signed-in admin page for the whole worker ------------------------------------

// biome-ignore lint/complexity/noBannedTypes: no test-scoped fixtures, only worker-scoped ones
const test = base.extend<{}, { world: World; admin: { context: BrowserContext; page: Page } }>({
  world: [
    async ({ playwright }, use) => {
      const request = await playwright.request.newContext();
      await use(await findWorld(request));
      await request.dispose();
    },
    { scope: 'worker' },
  ],
  admin: [
    async ({ browser }, use) => {
      const context = await browser.newContext({
        baseURL: E2E_BASE_URL,
        reducedMotion: 'reduce',
        serviceWorkers: 'block',
      });
      const page = await context.newPage();
      await signIn(page);
      await use({ context, page });
      await context.close();
    },
    { scope: 'worker' },
  ],
});

/**
 * Reduced motion, as the app honours it: spinners and skeletons hold still. axe then reads each
 * colour once instead of mid-fade (a toast at half opacity is not its colour), and runs 4-5 times
 * faster than over 80 pulsing skeleton cells (decision 019). No service worker: requests it
 * answers would pass by the held and failed calls of page.route (its offline part has its own spec).
 */
test.use({ reducedMotion: 'reduce', serviceWorkers: 'block' });

test.afterAll(() => {
  const t = ledger.totals();
  console.log(`\naxe violations per screen and state (rules; serious and critical fail):\n${ledger.table()}`);
  console.log(
    `[figure] axe: ${t.runs} runs on ${t.screens} screens, ${t.critical} critical, ${t.serious} serious, ${t.moderate} moderate, ${t.minor} minor; axe time ${(t.ms / 1000).toFixed(1)} s`,
  );
});

/** Asserts no serious or critical violation in the runs since `from`, listing them when there are. */
function expectClean(from: number) {
  const found = ledger.seriousSince(from);
  expect(found, `serious or critical axe violations:\n${found.join('\n')}`).toEqual([]);
}

/** Nothing on the page still loading: no skeleton, no busy table, no loading spinner. */
async function settled(page: Page) {
  await expect(
    page.locator('[data-skeleton], [aria-busy="true"], [role="status"][aria-label^="Loading"]'),
  ).toHaveCount(0);
}

/** Every API call but the session's own (sign-in, refresh, profile). */
const dataCalls = (url: URL) => !/\/api\/v1\/(admin\/auth\/|auth\/|user\/profile$)/.test(url.pathname);

interface Screen {
  /** The route, as src/routes names it. */
  route: string;
  url: string;
  ready: (page: Page) => Locator;
  /** Calls held for the loading state (default: every data call); false: the screen loads nothing. */
  hold?: ((url: URL) => boolean) | false;
  /** The state when nothing matches: the list's search finds nothing. */
  empty?: { url: string; ready: (page: Page) => Locator };
  /** The error state: a URL the server answers with an error, or the list call answered by a 400. */
  error?: { url: string; ready: (page: Page) => Locator } | { fail: (url: URL) => boolean };
}

const heading = (name: string | RegExp) => (page: Page) => page.getByRole('heading', { name, level: 1 });
const table = (name: string) => (page: Page) => page.getByRole('table', { name });
const noResults = (page: Page) => page.getByRole('cell', { name: 'No results.' });
const alert = (page: Page) => page.locator('main').getByRole('alert').first();

/** loading → loaded → empty → error of one screen, each audited. */
async function auditScreen(page: Page, world: World, screen: Screen) {
  if (screen.hold === false) {
    await page.goto(screen.url);
  } else {
    // A first visit: nothing saved on the device, so the screen waits for its data.
    await forgetSavedQueries(page, USER_BUCKET);
    const gate = await holdApi(page, screen.hold ?? dataCalls);
    await page.goto(screen.url);
    // Whatever the screen shows while its first call is held (a skeleton, a spinner, an empty form).
    await expect.poll(gate.count, { message: `a data call of ${screen.url}` }).toBeGreaterThan(0);
    await expect(page.locator('main')).toBeVisible();
    await ledger.audit(page, screen.route, 'loading');
    await gate.release();
  }
  await expect(screen.ready(page)).toBeVisible();
  await settled(page);
  await ledger.audit(page, screen.route, 'loaded');

  if (screen.empty) {
    await page.goto(screen.empty.url);
    await expect(screen.empty.ready(page)).toBeVisible();
    await settled(page);
    await ledger.audit(page, screen.route, 'empty');
  }
  if (screen.error && 'url' in screen.error) {
    await page.goto(screen.error.url);
    await expect(screen.error.ready(page)).toBeVisible();
    await ledger.audit(page, screen.route, 'error');
  } else if (screen.error) {
    const fail = screen.error.fail;
    const matcher = (url: URL) => url.pathname.startsWith('/api/v1/') && fail(url);
    await page.route(matcher, (route) =>
      route.fulfill({
        status: world.badRequest.status,
        contentType: 'application/json',
        body: world.badRequest.body,
      }),
    );
    await page.goto(screen.url);
    await expect(alert(page)).toBeVisible();
    await ledger.audit(page, screen.route, 'error');
    await page.unroute(matcher);
  }
}

const path = (p: string) => (url: URL) => url.pathname === `/api/v1${p}`;

// ---- The public screens --------------------------------------------------------------------------

test('public screens: sign-in (field errors, signing in, a refused sign-in), reset, not found', async ({
  page,
}) => {
  const from = ledger.rows.length;
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Welcome, enter details to continue' })).toBeVisible();
  await ledger.audit(page, '/', 'loaded');

  // Field errors: an invalid email and an emptied password, both touched.
  await page.getByPlaceholder('Enter your email').fill('not-an-email');
  await page.getByPlaceholder('Enter your password').fill('x');
  await page.getByPlaceholder('Enter your password').fill('');
  await page.getByPlaceholder('Enter your email').focus();
  await expect(page.getByText('pls provide a valid email')).toBeVisible();
  await expect(page.getByText('Pls enter your password')).toBeVisible();
  await ledger.audit(page, '/', 'field errors');

  // Signing in (the call held), then refused: the red toast.
  await page.getByPlaceholder('Enter your email').fill(DEMO_ADMIN.email);
  await page.getByPlaceholder('Enter your password').fill('not-the-password');
  const gate = await holdApi(page, path('/admin/auth/login'));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('status', { name: 'Signing in' })).toBeVisible();
  await ledger.audit(page, '/', 'signing in');
  await gate.release();
  await expect(page.getByText('Invalid email or password')).toBeVisible();
  await ledger.audit(page, '/', 'refused (toast)');

  await page.goto('/forgot-password');
  await expect(page.getByRole('form', { name: 'Request a reset code' })).toBeVisible();
  await ledger.audit(page, '/forgot-password', 'loaded');
  await page.getByRole('button', { name: 'Send reset code' }).click();
  await expect(page.locator('[data-part="error-text"]').first()).toBeVisible();
  await ledger.audit(page, '/forgot-password', 'field errors');
  await page.getByPlaceholder('Enter your email').fill('nobody@example.ng');
  const reset = await holdApi(page, path('/auth/password-reset-request'));
  await page.getByRole('button', { name: 'Send reset code' }).click();
  await expect(page.getByRole('status', { name: 'Sending reset code' })).toBeVisible();
  await ledger.audit(page, '/forgot-password', 'sending');
  await reset.release();
  await expect(page.getByRole('form', { name: 'Request a reset code' }).getByRole('status')).toBeVisible();
  await ledger.audit(page, '/forgot-password', 'sent');

  await page.goto('/reset-password');
  await expect(page.getByRole('form', { name: 'Reset password' })).toBeVisible();
  await ledger.audit(page, '/reset-password', 'loaded');
  await page.getByRole('form', { name: 'Reset password' }).getByRole('button').last().click();
  await expect(page.locator('[data-part="error-text"]').first()).toBeVisible();
  await ledger.audit(page, '/reset-password', 'field errors');

  // Any other path redirects to /not-found.
  await page.goto('/no-such-screen');
  await expect(page).toHaveURL(/\/not-found$/);
  await expect(page.getByText('NotFoundScreen')).toBeVisible();
  await ledger.audit(page, '/$ → /not-found', 'loaded');
  expectClean(from);
});

// ---- Every dashboard screen ------------------------------------------------------------------------

test('every dashboard screen: loading, loaded, empty and error states', async ({ admin, world }) => {
  test.setTimeout(240_000);
  const { page } = admin;
  const from = ledger.rows.length;
  const p = world.partnerId;
  const screens: Screen[] = [
    {
      route: '/dashboard',
      url: '/dashboard',
      ready: (pg) => pg.getByRole('group', { name: 'Total Partners', exact: true }),
      error: { fail: (u) => u.pathname.includes('/stats') },
    },
    {
      route: '/dashboard/profile',
      url: '/dashboard/profile',
      hold: path('/user/profile'),
      ready: (pg) => pg.getByRole('region', { name: 'Profile details' }),
      error: { fail: path('/user/profile') },
    },
    {
      route: '/dashboard/staff (Users)',
      url: '/dashboard/staff?activeTab=users',
      ready: table('Staff'),
      empty: { url: `/dashboard/staff?activeTab=users&search=${NO_MATCH}`, ready: noResults },
      error: { fail: path('/admin/user/admin-users') },
    },
    {
      route: '/dashboard/staff (Roles)',
      url: '/dashboard/staff?activeTab=roles',
      ready: table('Roles'),
      empty: { url: `/dashboard/staff?activeTab=roles&search=${NO_MATCH}`, ready: noResults },
      error: { fail: path('/admin/user/get-roles') },
    },
    { route: '/dashboard/staff/add', url: '/dashboard/staff/add', ready: heading('Add Staff') },
    {
      route: '/dashboard/staff/$staffId/edit',
      url: `/dashboard/staff/${world.staffId}/edit`,
      ready: (pg) => pg.getByLabel('First Name'),
      error: { url: `/dashboard/staff/${UNKNOWN_ID}/edit`, ready: alert },
    },
    { route: '/dashboard/roles/add', url: '/dashboard/roles/add', ready: (pg) => pg.getByLabel('Role Name') },
    {
      route: '/dashboard/roles/$roleId/edit',
      url: `/dashboard/roles/${world.roleId}/edit`,
      ready: (pg) => pg.getByLabel('Role Name'),
      error: { url: `/dashboard/roles/${UNKNOWN_ID}/edit`, ready: alert },
    },
    {
      route: '/dashboard/partners (Active)',
      url: '/dashboard/partners',
      ready: table('Partners'),
      empty: { url: `/dashboard/partners?search=${NO_MATCH}`, ready: noResults },
      error: { fail: path('/admin/partners') },
    },
    {
      route: '/dashboard/partners (Blocked)',
      url: '/dashboard/partners?activeTab=blocked',
      ready: table('Partners'),
    },
    { route: '/dashboard/partners/add', url: '/dashboard/partners/add', ready: heading('Add Partner') },
    {
      route: '/dashboard/partners/$partnerId (Visits)',
      url: `/dashboard/partners/${p}`,
      ready: table('Visits'),
      error: { url: `/dashboard/partners/${UNKNOWN_ID}`, ready: alert },
    },
    {
      route: '/dashboard/partners/$partnerId (Rewards)',
      url: `/dashboard/partners/${p}?activeTab=rewards`,
      ready: table('Rewards'),
      error: { fail: path('/admin/partners/rewards') },
    },
    {
      route: '/dashboard/partners/$partnerId (Eligible users)',
      url: `/dashboard/partners/${p}?activeTab=eligible`,
      ready: table('Eligible users'),
      empty: { url: `/dashboard/partners/${p}?activeTab=eligible&date=2001-01-01`, ready: noResults },
      error: { fail: path('/admin/partners/visits/reward-eligible-users') },
    },
    {
      route: '/dashboard/partners/$partnerId (Analytics)',
      url: `/dashboard/partners/${p}?activeTab=analytics`,
      ready: (pg) => pg.getByRole('group', { name: /Giftcards Issued/i }).first(),
      error: { fail: path('/admin/partners/stats/partner') },
    },
    {
      route: '/dashboard/partners/$partnerId/edit',
      url: `/dashboard/partners/${p}/edit`,
      ready: heading('Edit Partner'),
      error: { url: `/dashboard/partners/${UNKNOWN_ID}/edit`, ready: alert },
    },
    {
      route: '/dashboard/clients',
      url: '/dashboard/clients',
      ready: table('Customers'),
      empty: { url: `/dashboard/clients?search=${NO_MATCH}`, ready: noResults },
      error: { fail: path('/admin/user/customers') },
    },
    {
      route: '/dashboard/clients/$clientId',
      url: `/dashboard/clients/${world.customerId}`,
      ready: heading(world.customerName),
      error: { url: `/dashboard/clients/${UNKNOWN_ID}`, ready: alert },
    },
    {
      route: '/dashboard/clients/$clientId/edit',
      url: `/dashboard/clients/${world.customerId}/edit`,
      ready: (pg) => pg.getByLabel('First Name'),
      error: { url: `/dashboard/clients/${UNKNOWN_ID}/edit`, ready: alert },
    },
    {
      route: '/dashboard/extservices',
      url: '/dashboard/extservices',
      ready: table('Extended services'),
      empty: { url: `/dashboard/extservices?search=${NO_MATCH}`, ready: noResults },
      error: { fail: path('/admin/partners/extended-services') },
    },
    {
      route: '/dashboard/extservices/add',
      url: '/dashboard/extservices/add',
      hold: false,
      ready: heading('Add Service'),
    },
    {
      route: '/dashboard/extservices/$serviceId/edit',
      url: `/dashboard/extservices/${world.serviceId}/edit`,
      ready: (pg) => pg.getByLabel('Title'),
      error: { url: `/dashboard/extservices/${UNKNOWN_ID}/edit`, ready: alert },
    },
    {
      route: '/dashboard/activities',
      url: '/dashboard/activities',
      ready: table('Activity log'),
      empty: { url: `/dashboard/activities?search=${NO_MATCH}`, ready: noResults },
      error: { fail: path('/admin/user/activities') },
    },
    {
      route: '/dashboard/visits/$visitId',
      url: `/dashboard/visits/${world.visitId}`,
      ready: (pg) => pg.getByRole('button', { name: 'Enlarge receipt image' }),
      error: { url: `/dashboard/visits/${UNKNOWN_ID}`, ready: alert },
    },
    {
      route: '/dashboard/eligibility/user/$userId',
      url: `/dashboard/eligibility/user/${world.customerId}?partnerId=${p}`,
      ready: heading('Eligible User'),
      empty: {
        url: `/dashboard/eligibility/user/${world.customerId}`,
        ready: (pg) => pg.getByText('No user data found.'),
      },
    },
    { route: '/dashboard/redeem', url: '/dashboard/redeem', hold: false, ready: heading('Redeem a reward') },
  ];
  for (const screen of screens) {
    await test.step(screen.route, () => auditScreen(page, world, screen));
  }

  // Screens with nothing to load: audited as they open.
  for (const [route, url, name] of [
    ['/dashboard/eligibility', '/dashboard/eligibility', 'Eligibility'],
    ['/dashboard/rewards', '/dashboard/rewards', 'Rewards'],
  ] as const) {
    await page.goto(url);
    await expect(heading(name)(page)).toBeVisible();
    await page.waitForLoadState('networkidle');
    await ledger.audit(page, route, 'loaded');
  }
  expectClean(from);
});

// ---- Dialogs and menus ---------------------------------------------------------------------------

const dialog = (page: Page, name: string | RegExp) => page.getByRole('dialog', { name });

/** Opens a dialog, audits it, closes it with Escape and checks it is gone. */
async function auditDialog(
  page: Page,
  route: string,
  name: string | RegExp,
  open: () => Promise<void>,
  { settle = true } = {},
) {
  await open();
  await expect(dialog(page, name)).toBeVisible();
  if (settle) await settled(page);
  await ledger.audit(page, route, `dialog: ${name}`);
}

test('every dialog and menu: profile menu, deletion, points, issue reward, receipt magnifier, the phone menu', async ({
  admin,
  world,
}) => {
  const { page } = admin;
  const from = ledger.rows.length;
  const p = world.partnerId;

  await page.goto('/dashboard');
  await page.getByRole('button', { name: 'Open profile menu' }).click();
  await expect(page.getByRole('menu')).toBeVisible();
  await ledger.audit(page, '/dashboard', 'profile menu');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menu')).toBeHidden();

  await page.goto(`/dashboard/partners/${p}`);
  await auditDialog(page, '/dashboard/partners/$partnerId', 'Confirm Deletion', () =>
    page.getByRole('button', { name: 'Delete' }).click(),
  );
  await page.keyboard.press('Escape');

  await page.goto(`/dashboard/partners/${p}?activeTab=eligible`);
  await auditDialog(
    page,
    '/dashboard/partners/$partnerId',
    'Eligible Users For Reward By Accumulated Points',
    () => page.getByRole('button', { name: 'By Points Accumulated' }).click(),
  );
  await page.keyboard.press('Escape');
  await auditDialog(page, '/dashboard/partners/$partnerId', 'Issue Reward', () =>
    page
      .getByRole('button', { name: /^Issue Reward to / })
      .first()
      .click(),
  );
  const issue = dialog(page, 'Issue Reward');
  await issue.getByLabel('Title').fill('');
  await issue.getByRole('button', { name: 'Submit' }).click();
  await expect(issue.locator('[data-part="error-text"]').first()).toBeVisible();
  await ledger.audit(page, '/dashboard/partners/$partnerId', 'dialog: Issue Reward (field errors)');
  await page.keyboard.press('Escape');

  await page.goto(`/dashboard/visits/${world.visitId}`);
  await auditDialog(page, '/dashboard/visits/$visitId', 'Receipt image', () =>
    page.getByRole('button', { name: 'Enlarge receipt image' }).click(),
  );
  await page.keyboard.press('Escape');
  await expect(dialog(page, 'Receipt image')).toHaveCount(0);

  // A phone: the sidebar is a Menu button that opens a drawer.
  await page.setViewportSize({ width: 375, height: 812 });
  try {
    await page.goto('/dashboard/partners');
    await expect(table('Partners')(page)).toBeVisible();
    await settled(page);
    await ledger.audit(page, '/dashboard/partners (375 px)', 'loaded');
    await auditDialog(page, '/dashboard/partners (375 px)', 'Reward Club', () =>
      page.getByRole('button', { name: 'Open menu' }).click(),
    );
    await page.keyboard.press('Escape');
    await expect(page.getByRole('button', { name: 'Open menu' })).toBeFocused();
  } finally {
    await page.setViewportSize({ width: 1280, height: 720 });
  }
  expectClean(from);
});

// ---- The OTP boxes, the redeem and reverse dialogs -----------------------------------------------

const mailFiles = () => {
  try {
    return readdirSync(`${MAIN_DATA_DIR}/mail`).filter((f) => f.endsWith('.eml'));
  } catch {
    return [];
  }
};

async function mailedCode(to: string, before: Set<string>): Promise<string> {
  let code = '';
  await expect
    .poll(() => {
      for (const file of mailFiles()) {
        if (before.has(file)) continue;
        const text = readFileSync(`${MAIN_DATA_DIR}/mail/${file}`, 'utf8');
        const match = text.toLowerCase().includes(to.toLowerCase()) ? text.match(OTP_PATTERN) : null;
        if (match?.[1]) code = match[1];
      }
      return code;
    })
    .not.toBe('');
  return code;
}

test('the OTP boxes announce themselves; the redeem and reverse dialogs', async ({
  admin,
  world,
  request,
}) => {
  const { page } = admin;
  const from = ledger.rows.length;
  const bearer = await token(request);
  const issued = await request.post(`${API}/partners/rewards/issue-reward`, {
    headers: { authorization: `Bearer ${bearer}`, 'Idempotency-Key': crypto.randomUUID() },
    data: {
      rewardType: 'GIFTCARD',
      issuedAmount: 5000,
      title: 'Accessibility run',
      description: 'Issued for the accessibility spec',
      promotionalImage: TINY_PNG,
      issuedTo: world.customerId,
      partnerId: world.partnerId,
    },
  });
  expect(issued.ok(), await issued.text()).toBe(true);
  const { code } = (await issued.json()).data as { code: string };
  const route = '/dashboard/partners/$partnerId (Rewards)';

  await page.goto(`/dashboard/partners/${world.partnerId}?activeTab=rewards`);
  const before = new Set(mailFiles());
  // The code is on its way: the dialog while the call is held.
  const sending = await holdApi(page, path('/partners/rewards/initiate-reward-redemption-auth'));
  await page.getByRole('button', { name: `Redeem ${code}` }).click();
  const modal = page.getByRole('dialog');
  await expect(modal.getByRole('status', { name: 'Sending the code' })).toBeVisible();
  await ledger.audit(page, route, 'dialog: OTP (sending the code)');
  await sending.release();

  // What a screen reader gets: a named group of six boxes, each 'Digit n of 6'.
  const group = modal.getByRole('group', { name: 'One-time code' });
  await expect(group).toBeVisible();
  await expect(group.getByRole('textbox')).toHaveCount(6);
  for (let n = 1; n <= 6; n++)
    await expect(group.getByRole('textbox', { name: `Digit ${n} of 6` })).toBeVisible();
  await expect(group).toMatchAriaSnapshot(`
    - group "One-time code":
      - textbox "Digit 1 of 6"
      - textbox "Digit 2 of 6"
      - textbox "Digit 3 of 6"
      - textbox "Digit 4 of 6"
      - textbox "Digit 5 of 6"
      - textbox "Digit 6 of 6"
  `);
  await expect(group.getByRole('textbox', { name: 'Digit 1 of 6' })).toBeFocused();
  await ledger.audit(page, route, 'dialog: OTP');

  const right = await mailedCode(world.customerEmail, before);
  const wrong = right.replace(/\d$/, (d) => String((Number(d) + 1) % 10));
  await page.keyboard.type(wrong);
  await expect(group.getByRole('textbox', { name: 'Digit 6 of 6' })).toHaveValue(wrong.at(-1)!);
  await modal.getByRole('button', { name: 'Submit' }).click();
  // A wrong code is announced (role=alert is an assertive live region) and named on every box.
  const wrongAlert = modal.getByRole('alert');
  await expect(wrongAlert).toContainText('The code is not correct');
  const box = group.getByRole('textbox', { name: 'Digit 1 of 6' });
  await expect(box).toHaveAttribute('aria-invalid', 'true');
  await expect(box).toHaveAccessibleDescription(await wrongAlert.innerText());
  console.log(
    `[figure] OTP: group "One-time code", 6 boxes "Digit n of 6", wrong code announced: "${await wrongAlert.innerText()}"`,
  );
  await ledger.audit(page, route, 'dialog: OTP (wrong code)');

  await box.click();
  await page.keyboard.type(right);
  await modal.getByRole('button', { name: 'Submit' }).click();
  const amount = modal.getByLabel('Amount to redeem');
  await expect(amount).toBeVisible();
  await ledger.audit(page, route, 'dialog: Redeem Reward');
  await amount.fill('0');
  await modal.getByRole('button', { name: 'Redeem', exact: true }).click();
  await expect(modal.getByText('Please enter a valid amount.')).toBeVisible();
  await ledger.audit(page, route, 'dialog: Redeem Reward (invalid amount)');
  await amount.fill('1000');
  await modal.getByRole('button', { name: 'Redeem', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard\/rewards$/);

  // The redemption in the reward's history, and the dialog that gives it back.
  await page.goto(`/dashboard/partners/${world.partnerId}?activeTab=rewards`);
  await page.getByRole('button', { name: `History of ${code}` }).click();
  await page.getByRole('button', { name: 'Reverse' }).click();
  const reverse = dialog(page, 'Reverse redemption');
  await expect(reverse).toBeVisible();
  await ledger.audit(page, route, 'dialog: Reverse redemption');
  await reverse.getByRole('button', { name: 'Confirm reversal' }).click();
  await expect(reverse.locator('[data-part="error-text"]')).toBeVisible();
  await ledger.audit(page, route, 'dialog: Reverse redemption (no reason)');
  await page.keyboard.press('Escape');
  expectClean(from);
});

// ---- Offline: the banner, the pending changes, the sign-out guard, the conflict ----------------------

test('offline and outbox dialogs: pending changes, sign-out guard, a conflict', async ({
  admin,
  request,
}) => {
  const { page, context } = admin;
  const from = ledger.rows.length;
  const bearer = await token(request);
  const created = await request.post(`${API}/admin/partners/extended-services`, {
    headers: { authorization: `Bearer ${bearer}` },
    data: { title: `A11y service ${Date.now().toString(36)}`, description: 'Made by the accessibility spec' },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const service = (await created.json()).data as { id: number; title: string };
  const route = '/dashboard/extservices/$serviceId/edit';

  // The list, then its edit form, in one document: both screens' code is in before the network goes.
  await page.goto(`/dashboard/extservices?search=${encodeURIComponent(service.title)}`);
  await page.getByRole('table', { name: 'Extended services' }).getByRole('link', { name: 'Edit' }).click();
  await expect(page.getByLabel('Title')).toHaveValue(service.title);
  await context.setOffline(true);
  try {
    await page.getByLabel('Description').fill('Changed while offline');
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByTestId('pending-count')).toHaveText('1');
    // The list has nothing saved on this device and waits for the network: its skeleton stays.
    await ledger.audit(page, '/dashboard/extservices', 'offline, 1 change pending');
    const offline = { settle: false };
    await auditDialog(
      page,
      route,
      'Pending changes',
      () => page.getByRole('button', { name: /Pending changes/ }).click(),
      offline,
    );
    await page.keyboard.press('Escape');
    await auditDialog(
      page,
      route,
      'Sign out with unsent changes?',
      () => page.getByRole('button', { name: 'Logout' }).click(),
      offline,
    );
    await page.keyboard.press('Escape');
    // Someone changes the service meanwhile: the queued edit meets a 409 when the network returns.
    const theirs = await request.patch(`${API}/admin/partners/extended-services`, {
      headers: { authorization: `Bearer ${bearer}` },
      data: { extendedServiceId: service.id, description: 'Changed by someone else' },
    });
    expect(theirs.ok(), await theirs.text()).toBe(true);
  } finally {
    await context.setOffline(false);
  }
  await expect(dialog(page, 'This record changed on the server')).toBeVisible();
  await ledger.audit(page, route, 'dialog: This record changed on the server');
  await dialog(page, 'This record changed on the server').getByRole('button', { name: 'Use theirs' }).click();
  await expect(page.getByTestId('pending-count')).toHaveCount(0);
  expectClean(from);
});

// ---- Partner staff: what they may not see ------------------------------------------------------------

test('partner staff: the not-allowed screens and their own partner', async ({ page }) => {
  const from = ledger.rows.length;
  await signIn(page, STAFF);
  for (const url of ['/dashboard/staff', '/dashboard/activities', '/dashboard/extservices']) {
    await page.goto(url);
    await expect(page.getByRole('heading', { name: 'Not allowed' })).toBeVisible();
    await ledger.audit(page, `${url} (partner staff)`, 'not allowed');
  }
  await page.goto('/dashboard/redeem');
  await expect(heading('Redeem a reward')(page)).toBeVisible();
  await settled(page);
  await ledger.audit(page, '/dashboard/redeem (partner staff)', 'loaded');
  expectClean(from);
});

// ---- Keyboard only -------------------------------------------------------------------------------

test('keyboard only: sign in, the sidebar, a list, a tab, a dialog closed by Escape, focus back', async ({
  page,
}) => {
  const stops: { element: string; visible: boolean }[] = [];
  /** Presses `key` until `target` has the focus (at most `max` times), checking every stop's focus ring. */
  async function pressUntil(key: string, target: Locator, max = 25) {
    for (let i = 0; i < max; i++) {
      await page.keyboard.press(key);
      const ring = await focusIndicator(page);
      if (ring) stops.push(ring);
      if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return;
    }
    throw new Error(`${key} ×${max} never reached ${target}`);
  }

  await page.goto('/');
  await pressUntil('Tab', page.getByPlaceholder('Enter your email'));
  await page.keyboard.type(DEMO_ADMIN.email);
  await pressUntil('Tab', page.getByPlaceholder('Enter your password'));
  await page.keyboard.type(DEMO_ADMIN.password);
  await pressUntil('Tab', page.getByRole('button', { name: 'Sign in' }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/dashboard$/);

  // The sidebar: Tab to 'Partner', Enter.
  const nav = page.getByRole('navigation', { name: 'Main' });
  await pressUntil('Tab', nav.getByRole('link', { name: 'Partner' }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/dashboard\/partners$/);

  // A tab list: arrows move between the tabs and select them.
  await pressUntil('Tab', page.getByRole('tab', { name: 'Active Partners' }));
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tab', { name: 'Blocked Partners' })).toBeFocused();
  await expect(page).toHaveURL(/activeTab=blocked/);
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByRole('tab', { name: 'Active Partners' })).toHaveAttribute('aria-selected', 'true');

  // The list: Tab to the first partner, Enter opens it.
  const first = page.getByRole('table', { name: 'Partners' }).getByRole('link').first();
  await expect(first).toBeVisible();
  const name = (await first.innerText()).trim();
  await pressUntil('Tab', first);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();

  // The partner's tabs, by keyboard.
  await pressUntil('Tab', page.getByRole('tab', { name: 'Visits' }));
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tab', { name: 'Rewards' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('table', { name: 'Rewards' })).toBeVisible();

  // A dialog: Delete opens 'Confirm Deletion' with the focus inside; Tab stays inside; Escape closes
  // it and the focus goes back to Delete.
  const del = page.getByRole('button', { name: 'Delete' });
  await pressUntil('Shift+Tab', del, 40);
  await page.keyboard.press('Enter');
  const confirm = dialog(page, 'Confirm Deletion');
  await expect(confirm).toBeVisible();
  const inDialog = () => confirm.evaluate((el) => el.contains(document.activeElement));
  await expect.poll(inDialog).toBe(true);
  for (let i = 0; i < 4; i++) {
    await page.keyboard.press('Tab');
    const ring = await focusIndicator(page);
    if (ring) stops.push(ring);
    expect(await inDialog(), 'Tab stays inside the open dialog').toBe(true);
  }
  await page.keyboard.press('Escape');
  await expect(confirm).toHaveCount(0);
  await expect(del).toBeFocused();
  const back = await focusIndicator(page);
  expect(back?.visible, 'the focus ring shows on Delete again').toBe(true);

  const bare = stops.filter((s) => !s.visible).map((s) => s.element);
  console.log(
    `[figure] keyboard: ${stops.length} focus stops (sign-in, sidebar, tabs, list, dialog), ${bare.length} without a visible focus indicator`,
  );
  expect(bare, 'focused elements without an outline or box-shadow').toEqual([]);
});
