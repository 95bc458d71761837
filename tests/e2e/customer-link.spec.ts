import { type APIRequestContext, expect, test } from '@playwright/test';
import { memberNumberOf } from '../../contract/customer-links';
import { isServable } from './support/admin-api';
import { DEMO_ADMIN, E2E_BASE_URL, MAIN_DATA_DIR } from './support/env';
import { LINK_CODE_PATTERN, latestMailedCode, mailsTo, naira, signIn } from './support/fixtures';

/**
 * Consent links at the counter (issue 28, decision 053), at 375 px: a customer new to the partner
 * gives their member number, the cashier sends them a code, types the code the customer reads from
 * their mailbox, and records their first visit. A club admin then sees the link on the client's
 * page and removes it: the partner can no longer act for the customer.
 */

const API = `${E2E_BASE_URL}/api/v1`;
const CASHIER = { email: 'segun.adeyemi@ekogrillhouse.com.ng', password: 'Staff#2026' };
/** An amount no seeded visit has, so the row the test made is found by it. */
const PRICE = 1370;

type Page1<T> = { records: T[] };

async function login(request: APIRequestContext, creds: { email: string; password: string }) {
  const res = await request.post(`${API}/admin/auth/login`, { data: creds });
  expect(res.ok(), `sign-in ${creds.email}: ${res.status()}`).toBe(true);
  return (await res.json()).data as { accessToken: string; user: { partnerId: number | null } };
}

async function apiGet<T>(request: APIRequestContext, token: string, path: string): Promise<T> {
  const res = await request.get(`${API}${path}`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.ok(), `${path}: ${res.status()} ${await res.text()}`).toBe(true);
  return (await res.json()).data as T;
}

test.use({ viewport: { width: 375, height: 812 } });

test('a customer new to the partner is linked by the code from their mailbox, then their first visit is recorded; an admin removes the link', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const admin = (await login(request, DEMO_ADMIN)).accessToken;
  const cashier = await login(request, CASHIER);
  const ownId = cashier.user.partnerId;
  expect(ownId, 'the cashier belongs to a partner').not.toBeNull();
  const own = await apiGet<{ organizationName: string }>(request, admin, `/admin/partners/${ownId}`);

  // An active customer with no link to the cashier's partner, by the admin's view of their links.
  const candidates = await apiGet<
    Page1<{ id: number; firstName: string; lastName: string; email: string; erasedAt?: string }>
  >(request, admin, '/admin/user/customers?status=ACTIVE&pageSize=50');
  let newcomer: (typeof candidates.records)[number] | undefined;
  for (const c of candidates.records.filter(isServable).toReversed()) {
    const links = await apiGet<{ partnerId: number }[]>(
      request,
      admin,
      `/admin/user/customers/${c.id}/links`,
    );
    if (!links.some((l) => l.partnerId === ownId)) {
      newcomer = c;
      break;
    }
  }
  expect(newcomer, `an active customer not linked to ${own.organizationName}`).toBeDefined();
  const customer = newcomer!;
  const name = `${customer.firstName} ${customer.lastName}`;
  const member = memberNumberOf(customer.id);

  // Before the link the partner cannot act for them: one answer, 403 customer_not_linked.
  const visitBody = {
    partnerId: ownId,
    customerId: customer.id,
    attendantName: 'Till',
    visitDate: new Date(Date.now() - 60_000).toISOString(),
    items: [{ name: 'Refused tea', quantity: 1, price: 900 }],
  };
  const refused = await request.post(`${API}/user/visits`, {
    headers: { authorization: `Bearer ${cashier.accessToken}` },
    data: visitBody,
  });
  expect(refused.status()).toBe(403);
  expect((await refused.json()).code).toBe('customer_not_linked');

  // At the counter, on a phone: the customer gives their member number.
  await signIn(page, CASHIER);
  await page.getByRole('button', { name: 'Record visit' }).click();
  const form = page.getByRole('form', { name: 'Record a visit' });
  await form.getByLabel('Find customer (name or email)').fill(member);
  await form.getByRole('button', { name: 'Find' }).click();
  await expect(form.getByRole('status').filter({ hasText: 'No customer matches' })).toHaveText(
    `No customer matches '${member}'`,
  );
  const before = mailsTo(MAIN_DATA_DIR, customer.email);
  await form.getByRole('button', { name: 'Send the customer a code' }).click();
  await expect(form.getByText('If the customer is a member, they were sent a code.')).toBeVisible();
  await expect
    .poll(() => mailsTo(MAIN_DATA_DIR, customer.email), { message: 'the link code mail' })
    .toBeGreaterThan(before);
  const code = await latestMailedCode(MAIN_DATA_DIR, customer.email, LINK_CODE_PATTERN);
  // A wrong code first: refused with the tries left, nothing linked.
  const wrong = code === '000000' ? '111111' : '000000';
  await form.getByLabel('Code from the customer').fill(wrong);
  await form.getByRole('button', { name: 'Link customer' }).click();
  await expect(form.getByRole('alert')).toContainText('The code is not correct. 4 attempts left.');
  await form.getByLabel('Code from the customer').fill(code);
  await form.getByRole('button', { name: 'Link customer' }).click();
  // Linked and chosen: the name, the address masked.
  await expect(form.getByText(name, { exact: true })).toBeVisible();
  await expect(form).not.toContainText(customer.email);
  // Nothing overflows the phone's width.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

  await form.getByLabel('Item 1').fill('First visit tea');
  await form.getByLabel('Price (₦)').fill(String(PRICE));
  await form.getByRole('button', { name: 'Record visit' }).click();
  await expect(page.getByText('Visit recorded successfully')).toBeVisible();
  await expect(
    page
      .getByRole('table', { name: 'Visits' })
      .getByRole('row')
      .filter({ hasText: name })
      .filter({
        hasText: naira(PRICE),
      }),
  ).toHaveCount(1);

  // The club admin sees the link on the client's page and removes it.
  await page.context().clearCookies();
  await page.evaluate(() => localStorage.clear());
  await signIn(page, DEMO_ADMIN);
  await page.goto(`/dashboard/clients/${customer.id}`);
  const links = page.getByRole('list', { name: 'Partner links' });
  const link = links.getByRole('listitem').filter({ hasText: own.organizationName });
  await expect(link).toContainText('linked');
  await link.getByRole('button', { name: `Remove the link to ${own.organizationName}` }).click();
  await page
    .getByRole('dialog', { name: 'Remove link' })
    .getByRole('button', { name: 'Remove link' })
    .click();
  await expect(page.getByText('The link was removed.')).toBeVisible();
  await expect(page.getByRole('listitem').filter({ hasText: own.organizationName })).toHaveCount(0);

  // The partner cannot act for the customer any more.
  const after = await request.post(`${API}/user/visits`, {
    headers: { authorization: `Bearer ${cashier.accessToken}` },
    data: visitBody,
  });
  expect(after.status()).toBe(403);
  expect((await after.json()).code).toBe('customer_not_linked');
});
