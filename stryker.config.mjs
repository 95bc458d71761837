/**
 * `npm run test:mutation`: StrykerJS over the SPA's machines and the server's domain rules (issue 30,
 * docs/decisions/071-mutation-testing.md). A tool testers run, not part of `npm run validate`.
 * Each mutant is one small change in the code; the unit, model and server tests that cover it are run,
 * and a mutant no test fails is a survivor. The clear-text table at the end prints the score per file.
 *
 * A subset: `npm run test:mutation -- --mutate 'server/domain/otp.ts'` (globs, comma separated).
 * `MUTATION_REPORT` names the folder of a run's reports and incremental file (reports/mutation by
 * default): `npm run test:mutation:domain` (scripts/mutation-domain.mjs) keeps one per group.
 */
const reportDir = process.env.MUTATION_REPORT || 'reports/mutation';

export default {
  mutate: [
    'src/machines/**/*.ts',
    'server/domain/**/*.ts',
    '!**/*.test.ts',
    // Not the outbox provider (src/components/outbox-provider.tsx): the queue's rules are in
    // src/machines/outbox.machine.ts; the provider is React glue, covered by screen tests not run here.
  ],
  testRunner: 'vitest',
  vitest: {
    configFile: 'vitest.mutation.config.ts',
    // Only the test files that import a mutated file (vitest's `related`), and per mutant only the
    // tests that reached it (coverageAnalysis perTest).
    related: true,
  },
  coverageAnalysis: 'perTest',
  // The machine is two cores shared with other work: two test runners at most (`--concurrency 1`
  // for a quieter run).
  concurrency: 2,
  // Results kept in reports/mutation/ (git-ignored) between runs: a rerun tests only the mutants
  // whose code or covering tests changed. `--force` runs everything again.
  incremental: true,
  incrementalFile: `${reportDir}/stryker-incremental.json`,
  reporters: ['clear-text', 'progress-append-only', 'html', 'json'],
  htmlReporter: { fileName: `${reportDir}/index.html` },
  jsonReporter: { fileName: `${reportDir}/mutation.json` },
  clearTextReporter: { allowEmojis: false, logTests: false, reportScoreTable: true, reportMutants: false },
  // A loaded machine: the first run of the related tests (the server's on PGlite) can take minutes,
  // and a mutant's run may take twice a quiet one before it counts as a timeout.
  dryRunTimeoutMinutes: 30,
  timeoutMS: 15000,
  timeoutFactor: 2,
  thresholds: { high: 80, low: 60, break: null },
  tempDirName: '.stryker-tmp',
  // What the sandbox copy does not need (reports, builds, the walk's output).
  ignorePatterns: [
    'dist',
    'dist-server',
    'flows-report',
    'test-results',
    'playwright-report',
    'tests/.tmp',
    'reports',
    'data',
    'backups',
  ],
};
