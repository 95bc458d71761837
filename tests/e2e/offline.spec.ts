import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { E2E_PORT, E2E_SPA_DIR, E2E_TMP } from './support/env';
import { signIn } from './support/fixtures';
import { type RunningServer, startServer } from './support/server';
import { storedQueryKeys } from './support/stored-queries';

/**
 * Issue 6, scope 1 and 2: the app shell comes from the service worker's precache and the data from
 * IndexedDB, so with the network off a reload opens the console on what was seen before; a deployed
 * version is offered, never switched in.
 */

const partnersTable = (page: Page) => page.getByRole('table', { name: 'Partners' });

/** Waits until the service worker is active and controls the page (clientsClaim on first install). */
async function serviceWorkerControls(page: Page) {
  await expect
    .poll(() =>
      page.evaluate(async () => {
        const registration = await navigator.serviceWorker.getRegistration();
        return registration?.active?.state === 'activated' && navigator.serviceWorker.controller !== null;
      }),
    )
    .toBe(true);
}

test('with the network off, a reload opens the console on the saved partner list', async ({
  page,
  context,
  request,
}) => {
  // The worker script and manifest are always revalidated; hashed assets are immutable.
  const sw = await request.get('/sw.js');
  expect(sw.headers()['cache-control']).toBe('no-cache');
  const manifest = await request.get('/manifest.webmanifest');
  expect(manifest.headers()['content-type']).toContain('application/manifest+json');
  expect(manifest.headers()['cache-control']).toBe('no-cache');

  await signIn(page);
  await page.goto('/dashboard/partners');
  const firstRowLink = partnersTable(page).getByRole('row').nth(1).getByRole('link').first();
  await expect(firstRowLink).toBeVisible();
  const organization = (await firstRowLink.textContent())?.trim() ?? '';
  expect(organization).not.toBe('');
  // Fresh data: no saved-data notice, no banner.
  await expect(page.getByText(/^Showing saved data from/)).toHaveCount(0);

  // One partner's page seen too, then back to the list.
  await firstRowLink.click();
  await expect(page.getByRole('heading', { name: organization })).toBeVisible();
  await page.goBack();
  await expect(firstRowLink).toBeVisible();

  await serviceWorkerControls(page);
  await expect
    .poll(async () => {
      const keys = await storedQueryKeys(page);
      return ['"partners","list"', '"partners","detail"'].every((part) =>
        keys.some((key) => key.includes(part)),
      );
    })
    .toBe(true);

  // Times the first row of the list showing up, from the navigation's start (in the page's clock).
  await page.addInitScript((name) => {
    const w = window as unknown as { rowsVisibleAt?: number };
    const seen = () => {
      const table = document.querySelector('table[aria-label="Partners"]');
      if (w.rowsVisibleAt === undefined && table?.textContent?.includes(name)) {
        w.rowsVisibleAt = performance.now();
        observer.disconnect();
      }
    };
    const observer = new MutationObserver(seen);
    observer.observe(document, { childList: true, subtree: true, characterData: true });
  }, organization);

  const apiCalls: string[] = [];
  const apiAnswers: string[] = [];
  const isApi = (url: string) => new URL(url).pathname.startsWith('/api/');
  const onRequest = (req: { url(): string }) => void (isApi(req.url()) && apiCalls.push(req.url()));
  const onResponse = (res: { url(): string }) => void (isApi(res.url()) && apiAnswers.push(res.url()));
  context.on('request', onRequest);
  context.on('response', onResponse);

  await context.setOffline(true);
  const started = Date.now();
  await page.reload();
  await expect(partnersTable(page).getByRole('link', { name: organization }).first()).toBeVisible();
  const wallClockMs = Date.now() - started;

  await expect(page.getByText(/^Showing saved data from less than a minute ago$/)).toBeVisible();
  await expect(page.getByText(/^You are offline\./)).toBeVisible();
  // The shell came from the worker, the rows from IndexedDB: nothing reached the server.
  expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  const rowsVisibleAt = await page.evaluate(
    () => (window as unknown as { rowsVisibleAt?: number }).rowsVisibleAt,
  );
  expect(rowsVisibleAt).toBeDefined();
  expect(apiAnswers).toEqual([]);
  console.log(
    `offline reload: partner rows visible ${Math.round(rowsVisibleAt ?? 0)} ms after navigation start ` +
      `(page clock); ${wallClockMs} ms from reload() to visible (test clock); ` +
      `${apiCalls.length} API request(s) attempted, ${apiAnswers.length} answered`,
  );

  // The partner's page, seen before, opens from IndexedDB too.
  await page.getByRole('link', { name: organization }).first().click();
  await expect(page.getByRole('heading', { name: organization })).toBeVisible();
  await expect(page.getByText(/^Showing saved data from/)).toBeVisible();
  await expect(page.getByText(/^You are offline\./)).toBeVisible();

  // Back to the list, still offline: the saved rows, not an error.
  await page.goBack();
  await expect(partnersTable(page).getByRole('link', { name: organization }).first()).toBeVisible();
  await expect(page.getByText(/^Showing saved data from/)).toBeVisible();

  // The network is back: the list revalidates, the notice and the banner go.
  context.off('request', onRequest);
  context.off('response', onResponse);
  await context.setOffline(false);
  await expect(partnersTable(page).getByRole('link', { name: organization }).first()).toBeVisible();
  await expect(page.getByText(/^You are offline\./)).toHaveCount(0);
  await expect(page.getByText(/^Showing saved data from/)).toHaveCount(0);
  await expect(page.getByText(/cannot be reached/)).toHaveCount(0);
});

test.describe('a deployed version', () => {
  const port = E2E_PORT + 5;
  const spaDir = `${E2E_TMP}deploy-dist`;
  let server: RunningServer;

  test.beforeAll(async () => {
    // The app as built for this run, served from a folder this test may change ("deploy" into).
    cpSync(E2E_SPA_DIR, spaDir, { recursive: true });
    server = await startServer({ port, dataDir: `${E2E_TMP}deploy`, env: { SPA_DIR: spaDir } });
  });
  test.afterAll(async () => {
    await server?.stop();
  });
  test.use({ baseURL: `http://127.0.0.1:${port}` });

  test('is offered with a Reload prompt, never switched in mid-form', async ({ page }) => {
    await signIn(page);
    await serviceWorkerControls(page);
    await page.goto('/dashboard/partners/add');
    await page.getByLabel('Organization Name').fill('Half-typed Suya Spot');

    // Deploy: a changed index.html, and the worker that precaches it (its revision changes, as a
    // new build's would). The open console finds it at its next check for updates.
    const indexHtml = `${spaDir}/index.html`;
    writeFileSync(
      indexHtml,
      readFileSync(indexHtml, 'utf8').replace('<head>', '<head>\n    <meta name="deployed" content="2" />'),
    );
    const swJs = `${spaDir}/sw.js`;
    const before = readFileSync(swJs, 'utf8');
    const after = before.replace(/(\{url:"index\.html",revision:")[0-9a-f]+(")/, '$1deploy2$2');
    expect(after).not.toBe(before);
    writeFileSync(swJs, after);
    const checked = Date.now();
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.update());

    const prompt = page.getByRole('region', { name: 'Update' });
    await expect(prompt.getByText('A new version is available.')).toBeVisible();
    console.log(`deployed version offered ${Date.now() - checked} ms after the update check`);
    // Nothing switched: same page, same half-typed form, the old build still in charge.
    await expect(page).toHaveURL(/\/dashboard\/partners\/add$/);
    await expect(page.getByLabel('Organization Name')).toHaveValue('Half-typed Suya Spot');
    expect(await page.locator('meta[name="deployed"]').count()).toBe(0);

    // Reload: the new worker takes over and the page comes back on the new version.
    await prompt.getByRole('button', { name: 'Reload' }).click();
    await expect(page.locator('meta[name="deployed"]')).toHaveCount(1);
    await expect(page).toHaveURL(/\/dashboard\/partners\/add$/);
    await expect(page.getByText('A new version is available.')).toHaveCount(0);
  });
});
