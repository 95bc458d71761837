import { readFileSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import { signIn } from './support/fixtures';

/**
 * "Import customers" on the Client list (issue 27, docs/decisions/062): an admin chooses a CSV file
 * (its header in another order, a column the import does not know mapped by hand, another left
 * ignored, one row with a bad email), sees its first rows and how its columns are read, runs a dry
 * run, imports, reloads, and sees the counts the file implies; downloads the rejected rows and reads
 * the bad row's reason; the new customers are in the Client list. At 375 px and 1440 px.
 */

/** A call to the API with the signed-in admin's token (the test's own setup, not the screen's). */
async function putCustomer(page: Page, externalId: string, body: Record<string, string>) {
  const status = await page.evaluate(
    async ({ externalId, body }) => {
      const { accessToken } = JSON.parse(localStorage.getItem('admin') ?? '{}');
      const res = await fetch(`/api/v1/admin/customers/external/${encodeURIComponent(externalId)}`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return res.status;
    },
    { externalId, body },
  );
  expect([200, 201]).toContain(status);
}

const noSidewaysScroll = async (page: Page, width: number) =>
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

/** A count list (<dl aria-label=…>): the number shown for each name. */
async function countsOf(page: Page, label: string) {
  const list = page.getByLabel(label, { exact: true });
  await expect(list).toBeVisible();
  const out: Record<string, string> = {};
  for (const name of ['Created', 'Updated', 'Unchanged', 'Rejected'])
    out[name] =
      (await list
        .locator('div', { has: page.getByText(name, { exact: true }) })
        .locator('dd')
        .textContent()) ?? '';
  return out;
}

for (const width of [375, 1440]) {
  test(`an admin imports customers from a CSV file at ${width} px`, async ({ page }) => {
    test.slow(); // two imports, a reload and a download
    await page.setViewportSize({ width, height: 900 });
    await signIn(page);
    const id = (n: number) => `IMP-${width}-${n}`;
    const email = (n: number) => `imp-${width}-${n}@import.test`;
    // Already in the club: customer 2 under an old surname, customer 4 exactly as the file has it.
    await putCustomer(page, id(2), { firstName: 'Chika', lastName: 'Old', email: email(2) });
    await putCustomer(page, id(4), {
      firstName: 'Garba',
      lastName: 'Sani',
      email: email(4),
      phone: '08031230004',
    });

    // "Email", "externalId", "firstName", "phone" are matched by name; "Surname" is not a field (the
    // admin maps it to lastName); "Tariff" is left ignored.
    const csv =
      'Email,Surname,externalId,Tariff,firstName,phone\r\n' +
      `${email(1)},Adebayo,${id(1)},Gold,Tolu,08031230001\r\n` + // row 2: new
      `${email(2)},Nwosu,${id(2)},Silver,Chika,\r\n` + // row 3: a new surname
      `not-an-email,Bello,${id(3)},Gold,Musa,\r\n` + // row 4: a bad email
      `${email(4)},Sani,${id(4)},Gold,Garba,08031230004\r\n`; // row 5: as the club has it
    // Worked by hand: 4 rows; 1 created (row 2), 1 updated (row 3), 1 unchanged (row 5), 1 rejected (row 4).
    const expected = { Created: '1', Updated: '1', Unchanged: '1', Rejected: '1' };

    await page.goto('/dashboard/clients');
    await page.getByRole('button', { name: 'Import customers' }).click();
    await expect(page).toHaveURL(/\/dashboard\/clients\/import$/);
    await page.getByLabel('CSV file').setInputFiles({
      name: `subscribers-${width}.csv`,
      mimeType: 'text/csv',
      buffer: Buffer.from(csv, 'utf8'),
    });

    // The preview: the first rows as the file has them, and how each column is read.
    const rows = page.getByRole('table', { name: 'First rows of the file' });
    await expect(rows.getByRole('columnheader')).toHaveText([
      'Email',
      'Surname',
      'externalId',
      'Tariff',
      'firstName',
      'phone',
    ]);
    await expect(rows.getByRole('row')).toHaveCount(5);
    await expect(rows.getByRole('row').nth(3)).toContainText('not-an-email');
    await expect(page.getByText('No column holds lastName')).toBeVisible();
    await page.getByLabel('Column “Surname”').selectOption('lastName');
    await expect(page.getByText('No column holds lastName')).toHaveCount(0);
    await expect(page.getByLabel('Column “Tariff”')).toHaveValue('');
    await noSidewaysScroll(page, width);

    // The dry run: the counts, the bad row, and nothing applied.
    await page.getByRole('button', { name: 'Dry run' }).click();
    await expect(page.getByText('Dry run: nothing was changed')).toBeVisible();
    expect(await countsOf(page, 'Dry run counts')).toEqual(expected);
    await expect(page.getByRole('list', { name: 'Rejected rows' })).toHaveText(
      `Row 4 (${id(3)}): email: pls provide a valid email`,
    );
    await noSidewaysScroll(page, width);
    const lookup = (q: string) =>
      page.evaluate(async (q) => {
        const { accessToken } = JSON.parse(localStorage.getItem('admin') ?? '{}');
        const res = await fetch(`/api/v1/admin/user/customers?search=${encodeURIComponent(q)}`, {
          headers: { authorization: `Bearer ${accessToken}` },
        });
        return ((await res.json()).data.records as { lastName: string }[]).map((r) => r.lastName);
      }, q);
    expect(await lookup(email(1))).toEqual([]);
    expect(await lookup(email(2))).toEqual(['Old']);

    // The import: its job goes into the URL, so a reload keeps the progress and the counts.
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await expect(page).toHaveURL(/\/dashboard\/clients\/import\?job=\d+$/);
    await expect(page.getByRole('progressbar', { name: 'Import progress' })).toBeVisible();
    await page.reload();
    await expect(page.getByText(`Import finished: subscribers-${width}.csv`)).toBeVisible();
    await expect(page.getByRole('progressbar', { name: 'Import progress' })).toHaveAttribute(
      'aria-valuenow',
      '100',
    );
    expect(await countsOf(page, 'Import counts')).toEqual(expected);
    await expect(page.getByText('4 of 4 rows')).toBeVisible();
    await noSidewaysScroll(page, width);

    // The rejected rows, as a file: the bad row with its reason.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download rejected rows' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^import-\d+-rejects\.csv$/);
    const rejects = parse(readFileSync((await download.path())!), { bom: true }) as string[][];
    expect(rejects[0]).toEqual(['row', 'externalId', 'reason', 'row as sent']);
    expect(rejects.slice(1).map((r) => r.slice(0, 3))).toEqual([
      ['4', id(3), 'email: pls provide a valid email'],
    ]);

    // The customers are in the Client list.
    await page.goto(`/dashboard/clients?search=${encodeURIComponent(`imp-${width}-`)}`);
    const list = page.getByRole('table', { name: 'Customers' });
    await expect(list.getByRole('link', { name: 'Tolu Adebayo' })).toBeVisible({ timeout: 30_000 });
    await expect(list.getByRole('link', { name: 'Chika Nwosu' })).toBeVisible();
    await expect(list.getByRole('link', { name: 'Garba Sani' })).toBeVisible();
    await expect(list.getByText('Musa Bello')).toHaveCount(0);
    await noSidewaysScroll(page, width);
  });
}
