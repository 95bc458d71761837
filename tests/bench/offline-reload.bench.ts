/**
 * Offline reload benchmark (issue 7, scope 3): the partner list, seen once (so its rows are in the
 * IndexedDB query cache and the app shell in the service worker's precache), reloaded with the
 * network off: how long from the navigation's start (the page's own clock, `performance.now()`)
 * until the first partner row is in the table. The same approach as tests/e2e/offline.spec.ts.
 *
 * Playwright on the system Chromium against the real server serving the production build; the
 * offline reload is repeated RUNS times (BENCH_RUNS, default 5) in the same signed-in page.
 * Figures: median and max, budget ≤ 1000 ms. `npm run bench:offline`. Never fails on a timing.
 */
import { chromium, type Page } from '@playwright/test';
import { CHROME_FLAGS, CHROME_PATH, DEMO_ADMIN } from '../e2e/support/env';
import { figure } from './figures';
import { BENCH_PORT, buildSpa, startSpaServer } from './spa';
import { pct } from './support';

const BENCH = 'offline-reload';
const PORT = BENCH_PORT + 2;
const RUNS = Number(process.env.BENCH_RUNS ?? 5);

/** Polls an async check in the page until it holds (waitForFunction does not await a promise). */
async function until(page: Page, check: () => Promise<boolean>, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await page.evaluate(check))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${check.toString().slice(0, 80)}`);
    await page.waitForTimeout(100);
  }
}

const partnersTable = (page: Page) => page.locator('table[aria-label="Partners"]');

async function main() {
  const spaDir = buildSpa();
  const server = await startSpaServer(PORT, spaDir);
  const browser = await chromium.launch({ executablePath: CHROME_PATH, args: CHROME_FLAGS });
  const times: number[] = [];
  try {
    const context = await browser.newContext({ baseURL: server.url });
    const page = await context.newPage();
    await page.goto('/');
    await page.getByPlaceholder('Enter your email').fill(DEMO_ADMIN.email);
    await page.getByPlaceholder('Enter your password').fill(DEMO_ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/dashboard$/);
    await page.goto('/dashboard/partners');
    const firstRowLink = partnersTable(page).getByRole('row').nth(1).getByRole('link').first();
    await firstRowLink.waitFor({ state: 'visible' });
    const organization = (await firstRowLink.textContent())?.trim() ?? '';
    if (!organization) throw new Error('the partner list shows no partner');

    // Warm: the service worker controls the page and the list's query is stored in IndexedDB.
    await until(page, async () => {
      const registration = await navigator.serviceWorker.getRegistration();
      return registration?.active?.state === 'activated' && navigator.serviceWorker.controller !== null;
    });
    await until(page, async () => {
      const buckets = (
        navigator as { storageBuckets?: { open(name: string): Promise<{ indexedDB: IDBFactory }> } }
      ).storageBuckets;
      const factory = buckets ? (await buckets.open('reward-club-user')).indexedDB : indexedDB;
      return new Promise<boolean>((resolve) => {
        const open = factory.open('reward-club-admin');
        open.onerror = () => resolve(false);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('queries')) {
            db.close();
            resolve(false);
            return;
          }
          const keys = db.transaction('queries').objectStore('queries').getAllKeys();
          keys.onsuccess = () => {
            db.close();
            resolve(keys.result.map(String).some((k) => k.includes('"partners","list"')));
          };
          keys.onerror = () => resolve(false);
        };
      });
    });

    // In every navigation: the moment (page clock, from navigation start) the row shows up.
    // A string, not a function: tsx (esbuild keepNames) would wrap named functions in a `__name`
    // helper the page does not have.
    await page.addInitScript(`{
      const name = ${JSON.stringify(organization)};
      const observer = new MutationObserver(() => {
        const table = document.querySelector('table[aria-label="Partners"]');
        if (window.rowsVisibleAt === undefined && table?.textContent?.includes(name)) {
          window.rowsVisibleAt = performance.now();
          observer.disconnect();
        }
      });
      observer.observe(document, { childList: true, subtree: true, characterData: true });
    }`);

    let apiAnswers = 0;
    context.on('response', (res) => {
      if (new URL(res.url()).pathname.startsWith('/api/')) apiAnswers++;
    });
    await context.setOffline(true);
    for (let i = 0; i < RUNS; i++) {
      await page.reload();
      await partnersTable(page)
        .getByRole('link', { name: organization })
        .first()
        .waitFor({ state: 'visible' });
      const at = await page.waitForFunction(
        () => (window as unknown as { rowsVisibleAt?: number }).rowsVisibleAt,
      );
      const ms = (await at.jsonValue()) as number;
      times.push(ms);
      console.log(
        `offline reload ${i + 1}/${RUNS}: partner rows visible ${Math.round(ms)} ms after navigation start`,
      );
    }
    if (apiAnswers > 0) throw new Error(`${apiAnswers} API request(s) were answered while offline`);
    await context.close();
  } finally {
    await browser.close();
    await server.stop();
  }
  times.sort((a, b) => a - b);
  const target = 'Chromium';
  const budget = { max: 1000 };
  figure({
    bench: BENCH,
    name: `partner list, offline reload, rows visible (median of ${RUNS})`,
    value: Math.round(pct(times, 50)),
    unit: 'ms',
    budget,
    target,
  });
  figure({
    bench: BENCH,
    name: `partner list, offline reload, rows visible (max of ${RUNS})`,
    value: Math.round(times.at(-1) ?? 0),
    unit: 'ms',
    budget,
    target,
  });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
