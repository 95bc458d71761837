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

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'machines',
          environment: 'node',
          include: ['src/machines/**/*.test.ts', 'tests/model/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...needsDom],
          // The outbox keeps its queue in IndexedDB.
          setupFiles: ['fake-indexeddb/auto'],
        },
      },
      {
        test: {
          name: 'machines-dom',
          environment: 'jsdom',
          include: needsDom,
          setupFiles: ['tests/setup/web.ts'],
        },
      },
      {
        test: {
          name: 'server',
          environment: 'node',
          include: ['server/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...RUN_APART.map((p) => (p.endsWith('/') ? `${p}**` : p))],
          env: { TEST_DATABASE_URL: '' },
          globalSetup: ['tests/setup/db-template.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
