import { expect, test } from '@playwright/test';
import { DEMO_ADMIN, E2E_BASE_URL } from './support/env';
import { signIn } from './support/fixtures';

const API = `${E2E_BASE_URL}/api/v1`;

test('a client is viewed with the fiber account, edited, blocked and deleted', async ({ page, request }) => {
  // Picked by what the test needs (an active customer with a fiber plan), never by position: other
  // specs add customers without a plan (campaigns, approvals) that sort first.
  const login = await request.post(`${API}/admin/auth/login`, { data: DEMO_ADMIN });
  const auth = { authorization: `Bearer ${(await login.json()).data.accessToken as string}` };
  const listed = await request.get(`${API}/admin/user/customers?status=ACTIVE&pageSize=100`, {
    headers: auth,
  });
  const customers = (await listed.json()).data.records as { id: number }[];
  let clientId: number | undefined;
  for (const c of customers) {
    const info = await request.get(`${API}/user/internet/client_info?client_id=${c.id}`, { headers: auth });
    if (info.ok() && (await info.json()).data.speedMbps !== null) {
      clientId = c.id;
      break;
    }
  }
  expect(clientId, 'an active customer with a fiber plan').toBeDefined();

  await signIn(page);
  await page.goto('/dashboard/clients');
  await expect(page.getByRole('tab', { name: 'Active Customers' })).toHaveAttribute('aria-selected', 'true');
  const table = page.getByRole('table', { name: 'Customers' });
  await expect(table.getByRole('row').nth(1)).toBeVisible();
  await page.goto(`/dashboard/clients/${clientId}`);
  await expect(page).toHaveURL(/\/dashboard\/clients\/\d+$/);
  const clientUrl = page.url();

  // The fiber account comes from the provider's client info.
  await expect(page.getByText('Fiber Account')).toBeVisible();
  await expect(page.getByText(/Mbps/)).toBeVisible();
  await expect(page.getByText(/₦/).first()).toBeVisible();

  // Edit: only the non-empty fields go; the list gets 'Record updated successfully'.
  const street = `${Date.now() % 1000} Ogui Road, Enugu`;
  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  await page.getByLabel('Address').fill(street);
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Record updated successfully')).toBeVisible();
  await page.goto(clientUrl);
  await expect(page.getByText(street)).toBeVisible();

  // Block and unblock.
  await page.getByRole('button', { name: 'Block' }).click();
  await expect(page.getByRole('button', { name: 'Unblock' })).toBeVisible();
  await page.getByRole('button', { name: 'Unblock' }).click();
  await expect(page.getByRole('button', { name: 'Block' })).toBeVisible();

  // Delete asks the spec's question and then really deletes.
  const heading = await page.getByRole('heading', { level: 1 }).first().textContent();
  await page.getByRole('button', { name: 'Delete' }).click();
  const dialog = page.getByRole('dialog', { name: 'Confirm Deletion' });
  await expect(dialog).toContainText('Are you sure you want to delete this client?');
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(page).toHaveURL(/\/dashboard\/clients(\?.*)?$/);
  await page.goto(clientUrl);
  await expect(page.getByText(heading ?? '__none__', { exact: true })).toHaveCount(0);
});

test('extended services are added, edited and deleted', async ({ page }) => {
  const title = `Free Wi-Fi lounge ${Date.now().toString(36)}`;
  const description =
    'Customers on the fiber plan get two hours of free Wi-Fi in the lounge every visit, all week long.';
  await signIn(page);
  await page.goto('/dashboard/extservices');
  await page.getByRole('button', { name: 'Add Service' }).click();
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Title is required')).toBeVisible();
  await expect(page.getByText('Description is required')).toBeVisible();
  await page.getByLabel('Title').fill(title);
  await page.getByLabel('Description').fill(description);
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Partner added successfully')).toBeVisible();

  const table = page.getByRole('table', { name: 'Extended services' });
  await page.getByRole('searchbox', { name: 'Search services' }).fill(title);
  const row = table.getByRole('row', { name: new RegExp(title) });
  await expect(row).toBeVisible();
  // The description is cut to 60 characters in the table.
  await expect(row).toContainText(description.slice(0, 50));
  await expect(row).not.toContainText(description);

  await row.getByRole('link', { name: 'Edit' }).click();
  await page.getByLabel('Title').fill(`${title} plus`);
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Record updated successfully')).toBeVisible();

  await page.getByRole('searchbox', { name: 'Search services' }).fill(`${title} plus`);
  const edited = table.getByRole('row', { name: new RegExp(`${title} plus`) });
  await edited.getByRole('button', { name: 'Delete' }).click();
  await page
    .getByRole('dialog', { name: 'Confirm Deletion' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(page.getByText('No results.')).toBeVisible();
});
