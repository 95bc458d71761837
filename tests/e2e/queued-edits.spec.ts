import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { OUTBOX_MESSAGES } from '../../src/lib/outbox';
import { type ApiPartner, adminToken, freshPartner, partnerLog, readPartner } from './support/admin-api';
import { DEMO_ADMIN, E2E_BASE_URL } from './support/env';
import { signIn } from './support/fixtures';
import { outboxRows } from './support/outbox-rows';

/**
 * Issue 17 (decision 030), queued edits on a bad link:
 * - defect 4: edits queued offline show on every screen of the record (detail, list row, edit form),
 *   marked "Not sent yet", after offline reloads; a second queued edit of the same record keeps the
 *   first (they compose field by field) and the outbox sends both, in order, once each;
 * - defect 3: a refused refresh with edits queued keeps them: a sign-in dialog over the screen, the
 *   same user signs in, and the outbox replays them once.
 * Each test uses a partner of its own, made through the API.
 */

const API = `${E2E_BASE_URL}/api/v1`;
const UPDATE_PATH = '/admin/partners/update-record';

type Partner = ApiPartner;

/** The activity log's 'Updated partner …' entries for one partner, in order of their text. */
const partnerUpdates = async (request: APIRequestContext, token: string, partner: Partner) =>
  (await partnerLog(request, token, partner)).map((r) => r.action).sort();

/** Rows in the SPA's IndexedDB outbox store (in the user's storage bucket where there is one). */

/** The service worker controls the page: a reload with the network off opens the app shell. */
async function serviceWorkerControls(page: Page) {
  await expect
    .poll(() =>
      page.evaluate(async () => {
        const registration = await navigator.serviceWorker.getRegistration();
        return registration?.active?.state === 'activated' && navigator.serviceWorker.controller !== null;
      }),
    )
    .toBe(true);
}

const pendingCount = (page: Page) => page.getByTestId('pending-count');
const pendingNotice = (page: Page) => page.getByRole('status').filter({ hasText: /^Not sent yet:/ });
const partnerRow = (page: Page, partner: Partner) =>
  page
    .getByRole('table', { name: 'Partners' })
    .getByRole('row')
    .filter({ hasText: partner.organizationName });

/** The partner's edit form, opened from its page (no full load: the network may be off). */
async function openEditForm(page: Page) {
  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Edit Partner' })).toBeVisible();
  await expect(page.getByLabel('Address')).toHaveValue(/./);
}

test.describe('queued edits', () => {
  let token: string;
  test.beforeAll(async ({ request }) => {
    token = await adminToken(request);
  });

  test('defect 4: queued edits show on the page, the list row and the form after offline reloads, compose field by field, and land once each in order', async ({
    page,
    context,
    request,
  }) => {
    const partner = await freshPartner(request, token, 'Overlay Buka', 'queued');
    await signIn(page);
    // The list row and the partner's page are seen once online (saved on the device).
    const listUrl = `/dashboard/partners?search=${encodeURIComponent(partner.organizationName)}`;
    await page.goto(listUrl);
    await expect(partnerRow(page, partner)).toBeVisible();
    await expect(partnerRow(page, partner)).toContainText('Ife Adeyemi');
    await page.goto(`/dashboard/partners/${partner.id}`);
    await expect(page.getByRole('heading', { name: partner.organizationName })).toBeVisible();
    await expect(page.getByText(partner.address)).toBeVisible();
    await serviceWorkerControls(page);

    // First edit, offline: the address.
    await context.setOffline(true);
    await openEditForm(page);
    const address = `14 Broad Street, Lagos Island (${Date.now()})`;
    await page.getByLabel('Address').fill(address);
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByText(OUTBOX_MESSAGES.savedOffline)).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/dashboard/partners/${partner.id}$`));
    await expect(page.getByText(address)).toBeVisible();
    await expect(pendingCount(page)).toHaveText('1');

    // A reload, still offline: the page shows the queued address (not the old one), marked.
    await page.reload();
    await expect(page.getByRole('heading', { name: partner.organizationName })).toBeVisible();
    await expect(pendingCount(page)).toHaveText('1');
    await expect(page.getByText(address)).toBeVisible();
    await expect(page.getByText(partner.address)).toHaveCount(0);
    await expect(pendingNotice(page)).toHaveText(/Not sent yet: Address/);

    // Second edit of the same partner, after the reload: the form starts from the queued address;
    // only the first name changes.
    await openEditForm(page);
    await expect(page.getByLabel('Address')).toHaveValue(address);
    await expect(pendingNotice(page)).toBeVisible();
    await page.getByLabel('First Name').fill('Funmi');
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(page).toHaveURL(new RegExp(`/dashboard/partners/${partner.id}$`));
    await expect(pendingCount(page)).toHaveText('2');
    // Both edits show: the second did not undo the first.
    await expect(page.getByText(address)).toBeVisible();
    await expect(page.getByRole('definition').filter({ hasText: /^Funmi$/ })).toBeVisible();
    await expect(pendingNotice(page)).toHaveText(/Not sent yet: Address, First Name/);

    // The list, reloaded offline: the row shows the queued name, marked as not sent yet.
    await page.goto(listUrl);
    await expect(partnerRow(page, partner)).toContainText('Funmi Adeyemi');
    await expect(partnerRow(page, partner)).toContainText('Not sent yet');
    expect(await outboxRows(page)).toBe(2);
    // Nothing reached the server yet.
    const before = await readPartner(request, token, partner.id);
    expect([before.address, before.firstName]).toEqual([partner.address, partner.firstName]);

    // Back online: the two edits are sent in order, once each; the screens show the server's record.
    const sent: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith(UPDATE_PATH) && r.method() === 'PATCH') sent.push(r.postData() ?? '');
    });
    await context.setOffline(false);
    await expect(pendingCount(page)).toHaveCount(0, { timeout: 15_000 });
    expect(await outboxRows(page)).toBe(0);
    expect(sent.map((body) => Object.keys(JSON.parse(body)).sort())).toEqual([
      ['address', 'partnerId'],
      ['firstName', 'partnerId'],
    ]);
    const after = await readPartner(request, token, partner.id);
    expect([after.address, after.firstName]).toEqual([address, 'Funmi']);
    expect(await partnerUpdates(request, token, partner)).toEqual(
      [
        `Updated partner ${partner.organizationName} (address)`,
        `Updated partner ${partner.organizationName} (first name)`,
      ].sort(),
    );
    await expect(partnerRow(page, partner)).toContainText('Funmi Adeyemi');
    await expect(partnerRow(page, partner)).not.toContainText('Not sent yet');
  });

  test('defect 3: edits queued offline survive a refused refresh; the same user signs in over the screen and they are sent once', async ({
    page,
    context,
    request,
  }) => {
    const partner = await freshPartner(request, token, 'Held Session Grill', 'queued');
    await signIn(page);
    await page.goto(`/dashboard/partners/${partner.id}`);
    await expect(page.getByRole('heading', { name: partner.organizationName })).toBeVisible();
    await openEditForm(page);

    await context.setOffline(true);
    const address = `2 Marina, Lagos (${Date.now()})`;
    await page.getByLabel('Address').fill(address);
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(pendingCount(page)).toHaveText('1');

    // Meanwhile the session is ended on the server (signed out elsewhere): its access token and
    // refresh token are dead, so the next refresh is refused (401), not merely unanswered.
    const { accessToken } = await page.evaluate(() => JSON.parse(localStorage.getItem('admin') ?? '{}'));
    const logout = await request.post(`${API}/auth/logout`, {
      headers: { authorization: `Bearer ${accessToken}` },
    });
    expect(logout.ok(), await logout.text()).toBe(true);

    // Back online: the outbox's call is refused, the refresh too: the session has ended, but the
    // edit, the screen and its saved data stay, under a sign-in dialog.
    await context.setOffline(false);
    const dialog = page.getByRole('dialog', { name: 'Your session has ended' });
    await expect(dialog).toBeVisible({ timeout: 20_000 });
    await expect(dialog).toContainText('1 change is saved on this device');
    await expect(page).toHaveURL(new RegExp(`/dashboard/partners/${partner.id}$`));
    expect(await outboxRows(page)).toBe(1);
    expect((await readPartner(request, token, partner.id)).address).toBe(partner.address);

    // The same user signs in, in place: the queued edit is sent, once.
    await dialog.getByPlaceholder('Enter your email').fill(DEMO_ADMIN.email);
    await dialog.getByPlaceholder('Enter your password').fill(DEMO_ADMIN.password);
    await dialog.getByRole('button', { name: 'Sign in' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(pendingCount(page)).toHaveCount(0, { timeout: 15_000 });
    await expect(page).toHaveURL(new RegExp(`/dashboard/partners/${partner.id}$`));
    expect(await outboxRows(page)).toBe(0);
    expect((await readPartner(request, token, partner.id)).address).toBe(address);
    expect(await partnerUpdates(request, token, partner)).toEqual([
      `Updated partner ${partner.organizationName} (address)`,
    ]);
  });
});
