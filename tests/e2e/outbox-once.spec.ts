import { expect, test } from '@playwright/test';
import { OUTBOX_MESSAGES } from '../../src/lib/outbox';
import { adminToken, freshPartner, readPartner } from './support/admin-api';
import { signIn } from './support/fixtures';

/**
 * Issue 30: the outbox sends a queued edit once. An edit kept offline goes out in one request when
 * the network returns, and no request carries it after the server applied it (with the same
 * Idempotency-Key or a new one): the server's idempotency would hide a second send, so the requests
 * themselves are counted.
 */
test('a queued edit goes out in one request when the network returns, and never again', async ({
  page,
  context,
  request,
}) => {
  const token = await adminToken(request);
  const partner = await freshPartner(request, token, 'Once Only Grill', 'outbox');
  await signIn(page);
  await page.goto(`/dashboard/partners/${partner.id}`);
  await expect(page.getByRole('heading', { name: partner.organizationName })).toBeVisible();
  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  await expect(page.getByLabel('Address')).toHaveValue(/./);

  const sends: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'PATCH' && r.url().endsWith('/admin/partners/update-record'))
      sends.push(r.headers()['idempotency-key'] ?? '');
  });
  await context.setOffline(true);
  const address = `7 Awolowo Road, Ikoyi (${Date.now()})`;
  await page.getByLabel('Address').fill(address);
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText(OUTBOX_MESSAGES.savedOffline)).toBeVisible();
  await expect(page.getByTestId('pending-count')).toHaveText('1');

  const applied = page.waitForResponse(
    (r) => r.url().endsWith('/admin/partners/update-record') && r.request().method() === 'PATCH',
  );
  await context.setOffline(false);
  expect((await applied).status()).toBe(200);
  await expect(page.getByTestId('pending-count')).toHaveCount(0);
  expect((await readPartner(request, token, partner.id)).address).toBe(address);
  // A while for anything sent after the answer to show (the queue has nothing left to send).
  await page.waitForTimeout(1_500);
  expect(sends, 'requests carrying the queued edit').toHaveLength(1);
});
