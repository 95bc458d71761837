// The server test files CI runs in a step of their own, one file at a time (scripts/test-ci.mjs,
// docs/decisions/038-ci-time.md): the fault tests (a server SIGKILLed mid-burst, PostgreSQL stopped
// for 30 s, connections cut) and the export memory measurement. vitest.config.ts leaves them out of
// a run started with TEST_RUN_APART=1.
export const RUN_APART = [
  'server/faults/',
  'server/routes/csv-export-memory.test.ts',
  // A built server on PostgreSQL taking 1,000 PUTs and a 20,000-row import, twice (issue 27).
  'server/customer-sync-production.test.ts',
];

/**
 * Files that race a pool of 25 connections on PostgreSQL: there they run alone too (step 2), since a
 * file beside them on 2 cores can push a request's wait for a connection past its 5-s timeout (a 503
 * where the test counts 409s; seen once on the loaded shared machine). On PGlite they stay in the
 * +200-day run.
 */
export const ALONE_ON_POSTGRES = [
  'server/routes/redemption-concurrency.test.ts',
  'server/domain/counts.test.ts',
];
