import { expect, type Page, test } from '@playwright/test';
import { DEMO_ADMIN } from './support/env';
import { signIn } from './support/fixtures';

/**
 * Webhook secret rotation on the console (issue 31, decision 065): the row's 'Rotate secret' asks
 * first (Cancel changes nothing), then shows the new secret once, as at creation, and the row says
 * until when the old one still signs. At a phone's width and a desktop's. The URL is under
 * `.invalid` (RFC 6761), so nothing is ever delivered anywhere.
 */
for (const width of [375, 1440]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: width === 375 ? 812 : 900 } });

    test('Rotate secret asks first, then shows the new secret once; the old one signs for a day', async ({
      page,
      request,
    }) => {
      const url = `https://rotate-${width}-${Date.now().toString(36)}.pos.invalid/hooks`;
      const login = await request.post('/api/v1/admin/auth/login', { data: DEMO_ADMIN });
      const auth = { authorization: `Bearer ${(await login.json()).data.accessToken as string}` };
      const created = await request.post('/api/v1/admin/webhooks', {
        headers: auth,
        data: { url, events: ['visit.recorded'] },
      });
      expect(created.status()).toBe(201);
      const first = (await created.json()).data as { id: number; secret: string };

      await signIn(page);
      await page.goto('/dashboard/webhooks');
      const row = page.getByRole('row').filter({ hasText: url });
      await expect(row).toContainText('Enabled');
      await expect(row).not.toContainText('Old secret signs until');

      // Cancel: nothing happens.
      await row.getByRole('button', { name: `Rotate secret of ${url}` }).click();
      const confirm = page.getByRole('dialog', { name: 'Rotate signing secret' });
      await expect(confirm).toContainText('signed with both the old and the new secret');
      await expect(confirm).toContainText('24 hours');
      await expectFits(page, width);
      await confirm.getByRole('button', { name: 'Cancel' }).click();
      await expect(confirm).toBeHidden();
      await expect(row).not.toContainText('Old secret signs until');

      // Confirmed: the new secret, once.
      await row.getByRole('button', { name: `Rotate secret of ${url}` }).click();
      await page
        .getByRole('dialog', { name: 'Rotate signing secret' })
        .getByRole('button', { name: 'Rotate secret' })
        .click();
      const done = page.getByRole('dialog', { name: 'Secret rotated' });
      await expect(done).toContainText('It is not shown again.');
      await expect(done).toContainText('The old secret also signs every delivery until');
      const secret = done.getByLabel('Signing secret');
      await expect(secret).toHaveValue(/^whsec_[A-Za-z0-9+/]+=*$/);
      const value = await secret.inputValue();
      expect(value).not.toBe(first.secret);
      await expect(done.getByRole('button', { name: 'Copy secret' })).toBeVisible();
      await expectFits(page, width);
      await done.getByRole('button', { name: 'Done' }).click();
      await expect(done).toBeHidden();

      // Gone from the screen; the row says the old one still signs.
      await expect(page.getByText('whsec_')).toHaveCount(0);
      await expect(row).toContainText('Old secret signs until');
      await page.reload();
      await expect(page.getByRole('row').filter({ hasText: url })).toContainText('Old secret signs until');
      await expect(page.getByText(value)).toHaveCount(0);

      await request.delete(`/api/v1/admin/webhooks/${first.id}`, { headers: auth });
    });
  });
}

/** The page does not scroll sideways (a wide table scrolls in its own box). */
async function expectFits(page: Page, width: number) {
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(scrollWidth).toBeLessThanOrEqual(width);
}
