import { fileURLToPath } from 'node:url';

/** The run's base port (E2E_PORT, default 4173): worker 0's main server; the global setup's. */
const E2E_BASE_PORT = Number(process.env.E2E_PORT ?? 4173);
/**
 * Each Playwright worker gets ports and folders of its own, so that two run side by side: worker i
 * (its slot, `TEST_PARALLEL_INDEX`, 0 … workers-1, the same for a worker started again after a
 * failure) has its main server on E2E_BASE_PORT + 20·i and the specs' own servers on +1 … +7 of
 * that. Outside a worker (the config in the runner, global setup, the benches) the slot is 0.
 */
const E2E_WORKER_PORT_STRIDE = 20;
const E2E_WORKER = Number(process.env.TEST_PARALLEL_INDEX ?? 0);
export const workerPort = (worker: number) => E2E_BASE_PORT + E2E_WORKER_PORT_STRIDE * worker;
/** This worker's main server (global setup starts one per worker); specs start theirs on +1 … +7. */
export const E2E_PORT = workerPort(E2E_WORKER);
export const E2E_BASE_URL = `http://127.0.0.1:${E2E_PORT}`;
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/**
 * Where the e2e servers keep their databases, mailboxes and the built SPA; wiped at every run.
 * Keyed by the base port, so two runs with E2E_PORT values at least 20 × workers apart can share
 * one checkout without touching each other's files or ports.
 */
export const E2E_RUN_TMP = fileURLToPath(new URL(`../../.tmp/e2e-${E2E_BASE_PORT}/`, import.meta.url));
/** One worker's folder: its main server's data (`main`) and every folder its specs make. */
export const workerTmp = (worker: number) => `${E2E_RUN_TMP}w${worker}/`;
export const E2E_TMP = workerTmp(E2E_WORKER);
export const MAIN_DATA_DIR = `${E2E_TMP}main`;
/** The SPA build the e2e servers serve (not ./dist, which `npm start` and other runs own); one per run, read-only. */
export const E2E_SPA_DIR = `${E2E_RUN_TMP}dist`;
/** Playwright's traces and screenshots, per run for the same reason. */
export const E2E_OUTPUT_DIR = fileURLToPath(
  new URL(`../../../test-results/e2e-${E2E_BASE_PORT}/`, import.meta.url),
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
