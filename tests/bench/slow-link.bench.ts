/**
 * Slow-link benchmark (issue 34, decision 061): the first screen and the first screen after sign-in
 * on a slow mobile link, as a person meets them.
 *
 * Chromium (the system one) with its own network emulation over CDP (tests/e2e/support/slow-link.ts:
 * 400 kbit/s down and up, 400 ms round trip, HTTP cache disabled, service worker blocked: a cold first
 * visit) against the real server serving the production build. A person types from the prerendered
 * form's first paint (90 ms a key: click, email, click, password) and clicks Sign in at once, not
 * waiting for the app. Figures, per run, for the admin (the dashboard's 'Total Partners' card with a
 * number) and a partner cashier (their partner's page's details, with the minimum spend):
 *   - form visible: first contentful paint (ms since navigation start);
 *   - form live: the app's own form has replaced the prerendered copy;
 *   - figures: the first screen after sign-in shows its first figure (since navigation start);
 *   - figures after Sign in: the same, from the click.
 * Also printed: the JavaScript the browser fetched before the form was live and after it until the
 * figures (gzip and brotli sizes of those build files: brotli is what Chromium is sent), the login
 * requests (one) and the API calls after the click with their start times (nothing fetched twice),
 * and the machine's load average. Budgets (printed, never a failure): form live ≤ 3 s, figures
 * ≤ 5 s after Sign in (issue 34).
 *
 * `npm run bench:slow-link` (BENCH_RUNS runs per person, default 3). Never fails on a timing.
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { brotliCompressSync, gzipSync, constants as zlib } from 'node:zlib';
import { type Browser, chromium } from '@playwright/test';
import { CHROME_FLAGS, CHROME_PATH, DEMO_ADMIN } from '../e2e/support/env';
import {
  FIRST_VISIT,
  KEY_DELAY_MS,
  marksOf,
  SLOW_LINK,
  throttle,
  typeFromFirstPaint,
  watchFirstScreen,
} from '../e2e/support/slow-link';
import { figure } from './figures';
import { BENCH_PORT, buildSpa, startSpaServer } from './spa';

const BENCH = 'slow-link';
const PORT = BENCH_PORT + 6;
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const FORM_LIVE_BUDGET_MS = 3000;
const FIGURES_AFTER_SIGN_IN_BUDGET_MS = 5000;

/** The seeded partner cashier (server/seed/demo.ts, Eko Grill House), as tests/e2e/partner-staff.spec.ts. */
const CASHIER = { email: 'segun.adeyemi@ekogrillhouse.com.ng', password: 'Staff#2026' } as const;
const PEOPLE = [
  { who: 'admin', creds: DEMO_ADMIN, screen: /\/dashboard$/ },
  { who: 'partner cashier', creds: CASHIER, screen: /\/dashboard\/partners\/\d+/ },
] as const;

interface Run {
  visible: number;
  live: number;
  clicked: number;
  figures: number;
  jsBeforeLive: string[];
  jsAfterLive: string[];
  logins: number;
  calls: { call: string; startMs: number; endMs: number }[];
}

const kb = (bytes: number) => +(bytes / 1024).toFixed(1);
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? Number.NaN;
};

async function once(browser: Browser, baseURL: string, person: (typeof PEOPLE)[number]): Promise<Run> {
  const context = await browser.newContext({ ...FIRST_VISIT, baseURL });
  try {
    const page = await context.newPage();
    const requests: { path: string; method: string; at: number }[] = [];
    const t0 = Date.now();
    page.on('request', (request) => {
      const url = new URL(request.url());
      requests.push({ path: url.pathname, method: request.method(), at: Date.now() - t0 });
    });
    await throttle(context, page);
    await watchFirstScreen(page);
    await page.goto('/', { waitUntil: 'commit' });
    await typeFromFirstPaint(page, person.creds);
    await page.waitForURL(person.screen, { timeout: 90_000 });
    await page.waitForFunction(
      () => (window as unknown as { __marks: { figures?: number } }).__marks.figures !== undefined,
      undefined,
      { timeout: 60_000, polling: 100 },
    );
    const marks = await marksOf(page);
    if (marks.visible === undefined || marks.live === undefined || marks.clicked === undefined)
      throw new Error(`a mark is missing: ${JSON.stringify(marks)}`);
    // The page's own clock (performance.now()) for when each script was requested.
    const resources = await page.evaluate(() =>
      performance.getEntriesByType('resource').map((e) => ({
        path: new URL(e.name).pathname,
        start: e.startTime,
        end: (e as PerformanceResourceTiming).responseEnd,
      })),
    );
    const js = (from: number, to: number) => [
      ...new Set(
        resources.filter((r) => r.path.endsWith('.js') && r.start >= from && r.start < to).map((r) => r.path),
      ),
    ];
    const clicked = marks.clicked;
    const calls = resources
      .filter((r) => r.path.startsWith('/api/') && r.start >= clicked)
      .map((r) => ({
        call: r.path,
        startMs: Math.round(r.start - clicked),
        endMs: Math.round(r.end - clicked),
      }));
    return {
      visible: marks.visible,
      live: marks.live,
      clicked,
      figures: marks.figures ?? Number.NaN,
      jsBeforeLive: js(0, marks.live),
      jsAfterLive: js(marks.live, marks.figures ?? Number.POSITIVE_INFINITY),
      logins: requests.filter((r) => r.method === 'POST' && r.path === '/api/v1/admin/auth/login').length,
      calls,
    };
  } finally {
    await context.close();
  }
}

async function main() {
  const spaDir = buildSpa();
  const sizes = new Map<string, { gzip: number; brotli: number }>();
  const sizeOf = (path: string) => {
    let size = sizes.get(path);
    if (!size) {
      const source = readFileSync(`${spaDir}${path}`);
      size = {
        gzip: gzipSync(source, { level: 9 }).length,
        brotli: brotliCompressSync(source, {
          params: {
            [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY,
            [zlib.BROTLI_PARAM_SIZE_HINT]: source.length,
          },
        }).length,
      };
      sizes.set(path, size);
    }
    return size;
  };
  const total = (paths: string[]) =>
    paths.reduce((sum, p) => ({ gzip: sum.gzip + sizeOf(p).gzip, brotli: sum.brotli + sizeOf(p).brotli }), {
      gzip: 0,
      brotli: 0,
    });

  console.log(
    `Link: ${SLOW_LINK.kbitPerSecond} kbit/s down and up, ${SLOW_LINK.latencyMs} ms round trip, cold cache, ` +
      `no service worker; typing ${KEY_DELAY_MS} ms a key from the first paint; ${RUNS} run(s) per person. ` +
      `Load average at start: ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
  );
  const server = await startSpaServer(PORT, spaDir);
  const browser = await chromium.launch({ executablePath: CHROME_PATH, args: CHROME_FLAGS });
  try {
    for (const person of PEOPLE) {
      const runs: Run[] = [];
      for (let i = 0; i < RUNS; i++) runs.push(await once(browser, server.url, person));
      console.table(
        runs.map((r) => ({
          'form visible ms': Math.round(r.visible),
          'form live ms': Math.round(r.live),
          'Sign in clicked ms': Math.round(r.clicked),
          'figures ms': Math.round(r.figures),
          'figures after Sign in ms': Math.round(r.figures - r.clicked),
          'JS before live KB gzip/br': `${kb(total(r.jsBeforeLive).gzip)}/${kb(total(r.jsBeforeLive).brotli)}`,
          'JS live→figures KB gzip/br': `${kb(total(r.jsAfterLive).gzip)}/${kb(total(r.jsAfterLive).brotli)}`,
          'login requests': r.logins,
        })),
      );
      const last = runs[runs.length - 1];
      if (last) {
        console.log(
          `${person.who}, last run: JavaScript before the form was live: ${last.jsBeforeLive.join(', ')}`,
        );
        console.log(
          `${person.who}, last run: JavaScript after, until the figures: ${last.jsAfterLive.join(', ')}`,
        );
        console.log(
          `${person.who}, last run: API calls after the click (ms after it, start–answered): ${last.calls.map((c) => `${c.call} +${c.startMs}–${c.endMs}`).join(', ')}`,
        );
        const twice = last.calls.map((c) => c.call).filter((c, i, all) => all.indexOf(c) !== i);
        if (twice.length) console.log(`${person.who}: FETCHED TWICE: ${[...new Set(twice)].join(', ')}`);
      }
      const at = (name: string, values: number[], budget: number | null) =>
        figure({
          bench: BENCH,
          name: `${person.who}: ${name} (median of ${runs.length})`,
          value: Math.round(median(values)),
          unit: 'ms',
          budget: budget === null ? null : { max: budget },
          target: `Chromium, ${SLOW_LINK.kbitPerSecond} kbit/s, ${SLOW_LINK.latencyMs} ms RTT`,
        });
      at(
        'form visible',
        runs.map((r) => r.visible),
        null,
      );
      at(
        'form live',
        runs.map((r) => r.live),
        FORM_LIVE_BUDGET_MS,
      );
      at(
        'first figures, typing from the first paint',
        runs.map((r) => r.figures),
        null,
      );
      at(
        'first figures after Sign in',
        runs.map((r) => r.figures - r.clicked),
        FIGURES_AFTER_SIGN_IN_BUDGET_MS,
      );
      const before = total(runs[0]?.jsBeforeLive ?? []);
      figure({
        bench: BENCH,
        name: `${person.who}: JavaScript before the form is live`,
        value: kb(before.gzip),
        unit: 'KB gzip',
        budget: { max: 160 },
        target: `${kb(before.brotli)} KB brotli`,
      });
    }
  } finally {
    await browser.close();
    await server.stop();
  }
  console.log(
    `Load average at the end: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
