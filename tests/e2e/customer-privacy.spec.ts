import { readFileSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { customerPrivacyMessages } from '../../contract/customer-privacy';
import { adminToken, apiCall, PNG } from './support/admin-api';
import { MAIN_DATA_DIR } from './support/env';
import { latestMailedCode, mailsTo, signIn } from './support/fixtures';

/**
 * The customer's rights on the client page (issue 28, decision 054), at 375 px and 1440 px: a club
 * admin downloads a customer's data (a JSON file whose profile is the customer's), is told why an
 * erasure is refused while a redemption of theirs is in flight, then erases them: the name leaves
 * the detail and the list, and every figure the dashboard shows stays the same.
 */

const OTP_PATTERN = /redemption code is: (\d{6})/;

/** The dashboard's figure cards ('Total …'), each as the text it shows. */
async function dashboardFigures(page: Page): Promise<Record<string, string>> {
  await page.goto('/dashboard');
  const clients = page.getByRole('group', { name: 'Total Clients', exact: true });
  // The figures load after the page (a shared machine may be slow to answer).
  await expect(clients).toContainText(/\d/, { timeout: 30_000 });
  await expect(page.getByRole('group', { name: 'Total Giftcards Amount', exact: true })).toContainText(/\d/, {
    timeout: 30_000,
  });
  const out: Record<string, string> = {};
  for (const card of await page.getByRole('group').all()) {
    const name = await card.getAttribute('aria-label');
    if (name?.startsWith('Total ')) out[name] = (await card.innerText()).trim();
  }
  return out;
}

for (const viewport of [
  { width: 375, height: 812 },
  { width: 1440, height: 900 },
]) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test("a customer's data is exported as JSON, their erasure waits for a redemption in flight, and erasing them keeps the dashboard's figures", async ({
      page,
      request,
    }) => {
      // Two page loads of the dashboard and one of each screen on a shared, busy machine.
      test.setTimeout(300_000);
      const token = await adminToken(request);
      const stamp = `${viewport.width}-${Date.now()}`;
      const email = `privacy.${stamp}@mail.ng`;
      const lastName = `Okonkwo${viewport.width}x${Date.now() % 100_000}`;
      const added = await apiCall<{ customer: { id: number } }>(
        request,
        token,
        'POST',
        '/admin/user/customers',
        {
          externalId: `E2E-PRIVACY-${stamp}`,
          firstName: 'Ngozi',
          lastName,
          email,
          phone: '08035550123',
          address: '7 Awolowo Road, Ikoyi, Lagos',
        },
      );
      const customerId = added.customer.id;
      const name = `Ngozi ${lastName}`;
      const partners = await apiCall<{ records: { id: number }[] }>(
        request,
        token,
        'GET',
        '/admin/partners?status=ACTIVE&pageSize=10',
      );
      const partnerId = partners.records[0]!.id;
      await apiCall(request, token, 'POST', '/user/visits', {
        partnerId,
        customerId,
        attendantName: 'Bisi',
        visitDate: new Date(Date.now() - 3_600_000).toISOString(),
        items: [{ name: 'Pepper soup', quantity: 2, price: 1850 }],
      });
      const reward = await apiCall<{ code: string }>(
        request,
        token,
        'POST',
        '/partners/rewards/issue-reward',
        {
          partnerId,
          issuedTo: customerId,
          rewardType: 'GIFTCARD',
          issuedAmount: 3000,
          title: 'Privacy test gift card',
          description: 'For the privacy test',
          promotionalImage: PNG,
        },
      );
      // A redemption in flight: a code mailed to the customer and not used yet.
      const mailsBefore = mailsTo(MAIN_DATA_DIR, email);
      await apiCall(request, token, 'POST', '/partners/rewards/initiate-reward-redemption-auth', {
        userId: customerId,
        code: reward.code,
      });
      await expect.poll(() => mailsTo(MAIN_DATA_DIR, email)).toBeGreaterThan(mailsBefore);

      await signIn(page);
      await page.goto(`/dashboard/clients/${customerId}`);
      await expect(page.getByRole('heading', { name })).toBeVisible();

      // Export: the file is the customer's.
      const downloading = page.waitForEvent('download');
      await page.getByRole('button', { name: "Export this customer's data" }).click();
      const download = await downloading;
      expect(download.suggestedFilename()).toMatch(new RegExp(`^customer-${customerId}-data-.*\\.json$`));
      const file = JSON.parse(readFileSync((await download.path())!, 'utf8')) as {
        profile: { email: string; id: number };
        visits: { totalAmount: number }[];
      };
      expect(file.profile.email).toBe(email);
      expect(file.profile.id).toBe(customerId);
      expect(file.visits.map((v) => v.totalAmount)).toEqual([3700]);

      // Erase while the code is live: the dialog says what goes and what stays, then why not now.
      await page.getByRole('button', { name: 'Erase this customer' }).click();
      const dialog = page.getByRole('dialog', { name: 'Erase this customer' });
      await expect(dialog.getByRole('list', { name: 'What goes' })).toContainText(
        'name, email, phone and address',
      );
      await expect(dialog.getByRole('list', { name: 'What stays' })).toContainText('ledger amounts');
      const confirm = dialog.getByRole('button', { name: 'Erase customer' });
      await expect(confirm).toBeDisabled();
      await dialog.getByRole('checkbox').check();
      await confirm.click();
      await expect(dialog.getByRole('alert')).toHaveText(customerPrivacyMessages.redemptionInFlight);
      await dialog.getByRole('button', { name: 'Cancel' }).click();

      // The customer redeems at the counter; the figures are read after that.
      const otp = await latestMailedCode(MAIN_DATA_DIR, email, OTP_PATTERN);
      await apiCall(request, token, 'POST', '/partners/rewards/redeem-giftcard', {
        userId: customerId,
        code: reward.code,
        amountToRedeem: 1200,
        otp,
      });
      const before = await dashboardFigures(page);
      expect(Object.keys(before)).toContain('Total Clients');

      await page.goto(`/dashboard/clients/${customerId}`);
      await expect(page.getByRole('heading', { name })).toBeVisible();
      await page.getByRole('button', { name: 'Erase this customer' }).click();
      await expect(dialog.getByRole('list', { name: 'What goes' })).toBeVisible();
      await dialog.getByRole('checkbox').check();
      await dialog.getByRole('button', { name: 'Erase customer' }).click();
      await expect(page.getByText(customerPrivacyMessages.erased).first()).toBeVisible();
      await expect(dialog).toBeHidden();
      await expect(page.getByRole('heading', { name: 'Erased Customer' })).toBeVisible();
      await expect(page.getByText(lastName)).toHaveCount(0);
      await expect(page.getByText(email)).toHaveCount(0);
      await expect(page.getByText(customerPrivacyMessages.erasedNotice).first()).toBeVisible();

      // The list finds nobody by the old name.
      await page.goto(`/dashboard/clients?search=${encodeURIComponent(lastName)}`);
      await expect(page.getByText(/no (clients|customers|results)/i).first()).toBeVisible();
      await expect(page.getByText(lastName)).toHaveCount(0);

      expect(await dashboardFigures(page)).toEqual(before);
    });
  });
}
