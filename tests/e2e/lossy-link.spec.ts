import { expect, test } from '@playwright/test';
import { E2E_PORT, E2E_TMP } from './support/env';
import { signIn } from './support/fixtures';
import { type RunningServer, startServer } from './support/server';

/**
 * Issue 17 (decision 030): the real SPA against the real server on a link that loses requests and
 * replies. Losses are chosen, not random, so the suite cannot flake: a reply is lost by letting the
 * request reach the server (route.fetch) and then aborting the route; a request is lost by aborting
 * it before it is sent.
 */

const ACCESS_TTL_SECONDS = 3;
let server: RunningServer;
const figures = { requests: 0, lost: 0, refreshesLost: 0, signOuts: 0 };

test.beforeAll(async () => {
  server = await startServer({
    port: E2E_PORT + 3,
    dataDir: `${E2E_TMP}lossy-link`,
    env: { ACCESS_TOKEN_TTL_SECONDS: String(ACCESS_TTL_SECONDS) },
  });
});
test.afterAll(async () => {
  await server?.stop();
  console.log(
    `[figure] lossy link: ${figures.requests} API requests, ${figures.lost} lost, ` +
      `${figures.refreshesLost} refreshes lost, ${figures.signOuts} sign-outs`,
  );
});
test.use({ baseURL: `http://127.0.0.1:${E2E_PORT + 3}` });

const refreshAt = (refreshToken: string) =>
  fetch(`${server.url}/api/v1/auth/refresh-token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ refreshToken }),
  });

test('defects 1 and 2: a refresh whose reply is lost, then one with no answer, do not sign the user out', async ({
  page,
}) => {
  await signIn(page);
  await expect(page.getByRole('group', { name: 'Total Partners', exact: true })).toBeVisible();
  const plan: ('reply' | 'request' | 'pass')[] = ['reply', 'request'];
  await page.route('**/api/v1/**', async (route) => {
    figures.requests += 1;
    const isRefresh = route.request().url().endsWith('/auth/refresh-token');
    const loss = isRefresh ? (plan.shift() ?? 'pass') : 'pass';
    if (loss === 'request') {
      figures.lost += 1;
      figures.refreshesLost += 1;
      return route.abort('connectionreset');
    }
    if (loss === 'reply') {
      await route.fetch(); // the server rotates the token ...
      figures.lost += 1;
      figures.refreshesLost += 1;
      return route.abort('connectionreset'); // ... and the SPA never hears of it
    }
    return route.continue();
  });
  await page.waitForTimeout((ACCESS_TTL_SECONDS + 1) * 1000);
  await page.getByRole('link', { name: 'Partner', exact: true }).first().click();
  // The refresh is tried again (1 s, then 2 s): the grace gives the same successor; no sign-out.
  await expect.poll(() => plan.length, { timeout: 15_000 }).toBe(0);
  const table = page.getByRole('table', { name: 'Partners' });
  await expect(table.getByRole('row').nth(1).getByRole('link').first()).toBeVisible({ timeout: 15_000 });
  await expect(table.getByRole('alert')).toHaveCount(0);
  await expect(page.getByText('Session expired. Please log in again.')).toHaveCount(0);
  await expect(page).toHaveURL(/\/dashboard\/partners/);
  const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('admin') ?? 'null'));
  expect(stored?.refreshToken).toBeTruthy();
});

test('defect 6: a sign-out while the server cannot be reached ends the session at once and is revoked once the link is back', async ({
  page,
  context,
}) => {
  await signIn(page);
  await expect(page.getByRole('group', { name: 'Total Partners', exact: true })).toBeVisible();
  const { refreshToken } = await page.evaluate(() => JSON.parse(localStorage.getItem('admin') ?? '{}'));
  // The server cannot be reached: offline, and any API request that still leaves is lost before the
  // server (setOffline alone can let a request already on its way through).
  await context.route('**/api/v1/**', (route) => route.abort('internetdisconnected'));
  await context.setOffline(true);
  await page.getByRole('button', { name: 'Logout' }).click();
  figures.signOuts += 1;
  await expect(page).toHaveURL(/\/$/, { timeout: 10_000 });
  // Only the refresh token stays, to be revoked (written once the device wipe is done).
  await expect
    .poll(() => page.evaluate(() => Object.keys(localStorage)), { timeout: 10_000 })
    .toEqual(['admin-revoke']);
  await context.unroute('**/api/v1/**');
  await context.setOffline(false);
  await expect
    .poll(() => page.evaluate(() => localStorage.getItem('admin-revoke')), { timeout: 15_000 })
    .toBeNull();
  // The session is revoked: its refresh token (or its successor, used by the revocation) is dead.
  expect((await refreshAt(refreshToken)).status).toBe(401);
});

test('defect 7: a screen never opened before says "Not available offline" within a second, and Retry loads it when back', async ({
  page,
  context,
}) => {
  await signIn(page);
  await expect(page.getByRole('group', { name: 'Total Partners', exact: true })).toBeVisible();
  // The app shell (and the screen's code) come from the service worker's precache offline.
  await expect
    .poll(() =>
      page.evaluate(async () => {
        const registration = await navigator.serviceWorker.getRegistration();
        return registration?.active?.state === 'activated' && navigator.serviceWorker.controller !== null;
      }),
    )
    .toBe(true);
  await context.setOffline(true);
  const started = Date.now();
  await page.getByRole('link', { name: 'Activity Log' }).first().click();
  await expect(page.getByRole('alert').filter({ hasText: 'Not available offline' })).toBeVisible({
    timeout: 1000,
  });
  console.log(
    `[figure] lossy link: "Not available offline" shown ${Date.now() - started} ms after the click`,
  );
  // Retry while still offline: the same answer again, at once (no spinner).
  await page.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Not available offline' })).toBeVisible({
    timeout: 1000,
  });
  // Back online, the screen loads (the reconnect refetch, or Retry).
  await context.setOffline(false);
  await expect(page.getByRole('alert').filter({ hasText: 'Not available offline' })).toHaveCount(0, {
    timeout: 5000,
  });
  await expect(page.getByRole('table', { name: 'Activity log' }).getByRole('row').nth(1)).toBeVisible();
});
