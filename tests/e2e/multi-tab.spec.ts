import { expect, type Page, test } from '@playwright/test';
import { launchWithProfile } from './support/browser-profile';
import { E2E_PORT, E2E_TMP } from './support/env';
import { signIn } from './support/fixtures';
import { type RunningServer, startServer } from './support/server';

/**
 * Issue 6: two tabs whose access token has expired fire twenty queries each at the same moment.
 * The server rotates the refresh token on every use and revokes the session when a rotated one is
 * used again, so the tabs must share ONE refresh: exactly one refresh call in total, no sign-out.
 */

/** Long enough for the setup below on a loaded machine; the test waits for the token's own expiry. */
const TTL_SECONDS = 30;
let server: RunningServer;

test.beforeAll(async () => {
  server = await startServer({
    port: E2E_PORT + 4,
    dataDir: `${E2E_TMP}multi-tab`,
    env: { ACCESS_TOKEN_TTL_SECONDS: String(TTL_SECONDS) },
  });
});
test.afterAll(async () => {
  await server?.stop();
});

const CLIENTS = '/dashboard/clients?pageSize=10';
const isRefresh = (url: string) => url.endsWith('/api/v1/auth/refresh-token');
/** The two queries a client's detail screen preloads (detail, internet info). */
const isClientQuery = (url: string) =>
  /\/api\/v1\/admin\/user\/customers\/\d+|\/api\/v1\/user\/internet\/client_info/.test(url);

/**
 * Reaches the app's QueryClient without a hook in the app: a stand-in for the React DevTools hook
 * (which React calls on every commit, in production builds too) keeps the fiber root, and the
 * QueryClientProvider's `client` prop is found in the tree.
 */
const captureReactRoot = () => {
  const w = window as unknown as Record<string, unknown>;
  w.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    supportsFiber: true,
    renderers: new Map(),
    inject: () => 1,
    checkDCE: () => {},
    onCommitFiberRoot: (_id: number, root: unknown) => {
      w.__e2eRoot = root;
    },
    onCommitFiberUnmount: () => {},
    onPostCommitFiberRoot: () => {},
  };
};

/**
 * Twenty queries at once through the app's own query functions and HTTP client: every query in the
 * tab's cache (the ten client details seen before: the customer and their internet info) is
 * refetched in one go.
 */
const fireTwentyQueries = (page: Page) =>
  page.evaluate(async () => {
    type Fiber = { memoizedProps?: { client?: unknown }; child?: Fiber; sibling?: Fiber };
    type Client = {
      getQueryCache(): { findAll(): { queryKey: unknown[] }[] };
      refetchQueries(filters: {
        predicate: (q: { queryKey: unknown[] }) => boolean;
        type: 'all';
      }): Promise<void>;
    };
    const root = (window as unknown as { __e2eRoot: { current: Fiber } }).__e2eRoot;
    const stack: Fiber[] = [root.current];
    let client: Client | null = null;
    while (stack.length > 0 && !client) {
      const fiber = stack.pop()!;
      const candidate = fiber.memoizedProps?.client as Client | undefined;
      if (candidate && typeof candidate.getQueryCache === 'function') client = candidate;
      if (fiber.child) stack.push(fiber.child);
      if (fiber.sibling) stack.push(fiber.sibling);
    }
    if (!client) throw new Error('QueryClient not found');
    const isDetail = (q: { queryKey: unknown[] }) =>
      q.queryKey[0] === 'customers' && q.queryKey[1] === 'detail';
    const count = client.getQueryCache().findAll().filter(isDetail).length;
    void client.refetchQueries({ predicate: isDetail, type: 'all' });
    return count;
  });

test('two tabs with an expired access token, twenty queries each: one refresh in total, no sign-out', async () => {
  test.setTimeout(120_000);
  const { context } = await launchWithProfile('multi-tab', server.url);
  await context.addInitScript(captureReactRoot);
  const refreshCalls: string[] = [];
  context.on('request', (req) => {
    if (isRefresh(req.url()) && req.method() === 'POST') refreshCalls.push(req.url());
  });

  const first = await context.newPage();
  await signIn(first);
  await first.goto(CLIENTS);
  const second = await context.newPage();
  await second.goto(CLIENTS);
  for (const tab of [first, second]) {
    await expect(tab.locator('table a[href^="/dashboard/clients/"]')).toHaveCount(10);
  }
  // Each tab sees the ten clients' details (two queries each), as a user hovering the rows would.
  for (const tab of [first, second]) {
    for (const link of await tab.locator('table a[href^="/dashboard/clients/"]').all()) {
      const seen = tab.waitForResponse((res) => /\/api\/v1\/user\/internet\/client_info/.test(res.url()));
      await link.focus();
      await seen;
    }
  }
  // On a slow machine the setup may outlast a token; such a refresh is not part of the figure: the
  // test takes the token stored now, waits for it to expire, and counts refresh calls from there.
  const duringSetup = refreshCalls.length;
  const stored = await first.evaluate(() => JSON.parse(localStorage.getItem('admin') ?? '{}'));
  const expired = String(stored.accessToken);
  const exp = JSON.parse(Buffer.from(expired.split('.')[1]!, 'base64url').toString()).exp as number;
  await first.waitForTimeout(Math.max(0, exp * 1000 - Date.now()) + 1500);
  expect(refreshCalls, 'no refresh while every query was idle').toHaveLength(duringSetup);
  refreshCalls.length = 0;

  // Per tab: client queries sent with the expired token, their 401s, and their successful answers.
  const seen = [first, second].map((tab) => {
    const figures = { withExpired: 0, unauthorized: 0, answered: 0 };
    tab.on('request', (req) => {
      if (isClientQuery(req.url()) && req.headers().authorization === `Bearer ${expired}`)
        figures.withExpired += 1;
    });
    tab.on('response', (res) => {
      if (!isClientQuery(res.url())) return;
      if (res.status() === 401) figures.unauthorized += 1;
      else if (res.ok()) figures.answered += 1;
    });
    return figures;
  });

  const fired = await Promise.all([fireTwentyQueries(first), fireTwentyQueries(second)]);
  expect(fired).toEqual([20, 20]);
  await expect.poll(() => seen.map((s) => s.answered), { timeout: 30_000 }).toEqual([20, 20]);

  console.log(
    `two tabs, 20 queries each with an expired access token: ${refreshCalls.length} refresh call(s) in total ` +
      `(${duringSetup} during the setup, before the measured expiry); ` +
      seen
        .map(
          (s, i) =>
            `tab ${i + 1}: ${s.withExpired} sent with the expired token, ${s.unauthorized} answered 401, ` +
            `${s.answered} answered after the refresh`,
        )
        .join('; '),
  );
  expect(refreshCalls).toHaveLength(1);
  for (const s of seen) expect(s.unauthorized, 'each tab met the expired token').toBeGreaterThan(0);
  for (const tab of [first, second]) {
    await expect(tab).toHaveURL(/\/dashboard\/clients/);
    await expect(tab.getByText('Session expired. Please log in again.')).toHaveCount(0);
  }
  const after = await second.evaluate(() => JSON.parse(localStorage.getItem('admin') ?? 'null'));
  expect(after?.accessToken).toBeTruthy();
  expect(after.accessToken).not.toBe(expired);
  expect(after.refreshToken).not.toBe(stored.refreshToken);
  // The session is alive on the server: a fresh load in the second tab works without a refresh.
  await second.reload();
  await expect(second.locator('table a[href^="/dashboard/clients/"]')).toHaveCount(10);
  expect(refreshCalls).toHaveLength(1);
  await context.close();
});
