import { expect, type Route, test } from '@playwright/test';
import { signIn } from './support/fixtures';

/**
 * Decision 036: the profile and the dashboard figures are kept in a small synchronous snapshot in
 * localStorage (`@tanstack/query-sync-storage-persister`). On a reload the figures paint from it
 * while the network has not answered, and before the per-query IndexedDB persister (loaded on demand,
 * decision 012) is there: both are held here, so only the snapshot can paint them.
 */
test.use({ serviceWorkers: 'block' });

test('a reload paints the dashboard figures from the first-paint snapshot before any stats answer', async ({
  page,
}) => {
  await signIn(page);
  const partners = page.getByRole('group', { name: 'Total Partners', exact: true });
  const giftcards = page.getByRole('group', { name: 'Total Giftcards Amount', exact: true });
  await expect(partners).toContainText(/\d/);
  await expect(giftcards).toContainText(/₦\d/);
  const before = { partners: await partners.textContent(), giftcards: await giftcards.textContent() };
  await expect
    .poll(() => page.evaluate(() => localStorage.getItem('rc-first-paint') ?? ''))
    .toContain('"reward"');

  // The stats calls and the IndexedDB side are held: they never answer during the reload.
  const held: string[] = [];
  const hold = (route: Route) => {
    held.push(new URL(route.request().url()).pathname);
  };
  await page.route('**/api/v1/admin/user/stats', hold);
  await page.route('**/api/v1/admin/partners/stats/reward', hold);
  await page.route(/\/assets\/query-persister-[^/]*\.js$/, hold);

  await page.reload();
  await expect(partners).toHaveText(before.partners ?? '');
  await expect(giftcards).toHaveText(before.giftcards ?? '');
  // They painted while the persister chunk, which every query of a signed-in user waits for before
  // its call goes out, was held: no stats call could have been made, let alone answered.
  expect(held.some((path) => path.includes('/assets/query-persister-'))).toBe(true);
  expect(held.filter((path) => path.startsWith('/api/'))).toEqual([]);
  await expect(page.getByRole('status', { name: 'Loading dashboard' })).toHaveCount(0);
});
