import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { type APIRequestContext, expect, type Page } from '@playwright/test';
import { type ParsedMail, simpleParser } from 'mailparser';
import { DEMO_ADMIN, E2E_BASE_URL } from './env';

export const naira = (n: number) =>
  new Intl.NumberFormat('en-NG', { style: 'currency', currency: 'NGN' }).format(n);
export const count = (n: number) => new Intl.NumberFormat('en-NG').format(n);

/**
 * Signs in through the sign-in screen, as a person would, and waits for the dashboard (partner
 * staff land on their own partner's page instead, issue 16).
 */
export async function signIn(page: Page, creds: { email: string; password: string } = DEMO_ADMIN) {
  await page.goto('/');
  await page.getByPlaceholder('Enter your email').fill(creds.email);
  await page.getByPlaceholder('Enter your password').fill(creds.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/dashboard(\/partners\/\d+)?$/);
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

/**
 * The newest mail to `to` in a server's file mailbox, parsed as a mail client reads it (its text and
 * HTML parts decoded), waiting for the outbox to deliver it.
 */
export async function latestMail(dataDir: string, to: string, timeoutMs = 15_000): Promise<ParsedMail> {
  const dir = `${dataDir}/mail`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.eml')) : [];
    for (const file of files.sort().reverse()) {
      const raw = readFileSync(`${dir}/${file}`, 'utf8');
      if (raw.toLowerCase().includes(`to: ${to.toLowerCase()}`)) return simpleParser(raw);
    }
    if (Date.now() > deadline) throw new Error(`no mail to ${to} in ${dir}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** How many mails to `to` a server's file mailbox holds so far (the outbox delivers after the response). */
export function mailsTo(dataDir: string, to: string): number {
  const dir = `${dataDir}/mail`;
  if (!existsSync(dir)) return 0;
  return readdirSync(dir)
    .filter((f) => f.endsWith('.eml'))
    .filter((f) => readFileSync(`${dir}/${f}`, 'utf8').toLowerCase().includes(to.toLowerCase())).length;
}

/**
 * The first of `candidates` whose customer account is ACTIVE, with the customer's email (read with
 * a club token). Tests pick data by what they need, never by position: the seed is relative to
 * today, so 'the first eligible customer' or 'the first active gift card' may belong to a blocked
 * customer on another day (issue 16, defect 11).
 */
export async function firstOfActiveCustomer<T>(
  request: APIRequestContext,
  token: string,
  candidates: readonly T[],
  customerIdOf: (candidate: T) => number,
): Promise<{ candidate: T; email: string } | undefined> {
  const seen = new Set<number>();
  for (const candidate of candidates) {
    const id = customerIdOf(candidate);
    if (seen.has(id)) continue;
    seen.add(id);
    const res = await request.get(`${E2E_BASE_URL}/api/v1/admin/user/customers/${id}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.ok(), `customer ${id}: ${res.status()}`).toBe(true);
    const customer = (await res.json()).data as { email: string; accountStatus: string };
    if (customer.accountStatus === 'ACTIVE') return { candidate, email: customer.email };
  }
  return undefined;
}

/** The code of a consent-link mail (issue 28): "Your link code is: 123456". */
export const LINK_CODE_PATTERN = /link code is: (\d{6})/;

/**
 * Links a customer to a partner the way a partner does it (decision 053): asks for the link by the
 * customer's whole email (`headers` are the partner's: a staff token or an API key; club staff add
 * `partnerId`), reads the code mailed to the customer from the server's mailbox and confirms it.
 */
export async function linkCustomerByMail(
  request: APIRequestContext,
  o: {
    headers: Record<string, string>;
    dataDir: string;
    email: string;
    partnerId?: number;
    baseUrl?: string;
  },
): Promise<void> {
  const base = `${o.baseUrl ?? ''}/api/v1`;
  const before = mailsTo(o.dataDir, o.email);
  const asked = await request.post(`${base}/partners/customer-links`, {
    headers: o.headers,
    data: { email: o.email, ...(o.partnerId === undefined ? {} : { partnerId: o.partnerId }) },
  });
  expect(asked.status(), await asked.text()).toBe(201);
  const { id } = (await asked.json()).data as { id: number };
  await expect
    .poll(() => mailsTo(o.dataDir, o.email), { message: 'the link code mail' })
    .toBeGreaterThan(before);
  const code = await latestMailedCode(o.dataDir, o.email, LINK_CODE_PATTERN);
  const confirmed = await request.post(`${base}/partners/customer-links/${id}/confirm`, {
    headers: o.headers,
    data: { code },
  });
  expect(confirmed.status(), await confirmed.text()).toBe(200);
}
