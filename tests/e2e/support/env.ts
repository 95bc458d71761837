import { fileURLToPath } from 'node:url';

export const E2E_PORT = Number(process.env.E2E_PORT ?? 4173);
export const E2E_BASE_URL = `http://127.0.0.1:${E2E_PORT}`;
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/**
 * Where the e2e servers keep their databases, mailboxes and the built SPA; wiped at every run.
 * Keyed by port, so two runs with different E2E_PORT values (10 apart: specs use port+1, +2)
 * can share one checkout without touching each other's files.
 */
export const E2E_TMP = fileURLToPath(new URL(`../../.tmp/e2e-${E2E_PORT}/`, import.meta.url));
export const MAIN_DATA_DIR = `${E2E_TMP}main`;
/** The SPA build the e2e servers serve (not ./dist, which `npm start` and other runs own). */
export const E2E_SPA_DIR = `${E2E_TMP}dist`;
/** Playwright's traces and screenshots, per port for the same reason. */
export const E2E_OUTPUT_DIR = fileURLToPath(
  new URL(`../../../test-results/e2e-${E2E_PORT}/`, import.meta.url),
);

/** The system Chromium (never a downloaded one) and the flags every test and bench launches it with. */
export const CHROME_PATH = process.env.CHROME_PATH || '/usr/bin/chromium';
export const CHROME_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

export const DEMO_ADMIN = { email: 'admin@rewardclub.ng', password: 'RewardClub#2026' } as const;
