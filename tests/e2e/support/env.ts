import { fileURLToPath } from 'node:url';

export const E2E_PORT = Number(process.env.E2E_PORT ?? 4173);
export const E2E_BASE_URL = `http://127.0.0.1:${E2E_PORT}`;
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** Where the e2e servers keep their databases and mailboxes; wiped at every run. */
export const E2E_TMP = fileURLToPath(new URL('../../.tmp/e2e/', import.meta.url));
export const MAIN_DATA_DIR = `${E2E_TMP}main`;

export const DEMO_ADMIN = { email: 'admin@rewardclub.ng', password: 'RewardClub#2026' } as const;
