import { expect, test } from '@playwright/test';
import { staffServerMessages } from '../../contract/staff';
import { adminToken, apiCall } from './support/admin-api';
import { MAIN_DATA_DIR } from './support/env';
import { latestMailedCode, signIn } from './support/fixtures';

test('a new role and an invited staff member see only what the role allows, and the log shows it', async ({
  page,
}) => {
  const suffix = Date.now().toString(36);
  const roleName = `Front Desk ${suffix}`;
  const invitee = {
    firstName: 'Chiamaka',
    lastName: `Nwosu${suffix}`,
    email: `chiamaka.${suffix}@rewardclub.ng`,
  };
  const password = 'Welcome123';

  // The admin creates a role with two permissions.
  await signIn(page);
  await page.goto('/dashboard/staff?activeTab=roles');
  await page.getByRole('button', { name: 'Add Role' }).click();
  await expect(page).toHaveURL(/\/dashboard\/roles\/add$/);
  await expect(page.getByRole('heading', { name: 'Create Admin Role' })).toBeVisible();
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Role name is required')).toBeVisible();
  await expect(page.getByText('Permissions must be selected for a role')).toBeVisible();

  await page.getByRole('textbox', { name: 'Role Name' }).fill(roleName);
  await page
    .getByRole('group', { name: 'dashboard', exact: true })
    .getByRole('checkbox', { name: 'view' })
    .check();
  await page
    .getByRole('group', { name: 'activities', exact: true })
    .getByRole('checkbox', { name: 'view' })
    .check();
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page).toHaveURL(/activeTab=roles/);
  await expect(
    page.getByRole('table', { name: 'Roles' }).getByRole('row', { name: new RegExp(roleName) }),
  ).toBeVisible();

  // ... invites a staff member with it ...
  await page.getByRole('tab', { name: 'Users' }).click();
  await page.getByRole('button', { name: 'Add Staff' }).click();
  await expect(page).toHaveURL(/\/dashboard\/staff\/add$/);
  await page.getByLabel('First Name').fill(invitee.firstName);
  await page.getByLabel('Last Name').fill(invitee.lastName);
  await page.getByLabel('Email', { exact: true }).fill(invitee.email);
  await page.getByLabel('Role', { exact: true }).selectOption({ label: roleName });
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page).toHaveURL(/\/dashboard\/staff\?activeTab=users/);
  await expect(page.getByText('Update successful')).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search staff' }).fill(invitee.lastName);
  await expect(
    page.getByRole('table', { name: 'Staff' }).getByRole('row', { name: new RegExp(invitee.lastName) }),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Logout' }).first().click();
  await expect(page).toHaveURL(/\/$/);

  // ... who sets a password with the code from the invitation mail ...
  const code = await latestMailedCode(MAIN_DATA_DIR, invitee.email, /set-password code is:\s*([A-Z0-9]{8})/i);
  await page.goto('/reset-password');
  await page.getByLabel('Reset Code').fill(code);
  await page.getByLabel('New Password', { exact: true }).fill(password);
  await page.getByLabel('Confirm Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Update password' }).click();
  await expect(page).toHaveURL(/\/$/);

  // ... signs in and sees only the allowed menu entries ...
  await signIn(page, { email: invitee.email, password });
  const menu = page.getByRole('navigation', { name: 'Main' });
  await expect(menu.getByRole('link', { name: 'Dashboard' })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Activity Log' })).toBeVisible();
  for (const hidden of ['Staff & Role', 'Partner', 'Client', 'Extended Services']) {
    await expect(menu.getByRole('link', { name: hidden, exact: true })).toHaveCount(0);
  }

  // ... gets the 'not allowed' state on a forbidden URL ...
  await page.goto('/dashboard/staff');
  await expect(page.getByRole('heading', { name: 'Not allowed' })).toBeVisible();
  await expect(page.getByText("You don't have permission to view this page.")).toBeVisible();
  await page.goto('/dashboard/roles/add');
  await expect(page.getByRole('heading', { name: 'Not allowed' })).toBeVisible();

  // ... and the activity log shows those actions with IP address and location.
  await page.goto('/dashboard/activities');
  await page.getByRole('tab', { name: 'Admin' }).click();
  // The Partner tab's panel may still be drawn while the Admin tab's opens (a busy machine): the
  // Admin panel's own search box and log.
  const admin = page.getByRole('tabpanel', { name: 'Admin' });
  const log = admin.getByRole('table', { name: 'Activity log' });
  await admin.getByRole('searchbox', { name: 'Search activities' }).fill(suffix);
  for (const action of [`Created role ${roleName}`, `Invited ${invitee.firstName} ${invitee.lastName}`]) {
    const row = log.getByRole('row', { name: new RegExp(action) });
    await expect(row).toBeVisible();
    await expect(row).toContainText('Local network');
    await expect(row).toContainText(/127\.0\.0\.1|::1/);
  }
  await admin.getByRole('searchbox', { name: 'Search activities' }).fill(invitee.lastName);
  await expect(log.getByRole('row', { name: /Set password from an invitation/ })).toBeVisible();
  await expect(log.getByRole('row', { name: /Signed in/ }).first()).toBeVisible();
});

test("one's own Edit offers no password and sends to the profile; another member's still has it (decision 044)", async ({
  page,
  request,
}) => {
  const token = await adminToken(request);
  const me = await apiCall<{ id: number }>(request, token, 'GET', '/user/profile');
  const staff = await apiCall<{ records: { id: number }[] }>(
    request,
    token,
    'GET',
    '/admin/user/admin-users?pageSize=10',
  );
  const other = staff.records.find((r) => r.id !== me.id)!;

  await signIn(page);
  await page.goto(`/dashboard/staff/${other.id}/edit`);
  const edit = page.getByRole('region', { name: 'Edit staff' });
  await expect(edit.getByLabel('Password', { exact: true })).toBeVisible();

  await page.goto(`/dashboard/staff/${me.id}/edit`);
  await expect(edit.getByLabel('First Name')).toBeVisible();
  await expect(edit.getByLabel('Password', { exact: true })).toHaveCount(0);
  const note = edit.getByRole('note').filter({ hasText: staffServerMessages.ownPasswordInProfile });
  await expect(note).toBeVisible();
  await note.getByRole('link', { name: 'Go to your profile' }).click();
  await expect(page).toHaveURL(/\/dashboard\/profile#change-password-title$/);
  await expect(page.getByRole('heading', { name: 'Change password' })).toBeVisible();
  await expect(page.getByLabel('Old Password')).toBeVisible();
});
