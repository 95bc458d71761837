import { expect, type Page, test } from '@playwright/test';
import { rewardMessages } from '../../contract/rewards';
import { OUTBOX_MESSAGES } from '../../src/lib/outbox';
import {
  type ApiPartner,
  adminToken,
  apiCall,
  freshPartner,
  PNG,
  partnerLog,
  readPartner,
} from './support/admin-api';
import { E2E_BASE_URL } from './support/env';
import { firstOfActiveCustomer, signIn } from './support/fixtures';
import { outboxRows } from './support/outbox-rows';

/**
 * Issue 6, the outbox: an edit made with the network off is kept on the device and sent once when
 * the network returns (one change on the server, one event in the log); a lost answer is resent
 * under the same Idempotency-Key and applied once; an edit of a record changed meanwhile gets the
 * 409 dialog (Keep mine, Use theirs), from the form and from the queue; a redemption attempted
 * offline is refused, sends nothing and queues nothing.
 */

const API = `${E2E_BASE_URL}/api/v1`;
const MONEY_CALLS =
  /\/partners\/rewards\/(initiate-reward-redemption-auth|redemption-auth-otp-validity-check|redeem-giftcard|redeem-coupon|issue-reward|reverse)/;

type Partner = ApiPartner;

// ---- The browser ---------------------------------------------------------------------------------

/** Rows in the SPA's IndexedDB outbox store (in the user's storage bucket where there is one). */

const pendingCount = (page: Page) => page.getByTestId('pending-count');

/**
 * The partner's page, then its edit form, in one document: both screens' code is loaded before the
 * network goes (the app shell offline is the service worker's part, tested in its own spec).
 */
async function openEdit(page: Page, partner: Partner) {
  await page.goto(`/dashboard/partners/${partner.id}`);
  await expect(page.getByRole('heading', { name: partner.organizationName })).toBeVisible();
  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Edit Partner' })).toBeVisible();
  await expect(page.getByLabel('Address')).toHaveValue(/./);
}

test.describe('outbox', () => {
  let token: string;
  test.beforeAll(async ({ request }) => {
    token = await adminToken(request);
  });

  test('an edit made offline is kept on the device and applied once when the network returns', async ({
    page,
    context,
    request,
  }) => {
    const partner = await freshPartner(request, token, 'Offline Kitchen', 'outbox');
    await signIn(page);
    await openEdit(page, partner);

    await context.setOffline(true);
    const address = `14 Broad Street, Lagos Island (${Date.now()})`;
    await page.getByLabel('Address').fill(address);
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByText(OUTBOX_MESSAGES.savedOffline)).toBeVisible();
    // The partner's page shows the edit at once; the bar counts it; IndexedDB holds it.
    await expect(page).toHaveURL(new RegExp(`/dashboard/partners/${partner.id}$`));
    await expect(page.getByText(address)).toBeVisible();
    await expect(pendingCount(page)).toHaveText('1');
    expect(await outboxRows(page)).toBe(1);
    await page.getByRole('button', { name: /Pending changes/ }).click();
    const panel = page.getByRole('dialog', { name: 'Pending changes' });
    await expect(
      panel.getByRole('listitem', { name: `Edit partner ${partner.organizationName}` }),
    ).toBeVisible();
    await expect(panel.getByRole('button', { name: 'Retry' })).toBeVisible();
    await expect(panel.getByRole('button', { name: 'Discard' })).toBeVisible();
    await page.keyboard.press('Escape');
    expect((await readPartner(request, token, partner.id)).address).toBe(partner.address);

    const sent = page.waitForResponse(
      (r) => r.url().endsWith('/admin/partners/update-record') && r.request().method() === 'PATCH',
    );
    const online = Date.now();
    await context.setOffline(false);
    expect((await sent).status()).toBe(200);
    await expect(pendingCount(page)).toHaveCount(0);
    const synced = Date.now() - online;
    console.log(`outbox: online → synced (bar gone) in ${synced} ms`);
    expect(await outboxRows(page)).toBe(0);

    // Exactly one change on the server, one event in the log.
    expect((await readPartner(request, token, partner.id)).address).toBe(address);
    const updates = await partnerLog(request, token, partner);
    expect(updates.map((u) => u.action)).toEqual([`Updated partner ${partner.organizationName} (address)`]);
    console.log(`outbox: partner ${partner.id}: 1 change on the server, ${updates.length} event in the log`);
  });

  test('a lost answer: the resend under the same key is answered from the first, one event', async ({
    page,
    request,
  }) => {
    const partner = await freshPartner(request, token, 'Lost Answer Grill', 'outbox');
    await signIn(page);
    await openEdit(page, partner);
    const keys: string[] = [];
    let dropped = false;
    await page.route('**/api/v1/admin/partners/update-record', async (route) => {
      keys.push(route.request().headers()['idempotency-key'] ?? '');
      if (dropped) return route.continue();
      dropped = true;
      // The server applies it; the answer never reaches the page.
      await route.fetch();
      await route.abort('failed');
    });
    const address = `2 Marina, Lagos (${Date.now()})`;
    await page.getByLabel('Address').fill(address);
    const replay = page.waitForResponse((r) => r.url().endsWith('/admin/partners/update-record'));
    await page.getByRole('button', { name: 'Submit' }).click();
    const answer = await replay;
    expect(answer.status()).toBe(200);
    expect(answer.headers()['idempotent-replayed']).toBe('true');
    await expect(pendingCount(page)).toHaveCount(0);
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
    expect((await readPartner(request, token, partner.id)).address).toBe(address);
    expect(await partnerLog(request, token, partner)).toHaveLength(1);
    console.log('outbox: lost answer → 2 requests, one key, 1 event');
  });

  test('an edit of a record changed meanwhile gets the 409 dialog; Use theirs and Keep mine both work', async ({
    page,
    request,
  }) => {
    const partner = await freshPartner(request, token, 'Conflict Cafe', 'outbox');
    await signIn(page);
    await openEdit(page, partner);

    // Someone else changes the address while the form is open.
    const theirs = `Theirs: 8 Adeola Odeku (${Date.now()})`;
    await apiCall(request, token, 'PATCH', '/admin/partners/update-record', {
      partnerId: partner.id,
      address: theirs,
    });
    const mine = `Mine: 30 Admiralty Way (${Date.now()})`;
    await page.getByLabel('Address').fill(mine);
    await page.getByRole('button', { name: 'Submit' }).click();
    let dialog = page.getByRole('dialog', { name: 'This record changed on the server' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('row', { name: /Address/ })).toContainText(theirs);
    await expect(dialog.getByRole('row', { name: /Address/ })).toContainText(mine);

    // Use theirs: the change is dropped and the form shows the server's record.
    await dialog.getByRole('button', { name: 'Use theirs' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(page.getByLabel('Address')).toHaveValue(theirs);
    expect((await readPartner(request, token, partner.id)).address).toBe(theirs);

    // Changed again meanwhile; this time Keep mine: sent against the server's version, applied.
    const again = `Theirs again: 1 Ozumba Mbadiwe (${Date.now()})`;
    await apiCall(request, token, 'PATCH', '/admin/partners/update-record', {
      partnerId: partner.id,
      address: again,
    });
    await page.getByLabel('Address').fill(mine);
    await page.getByRole('button', { name: 'Submit' }).click();
    dialog = page.getByRole('dialog', { name: 'This record changed on the server' });
    await expect(dialog.getByRole('row', { name: /Address/ })).toContainText(again);
    await dialog.getByRole('button', { name: 'Keep mine' }).click();
    await expect(page.getByText('Partner added successfully')).toBeVisible();
    await expect(page).toHaveURL(/\/dashboard\/partners$/);
    expect((await readPartner(request, token, partner.id)).address).toBe(mine);
    // Two changes by the API, one by the form: three events, no 409 logged as a change.
    expect(await partnerLog(request, token, partner)).toHaveLength(3);
  });

  test('an offline edit that meets a change made meanwhile stops the queue at the 409 dialog', async ({
    page,
    context,
    request,
  }) => {
    const partner = await freshPartner(request, token, 'Queue Conflict Suya', 'outbox');
    await signIn(page);
    await openEdit(page, partner);
    await context.setOffline(true);
    const mine = `Mine offline: 5 Kofo Abayomi (${Date.now()})`;
    await page.getByLabel('Address').fill(mine);
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(pendingCount(page)).toHaveText('1');
    const theirs = `Theirs online: 9 Bourdillon (${Date.now()})`;
    await apiCall(request, token, 'PATCH', '/admin/partners/update-record', {
      partnerId: partner.id,
      address: theirs,
    });
    await context.setOffline(false);
    const dialog = page.getByRole('dialog', { name: 'This record changed on the server' });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText(`Edit partner ${partner.organizationName}`);
    await expect(dialog.getByRole('row', { name: /Address/ })).toContainText(theirs);
    expect((await readPartner(request, token, partner.id)).address).toBe(theirs);
    await dialog.getByRole('button', { name: 'Keep mine' }).click();
    await expect(pendingCount(page)).toHaveCount(0);
    expect((await readPartner(request, token, partner.id)).address).toBe(mine);
    expect(await outboxRows(page)).toBe(0);
  });

  test('signing out with unsent changes warns first; Sign out anyway discards them', async ({
    page,
    context,
    request,
  }) => {
    const partner = await freshPartner(request, token, 'Sign Out Bakery', 'outbox');
    await signIn(page);
    await openEdit(page, partner);
    await context.setOffline(true);
    await page.getByLabel('Address').fill('Never sent: 4 Campbell Street');
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(pendingCount(page)).toHaveText('1');

    await page.getByRole('button', { name: 'Logout' }).click();
    const warning = page.getByRole('dialog', { name: 'Sign out with unsent changes?' });
    await expect(warning).toContainText(OUTBOX_MESSAGES.discardConfirm);
    await warning.getByRole('button', { name: 'Stay signed in' }).click();
    await expect(warning).toHaveCount(0);
    await expect(page).toHaveURL(new RegExp(`/dashboard/partners/${partner.id}$`));
    await expect(pendingCount(page)).toHaveText('1');

    await page.getByRole('button', { name: 'Logout' }).click();
    await warning.getByRole('button', { name: 'Sign out anyway' }).click();
    await expect(page).toHaveURL(/\/$/);
    // The device wipe deletes the database after the sign-in screen shows: a read meanwhile can be
    // aborted by it (-1), and is made again until the outbox reads empty.
    await expect.poll(() => outboxRows(page).catch(() => -1)).toBe(0);
    await context.setOffline(false);
    expect((await readPartner(request, token, partner.id)).address).toBe(partner.address);
    expect(await partnerLog(request, token, partner)).toHaveLength(0);
  });

  test('a redemption attempted offline is refused with a clear message; nothing is sent or queued', async ({
    page,
    context,
    request,
  }) => {
    // A fresh gift card at a partner with an eligible customer.
    const partners = await apiCall<{ records: { id: number }[] }>(
      request,
      token,
      'GET',
      '/admin/partners?status=ACTIVE&pageSize=20',
    );
    let target: { partnerId: number; customerId: number } | null = null;
    for (const p of partners.records) {
      const eligible = await apiCall<{ records: { user: { id: number }; isEligible: boolean }[] }>(
        request,
        token,
        'GET',
        `/admin/partners/visits/reward-eligible-users?partnerId=${p.id}`,
      );
      // An eligible customer whose account is active (issue 16, defect 11).
      const found = await firstOfActiveCustomer(
        request,
        token,
        eligible.records.filter((u) => u.isEligible),
        (u) => u.user.id,
      );
      if (found) {
        target = { partnerId: p.id, customerId: found.candidate.user.id };
        break;
      }
    }
    expect(target).not.toBeNull();
    const issued = await request.post(`${API}/partners/rewards/issue-reward`, {
      headers: { authorization: `Bearer ${token}`, 'Idempotency-Key': crypto.randomUUID() },
      data: {
        rewardType: 'GIFTCARD',
        issuedAmount: 5000,
        title: 'Outbox spec gift card',
        description: 'Never redeemed offline',
        promotionalImage: PNG,
        issuedTo: target!.customerId,
        partnerId: target!.partnerId,
      },
    });
    expect(issued.ok(), await issued.text()).toBe(true);
    const { code } = (await issued.json()).data as { code: string };

    const sent: string[] = [];
    page.on('request', (r) => {
      if (MONEY_CALLS.test(new URL(r.url()).pathname)) sent.push(`${r.method()} ${r.url()}`);
    });
    await signIn(page);
    await page.goto(`/dashboard/partners/${target!.partnerId}?activeTab=rewards`);
    const redeem = page.getByRole('button', { name: `Redeem ${code}` });
    await expect(redeem).toBeVisible();
    const rowsBefore = await outboxRows(page);
    await context.setOffline(true);
    await redeem.click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByRole('alert')).toHaveText(rewardMessages.networkRequired);
    await expect(pendingCount(page)).toHaveCount(0);
    expect(await outboxRows(page)).toBe(rowsBefore);
    expect(rowsBefore).toBe(0);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await context.setOffline(false);
    await page.waitForTimeout(500);
    expect(sent).toEqual([]);
    expect(await outboxRows(page)).toBe(0);
    console.log(
      `outbox: offline redemption refused ("${rewardMessages.networkRequired}"), 0 requests, 0 queued`,
    );
  });
});
