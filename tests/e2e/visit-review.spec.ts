import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { adminToken, apiCall, freshPartner, isServable } from './support/admin-api';
import { naira, signIn } from './support/fixtures';
import { layoutProblems } from './support/layout-check';

/**
 * Visit review on the console (issue 35, decision 075): a partner's review rules edited on its page,
 * a visit above the threshold waiting in the Visit reviews queue with its reason, rejected with a
 * reason (the dialog asks for one) or approved, the state on the partner's Visits tab, and the
 * eligibility explainer saying what is not counted. At a phone's width and a desktop's, each with a
 * partner of its own; the visits are recorded through the API as a till would.
 */

/** Today in Lagos (UTC+1), the day the explainer reads. */
const lagosToday = () => new Date(Date.now() + 3_600_000).toISOString().slice(0, 10);

async function expectNoLayoutProblems(page: Page) {
  expect(await layoutProblems(page)).toEqual([]);
}

async function servableCustomer(request: APIRequestContext, token: string) {
  const customers = await apiCall<{
    records: { id: number; firstName: string; lastName: string; email: string; erasedAt?: string }[];
  }>(request, token, 'GET', '/admin/user/customers?status=ACTIVE&pageSize=50&pageNumber=1');
  const customer = customers.records.find(isServable);
  expect(customer, 'an active customer with an email address').toBeTruthy();
  return customer!;
}

for (const width of [375, 1440]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: width === 375 ? 812 : 900 } });

    test('rules on the partner page; a flagged visit waits, is rejected with a reason or approved; the partner and the explainer say so', async ({
      page,
      request,
    }) => {
      test.setTimeout(120_000);
      const token = await adminToken(request);
      const partner = await freshPartner(request, token, `Review Grill ${width}`, 'review');
      const customer = await servableCustomer(request, token);
      const name = `${customer.firstName} ${customer.lastName}`;

      // The rules, edited on the partner's page.
      await signIn(page);
      await page.goto(`/dashboard/partners/${partner.id}`);
      const card = page.getByRole('region', { name: 'Visit review rules' });
      await expect(card).toContainText('No threshold');
      await expect(card).toContainText('No limit');
      await card.getByRole('button', { name: 'Edit rules' }).click();
      const dialog = page.getByRole('dialog', { name: 'Edit visit review rules' });
      await dialog.getByLabel('Review visits above (₦)').fill('lots');
      await dialog.getByRole('button', { name: 'Save rules' }).click();
      await expect(dialog.getByText('Enter an amount in naira above 0')).toBeVisible();
      await dialog.getByLabel('Review visits above (₦)').fill('50000');
      await dialog.getByLabel('Most visits per customer per day').fill('3');
      await expectNoLayoutProblems(page);
      await dialog.getByRole('button', { name: 'Save rules' }).click();
      await expect(page.getByText('Review rules saved')).toBeVisible();
      await expect(dialog).toBeHidden();
      await expect(card).toContainText(naira(50_000));
      await expect(card).toContainText('At most 3');
      const saved = await apiCall<{ reviewRules: unknown }>(
        request,
        token,
        'GET',
        `/admin/partners/${partner.id}`,
      );
      expect(saved.reviewRules).toEqual({ amountAbove: 50_000, requireReceipt: false, maxVisitsPerDay: 3 });

      // Three visits as a till records them: two above the threshold wait, one counts.
      const visitAt = new Date(Date.now() - 60_000).toISOString();
      const record = (price: number) =>
        apiCall<{ id: number; review: { state: string } }>(request, token, 'POST', '/user/visits', {
          partnerId: partner.id,
          customerId: customer.id,
          attendantName: 'Till 1',
          visitDate: visitAt,
          items: [{ name: 'Party jollof', quantity: 1, price }],
        });
      const toReject = await record(70_000);
      const toApprove = await record(60_000);
      const counted = await record(1_000);
      expect([toReject.review.state, toApprove.review.state, counted.review.state]).toEqual([
        'waiting',
        'waiting',
        'approved',
      ]);

      // The queue, with why each waits.
      if (width === 1440) {
        await page.goto('/dashboard');
        await page.getByRole('link', { name: 'Visit reviews' }).click();
        await expect(page).toHaveURL(/\/dashboard\/visit-reviews/);
      }
      await page.goto(`/dashboard/visit-reviews?partner=${partner.id}`);
      const table = page.getByRole('table', { name: 'Flagged visits' });
      const rows = table.getByRole('row').filter({ hasText: name });
      await expect(rows).toHaveCount(2);
      await expect(rows.first()).toContainText("Amount above the partner's review threshold");
      await expect(rows.first()).toContainText('Waiting for review');
      await expectNoLayoutProblems(page);

      // Reject: the reason is required.
      await page.getByRole('button', { name: `Reject visit ${toReject.id} of ${name}` }).click();
      const reject = page.getByRole('dialog', { name: 'Reject visit' });
      await expect(reject).toContainText(naira(70_000));
      await reject.getByRole('button', { name: 'Reject visit' }).click();
      await expect(reject.getByText('Give a reason')).toBeVisible();
      await reject.getByLabel('Reason').fill('The receipt belongs to another table');
      await expectNoLayoutProblems(page);
      await reject.getByRole('button', { name: 'Reject visit' }).click();
      await expect(
        page.getByText('Visit rejected: it does not count towards eligibility or points'),
      ).toBeVisible();
      await expect(reject).toBeHidden();
      await expect(rows).toHaveCount(1);

      // Approve the other.
      await page.getByRole('button', { name: `Approve visit ${toApprove.id} of ${name}` }).click();
      await expect(page.getByText('Visit approved: it counts towards eligibility and points')).toBeVisible();
      await expect(rows).toHaveCount(0);

      // The decided tabs.
      await page.getByRole('tab', { name: 'Rejected' }).click();
      await expect(
        table.getByRole('row').filter({ hasText: 'The receipt belongs to another table' }),
      ).toHaveCount(1);
      await page.getByRole('tab', { name: 'Approved' }).click();
      await expect(table.getByRole('row').filter({ hasText: naira(60_000) })).toHaveCount(1);
      await expectNoLayoutProblems(page);

      // The partner's Visits tab: each visit's state, and the reason of the rejection.
      await page.goto(`/dashboard/partners/${partner.id}?activeTab=visits`);
      const visits = page.getByRole('table', { name: 'Visits' });
      await expect(visits.getByRole('row').filter({ hasText: 'Rejected' })).toContainText(
        'The receipt belongs to another table',
      );
      await expect(visits.getByRole('row').filter({ hasText: 'Counted' })).toHaveCount(2);
      await expectNoLayoutProblems(page);

      // The explainer: ₦61,000 counts; the rejected ₦70,000 does not, and it says so.
      await page.goto(
        `/dashboard/eligibility/user/${customer.id}?partnerId=${partner.id}&date=${lagosToday()}`,
      );
      const eligibility = page.getByRole('region', { name: 'Eligibility' });
      await expect(eligibility).toContainText(naira(61_000));
      await expect(eligibility).toContainText(`not counted: 1 visit (${naira(70_000)}) rejected in review`);
      await expect(
        page.getByRole('region', { name: /^Visit on / }).filter({ hasText: 'Rejected' }),
      ).toHaveCount(1);
      await expectNoLayoutProblems(page);
    });
  });
}
