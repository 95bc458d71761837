import type { KnipConfig } from 'knip';

/**
 * Dead files, exports and dependencies (`npm run lint:dead`, part of `npm run validate`; decision 032).
 * Vite, Vitest, Playwright, Drizzle, PostCSS and the package.json scripts are read by knip's own
 * plugins; the entries below are the files started some other way.
 */
const config: KnipConfig = {
  entry: [
    // Bundled by scripts/build-server.mjs, one file per entry.
    'server/{main,migrate,backup,restore}.ts',
    'scripts/*.{ts,mjs}',
    // Benchmarks, each run by `tsx` (package.json scripts or by hand: api-table prints docs/performance.md's tables).
    'tests/bench/*.bench.ts',
    'tests/bench/api-table.ts',
    // Imported by path from tests/flows/walk.ts (one walk per machine, decision 026) ...
    'tests/flows/walks/*.walk.ts',
    // Rendered by vite.config.ts at build time into index.html (decision 021).
    'src/prerender/sign-in-markup.tsx',
    // The till example: run with tsx by hand (its README), and by its test.
    'examples/pos-till/pos-till.ts',
    // The tests StrykerJS runs (stryker.config.mjs names it; `npm run test:mutation`, decision 071).
    'vitest.mutation.config.ts',
  ],
  project: ['{src,server,contract,tests,scripts,client,examples}/**/*.{ts,tsx,mjs}', '*.ts'],
  ignoreDependencies: [
    // Loaded with createRequire (server/domain/events.ts: on first use; server/routes/api-reference.ts:
    // the package's files are served), which knip does not follow.
    'geoip-lite',
    'swagger-ui-dist',
    // Run as node_modules/.bin/redocly and .bin/spectral by scripts/lint-openapi.ts.
    '@redocly/cli',
    '@stoplight/spectral-cli',
    // postcss.config.cjs is run by Vite's own postcss.
    'postcss',
  ],
  // System tools the scripts install or call, not npm packages.
  ignoreExportsUsedInFile: true,
  ignoreBinaries: ['faketime', 'apt-get', 'pg_dump', 'pg_restore'],
};

export default config;
