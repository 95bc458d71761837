import react from '@vitejs/plugin-react';
import { configDefaults, defineConfig } from 'vitest/config';

const serverTests = {
  environment: 'node' as const,
  include: ['server/**/*.test.ts', 'contract/**/*.test.ts', 'tests/flows/**/*.test.ts'],
  testTimeout: 30_000,
  hookTimeout: 60_000,
};
const postgresUrl = process.env.TEST_DATABASE_URL;

export default defineConfig({
  test: {
    projects: [
      // The server suite on the embedded database: a fresh in-memory PGlite per test file, loaded
      // from one migrated image the global setup makes per run (decision 038) ...
      {
        test: {
          ...serverTests,
          name: 'server',
          env: { TEST_DATABASE_URL: '' },
          globalSetup: ['tests/setup/pglite-template.ts'],
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
                // The 100,000-row export memory test measures a server with PGlite inside it; once is
                // enough (the export routes themselves run here too, in csv-export.test.ts).
                exclude: [...configDefaults.exclude, 'server/routes/csv-export-memory.test.ts'],
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
        },
      },
    ],
  },
});
