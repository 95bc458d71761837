import { expect, test } from '@playwright/test';
import { isServable } from './support/admin-api';
import { DEMO_ADMIN, MAIN_DATA_DIR } from './support/env';
import { linkCustomerByMail, signIn } from './support/fixtures';

/**
 * Partner API keys (issue 21): on the partner page's Integrations tab a key is created and shown
 * once; a till records a visit with it through the API (X-Api-Key), the tab shows when it was last
 * used; it is revoked after a confirmation, and the key is refused at once.
 */
test('an API key is created (shown once), records a visit, shows "last used", is revoked and refused', async ({
  page,
  request,
  context,
}) => {
  const login = await request.post('/api/v1/admin/auth/login', { data: DEMO_ADMIN });
  const auth = { authorization: `Bearer ${(await login.json()).data.accessToken as string}` };
  const partners = await (
    await request.get('/api/v1/admin/partners?pageSize=10&status=ACTIVE', { headers: auth })
  ).json();
  const partnerId = partners.data.records[0].id as number;
  const customers = await (
    await request.get('/api/v1/admin/user/customers?status=ACTIVE&pageSize=50', { headers: auth })
  ).json();
  const customer = customers.data.records.find(isServable) as { id: number; email: string };
  const customerId = customer.id;
  const name = `Till ${Date.now().toString(36)}`;

  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signIn(page);
  await page.goto(`/dashboard/partners/${partnerId}?activeTab=integrations`);
  await expect(page.getByRole('tab', { name: 'Integrations', selected: true })).toBeVisible();

  await page.getByRole('button', { name: 'Create key' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create API key' });
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByRole('checkbox', { name: 'rewards.view' }).check();
  await dialog.getByRole('button', { name: 'Create key' }).click();
  const done = page.getByRole('dialog', { name: 'API key created' });
  await expect(done).toContainText('It is not shown again');
  const field = done.getByLabel('API key');
  await expect(field).toHaveValue(/^rck_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/);
  const key = await field.inputValue();
  await done.getByRole('button', { name: 'Copy key' }).click();
  await expect(page.getByText('Key copied')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
  await done.getByRole('button', { name: 'Done' }).click();

  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toContainText('visits.create, rewards.view');
  await expect(row).toContainText('Never');
  await expect(row).toContainText(key.slice(0, 16));
  await expect(page.getByText(key)).toHaveCount(0);

  // A till links the customer with the code from their mailbox (decision 053), then records a
  // visit with the key alone.
  await linkCustomerByMail(request, {
    headers: { 'X-Api-Key': key },
    dataDir: MAIN_DATA_DIR,
    email: customer.email,
  });
  const visit = {
    partnerId,
    customerId,
    attendantName: 'Till 1',
    visitDate: new Date(Date.now() - 60_000).toISOString(),
    items: [{ name: 'Jollof rice', quantity: 1, price: 2500 }],
  };
  const recorded = await request.post('/api/v1/user/visits', { headers: { 'X-Api-Key': key }, data: visit });
  expect(recorded.status()).toBe(201);
  expect(recorded.headers()['ratelimit-policy']).toBe('"api-key";q=600;w=60');

  await page.reload();
  await expect(row).not.toContainText('Never');

  await row.getByRole('button', { name: `Revoke ${name}` }).click();
  const confirm = page.getByRole('dialog', { name: 'Revoke API key' });
  await expect(confirm).toContainText(name);
  await confirm.getByRole('button', { name: 'Revoke' }).click();
  await expect(page.getByText('API key revoked')).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: name })).toHaveCount(0);

  const refused = await request.post('/api/v1/user/visits', { headers: { 'X-Api-Key': key }, data: visit });
  expect(refused.status()).toBe(401);
  expect((await refused.json()).code).toBe('unauthenticated');
});
