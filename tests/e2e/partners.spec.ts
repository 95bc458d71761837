import { expect, type Page, test } from '@playwright/test';
import { signIn } from './support/fixtures';

// A real 1×1 PNG, and a text file pretending to be one.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const coverPng = { name: 'cover.png', mimeType: 'image/png', buffer: PNG };
const notAnImage = { name: 'cover.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') };

const partnersTable = (page: Page) => page.getByRole('table', { name: 'Partners' });

async function openPartner(page: Page, organization: string) {
  await page.goto('/dashboard/partners');
  await page.getByRole('searchbox').first().fill(organization);
  await partnersTable(page).getByRole('link', { name: organization }).first().click();
  await expect(page.getByRole('heading', { name: organization })).toBeVisible();
}

test('a partner is added with every rule checked, edited, blocked, unblocked and deleted', async ({
  page,
}) => {
  test.setTimeout(120_000); // the whole life of a partner, one screen after another
  const organization = `Suya Spot ${Date.now().toString(36)}`;
  await signIn(page);
  await page.goto('/dashboard/partners');
  await expect(page.getByRole('group', { name: 'Total Partners', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Add Partner' }).click();
  await expect(page).toHaveURL(/\/dashboard\/partners\/add$/);

  // Defaults and rules of docs/product.md#validation and #constants.
  const minSpend = page.getByLabel('Minimum Spend To Qualify');
  await expect(minSpend).toHaveValue('10000');
  await expect(minSpend).toHaveAttribute('min', '2000');
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Phone number is required')).toBeVisible();
  await expect(page.getByText('You must select at least one extended service')).toBeVisible();
  await page.getByLabel('Cover Image').setInputFiles(notAnImage);
  await expect(page.getByText('Cover image must be an image file')).toBeVisible();

  await page.getByLabel('First Name').fill('Musa');
  await page.getByLabel('Last Name').fill('Danjuma');
  await page.getByLabel('Email', { exact: true }).fill(`musa.${Date.now()}@suyaspot.ng`);
  await page.getByLabel('Phone').fill('123');
  await expect(page.getByText('Phone number cannot be less than 7 digits')).toBeVisible();
  await page.getByLabel('Phone').fill('080312345678');
  await expect(page.getByText('Phone number should not exceed 11 digits')).toBeVisible();
  await page.getByLabel('Phone').fill('08031234567');
  await page.getByLabel('Organization Name').fill(organization);
  await page.getByLabel('Address').fill('12 Allen Avenue, Ikeja, Lagos');
  await page.getByLabel('Cover Image').setInputFiles(coverPng);
  await page
    .getByRole('group', { name: /extended services/i })
    .getByRole('checkbox')
    .first()
    .check();
  await page.getByRole('button', { name: 'Submit' }).click();

  await expect(page).toHaveURL(/\/dashboard\/partners(\?.*)?$/);
  await expect(page.getByText('Partner added successfully')).toBeVisible();

  // Detail: summary with the cover image.
  await openPartner(page, organization);
  await expect(page.getByText('12 Allen Avenue, Ikeja, Lagos')).toBeVisible();
  await expect(page.locator('img[src^="/api/v1/files/"]').first()).toBeVisible();

  // Edit: only what changed is sent; the name shows at once.
  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  await expect(page).toHaveURL(/\/edit$/);
  await page.getByLabel('Address').fill('3 Admiralty Way, Lekki, Lagos');
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Partner added successfully')).toBeVisible();
  await openPartner(page, organization);
  await expect(page.getByText('3 Admiralty Way, Lekki, Lagos')).toBeVisible();

  // Block, find it under Blocked Partners, unblock.
  await page.getByRole('button', { name: 'Block' }).click();
  await expect(page.getByRole('button', { name: 'Unblock' })).toBeVisible();
  await page.goto('/dashboard/partners');
  await page.getByRole('tab', { name: 'Blocked Partners' }).click();
  await page.getByRole('searchbox').first().fill(organization);
  await expect(partnersTable(page).getByRole('link', { name: organization })).toBeVisible();
  await partnersTable(page).getByRole('link', { name: organization }).click();
  await page.getByRole('button', { name: 'Unblock' }).click();
  await expect(page.getByRole('button', { name: 'Block' })).toBeVisible();

  // Delete really deletes, after the spec's question.
  await page.getByRole('button', { name: 'Delete' }).click();
  const dialog = page.getByRole('dialog', { name: 'Confirm Deletion' });
  await expect(dialog).toContainText(
    'Are you sure you want to delete this partner? This action cannot be undone.',
  );
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(page).toHaveURL(/\/dashboard\/partners(\?.*)?$/);
  await page.getByRole('searchbox').first().fill(organization);
  await expect(page.getByText('No results.')).toBeVisible();
});

test('a partner shows its visits, rewards, eligible users and analytics', async ({ page }) => {
  await signIn(page);
  await openPartner(page, 'Eko Grill House');
  await expect(page.getByRole('tab', { name: 'Visits' })).toBeVisible();

  // Visits: rows with naira totals; the visit detail loads by id, also after a reload.
  await page.getByRole('tab', { name: 'Visits' }).click();
  const visits = page.getByRole('table', { name: 'Visits' });
  await expect(visits.getByRole('row').nth(1)).toContainText('₦');
  await visits.getByRole('link').first().click();
  await expect(page).toHaveURL(/\/dashboard\/visits\/\d+$/);
  await expect(page.getByText(/ x ₦/).first()).toBeVisible();
  await page.reload();
  await expect(page.getByText(/ x ₦/).first()).toBeVisible();
  await page.goBack();

  // Rewards: a dash where a coupon has no balance or a gift card has no discount.
  await page.getByRole('tab', { name: 'Rewards' }).click();
  const rewards = page.getByRole('table', { name: 'Rewards' });
  await expect(rewards.getByRole('row').nth(1)).toBeVisible();
  await expect(rewards.getByRole('cell', { name: '-', exact: true }).first()).toBeVisible();

  // Eligible users: today by default, Yes/No, and the points modal.
  await page.getByRole('tab', { name: 'Eligible users' }).click();
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Africa/Lagos' }).format(new Date());
  await expect(page.getByLabel('Date')).toHaveValue(today);
  const eligible = page.getByRole('table', { name: 'Eligible users' });
  await expect(eligible.getByRole('row').nth(1)).toBeVisible();
  await expect(eligible.getByRole('cell', { name: /^(Yes|No)$/ }).first()).toBeVisible();
  await page.getByRole('button', { name: 'By Points Accumulated' }).click();
  const points = page.getByRole('dialog', { name: 'Eligible Users For Reward By Accumulated Points' });
  await expect(points.getByRole('columnheader', { name: 'Total Unclaimed Points' })).toBeVisible();
  await page.keyboard.press('Escape');

  // Analytics: the eleven figures, averages with 2 decimals.
  await page.getByRole('tab', { name: 'Analytics' }).click();
  const analytics = page.getByRole('group').filter({ hasText: /%$/ });
  await expect(analytics.first()).toBeVisible();
  expect(
    await page
      .getByRole('group')
      .filter({ hasText: /\d+\.\d{2}%/ })
      .count(),
  ).toBeGreaterThanOrEqual(4);
});
