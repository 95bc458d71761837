import { expect, test } from '@playwright/test';
import { isServable } from './support/admin-api';
import { DEMO_ADMIN } from './support/env';
import { signIn } from './support/fixtures';

/**
 * Webhooks (issue 21): a webhook is added on its screen, its secret shown once; a visit recorded by
 * a till (the API) queues a delivery whose failed attempt the delivery log shows, and it is replayed.
 * The URL is under `.invalid` (RFC 6761: never resolves), so the attempt fails without any network.
 */
test('a webhook is added (secret shown once), its delivery log shows a failed attempt, and it is replayed', async ({
  page,
  request,
}) => {
  const url = `https://till-${Date.now().toString(36)}.pos.invalid/hooks`;
  await signIn(page);
  await page.getByRole('link', { name: 'Webhooks' }).click();
  await expect(page).toHaveURL(/\/dashboard\/webhooks$/);
  await expect(page.getByRole('heading', { name: 'Webhooks', level: 1 })).toBeVisible();

  await page.getByRole('button', { name: 'Add webhook' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add webhook' });
  await dialog.getByLabel('URL').fill(url);
  await dialog.getByLabel('Description').fill('Till 1');
  // A partner's endpoint is never sent the club-only customer.created: offered only club-wide.
  const clubOnly = dialog.getByRole('checkbox', { name: 'customer.created' });
  await expect(clubOnly).toBeVisible();
  await dialog.getByLabel('Partner ID (empty: every partner)').fill('1');
  await expect(clubOnly).toHaveCount(0);
  await expect(dialog.getByRole('checkbox', { name: 'customer.linked' })).toBeVisible();
  await dialog.getByLabel('Partner ID (empty: every partner)').fill('');
  await expect(clubOnly).toBeVisible();
  await dialog.getByRole('checkbox', { name: 'reward.issued' }).check();
  await dialog.getByRole('button', { name: 'Add webhook' }).click();
  const done = page.getByRole('dialog', { name: 'Webhook added' });
  await expect(done).toContainText('It is not shown again.');
  await expect(done.getByLabel('Signing secret')).toHaveValue(/^whsec_[A-Za-z0-9+/]+=*$/);
  await done.getByRole('button', { name: 'Done' }).click();

  const row = page.getByRole('row').filter({ hasText: url });
  await expect(row).toContainText('visit.recorded, reward.issued');
  await expect(row).toContainText('Enabled');
  await expect(page.getByText('whsec_')).toHaveCount(0);

  // A till records a visit through the API.
  const login = await request.post('/api/v1/admin/auth/login', { data: DEMO_ADMIN });
  const token = (await login.json()).data.accessToken as string;
  const auth = { authorization: `Bearer ${token}` };
  const partners = await (
    await request.get('/api/v1/admin/partners?pageSize=10&status=ACTIVE', { headers: auth })
  ).json();
  const customers = await (
    await request.get('/api/v1/admin/user/customers?status=ACTIVE&pageSize=50', { headers: auth })
  ).json();
  const visit = await request.post('/api/v1/user/visits', {
    headers: { ...auth, 'Idempotency-Key': `e2e-${Date.now()}` },
    data: {
      partnerId: partners.data.records[0].id,
      customerId: customers.data.records.find(isServable).id,
      attendantName: 'Till 1',
      visitDate: new Date(Date.now() - 60_000).toISOString(),
      items: [{ name: 'Jollof rice', quantity: 1, price: 2500 }],
    },
  });
  expect(visit.status()).toBe(201);

  await row.getByRole('button', { name: `Deliveries of ${url}` }).click();
  await expect(page).toHaveURL(/webhook=\d+/);
  const log = page.getByRole('region', { name: 'Delivery log' });
  const delivery = log.getByRole('row').filter({ hasText: 'visit.recorded' });
  // The sender tries within seconds; the name does not resolve, so the attempt fails and is retried.
  await expect(delivery).toContainText('does not resolve', { timeout: 20_000 });
  await expect(delivery).toContainText('no answer');
  await expect(delivery).toContainText('pending');
  await delivery.getByRole('button', { name: 'Replay' }).click();
  await expect(page.getByText('Delivery queued again')).toBeVisible();

  // Disable and delete from the row.
  await row.getByRole('button', { name: 'Disable' }).click();
  await expect(row).toContainText('Disabled');
  // Deleted from the list itself (the delivery log closed, as a user back on the list sees it).
  await page.goto('/dashboard/webhooks');
  await expect(row).toContainText('Disabled');
  await row.getByRole('button', { name: `Delete ${url}` }).click();
  await expect(page.getByText('Webhook deleted')).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: url })).toHaveCount(0);
});
