import { expect, type Page, type Response, test } from '@playwright/test';
import type { Envelope } from '../../contract/envelope';
import type { RewardActivity } from '../../contract/reward-activity';
import { count, naira, signIn } from './support/fixtures';

/**
 * Issue 9, scope 3: the weekly reward charts on the dashboard home and the partner Analytics tab, on
 * the demo data (rewards dated over the last 17 weeks relative to now). The screen is held against
 * the server's own answer: the visually hidden table (what a screen reader reads) carries every
 * figure of the 12 weeks, the outstanding gift-card balance is shown, the canvas is drawn, it fits a
 * 375 px wide screen, and with the network off a reload draws the charts from the saved data.
 */

const TABLE = 'Rewards issued and redeemed per week, oldest first';

const activityOf = async (response: Response): Promise<RewardActivity> =>
  ((await response.json()) as Envelope<RewardActivity>).data as RewardActivity;

const waitForActivity = (page: Page, path: string) =>
  page.waitForResponse((r) => new URL(r.url()).pathname === `/api/v1/admin/partners/stats/${path}` && r.ok());

/** The hidden table's rows, as text, against the figures of the answer. */
async function expectTableToMatch(page: Page, activity: RewardActivity) {
  const table = page.getByRole('table', { name: TABLE });
  await expect(table.getByRole('row')).toHaveCount(13);
  const rows = await table.getByRole('row').allInnerTexts();
  const expected = activity.weeks.map((w) => {
    const [y, m, d] = w.weekStart.split('-').map(Number) as [number, number, number];
    const week = new Date(y, m - 1, d).toLocaleDateString('en-US', {
      month: 'long',
      day: 'numeric',
      year: 'numeric',
    });
    return [
      `Week of ${week}`,
      count(w.issuedCount),
      naira(w.issuedAmount),
      count(w.redeemedCount),
      naira(w.redeemedAmount),
    ].join('\t');
  });
  expect(rows.slice(1).map((r) => r.replace(/\s*\t\s*/g, '\t').trim())).toEqual(expected);
}

/** uPlot drew its canvas, at most as wide as the screen, inside the figure. */
async function expectDrawn(page: Page, figureName: string, maxWidth: number) {
  const figure = page.getByRole('figure', { name: figureName });
  await expect(figure).toBeVisible();
  const canvas = figure.locator('canvas');
  await expect(canvas).toBeVisible();
  const box = await canvas.boundingBox();
  expect(box?.width ?? 0).toBeGreaterThan(200);
  expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(maxWidth);
}

test('the dashboard and a partner show 12 weeks of rewards and the outstanding balance, at 375 px and offline', async ({
  page,
  context,
}, testInfo) => {
  const started = Date.now();
  const weekly = waitForActivity(page, 'reward/weekly');
  await signIn(page);
  const club = await activityOf(await weekly);
  expect(club.weeks).toHaveLength(12);
  // The demo seed gives most weeks both issued rewards and redemptions.
  expect(club.weeks.filter((w) => w.issuedCount > 0 && w.redeemedCount > 0).length).toBeGreaterThanOrEqual(
    10,
  );

  await expect(page.getByRole('heading', { name: 'Rewards in the last 12 weeks' })).toBeVisible();
  await expect(page.getByRole('group', { name: 'Outstanding Gift-card Balance' })).toContainText(
    naira(club.outstandingGiftcardBalance),
  );
  await expect(page.getByRole('group', { name: 'Gift Cards With a Balance' })).toContainText(
    count(club.outstandingGiftcardCount),
  );
  await expectDrawn(page, 'Rewards issued and redeemed per week', 1280);
  await expectDrawn(page, 'Gift-card value issued and redeemed per week (₦)', 1280);
  await expectTableToMatch(page, club);
  // The figures' description is the sentence of totals.
  const issued = club.weeks.reduce((a, w) => a + w.issuedCount, 0);
  await expect(
    page.getByRole('figure', { name: 'Rewards issued and redeemed per week' }),
  ).toHaveAccessibleDescription(new RegExp(`^In the last 12 weeks, ${count(issued)} rewards were issued`));

  // 375 px wide: the charts shrink to the screen, nothing scrolls sideways.
  await page.setViewportSize({ width: 375, height: 812 });
  await expectDrawn(page, 'Rewards issued and redeemed per week', 375);
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await page
    .getByTestId('reward-activity')
    .screenshot({ path: testInfo.outputPath('dashboard-charts-375.png') });
  await page.setViewportSize({ width: 1280, height: 800 });

  // A partner's Analytics tab: the same charts for that partner only.
  await page.goto('/dashboard/partners');
  const first = page
    .getByRole('table', { name: 'Partners' })
    .getByRole('row')
    .nth(1)
    .getByRole('link')
    .first();
  const organization = ((await first.textContent()) ?? '').trim();
  await first.click();
  await expect(page.getByRole('heading', { name: organization })).toBeVisible();
  const partnerWeekly = waitForActivity(page, 'partner/weekly');
  await page.getByRole('tab', { name: 'Analytics' }).click();
  const partner = await activityOf(await partnerWeekly);
  await expect(page.getByRole('group', { name: 'Outstanding Gift-card Balance' })).toContainText(
    naira(partner.outstandingGiftcardBalance),
  );
  const partnerIssued = partner.weeks.reduce((a, w) => a + w.issuedCount, 0);
  expect(partnerIssued).toBeGreaterThan(0);
  expect(partnerIssued).toBeLessThan(issued + 1);
  await expectDrawn(page, 'Rewards issued and redeemed per week', 1280);
  await expectTableToMatch(page, partner);

  // A blocked partner has had no rewards: the empty state, and still its balance (none).
  await page.goto('/dashboard/partners');
  await page.getByRole('tab', { name: 'Blocked Partners' }).click();
  await page
    .getByRole('table', { name: 'Partners' })
    .getByRole('row')
    .nth(1)
    .getByRole('link')
    .first()
    .click();
  await page.getByRole('tab', { name: 'Analytics' }).click();
  await expect(page.getByText('No rewards were issued or redeemed in the last 12 weeks.')).toBeVisible();
  await expect(page.getByRole('group', { name: 'Outstanding Gift-card Balance' })).toContainText(naira(0));
  await expect(page.getByRole('table', { name: TABLE })).toHaveCount(0);

  // Offline: a reload draws the dashboard charts from the saved data (service worker + IndexedDB).
  await page.goto('/dashboard');
  await expectDrawn(page, 'Rewards issued and redeemed per week', 1280);
  await expect
    .poll(() =>
      page.evaluate(async () => {
        const registration = await navigator.serviceWorker.getRegistration();
        return registration?.active?.state === 'activated' && navigator.serviceWorker.controller !== null;
      }),
    )
    .toBe(true);
  await context.setOffline(true);
  try {
    await page.reload();
    await expect(page.getByText(/^You are offline\./)).toBeVisible();
    await expectDrawn(page, 'Rewards issued and redeemed per week', 1280);
    await expectTableToMatch(page, club);
  } finally {
    await context.setOffline(false);
  }
  console.log(
    `[figure] charts e2e: club ${issued} rewards issued over 12 weeks, ` +
      `${club.weeks.filter((w) => w.issuedCount > 0).length}/12 weeks with activity; ` +
      `${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
});
