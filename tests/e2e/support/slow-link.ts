import type { BrowserContext, Page } from '@playwright/test';

/**
 * The slow link of issue 34 (decision 061), shared by tests/e2e/slow-link.spec.ts and
 * tests/bench/slow-link.bench.ts: Chromium's own network emulation (CDP
 * `Network.emulateNetworkConditions`), 400 kbit/s down and up (50,000 bytes/s each way), 400 ms
 * added to every request's round trip, the HTTP cache disabled (a cold cache) and the service
 * worker blocked (a first visit: none installed yet). The bandwidth is shared by all requests at once.
 */
export const SLOW_LINK = {
  kbitPerSecond: 400,
  latencyMs: 400,
  bytesPerSecond: (400 * 1000) / 8,
} as const;

/** Keystrokes of a person typing at a normal pace. */
export const KEY_DELAY_MS = 90;

/** The context options of a first visit: no service worker. */
export const FIRST_VISIT = { serviceWorkers: 'block' } as const;

/** Puts the page on the slow link with a cold cache (before its first navigation). */
export async function throttle(context: BrowserContext, page: Page): Promise<void> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: SLOW_LINK.latencyMs,
    downloadThroughput: SLOW_LINK.bytesPerSecond,
    uploadThroughput: SLOW_LINK.bytesPerSecond,
  });
}

/** What the page notes, as `performance.now()` (ms since navigation start), see `watchFirstScreen`. */
export interface FirstScreenMarks {
  /** First contentful paint: the prerendered sign-in form on screen. */
  visible?: number;
  /** The app's own sign-in form is there (the prerendered copy replaced): the form is live. */
  live?: number;
  /** The first dashboard figure (or the partner staff's partner page) showing a number. */
  figures?: number;
  /** Sign in clicked (the click reached the page). */
  clicked?: number;
  /** The Sign in button first seen busy after the click. */
  busy?: number;
  /** The Sign in button seen ready again after it was busy (the press seemingly lost), when first seen. */
  notBusyAfterClick?: number;
}

/**
 * Notes, in the page, when the form shows, when the app's form is live, and when the first screen
 * after sign-in shows its figures: the dashboard's 'Total Partners' card with a digit, or (partner
 * staff) their partner's page's details (its minimum spend) with a digit. Add before `goto`.
 */
export async function watchFirstScreen(page: Page): Promise<void> {
  await page.addInitScript(() => {
    // No named inner functions: tsx would wrap them in a `__name` helper the page does not have.
    const w = window as unknown as { __marks: Record<string, number> };
    w.__marks = {};
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries())
        if (entry.name === 'first-contentful-paint' && w.__marks.visible === undefined)
          w.__marks.visible = entry.startTime;
    }).observe({ type: 'paint', buffered: true });
    new MutationObserver(() => {
      const now = performance.now();
      if (
        w.__marks.live === undefined &&
        !document.querySelector('[data-prerendered]') &&
        document.querySelector('input[placeholder="Enter your email"]')
      )
        w.__marks.live = now;
      if (w.__marks.figures === undefined) {
        // The partner page has no figure cards: its details (the minimum spend, a number) from the
        // partner call. (Its first role=group is now the phone sort choice's field, with no digit.)
        const card = location.pathname.startsWith('/dashboard/partners/')
          ? document.querySelector('main dl')
          : document.querySelector('[role="group"][aria-label="Total Partners"]');
        if (card && /\d/.test(card.textContent ?? '')) w.__marks.figures = now;
      }
      const button = document.querySelector('button[type="submit"]');
      if (w.__marks.clicked !== undefined && button) {
        const busy = button.getAttribute('aria-busy') === 'true';
        if (busy && w.__marks.busy === undefined) w.__marks.busy = now;
        if (!busy && w.__marks.busy !== undefined && w.__marks.notBusyAfterClick === undefined)
          w.__marks.notBusyAfterClick = now;
      }
    }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
    document.addEventListener(
      'click',
      (event) => {
        const target = event.target as Element | null;
        if (w.__marks.clicked === undefined && target?.closest('button[type="submit"]'))
          w.__marks.clicked = performance.now();
      },
      true,
    );
  });
}

export const marksOf = (page: Page) =>
  page.evaluate(() => (window as unknown as { __marks: FirstScreenMarks }).__marks);

/**
 * A person on the sign-in screen from its first paint: clicks into the email field, types it at
 * KEY_DELAY_MS a key, clicks into the password field, types it, and clicks Sign in at once. Mouse and
 * keyboard only, where the form is on screen, with no waiting for the app (a person cannot see
 * whether the JavaScript has arrived). Returns when Sign in was clicked (ms since navigation start).
 */
export async function typeFromFirstPaint(
  page: Page,
  creds: { email: string; password: string },
): Promise<number> {
  await page.waitForFunction(
    () => (window as unknown as { __marks: FirstScreenMarks }).__marks.visible !== undefined,
    undefined,
    { polling: 50 },
  );
  // The form is on screen (the paint): only where it is is read (a person's eyes), no state waited on.
  const box = async (selector: string) => {
    const b = await page.evaluate((sel) => {
      const r = document.querySelector(sel)?.getBoundingClientRect();
      return r && r.width > 0 ? { x: r.x + r.width / 2, y: r.y + r.height / 2 } : null;
    }, selector);
    if (!b) throw new Error(`${selector} is not on screen`);
    return b;
  };
  const email = await box('input[placeholder="Enter your email"]');
  const password = await box('input[placeholder="Enter your password"]');
  const signIn = await box('button[type="submit"]');
  await page.mouse.click(email.x, email.y);
  await page.keyboard.type(creds.email, { delay: KEY_DELAY_MS });
  await page.mouse.click(password.x, password.y);
  await page.keyboard.type(creds.password, { delay: KEY_DELAY_MS });
  await page.mouse.click(signIn.x, signIn.y);
  return page.evaluate(() => performance.now());
}
