import { createHash } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { DEMO_ADMIN } from './support/env';

/**
 * Decision 021: the server sends `/` with the sign-in screen already in the HTML (built by
 * vite.config.ts from the real components); its fields are usable from the first paint and the SPA
 * takes over what was typed (decision 061, tests/e2e/slow-link.spec.ts).
 */
test('the sign-in screen arrives in the HTML, then the SPA takes over without moving it', async ({
  page,
  request,
}) => {
  const html = await (await request.get('/')).text();
  expect(html).toContain('data-prerendered="sign-in"');
  expect(html).toContain('Welcome, enter details to continue');
  expect(html).toMatch(/<input (?![^>]*disabled)[^>]*placeholder="Enter your email"/);
  // One inline script (decision 061: it keeps a press of Sign in), allowed by its hash alone.
  const inline = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1] ?? '');
  expect(inline).toHaveLength(1);
  const csp = (await request.get('/')).headers()['content-security-policy'] ?? '';
  const hash = createHash('sha256')
    .update(inline[0] ?? '')
    .digest('base64');
  expect(csp).toContain(`script-src 'self' 'sha256-${hash}'`);
  expect(csp).not.toContain('unsafe-inline');
  // Every other route gets the plain shell (the SPA decides what a signed-in user sees there).
  const other = await (await request.get('/dashboard/partners')).text();
  expect(other).toContain('<div id="root"></div>');
  expect(other).not.toContain('data-prerendered');

  // The page as it is before any script runs: the prerendered copy, laid out by the stylesheet.
  await page.route('**/assets/*.js', (route) => route.abort());
  await page.goto('/');
  const staticEmail = page.locator('[data-prerendered] input[placeholder="Enter your email"]');
  await expect(staticEmail).toBeVisible();
  await expect(staticEmail).toBeEnabled();
  const staticBox = await page
    .getByRole('heading', { name: 'Welcome, enter details to continue' })
    .boundingBox();
  await page.unroute('**/assets/*.js');

  // With the scripts: React's form replaces the copy at the same place and signs in.
  await page.addInitScript(() => {
    const w = window as unknown as { __shift: number };
    w.__shift = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[])
        if (!e.hadRecentInput) w.__shift += e.value;
    }).observe({ type: 'layout-shift', buffered: true });
  });
  await page.goto('/');
  await expect(page.locator('[data-prerendered]')).toHaveCount(0);
  const email = page.getByPlaceholder('Enter your email');
  await expect(email).toBeEnabled();
  const liveBox = await page
    .getByRole('heading', { name: 'Welcome, enter details to continue' })
    .boundingBox();
  expect(liveBox).toEqual(staticBox);
  const shift = await page.evaluate(() => (window as unknown as { __shift: number }).__shift);
  console.log(`[figure] prerendered sign-in: layout shift when the SPA takes over ${shift.toFixed(3)}`);
  expect(shift).toBeLessThanOrEqual(0.1);

  await email.fill(DEMO_ADMIN.email);
  await page.getByPlaceholder('Enter your password').fill(DEMO_ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('the prerendered screen stays until the real form replaces it, however slow the chunks', async ({
  page,
}) => {
  // Every script but the entry arrives 1.5 s late (a weak network): the route's own chunk included.
  await page.route(/\/assets\/(?!index-)[^/]*\.js$/, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await route.continue();
  });
  await page.addInitScript(() => {
    const w = window as unknown as { __screens: string[] };
    w.__screens = [];
    new MutationObserver(() => {
      const root = document.getElementById('root');
      if (!root) return;
      const screen = root.querySelector('[data-prerendered]')
        ? 'prerendered'
        : root.querySelector('input[placeholder="Enter your email"]:not([disabled])')
          ? 'form'
          : 'nothing';
      if (w.__screens.at(-1) !== screen) w.__screens.push(screen);
    }).observe(document, { subtree: true, childList: true });
  });
  await page.goto('/');
  // The prerendered copy is usable too (decision 061): wait for the app's form to have replaced it.
  await expect(page.locator('[data-prerendered]')).toHaveCount(0, { timeout: 30_000 });
  await expect(page.getByPlaceholder('Enter your email')).toBeEnabled();
  const screens = await page.evaluate(() => (window as unknown as { __screens: string[] }).__screens);
  console.log(`[figure] prerendered sign-in: what #root showed in turn: ${screens.join(' → ')}`);
  expect(screens).toEqual(['prerendered', 'form']);
});
