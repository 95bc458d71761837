import { expect, type Page, type Route, test } from '@playwright/test';
import { DEMO_ADMIN } from './support/env';

/**
 * Issue 9 item 6: work that takes longer than a moment shows progress. Real requests to the real
 * server are held back (page.route, then route.continue()) while the test looks at the screen:
 * a busy, disabled button during its mutation; a bar over a list while a page loads; the top bar
 * while the router waits for a screen's code; the sign-in button's spinner.
 */

// The service worker would answer script requests itself, out of page.route's reach.
test.use({ serviceWorkers: 'block' });

/** Holds matching requests until `release()`; counts them. */
async function hold(page: Page, url: string | RegExp, method?: string) {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  const seen: string[] = [];
  const handled: Promise<void>[] = [];
  const handler = (route: Route) => {
    if (method && route.request().method() !== method) return route.fallback();
    seen.push(route.request().url());
    const done = gate.then(() => route.continue());
    handled.push(done);
    return done;
  };
  await page.route(url, handler);
  return {
    seen,
    release: async () => {
      open();
      await Promise.all(handled);
      await page.unroute(url, handler);
    },
  };
}

test('progress: sign-in spinner, a busy mutation button, a bar over a loading list, the top bar', async ({
  page,
}) => {
  await test.step('sign-in: the button turns into its spinner while the call runs', async () => {
    await page.goto('/');
    const held = await hold(page, '**/api/v1/admin/auth/login', 'POST');
    await page.getByPlaceholder('Enter your email').fill(DEMO_ADMIN.email);
    await page.getByPlaceholder('Enter your password').fill(DEMO_ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('status', { name: 'Signing in' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Sign in' })).toHaveCount(0);
    await held.release();
    await expect(page).toHaveURL(/\/dashboard$/);
    expect(held.seen, 'one sign-in call').toHaveLength(1);
  });

  await test.step('a mutation: busy and disabled until the server answers, and sends once', async () => {
    await page.goto('/dashboard/clients');
    // An active customer that can be blocked: not an erased one (decision 054), which other specs
    // leave on the shared server and which has no Block.
    const table = page.getByRole('table', { name: 'Customers' });
    await table
      .getByRole('row')
      .filter({ has: page.getByRole('link') })
      .filter({ hasNotText: 'Erased Customer' })
      .first()
      .getByRole('link')
      .first()
      .click();
    await expect(page.getByText('Fiber Account')).toBeVisible();

    const held = await hold(page, '**/api/v1/admin/user/customers/status', 'PATCH');
    await page.getByRole('button', { name: 'Block' }).click();
    const busy = page.getByRole('button', { name: 'Changing status' });
    await expect(busy).toBeVisible();
    await expect(busy).toHaveAttribute('aria-busy', 'true');
    await expect(busy).toBeDisabled();
    await expect(busy.getByRole('status', { name: 'Changing status' })).toBeVisible();
    // Clicks while busy send nothing more.
    await busy.click({ force: true });
    await busy.click({ force: true });
    await page.waitForTimeout(300);
    const whileBusy = held.seen.length;
    await held.release();
    await expect(page.getByRole('button', { name: 'Unblock' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Changing status' })).toHaveCount(0);
    console.log(`[figure] held status change: 3 clicks, ${whileBusy} request while busy`);
    expect(whileBusy).toBe(1);
    // Leave the client as it was.
    await page.getByRole('button', { name: 'Unblock' }).click();
    await expect(page.getByRole('button', { name: 'Block' })).toBeVisible();
  });

  await test.step('a list page loading: a bar over the rows, the table busy', async () => {
    await page.goto('/dashboard/partners');
    const table = page.getByRole('table', { name: 'Partners' });
    await expect(table.getByRole('row').nth(1)).toBeVisible();
    const held = await hold(page, /\/api\/v1\/admin\/partners\?.*pageNumber=2/);
    await page.getByRole('button', { name: 'Next' }).click();
    const bar = page.getByRole('progressbar', { name: 'Loading Partners' });
    await expect(bar).toBeVisible();
    await expect(table).toHaveAttribute('aria-busy', 'true');
    await held.release();
    await expect(bar).toHaveCount(0);
    await expect(page.getByText(/^2 of \d+$/)).toBeVisible();
    await expect(table).not.toHaveAttribute('aria-busy', 'true');
  });

  await test.step('a screen whose code is slow: the top bar runs until it shows', async () => {
    const code = await hold(page, /\/assets\/.*\.js$/);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Activity Log' }).click();
    const top = page.getByRole('progressbar', { name: 'Loading page' });
    await expect(top).toBeVisible();
    expect(code.seen.length, 'screen code requested').toBeGreaterThan(0);
    await code.release();
    await expect(page.getByRole('table', { name: 'Activity log' })).toBeVisible();
    await expect(top).toHaveCount(0);
  });
});
