import { defineConfig } from '@playwright/test';
import { CHROME_FLAGS, CHROME_PATH, E2E_BASE_URL, E2E_OUTPUT_DIR } from './tests/e2e/support/env';

/**
 * PW_WORKERS: a count ("2", "3") or a share of the cores ("50%"); 1 when unset, until the
 * multi-tab refresh race seen at two workers is fixed (decision 040, "Default kept at one").
 */
function workerCount(value: string | undefined): number | string {
  if (!value) return 1;
  if (/^[1-9]\d*%?$/.test(value)) return value.endsWith('%') ? value : Number(value);
  throw new Error(`PW_WORKERS must be a count such as 2 or a share such as 50%, not "${value}"`);
}

/** End-to-end: the real server on a temporary embedded database, the built SPA, the system Chromium. */
export default defineConfig({
  testDir: './tests/e2e',
  testMatch: '**/*.spec.ts',
  globalSetup: './tests/e2e/support/global-setup.ts',
  outputDir: E2E_OUTPUT_DIR,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // A spec file's tests stay in order in one worker; with PW_WORKERS=2 files run on two workers,
  // each with its own main server, ports and folders (support/env.ts, decision 040).
  fullyParallel: false,
  workers: workerCount(process.env.PW_WORKERS),
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
