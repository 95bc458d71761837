/**
 * Bundle benchmark (issue 7, scope 3): how much JavaScript the sign-in screen needs, in gzip bytes,
 * and what each other screen loads on demand.
 *
 * The SPA is built (`vite build --manifest`) into tests/.tmp/bench/dist and served by the real
 * server; Chromium opens '/' (service worker blocked, empty cache) and every JavaScript file it
 * fetches until the sign-in form is usable is summed, each file gzip-compressed (level 9) from the
 * build; the brotli sizes (quality 11, what the server sends to browsers that accept it, decision
 * 061) are printed beside. The Vite manifest gives the same set a second way (the entry and its
 * static imports: the sign-in screen renders without the router on a first visit, decision 061):
 * both are printed, the browser's is the figure. Per route: the route's own lazily loaded chunks plus the shared chunks they import that
 * the sign-in screen did not load already.
 *
 * `npm run bench:bundle`. Prints figures; never fails on a size.
 */
import { existsSync, readFileSync } from 'node:fs';
import { brotliCompressSync, gzipSync, constants as zlib } from 'node:zlib';
import { chromium } from '@playwright/test';
import { SourceMapConsumer } from 'source-map-js';
import { CHROME_FLAGS, CHROME_PATH } from '../e2e/support/env';
import { figure } from './figures';
import { BENCH_PORT, buildSpa, startSpaServer } from './spa';

const BENCH = 'bundle';
const SIGN_IN_BUDGET_KB = 160;

type Manifest = Record<
  string,
  {
    file: string;
    src?: string;
    isEntry?: boolean;
    isDynamicEntry?: boolean;
    imports?: string[];
    dynamicImports?: string[];
  }
>;

const kb = (bytes: number) => +(bytes / 1024).toFixed(1);

async function main() {
  const spaDir = buildSpa();
  const gzipOf = new Map<string, number>();
  const gzipSize = (file: string) => {
    let size = gzipOf.get(file);
    if (size === undefined) {
      size = gzipSync(readFileSync(`${spaDir}/${file}`), { level: 9 }).length;
      gzipOf.set(file, size);
    }
    return size;
  };
  const brotliOf = new Map<string, number>();
  const brotliSize = (file: string) => {
    let size = brotliOf.get(file);
    if (size === undefined) {
      const source = readFileSync(`${spaDir}/${file}`);
      size = brotliCompressSync(source, {
        params: {
          [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY,
          [zlib.BROTLI_PARAM_SIZE_HINT]: source.length,
        },
      }).length;
      brotliOf.set(file, size);
    }
    return size;
  };
  const manifest = JSON.parse(readFileSync(`${spaDir}/.vite/manifest.json`, 'utf8')) as Manifest;

  /** A chunk and every chunk it imports statically (what loading it fetches). */
  const closure = (key: string, into = new Set<string>()) => {
    const chunk = manifest[key];
    if (!chunk || into.has(chunk.file)) return into;
    into.add(chunk.file);
    for (const dep of chunk.imports ?? []) closure(dep, into);
    return into;
  };
  // --- The browser's count: what '/' fetches before the sign-in form is usable.
  const server = await startSpaServer(BENCH_PORT);
  const browser = await chromium.launch({ executablePath: CHROME_PATH, args: CHROME_FLAGS });
  let fetched: string[];
  let fetchedAfterIdle: string[];
  try {
    const context = await browser.newContext({ serviceWorkers: 'block' });
    const page = await context.newPage();
    const scripts: string[] = [];
    page.on('response', (res) => {
      const path = new URL(res.url()).pathname;
      if (path.endsWith('.js')) scripts.push(path.replace(/^\//, ''));
    });
    // The page notes when React's form (not the prerendered copy of decision 021, usable but only
    // keeping what is typed until the app takes over, decision 061) is first there; only scripts requested before that moment count, whatever the
    // polling below takes on a busy machine (idle-time loads of decision 012 come right after).
    await page.addInitScript(() => {
      // No named inner functions: tsx would wrap them in a `__name` helper the page does not have.
      const w = window as unknown as { __usableAt?: number };
      new MutationObserver((_records, observer) => {
        if (
          w.__usableAt === undefined &&
          !document.querySelector('[data-prerendered]') &&
          document.querySelector('input[placeholder="Enter your email"]:not([disabled])') &&
          document.querySelector('button[type="submit"]:not([disabled])')
        ) {
          w.__usableAt = performance.now();
          observer.disconnect();
        }
      }).observe(document, { subtree: true, childList: true, attributes: true });
    });
    await page.goto(`${server.url}/`);
    await page.waitForFunction(() => (window as unknown as { __usableAt?: number }).__usableAt !== undefined);
    if (await page.locator('[data-prerendered]').count())
      throw new Error('the prerendered copy is still there');
    const requestedBeforeUsable = await page.evaluate(() => {
      const usableAt = (window as unknown as { __usableAt: number }).__usableAt;
      return performance
        .getEntriesByType('resource')
        .filter((e) => e.startTime <= usableAt && new URL(e.name).pathname.endsWith('.js'))
        .map((e) => new URL(e.name).pathname.replace(/^\//, ''));
    });
    fetched = [...new Set(requestedBeforeUsable)];
    await page.waitForLoadState('networkidle');
    fetchedAfterIdle = [...new Set(scripts)].filter((f) => !fetched.includes(f));
    await context.close();
  } finally {
    await browser.close();
    await server.stop();
  }
  const missing = fetched.filter((f) => !gzipOf.has(f) && !manifestFile(manifest, f));
  if (missing.length) console.log(`(not in the manifest, counted from disk: ${missing.join(', ')})`);
  const browserBytes = fetched.reduce((sum, f) => sum + gzipSize(f), 0);
  const browserBrotli = fetched.reduce((sum, f) => sum + brotliSize(f), 0);

  // --- The manifest's count: the entry and its static imports (decision 061: the sign-in screen is
  // in the entry's `boot` chunk, vite.config.ts; the router and the route's chunk load after it).
  const initial = closure('index.html');
  const manifestBytes = [...initial].reduce((sum, f) => sum + gzipSize(f), 0);
  const notInManifestSet = fetched.filter((f) => !initial.has(f));
  const notFetched = [...initial].filter((f) => !fetched.includes(f));

  console.table(
    fetched
      .map((f) => ({ file: f, 'KB gzip': kb(gzipSize(f)), 'KB brotli': kb(brotliSize(f)) }))
      .sort((a, b) => b['KB gzip'] - a['KB gzip']),
  );
  console.log(
    `sign-in screen: ${fetched.length} JavaScript files fetched before the form was usable, ${kb(browserBytes)} KB gzip, ${kb(browserBrotli)} KB brotli; ` +
      `manifest cross-check (entry + static imports): ${initial.size} files, ${kb(manifestBytes)} KB gzip` +
      (notInManifestSet.length ? `; fetched but not in that set: ${notInManifestSet.join(', ')}` : '') +
      (notFetched.length ? `; in that set but not fetched: ${notFetched.join(', ')}` : '') +
      (fetchedAfterIdle.length ? `; fetched later, once idle: ${fetchedAfterIdle.join(', ')}` : ''),
  );

  console.table(byPackage(spaDir, fetched, gzipSize));

  figure({
    bench: BENCH,
    name: 'sign-in screen JavaScript (fetched by Chromium before the form is usable)',
    value: kb(browserBytes),
    unit: 'KB gzip',
    budget: { max: SIGN_IN_BUDGET_KB },
    target: 'Chromium',
  });
  figure({
    bench: BENCH,
    name: 'sign-in screen JavaScript, brotli as sent (fetched by Chromium before the form is usable)',
    value: kb(browserBrotli),
    unit: 'KB brotli',
    budget: null,
    target: 'Chromium',
  });
  figure({
    bench: BENCH,
    name: 'sign-in screen JavaScript (manifest: entry + static imports)',
    value: kb(manifestBytes),
    unit: 'KB gzip',
    budget: { max: SIGN_IN_BUDGET_KB },
    target: '-',
  });
  const allJs = Object.values(manifest)
    .map((c) => c.file)
    .filter((f, i, all) => f.endsWith('.js') && all.indexOf(f) === i);
  figure({
    bench: BENCH,
    name: 'all JavaScript of the build',
    value: kb(allJs.reduce((sum, f) => sum + gzipSize(f), 0)),
    unit: 'KB gzip',
    budget: null,
    target: '-',
  });

  // --- Per route: its lazily loaded chunks and what they pull in beyond the sign-in screen's set.
  const routes = new Map<string, Set<string>>();
  for (const key of Object.keys(manifest)) {
    const match = key.match(/^src\/routes\/(.+)\.tsx\?tsr-split=component/);
    if (!match?.[1]) continue;
    const files = closure(key);
    for (const f of initial) files.delete(f);
    routes.set(match[1], files);
  }
  const rows = [...routes]
    .map(([route, files]) => ({
      route,
      chunks: files.size,
      'KB gzip': kb([...files].reduce((sum, f) => sum + gzipSize(f), 0)),
    }))
    .sort((a, b) => a.route.localeCompare(b.route));
  console.table(rows);
  for (const row of rows)
    figure({
      bench: BENCH,
      name: `route ${row.route}: loaded on demand (${row.chunks} chunk(s) beyond the sign-in set)`,
      value: row['KB gzip'],
      unit: 'KB gzip',
      budget: null,
      target: '-',
    });
}

/**
 * What the files hold, by npm package (or `app` for src/ and contract/, `styled-system` for Panda's
 * generated runtime): each file's minified bytes are attributed to the sources its source map names
 * for them, and its gzip size shared out in the same proportions (an estimate: gzip does not compress
 * every part of a file alike). Where the sign-in screen's bytes go, printed with every run.
 */
function byPackage(spaDir: string, files: string[], gzipSize: (file: string) => number) {
  const kbOf = new Map<string, number>();
  for (const file of files) {
    const mapFile = `${spaDir}/${file}.map`;
    if (!existsSync(mapFile)) {
      kbOf.set('(no source map)', (kbOf.get('(no source map)') ?? 0) + gzipSize(file) / 1024);
      continue;
    }
    const lines = readFileSync(`${spaDir}/${file}`, 'utf8').split('\n');
    const consumer = new SourceMapConsumer(JSON.parse(readFileSync(mapFile, 'utf8')));
    const bytes = new Map<string, number>();
    let previous: { line: number; column: number; owner: string } | undefined;
    const credit = (owner: string, n: number) => bytes.set(owner, (bytes.get(owner) ?? 0) + n);
    consumer.eachMapping((m) => {
      if (previous && previous.line === m.generatedLine)
        credit(previous.owner, m.generatedColumn - previous.column);
      else if (previous) credit(previous.owner, (lines[previous.line - 1]?.length ?? 0) - previous.column);
      previous = { line: m.generatedLine, column: m.generatedColumn, owner: ownerOf(m.source) };
    });
    if (previous) credit(previous.owner, (lines[previous.line - 1]?.length ?? 0) - previous.column);
    const total = [...bytes.values()].reduce((a, b) => a + b, 0) || 1;
    for (const [owner, n] of bytes)
      kbOf.set(owner, (kbOf.get(owner) ?? 0) + ((n / total) * gzipSize(file)) / 1024);
  }
  return [...kbOf]
    .map(([owner, size]) => ({ 'sign-in set by package': owner, 'KB gzip (est.)': +size.toFixed(1) }))
    .sort((a, b) => b['KB gzip (est.)'] - a['KB gzip (est.)'])
    .filter((row) => row['KB gzip (est.)'] >= 0.5);
}

function ownerOf(source: string | null): string {
  if (!source) return '(unmapped)';
  const pkg = source.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (pkg?.[1]) return pkg[1];
  if (source.includes('styled-system/')) return 'styled-system (Panda runtime)';
  return 'app (src/, contract/)';
}

function manifestFile(manifest: Manifest, file: string) {
  return Object.values(manifest).some((c) => c.file === file);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
