import { mkdirSync } from 'node:fs';
import { type Browser, expect, type Page, test } from '@playwright/test';
import { REPO_ROOT } from './support/env';
import { signIn } from './support/fixtures';
import { layoutProblems, settled } from './support/layout-check';
import { adminCall, adminToken, type RedeemedGiftcard, redeemedGiftcard } from './support/redeemed-giftcard';

/**
 * Issue 32's layout check (decision 067): every main route, signed in as the demo admin and as a
 * partner cashier, with its main dialogs open, at 375, 768 and 1440 px. A screen fails on a page
 * that scrolls sideways, an element cut by its box without a scroll hint, text overflowing its box,
 * or anything painted over an open dialog (support/layout-check.ts). Every screen's picture goes to
 * test-results/layout/<width>/<user>-<screen>.png, for a person to look through.
 */

const SHOTS = `${REPO_ROOT}test-results/layout`;
const PARTNER = 'Eko Grill House';
const CASHIER = { email: 'segun.adeyemi@ekogrillhouse.com.ng', password: 'Staff#2026' };
const WIDTHS = [375, 768, 1440] as const;

type Records<T> = { records: T[] };

interface Ids {
  partnerId: number;
  customerId: number;
  staffId: number;
  roleId: number;
  serviceId: number;
  visitId: number;
  eligibleId: number;
  reward: RedeemedGiftcard;
}
let ids: Ids;

test.beforeAll(async ({ request }) => {
  const reward = await redeemedGiftcard(request, PARTNER);
  const token = await adminToken(request);
  const get = <T>(path: string) => adminCall<T>(request, token, 'GET', path);
  const partnerId = reward.partnerId;
  const [customers, staff, roles, services, visits, eligible] = await Promise.all([
    get<Records<{ id: number }>>('/admin/user/customers?status=ACTIVE&pageSize=10'),
    get<Records<{ id: number; email: string }>>('/admin/user/admin-users?pageSize=20'),
    get<Records<{ id: number; builtIn: boolean }> | { id: number; builtIn: boolean }[]>(
      '/admin/user/get-roles?pageSize=20',
    ),
    get<Records<{ id: number }>>('/admin/partners/extended-services?pageSize=10'),
    get<Records<{ id: number }>>(`/admin/partners/visits?partnerId=${partnerId}&pageSize=10`),
    get<Records<{ user: { id: number }; isEligible: boolean }>>(
      `/admin/partners/visits/reward-eligible-users?partnerId=${partnerId}&pageSize=100`,
    ),
  ]);
  const roleList = Array.isArray(roles) ? roles : roles.records;
  ids = {
    partnerId,
    customerId: customers.records[0]!.id,
    staffId: staff.records.find((s) => s.email !== 'admin@rewardclub.ng')!.id,
    roleId: roleList.find((r) => !r.builtIn)!.id,
    serviceId: services.records[0]!.id,
    visitId: visits.records[0]!.id,
    eligibleId: (eligible.records.find((r) => r.isEligible) ?? eligible.records[0]!).user.id,
    reward,
  };
});

/** One screen of the walk: where it is, and what to do once it is drawn (open a dialog). */
interface Screen {
  name: string;
  path: (ids: Ids) => string;
  /** Opened from the page (a dialog): waits for it to show. */
  open?: (page: Page, ids: Ids) => Promise<void>;
  /** Only at these widths (the menu drawer exists below md only). */
  widths?: readonly number[];
}

const dialog = (page: Page, name: string | RegExp) => page.getByRole('dialog', { name });

const partnerTab = (tab: string) => (ids: Ids) => `/dashboard/partners/${ids.partnerId}?activeTab=${tab}`;

/** The partner's tabs and their dialogs: the same for the club admin and the partner's cashier. */
const PARTNER_SCREENS: Screen[] = [
  { name: 'partner-visits', path: partnerTab('visits') },
  {
    name: 'partner-rewards-reverse',
    path: partnerTab('rewards'),
    open: async (page, ids) => {
      await page.getByRole('button', { name: `History of ${ids.reward.code}` }).click();
      const history = page.getByRole('table', { name: `Ledger of ${ids.reward.code}` });
      await expect(history).toBeVisible();
      // Reverse needs rewards.reverse (the admin has it; a cashier's role may not).
      const reverse = history
        .getByRole('row')
        .filter({ hasText: 'Redeemed' })
        .getByRole('button', { name: 'Reverse' });
      if ((await reverse.count()) === 0) return;
      await reverse.click();
      await expect(dialog(page, 'Reverse redemption')).toBeVisible();
    },
  },
  {
    name: 'partner-eligible-issue',
    path: partnerTab('eligible'),
    open: async (page) => {
      // Issue Reward needs rewards.issue and an eligible customer today.
      const issue = page.getByRole('button', { name: /^Issue Reward to / }).first();
      if ((await issue.count()) === 0) return;
      await issue.click();
      const form = dialog(page, 'Issue Reward');
      await form.getByRole('button', { name: 'Submit' }).click();
      await expect(form.locator('[data-part="error-text"]').first()).toBeVisible();
    },
  },
  {
    name: 'partner-eligible-points',
    path: partnerTab('eligible'),
    open: async (page) => {
      await page.getByRole('button', { name: 'By Points Accumulated' }).click();
      await expect(
        dialog(page, /Accumulated Points/)
          .getByRole('row')
          .nth(1),
      ).toBeVisible();
    },
  },
];

const ADMIN_SCREENS: Screen[] = [
  { name: 'home', path: () => '/dashboard' },
  {
    name: 'menu-drawer',
    path: () => '/dashboard',
    widths: [375],
    open: async (page) => {
      await page.getByRole('button', { name: 'Open menu' }).click();
      await expect(dialog(page, 'Reward Club')).toBeVisible();
    },
  },
  { name: 'profile', path: () => '/dashboard/profile' },
  { name: 'staff', path: () => '/dashboard/staff' },
  { name: 'roles', path: () => '/dashboard/staff?activeTab=roles' },
  { name: 'staff-add', path: () => '/dashboard/staff/add' },
  { name: 'staff-edit', path: (i) => `/dashboard/staff/${i.staffId}/edit` },
  { name: 'role-edit', path: (i) => `/dashboard/roles/${i.roleId}/edit` },
  { name: 'partners', path: () => '/dashboard/partners' },
  { name: 'partner-add', path: () => '/dashboard/partners/add' },
  {
    name: 'partner-delete',
    path: (i) => `/dashboard/partners/${i.partnerId}`,
    open: async (page) => {
      await page.getByRole('button', { name: 'Delete' }).click();
      await expect(dialog(page, 'Confirm Deletion')).toBeVisible();
    },
  },
  ...PARTNER_SCREENS,
  {
    name: 'partner-review-rules',
    path: (i) => `/dashboard/partners/${i.partnerId}`,
    open: async (page) => {
      await page.getByRole('button', { name: 'Edit rules' }).click();
      await expect(dialog(page, 'Edit visit review rules')).toBeVisible();
    },
  },
  { name: 'partner-analytics', path: partnerTab('analytics') },
  { name: 'partner-integrations', path: partnerTab('integrations') },
  { name: 'partner-edit', path: (i) => `/dashboard/partners/${i.partnerId}/edit` },
  { name: 'customers', path: () => '/dashboard/clients' },
  { name: 'customer', path: (i) => `/dashboard/clients/${i.customerId}` },
  { name: 'customer-edit', path: (i) => `/dashboard/clients/${i.customerId}/edit` },
  { name: 'customer-add', path: () => '/dashboard/clients/add' },
  { name: 'customer-import', path: () => '/dashboard/clients/import' },
  { name: 'services', path: () => '/dashboard/extservices' },
  { name: 'service-edit', path: (i) => `/dashboard/extservices/${i.serviceId}/edit` },
  { name: 'activities', path: () => '/dashboard/activities' },
  { name: 'webhooks', path: () => '/dashboard/webhooks' },
  { name: 'visit-reviews', path: () => '/dashboard/visit-reviews' },
  { name: 'club-keys', path: () => '/dashboard/club-keys' },
  { name: 'visit', path: (i) => `/dashboard/visits/${i.visitId}` },
  {
    name: 'eligible-user',
    path: (i) => `/dashboard/eligibility/user/${i.eligibleId}?partnerId=${i.partnerId}`,
  },
  { name: 'redeem', path: (i) => `/dashboard/redeem?partnerId=${i.partnerId}` },
];

const CASHIER_SCREENS: Screen[] = [
  ...PARTNER_SCREENS,
  { name: 'redeem', path: () => '/dashboard/redeem' },
  { name: 'profile', path: () => '/dashboard/profile' },
];

/**
 * One user's walk at every width: one browser context and one sign-in, the window resized between
 * widths (the screens are loaded afresh at each), so the check costs a sign-in per user, not per
 * width. Problems are gathered over the whole walk and named by width and screen.
 */
async function walk(browser: Browser, user: 'admin' | 'cashier', screens: Screen[]) {
  const context = await browser.newContext({ viewport: { width: WIDTHS[0], height: 812 } });
  const page = await context.newPage();
  await signIn(page, user === 'cashier' ? CASHIER : undefined);
  const found: string[] = [];
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: width < 768 ? 812 : 900 });
    mkdirSync(`${SHOTS}/${width}`, { recursive: true });
    const started = Date.now();
    let shown = 0;
    for (const screen of screens) {
      if (screen.widths && !screen.widths.includes(width)) continue;
      shown += 1;
      await page.goto(screen.path(ids));
      await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible({ timeout: 20_000 });
      await settled(page);
      await screen.open?.(page, ids);
      if (screen.open) await settled(page);
      for (const problem of await layoutProblems(page)) found.push(`${width} px, ${screen.name}: ${problem}`);
      await page.screenshot({ path: `${SHOTS}/${width}/${user}-${screen.name}.png` });
    }
    console.log(
      `[figure] layout ${user} at ${width} px: ${shown} screens in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  }
  await context.close();
  expect(found, `layout problems of ${user} at ${WIDTHS.join(', ')} px`).toEqual([]);
}

test(`layout at ${WIDTHS.join(', ')} px: the club admin's screens and dialogs`, async ({ browser }) => {
  test.setTimeout(480_000);
  await walk(browser, 'admin', ADMIN_SCREENS);
});

test(`layout at ${WIDTHS.join(', ')} px: the partner cashier's screens and dialogs`, async ({ browser }) => {
  test.setTimeout(240_000);
  await walk(browser, 'cashier', CASHIER_SCREENS);
});
