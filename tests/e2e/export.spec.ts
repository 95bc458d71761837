import { readFileSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import { signIn } from './support/fixtures';

/**
 * CSV export (issue 9): the Export button of a list downloads every row the list's search and sort
 * match (not only the page shown), with progress while it streams in on a slow network, and says it
 * needs the network when offline.
 */

/** The ids of every row the list API gives for a query, page by page, with the signed-in session. */
async function listIds(page: Page, path: string): Promise<string[]> {
  return page.evaluate(async (path) => {
    const { accessToken } = JSON.parse(localStorage.getItem('admin') ?? '{}');
    const ids: string[] = [];
    for (let n = 1; ; n++) {
      const res = await fetch(`/api/v1${path}&pageSize=100&pageNumber=${n}`, {
        headers: { authorization: `Bearer ${accessToken}` },
      });
      const { data } = await res.json();
      ids.push(...data.records.map((r: { id: number }) => String(r.id)));
      if (data.records.length < 100) return ids;
    }
  }, path);
}

async function exportFile(page: Page) {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export CSV' }).click(),
  ]);
  const bytes = readFileSync((await download.path())!);
  return { name: download.suggestedFilename(), bytes, rows: parse(bytes, { bom: true }) as string[][] };
}

test('Export downloads every matching row of the list, with the search and sort applied', async ({
  page,
}) => {
  await signIn(page);
  await page.goto('/dashboard/clients?sortBy=firstName&sortOrder=desc');
  const table = page.getByRole('table', { name: 'Customers' });
  await expect(table.getByRole('row').nth(1)).toBeVisible();

  const all = await exportFile(page);
  expect(all.name).toMatch(/^customers-\d{4}-\d{2}-\d{2}\.csv$/);
  expect([...all.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]); // UTF-8 BOM
  expect(all.rows[0]).toEqual([
    'ID',
    'First name',
    'Last name',
    'Email',
    'Phone',
    'Address',
    'Status',
    'Created',
  ]);
  const want = await listIds(page, '/admin/user/customers?status=ACTIVE&sortBy=firstName&sortOrder=desc');
  expect(want.length).toBeGreaterThan(10); // more than the page on screen
  expect(all.rows.slice(1).map((r) => r[0])).toEqual(want);
  await expect(
    page.getByText(`Exported ${new Intl.NumberFormat('en-NG').format(want.length)} rows`),
  ).toBeVisible();

  // With a search: only the matching rows.
  const term = all.rows[1]![2]!.slice(0, 4);
  await page.getByRole('searchbox', { name: 'Search customers' }).fill(term);
  await expect(page).toHaveURL(new RegExp(`search=${encodeURIComponent(term)}`));
  const searched = await exportFile(page);
  const wantSearched = await listIds(
    page,
    `/admin/user/customers?status=ACTIVE&sortBy=firstName&sortOrder=desc&search=${encodeURIComponent(term)}`,
  );
  expect(searched.rows.slice(1).map((r) => r[0])).toEqual(wantSearched);
  expect(wantSearched.length).toBeLessThan(want.length);
  console.log(
    `[figure] e2e export: ${want.length} customers (${all.bytes.length} bytes), ${wantSearched.length} matching '${term}'`,
  );
});

test('Export shows progress on a slow network and says it needs the network when offline', async ({
  page,
  context,
}) => {
  await signIn(page);
  await page.goto('/dashboard/activities');
  await expect(page.getByRole('table', { name: 'Activity log' }).getByRole('row').nth(1)).toBeVisible();

  // A slow line (about 4 KB/s down): the rows are counted as they arrive.
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 200,
    downloadThroughput: 4 * 1024,
    uploadThroughput: 16 * 1024,
  });
  const downloaded = page.waitForEvent('download', { timeout: 60_000 });
  await page.getByRole('button', { name: 'Export CSV' }).click();
  await expect(page.getByRole('status').filter({ hasText: /Exporting [\d,]+ of [\d,]+ rows/ })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Cancel export' })).toBeVisible();
  const file = await downloaded;
  expect(file.suggestedFilename()).toMatch(/^activities-partner-/);
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });

  // Offline: nothing is sent; the button says why.
  await context.setOffline(true);
  await page.getByRole('button', { name: 'Export CSV' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Export needs the network' })).toBeVisible();
  await context.setOffline(false);
});
