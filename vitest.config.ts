import { availableParallelism } from 'node:os';
import react from '@vitejs/plugin-react';
import { configDefaults, defineConfig } from 'vitest/config';
import { ALONE_ON_POSTGRES, RUN_APART } from './scripts/run-apart.mjs';

// scripts/test-ci.mjs runs the long fault tests and the memory test in a step of their own, one file
// at a time (decision 038); TEST_RUN_APART=1 leaves them out of the run it starts before that step.
const apart = process.env.TEST_RUN_APART === '1';
const globs = (paths: string[]) => (apart ? paths.map((p) => (p.endsWith('/') ? `${p}**` : p)) : []);
const runApart = globs(RUN_APART);
const serverTests = {
  environment: 'node' as const,
  include: [
    'server/**/*.test.ts',
    'contract/**/*.test.ts',
    'tests/flows/**/*.test.ts',
    // The till example against a fresh server (issue 31): `npm test` runs it.
    'examples/**/*.test.ts',
  ],
  exclude: [...configDefaults.exclude, ...runApart],
  testTimeout: 30_000,
  hookTimeout: 60_000,
};
const postgresUrl = process.env.TEST_DATABASE_URL;

export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the cores: 1 on CI's 2-core machine, which leaves a
    // core idle while a file waits on PostgreSQL, a child process or a timer. Two at the least
    // (decision 038); the long fault tests run one at a time anyway (scripts/test-ci.mjs).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      // The server suite on the embedded database: a fresh in-memory PGlite per test file, loaded
      // from one migrated image the global setup makes per run (decision 038) ...
      {
        test: {
          ...serverTests,
          name: 'server',
          env: { TEST_DATABASE_URL: '' },
          globalSetup: ['tests/setup/db-template.ts'],
        },
      },
      // ... and the same suite again on PostgreSQL when TEST_DATABASE_URL names a server (CI sets
      // it): each test file gets a database of its own on that server, dropped afterwards.
      ...(postgresUrl
        ? [
            {
              test: {
                ...serverTests,
                name: 'server-postgres',
                env: { TEST_DATABASE_URL: postgresUrl },
                // ... copied from one migrated template database (decision 038).
                globalSetup: ['tests/setup/db-template.ts'],
                // The 100,000-row export memory test measures a server with PGlite inside it; once is
                // enough (the export routes themselves run here too, in csv-export.test.ts).
                exclude: [
                  ...serverTests.exclude,
                  ...globs(ALONE_ON_POSTGRES),
                  'server/routes/csv-export-memory.test.ts',
                  // The till example starts its own server on PGlite: once is enough.
                  'examples/**/*.test.ts',
                ],
              },
            },
          ]
        : []),
      {
        plugins: [react()],
        test: {
          name: 'web',
          environment: 'jsdom',
          include: ['src/**/*.test.{ts,tsx}', 'tests/model/**/*.test.ts'],
          setupFiles: ['tests/setup/web.ts'],
          // A rendered screen under a loaded machine (2 cores shared by the whole suite) took 5.1 s
          // against Vitest's 5 s default (partner-form.test.tsx); 20 s leaves room, a real hang still fails.
          testTimeout: 20_000,
        },
      },
    ],
  },
});
