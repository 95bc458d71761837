import { defineConfig } from '@playwright/test';
import { CHROME_FLAGS, CHROME_PATH, E2E_BASE_URL, E2E_OUTPUT_DIR } from './tests/e2e/support/env';

/** End-to-end: the real server on a temporary embedded database, the built SPA, the system Chromium. */
export default defineConfig({
  testDir: './tests/e2e',
  testMatch: '**/*.spec.ts',
  globalSetup: './tests/e2e/support/global-setup.ts',
  outputDir: E2E_OUTPUT_DIR,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL: E2E_BASE_URL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: CHROME_PATH,
      args: CHROME_FLAGS,
    },
  },
});
