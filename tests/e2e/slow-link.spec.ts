import { expect, test } from '@playwright/test';
import { DEMO_ADMIN } from './support/env';
import {
  FIRST_VISIT,
  type FirstScreenMarks,
  marksOf,
  SLOW_LINK,
  throttle,
  typeFromFirstPaint,
  watchFirstScreen,
} from './support/slow-link';
import { storedQueryKeys } from './support/stored-queries';

/**
 * Issue 34 (decision 061): on a slow link (400 kbit/s both ways, 400 ms round trip, cold cache, no
 * service worker) a person types into the sign-in form from its first paint, before the app's
 * JavaScript has arrived, and clicks Sign in at once. Nothing is lost: the app takes the form over
 * with what was typed, carries out the click once (busy from the click on), and the dashboard comes.
 * Timings are the bench's (tests/bench/slow-link.bench.ts, docs/performance.md); this test only checks
 * the behaviour. Since decision 061's budget step the first screen here is the router-less sign-in
 * screen of src/main.tsx, which hands over to the app's router on the sign-in.
 */
test.use(FIRST_VISIT);

/** The session's file (vite.config.ts, the `api` chunk group: src/session-boot.ts and the endpoint registry). */
const SESSION_FILE = /\/assets\/api-[^/]*\.js$/;

test('typed before the app is live: kept, the early click signs in once, the dashboard comes', async ({
  context,
  page,
}) => {
  test.setTimeout(120_000);
  const logins: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/v1/admin/auth/login')
      logins.push(request.postData() ?? '');
  });
  await throttle(context, page);
  await watchFirstScreen(page);
  await page.goto('/', { waitUntil: 'commit' });

  const clickedAt = await typeFromFirstPaint(page, DEMO_ADMIN);
  const atClick = await marksOf(page);
  console.log(
    `[slow-link e2e] ${SLOW_LINK.kbitPerSecond} kbit/s, ${SLOW_LINK.latencyMs} ms: form visible ${Math.round(atClick.visible ?? -1)} ms, ` +
      `Sign in clicked ${Math.round(clickedAt)} ms, form live ${atClick.live === undefined ? 'not yet' : `${Math.round(atClick.live)} ms`}`,
  );
  // The person really typed before the app was there (else this test would prove nothing).
  expect(atClick.live === undefined || atClick.live > (atClick.visible ?? 0) + 1000).toBe(true);

  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 60_000 });
  await expect(page.getByRole('group', { name: 'Total Partners', exact: true })).toContainText(/\d/, {
    timeout: 30_000,
  });
  const marks = await marksOf(page);
  // One login request, with what the person typed.
  expect(logins).toHaveLength(1);
  expect(JSON.parse(logins[0] ?? '{}')).toEqual({ email: DEMO_ADMIN.email, password: DEMO_ADMIN.password });
  // The button was busy from the click until the screen was left: never shown ready again meanwhile.
  expect(marks.clicked).toBeDefined();
  expect(marks.busy).toBeDefined();
  expect(marks.notBusyAfterClick).toBeUndefined();
});

/**
 * The persister's file (src/lib/query-persister.ts, loaded on demand with the database, which is in
 * the dashboard frame's file): while it is held, no query can go through the persister.
 */
const PERSISTENCE_FILE = /\/assets\/query-persister-[^/]*\.js$/;
/** The app's file (the router, TanStack Query, the route tree: vite.config.ts's `app` group), not app-db's. */
const APP_FILE = /\/assets\/app-[\w-]{8}\.js$/;

test('after a sign-in the first screen’s calls go at once, not after the persistence’s files; their answers are stored once those arrive', async ({
  page,
}) => {
  // Decision 077: a person who has just signed in has nothing stored to see, so the dashboard's calls
  // do not wait for the persister (its file held here until they have been sent). As on the slow link, the
  // app's own file arrives only after the sign-in has answered (held until then).
  const hold = () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    return { held, release: () => release() };
  };
  const persistenceFile = hold();
  const appFile = hold();
  let persistenceRequested = false;
  await page.route(PERSISTENCE_FILE, async (route) => {
    persistenceRequested = true;
    await persistenceFile.held;
    await route.continue();
  });
  await page.route(APP_FILE, async (route) => {
    await appFile.held;
    await route.continue();
  });
  page.on('response', (response) => {
    if (new URL(response.url()).pathname === '/api/v1/admin/auth/login') appFile.release();
  });
  const calls: string[] = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (path.startsWith('/api/')) calls.push(path);
  });
  await page.goto('/');
  await page.getByPlaceholder('Enter your email').fill(DEMO_ADMIN.email);
  await page.getByPlaceholder('Enter your password').fill(DEMO_ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  // The dashboard's three calls (SPEC: the profile, the users' and the rewards' figures) while the
  // persistence's file is still held: before this decision they waited for it.
  const dashboardCalls = [
    '/api/v1/user/profile',
    '/api/v1/admin/user/stats',
    '/api/v1/admin/partners/stats/reward',
  ];
  await expect
    .poll(() => dashboardCalls.filter((call) => calls.includes(call)), { timeout: 20_000 })
    .toEqual(dashboardCalls);
  // The persistence's file is asked for (by the idle-time loads once the dashboard is on screen).
  await expect.poll(() => persistenceRequested, { timeout: 20_000 }).toBe(true);
  persistenceFile.release();
  await expect(page.getByRole('group', { name: 'Total Partners', exact: true })).toContainText(/\d/);
  // Stored once the persistence has arrived, as any answer is (a reload offline shows them).
  await expect
    .poll(async () => {
      const keys = await storedQueryKeys(page);
      return ['"profile"', '"stats","users"', '"stats","reward"'].filter((part) =>
        keys.some((key) => key.includes(part)),
      );
    })
    .toEqual(['"profile"', '"stats","users"', '"stats","reward"']);
  // Each call once (nothing fetched twice).
  for (const call of dashboardCalls) expect(calls.filter((c) => c === call)).toHaveLength(1);
});

test('Sign in pressed on the live form before the session has loaded: busy from the press, carried out once', async ({
  context,
  page,
}) => {
  test.setTimeout(120_000);
  const logins: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/v1/admin/auth/login')
      logins.push(request.postData() ?? '');
  });
  await throttle(context, page);
  await watchFirstScreen(page);
  /** Holds the session's file (decision 072: XState, the session machine, the contract's schema) until released. */
  const holdSessionFile = async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.unroute(SESSION_FILE);
    await page.route(SESSION_FILE, async (route) => {
      await held;
      await route.continue();
    });
    return release;
  };
  const live = () =>
    page.waitForFunction(
      () => (window as unknown as { __marks: FirstScreenMarks }).__marks.live !== undefined,
      undefined,
      { polling: 50, timeout: 60_000 },
    );

  // Empty fields, pressed before the session's file has arrived: nothing is sent; the contract's
  // messages show once its schema is there.
  let release = await holdSessionFile();
  await page.goto('/', { waitUntil: 'commit' });
  await live();
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('status', { name: 'Signing in' })).toBeVisible();
  release();
  await expect(page.getByText('required', { exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('Pls enter your password')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  expect(logins).toHaveLength(0);

  // Again, with the credentials: carried out once the file is there, busy from the press on.
  release = await holdSessionFile();
  await page.goto('/', { waitUntil: 'commit' });
  await live();
  await page.getByPlaceholder('Enter your email').fill(DEMO_ADMIN.email);
  await page.getByPlaceholder('Enter your password').fill(DEMO_ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('status', { name: 'Signing in' })).toBeVisible();
  expect(logins).toHaveLength(0);
  release();

  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 60_000 });
  await expect(page.getByRole('group', { name: 'Total Partners', exact: true })).toContainText(/\d/, {
    timeout: 30_000,
  });
  const marks = await marksOf(page);
  expect(logins).toHaveLength(1);
  expect(JSON.parse(logins[0] ?? '{}')).toEqual({ email: DEMO_ADMIN.email, password: DEMO_ADMIN.password });
  // Busy from the press until the screen was left.
  expect(marks.busy).toBeDefined();
  expect(marks.notBusyAfterClick).toBeUndefined();
});

test('the link dies on the first visit’s sign-in screen: the offline banner says so, as on every screen', async ({
  context,
  page,
}) => {
  test.setTimeout(90_000);
  await throttle(context, page);
  await watchFirstScreen(page);
  await page.goto('/', { waitUntil: 'commit' });
  // The app's form is live: the router-less first screen of src/main.tsx (decision 061), not the
  // prerendered copy, and not yet the router's screens (nobody has signed in).
  await page.waitForFunction(
    () => (window as unknown as { __marks: FirstScreenMarks }).__marks.live !== undefined,
    undefined,
    { polling: 100, timeout: 60_000 },
  );
  const banner = page.getByRole('status').filter({ hasText: /^You are offline\./ });
  await expect(banner).toHaveCount(0);

  await context.setOffline(true);
  await expect(banner).toBeVisible();
  // Above the form, which stays as it is.
  const bannerBox = await banner.boundingBox();
  const emailBox = await page.getByPlaceholder('Enter your email').boundingBox();
  expect(bannerBox && emailBox && bannerBox.y + bannerBox.height <= emailBox.y).toBe(true);
  await expect(page).toHaveURL(/\/$/);

  await context.setOffline(false);
  await expect(banner).toHaveCount(0);
});

test('the first screen’s files go precompressed (brotli, else gzip), with Vary and cache headers', async ({
  request,
}) => {
  const html = await (await request.get('/')).text();
  const entry = html.match(/<script type="module"[^>]*src="([^"]+\.js)"/)?.[1];
  expect(entry).toBeDefined();
  const as = (encoding: string) => request.get(entry ?? '', { headers: { 'accept-encoding': encoding } });
  const [br, gzip, plain] = await Promise.all([as('gzip, deflate, br'), as('gzip'), as('identity')]);
  expect(br.headers()['content-encoding']).toBe('br');
  expect(gzip.headers()['content-encoding']).toBe('gzip');
  expect(plain.headers()['content-encoding']).toBeUndefined();
  for (const res of [br, gzip, plain]) {
    expect(res.headers().vary).toMatch(/accept-encoding/i);
    expect(res.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await res.body()).equals(await plain.body())).toBe(true);
  }
  // Brotli is what is sent, and smaller than gzip.
  expect(Number(br.headers()['content-length'])).toBeLessThan(Number(gzip.headers()['content-length']));
});
