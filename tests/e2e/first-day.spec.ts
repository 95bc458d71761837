import { expect, test } from '@playwright/test';
import { staffServerMessages } from '../../contract/staff';
import { adminToken, apiCall, freshPartner } from './support/admin-api';
import { MAIN_DATA_DIR } from './support/env';
import { latestMail, signIn } from './support/fixtures';

/**
 * Issue 22, "Done when": an admin invites a partner cashier at a partner of the test's own; the
 * cashier opens the link of the invitation mail on a phone (375 px), sets a password (the code is
 * filled in, never typed) and is signed in at their partner's workspace.
 */
test('a new partner cashier goes from the invitation mail to their partner, in one link, at 375 px', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const token = await adminToken(request);
  const partner = await freshPartner(request, token, 'First Day Kitchen', 'firstday');
  const email = `cashier.${partner.id}.${Date.now().toString(36)}@firstday.ng`;

  // The admin invites: a partner role asks for the partner, and the invitation names it.
  await signIn(page);
  await page.goto('/dashboard/staff/add');
  const form = page.getByRole('region', { name: 'Invite staff' });
  await form.getByLabel('First Name').fill('Kemi');
  await form.getByLabel('Last Name').fill('Balogun');
  await form.getByLabel('Email').fill(email);
  await expect(form.getByLabel('Partner')).toHaveCount(0);
  await form.getByLabel('Role', { exact: true }).selectOption({ label: 'Partner Staff' });
  await expect(form.getByLabel('Partner')).toBeVisible();
  await form.getByRole('button', { name: 'Submit' }).click();
  await expect(form.getByText(staffServerMessages.partnerRequired)).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard\/staff\/add$/);
  await form.getByLabel('Partner').selectOption({ label: partner.organizationName });
  await form.getByRole('button', { name: 'Submit' }).click();
  await expect(page).toHaveURL(/\/dashboard\/staff\?activeTab=users$/);

  // The edit form shows where the member works, and keeps asking for a partner with a partner role.
  const staff = await apiCall<{ records: { id: number; email: string }[] }>(
    request,
    token,
    'GET',
    `/admin/user/admin-users?searchText=${encodeURIComponent(email)}`,
  );
  const member = staff.records.find((r) => r.email === email)!;
  await page.goto(`/dashboard/staff/${member.id}/edit`);
  const edit = page.getByRole('region', { name: 'Edit staff' });
  await expect(edit.getByLabel('Partner')).toHaveValue(String(partner.id));
  await expect(edit.getByLabel('Partner').locator('option:checked')).toHaveText(partner.organizationName);
  await edit.getByLabel('Role', { exact: true }).selectOption({ label: 'Support' });
  await expect(edit.getByLabel('Partner')).toHaveCount(0);

  // The mail: both parts, the same link, the lifetime, the words of the screens.
  const mail = await latestMail(MAIN_DATA_DIR, email);
  const link = /(http:\/\/\S+\/reset-password\?code=[A-Z0-9]+&email=\S+)/.exec(mail.text ?? '')?.[1];
  expect(link, mail.text).toBeDefined();
  const code = new URL(link!).searchParams.get('code')!;
  expect(mail.text).toContain(`at ${partner.organizationName}`);
  expect(mail.text).toContain('The code is valid for 72 hours');
  expect(mail.text).toContain('"Forgot password?", then "I have a reset code"');
  expect(mail.html).toContain(`href="${link!.replace('&', '&#38;')}"`);

  // The cashier, on a phone: one link, a password, and they are at their partner.
  const phone = await browser.newContext({
    viewport: { width: 375, height: 740 },
    isMobile: true,
    hasTouch: true,
  });
  const cashier = await phone.newPage();
  await cashier.goto(link!);
  await expect(cashier.getByLabel('Reset Code')).toHaveValue(code);
  await cashier.getByLabel('New Password', { exact: true }).fill('FirstDay2026');
  await cashier.getByLabel('Confirm Password').fill('FirstDay2026');
  await cashier.getByRole('button', { name: 'Update password' }).click();
  await expect(cashier).toHaveURL(new RegExp(`/dashboard/partners/${partner.id}$`), { timeout: 30_000 });
  await expect(cashier.getByText(partner.organizationName).first()).toBeVisible();
  const width = await cashier.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(375);
  await phone.close();
});
