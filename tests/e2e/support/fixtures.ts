import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { expect, type Page } from '@playwright/test';
import { DEMO_ADMIN } from './env';

export const naira = (n: number) =>
  new Intl.NumberFormat('en-NG', { style: 'currency', currency: 'NGN' }).format(n);
export const count = (n: number) => new Intl.NumberFormat('en-NG').format(n);

/** Signs in through the sign-in screen, as a person would, and waits for the dashboard. */
export async function signIn(page: Page, creds: { email: string; password: string } = DEMO_ADMIN) {
  await page.goto('/');
  await page.getByPlaceholder('Enter your email').fill(creds.email);
  await page.getByPlaceholder('Enter your password').fill(creds.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

/**
 * The newest code mailed to `to` in a server's file mailbox (DATA_DIR/mail/*.eml). The outbox
 * delivers after the request has answered, so this waits for the mail, as a person would.
 */
export async function latestMailedCode(
  dataDir: string,
  to: string,
  pattern: RegExp,
  timeoutMs = 15_000,
): Promise<string> {
  const dir = `${dataDir}/mail`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.eml')) : [];
    for (const file of files.sort().reverse()) {
      const text = readFileSync(`${dir}/${file}`, 'utf8');
      if (!text.toLowerCase().includes(to.toLowerCase())) continue;
      const match = text.match(pattern);
      if (match?.[1]) return match[1];
    }
    if (Date.now() > deadline) throw new Error(`no mail to ${to} matching ${pattern} in ${dir}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
