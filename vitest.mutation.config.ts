import { configDefaults, defineConfig } from 'vitest/config';
import { RUN_APART } from './scripts/run-apart.mjs';

/**
 * The tests StrykerJS runs for each mutant (`npm run test:mutation`, stryker.config.mjs,
 * docs/decisions/071-mutation-testing.md): the unit, model and server tests, not the screens' tests.
 * The same files as vitest.config.ts runs, in an environment chosen for speed, since a mutant run
 * sets each test file's environment up again: the machines' and the model's tests in Node (jsdom's
 * set-up was 90% of a machine test file's time), but the three that read localStorage in jsdom as in
 * `npm test`; the server's on PGlite, without the fault tests run apart (decision 038).
 */
const needsDom = [
  'src/machines/redeem.machine.test.ts',
  'src/machines/session-link.test.ts',
  'src/machines/session.machine.test.ts',
];

/**
 * `MUTATION_TESTS`: a narrower selection, the test files (paths, comma separated) a run may use, e.g.
 * a server/domain file's own unit test instead of every route test that builds the app (each of those
 * imports nearly every domain file). Related tests are then chosen among these only: the score is that
 * of the named tests, a lower bound of the whole suite's (docs/decisions/071-mutation-testing.md).
 */
const only = (process.env.MUTATION_TESTS ?? '')
  .split(',')
  .map((p) => p.trim())
  .filter(Boolean);

const projects = [
  {
    test: {
      name: 'machines',
      environment: 'node' as const,
      include: ['src/machines/**/*.test.ts', 'tests/model/**/*.test.ts'],
      exclude: [...configDefaults.exclude, ...needsDom],
      // The outbox keeps its queue in IndexedDB.
      setupFiles: ['fake-indexeddb/auto'],
    },
  },
  {
    test: {
      name: 'machines-dom',
      environment: 'jsdom' as const,
      include: needsDom,
      setupFiles: ['tests/setup/web.ts'],
    },
  },
  {
    test: {
      name: 'server',
      environment: 'node' as const,
      include: ['server/**/*.test.ts'],
      exclude: [...configDefaults.exclude, ...RUN_APART.map((p) => (p.endsWith('/') ? `${p}**` : p))],
      env: { TEST_DATABASE_URL: '' },
      globalSetup: ['tests/setup/db-template.ts'],
      testTimeout: 30_000,
      hookTimeout: 60_000,
    },
  },
];

/** Each project keeps the named files that are its own (the server's under server/, the DOM set's ...). */
const ownedBy = (name: string, path: string) =>
  name === 'server'
    ? path.startsWith('server/')
    : name === 'machines-dom'
      ? needsDom.includes(path)
      : !path.startsWith('server/') && !needsDom.includes(path);

export default defineConfig({
  test: {
    projects:
      only.length === 0
        ? projects
        : projects
            .map((p) => ({ ...p, test: { ...p.test, include: only.filter((f) => ownedBy(p.test.name, f)) } }))
            .filter((p) => p.test.include.length > 0),
  },
});
