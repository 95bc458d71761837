import { expect, test } from '@playwright/test';
import { E2E_BASE_URL } from './support/env';

type Doc = {
  paths: Record<string, Record<string, unknown>>;
  webhooks?: Record<string, Record<string, unknown>>;
};

test('the API reference page lists every endpoint, from this server alone, under a strict CSP', async ({
  page,
}) => {
  const origin = new URL(E2E_BASE_URL).origin;
  const requests: string[] = [];
  const problems: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('response', (r) => {
    if (r.status() >= 400) problems.push(`${r.status()} ${r.url()}`);
  });

  const doc = (await (await page.request.get('/api/v1/openapi.json')).json()) as Doc;
  const expected = Object.entries(doc.paths)
    .flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`))
    .sort();

  const started = Date.now();
  const res = await page.goto('/api/docs');
  expect(res?.status()).toBe(200);
  // Scripts only from this server: the page works with no inline script at all.
  const scriptSrc = res
    ?.headers()
    ['content-security-policy']?.split(';')
    .find((d) => d.trim().startsWith('script-src'));
  expect(scriptSrc?.trim()).toBe("script-src 'self'");
  await expect(page.getByRole('heading', { name: /Reward Club Admin API/ })).toBeVisible();
  // The endpoints; the webhook messages (OpenAPI 3.1 `webhooks`) are drawn in a section of their own.
  const blocks = page.locator('.opblock:not(.webhooks .opblock)');
  await expect(blocks).toHaveCount(expected.length);
  const webhookOperations = Object.values(doc.webhooks ?? {}).flatMap((item) => Object.keys(item));
  expect(webhookOperations.length).toBeGreaterThan(0);
  await expect(page.locator('.webhooks .opblock')).toHaveCount(webhookOperations.length);
  const listed = await blocks.evaluateAll((els) =>
    els.map(
      (el) =>
        `${el.querySelector('.opblock-summary-method')?.textContent?.trim()} ${el
          .querySelector('.opblock-summary-path')
          ?.getAttribute('data-path')}`,
    ),
  );
  expect(listed.sort()).toEqual(expected);
  const shownMs = Date.now() - started;

  // 'Try it out' reaches this server's API from the page (connect-src 'self').
  const health = page.locator('#operations-System-getHealth');
  await health.locator('.opblock-summary').click();
  await health.getByRole('button', { name: 'Try it out' }).click();
  await health.getByRole('button', { name: 'Execute' }).click();
  await expect(health.locator('.live-responses-table tbody .response-col_status')).toHaveText('200');

  const foreign = requests.filter((u) => !u.startsWith(`${origin}/`) && !u.startsWith('data:'));
  console.log(
    `[figure] api reference: ${listed.length} endpoints listed in ${shownMs} ms, ${requests.length} requests, ${foreign.length} to other hosts, ${problems.length} console errors`,
  );
  expect(foreign).toEqual([]);
  expect(problems).toEqual([]);
});
