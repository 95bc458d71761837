/**
 * Lighthouse benchmark (issue 7, scope 3): Lighthouse 12 with its mobile defaults (simulated slow
 * 4G and 4× CPU slowdown, Moto G Power viewport) on the system Chromium (CHROME_PATH, else
 * /usr/bin/chromium), against the real server serving the production build, on two pages:
 *
 * - the sign-in screen ('/'), in a fresh profile (Lighthouse resets storage: a first visit);
 * - the dashboard home ('/dashboard'), signed in: Playwright, connected to the same Chromium over
 *   CDP, signs in through the sign-in screen first; Lighthouse then runs with
 *   `disableStorageReset: true`, so the session (and the service worker's app shell) stays, as
 *   for a user who opens the console again.
 *
 * Figures: performance score (budget ≥ 90), LCP (≤ 2.5 s), CLS (≤ 0.1) per page; also TBT and FCP
 * without budget. `npm run bench:lighthouse`. Prints figures; never fails on a score.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { chromium } from '@playwright/test';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { CHROME_FLAGS, CHROME_PATH, DEMO_ADMIN } from '../e2e/support/env';
import { figure } from './figures';
import { BENCH_PORT, BENCH_TMP, buildSpa, startSpaServer } from './spa';

const BENCH = 'lighthouse';
const PORT = BENCH_PORT + 1;
const LIGHTHOUSE_FLAGS = ['--headless=new', ...CHROME_FLAGS];

/**
 * `applied`: Lighthouse's 'devtools' throttling, which really slows the network and CPU while the
 * page loads, instead of simulating them from an unthrottled load (the default, which the budgets
 * are for). Printed beside it, without a budget: on a fast local load the browser runs the
 * scripts before its first paint, so the simulation cannot see a page that paints from its HTML
 * alone on a slow network (the prerendered sign-in screen, decision 021); the applied run can.
 */
type Page = { label: string; path: string; signedIn: boolean; applied?: boolean };
const PAGES: Page[] = [
  { label: 'sign-in screen', path: '/', signedIn: false },
  { label: 'dashboard home', path: '/dashboard', signedIn: true },
  { label: 'sign-in screen, applied throttling', path: '/', signedIn: false, applied: true },
];

async function audit(base: string, page: Page) {
  const userDataDir = `${BENCH_TMP}lighthouse-profile-${page.signedIn ? 'signed-in' : 'fresh'}`;
  rmSync(userDataDir, { recursive: true, force: true });
  mkdirSync(userDataDir, { recursive: true });
  const chrome = await chromeLauncher.launch({
    chromePath: CHROME_PATH,
    chromeFlags: LIGHTHOUSE_FLAGS,
    userDataDir,
    logLevel: 'silent',
  });
  try {
    if (page.signedIn) {
      const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
      const context = browser.contexts()[0] ?? (await browser.newContext());
      const tab = await context.newPage();
      await tab.goto(`${base}/`);
      await tab.getByPlaceholder('Enter your email').fill(DEMO_ADMIN.email);
      await tab.getByPlaceholder('Enter your password').fill(DEMO_ADMIN.password);
      await tab.getByRole('button', { name: 'Sign in' }).click();
      await tab.waitForURL(/\/dashboard$/);
      await tab.waitForLoadState('networkidle');
      await tab.close();
      // Disconnects Playwright only: a browser it connected to over CDP stays open.
      await browser.close();
    }
    const result = await lighthouse(`${base}${page.path}`, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance'],
      disableStorageReset: page.signedIn,
      ...(page.applied ? { throttlingMethod: 'devtools' as const } : {}),
    });
    if (!result) throw new Error(`Lighthouse returned no result for ${page.path}`);
    const { lhr } = result;
    if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    const numeric = (id: string) => {
      const value = lhr.audits[id]?.numericValue;
      if (typeof value !== 'number') throw new Error(`Lighthouse gave no ${id} for ${page.path}`);
      return value;
    };
    const finalUrl = lhr.finalDisplayedUrl;
    if (page.signedIn && !finalUrl.endsWith('/dashboard'))
      throw new Error(`the dashboard run ended on ${finalUrl}: not signed in`);
    return {
      score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
      lcp: numeric('largest-contentful-paint'),
      cls: numeric('cumulative-layout-shift'),
      tbt: numeric('total-blocking-time'),
      fcp: numeric('first-contentful-paint'),
      finalUrl,
      shifts: layoutShifts(lhr.audits['layout-shifts']?.details),
      opportunities: Object.values(lhr.audits)
        .filter((a) => a.details?.type === 'opportunity' && (a.score ?? 1) < 0.9)
        .map((a) => `${a.title}${a.displayValue ? ` (${a.displayValue})` : ''}`),
    };
  } finally {
    chrome.kill();
  }
}

/** The elements Lighthouse blames for layout shifts, with each shift's score (to find a CLS's cause). */
function layoutShifts(details: unknown): string[] {
  const items = (
    details as { items?: { score?: number; node?: { selector?: string; nodeLabel?: string } }[] }
  )?.items;
  return (items ?? []).map(
    (item) =>
      `${item.node?.selector ?? '?'} "${(item.node?.nodeLabel ?? '').slice(0, 40)}" ${(item.score ?? 0).toFixed(3)}`,
  );
}

async function main() {
  const spaDir = buildSpa();
  const server = await startSpaServer(PORT, spaDir);
  try {
    for (const page of PAGES) {
      const r = await audit(server.url, page);
      console.log(
        `${page.label} (${r.finalUrl}): score ${r.score}, FCP ${Math.round(r.fcp)} ms, LCP ${Math.round(r.lcp)} ms, ` +
          `TBT ${Math.round(r.tbt)} ms, CLS ${r.cls.toFixed(3)}` +
          (r.opportunities.length ? `\n  opportunities: ${r.opportunities.join('; ')}` : '') +
          (r.shifts.length ? `\n  layout shifts: ${r.shifts.join('; ')}` : ''),
      );
      const target = page.applied
        ? 'Chromium (Lighthouse mobile, devtools throttling)'
        : 'Chromium (Lighthouse mobile)';
      // The budgets are for Lighthouse's defaults; the applied-throttling run is printed without.
      const budgeted = <T>(budget: T) => (page.applied ? null : budget);
      figure({
        bench: BENCH,
        name: `${page.label}: performance score`,
        value: r.score,
        unit: 'score',
        budget: budgeted({ min: 90 }),
        target,
      });
      figure({
        bench: BENCH,
        name: `${page.label}: LCP`,
        value: Math.round(r.lcp),
        unit: 'ms',
        budget: budgeted({ max: 2500 }),
        target,
      });
      figure({
        bench: BENCH,
        name: `${page.label}: CLS`,
        value: +r.cls.toFixed(3),
        unit: 'score',
        budget: budgeted({ max: 0.1 }),
        target,
      });
      figure({
        bench: BENCH,
        name: `${page.label}: TBT`,
        value: Math.round(r.tbt),
        unit: 'ms',
        budget: null,
        target,
      });
      figure({
        bench: BENCH,
        name: `${page.label}: FCP`,
        value: Math.round(r.fcp),
        unit: 'ms',
        budget: null,
        target,
      });
    }
  } finally {
    await server.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
