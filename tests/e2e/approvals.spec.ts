import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { adminToken, apiCall, freshPartner, isServable, PNG } from './support/admin-api';
import { DEMO_ADMIN, E2E_BASE_URL, MAIN_DATA_DIR } from './support/env';
import { latestMail, naira, signIn } from './support/fixtures';
import { layoutProblems, settled } from './support/layout-check';

/**
 * Issue 35, four eyes in the console (docs/decisions/074), at a phone's width and a desktop's: a
 * gift card above the club's single-reward threshold waits; the approvers are mailed a link to the
 * Approvals screen; there the Super Admin sees the maker and the figures, approves one (it is issued)
 * and rejects another with a reason (the maker reads it); the maker, who lacks `rewards.approve`,
 * has no Approvals entry; the Super Admin sets the thresholds and the expiry days on their screen.
 */

const API = `${E2E_BASE_URL}/api/v1`;
const stampOf = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;

/** A club staff member of the test's own, with a role of exactly these permissions. */
async function staffWith(request: APIRequestContext, token: string, tag: string, permissions: string[]) {
  const stamp = stampOf();
  const catalogue = await apiCall<{ id: number; name: string }[]>(request, token, 'GET', '/authz');
  const role = await apiCall<{ id: number }>(request, token, 'POST', '/admin/user/create-role', {
    roleName: `${tag} ${stamp}`,
    permissionIds: catalogue.filter((p) => permissions.includes(p.name)).map((p) => p.id),
  });
  const person = {
    email: `${tag.toLowerCase()}.${stamp}@rewardclub.ng`,
    password: `Desk#${stamp}2026`,
    name: `Mira ${tag}${stamp}`,
  };
  const created = await apiCall<{ id: number }>(request, token, 'POST', '/admin/user/new-admin-user', {
    firstName: 'Mira',
    lastName: `${tag}${stamp}`,
    email: person.email,
    roleId: role.id,
  });
  await apiCall(request, token, 'PATCH', '/admin/user/update-admin-user', {
    userId: created.id,
    password: person.password,
  });
  return person;
}

async function setSettings(request: APIRequestContext, token: string, body: Record<string, unknown>) {
  const res = await request.put(`${API}/admin/settings/approvals`, {
    headers: { authorization: `Bearer ${token}` },
    data: body,
  });
  expect(res.ok(), await res.text()).toBe(true);
}

/** The maker issues a gift card through the API, as a till or a script would; above the threshold: 202. */
async function askFor(request: APIRequestContext, token: string, body: Record<string, unknown>) {
  const res = await request.post(`${API}/partners/rewards/issue-reward`, {
    headers: { authorization: `Bearer ${token}`, 'Idempotency-Key': `e2e-approvals-${stampOf()}` },
    data: body,
  });
  expect(res.status(), await res.text()).toBe(202);
  return (await res.json()).data as { id: number; state: string };
}

async function openMenuEntry(page: Page, phone: boolean, name: string) {
  if (phone) {
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('dialog', { name: 'Reward Club' }).getByRole('link', { name, exact: true }).click();
  } else {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click();
  }
}

async function menuHas(page: Page, phone: boolean, name: string): Promise<boolean> {
  if (!phone)
    return (
      (await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name, exact: true })
        .count()) > 0
    );
  await page.getByRole('button', { name: 'Open menu' }).click();
  const drawer = page.getByRole('dialog', { name: 'Reward Club' });
  const has = (await drawer.getByRole('link', { name, exact: true }).count()) > 0;
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();
  return has;
}

async function expectLaidOut(page: Page, where: string) {
  await settled(page);
  expect(await layoutProblems(page), where).toEqual([]);
}

for (const width of [375, 1440]) {
  const phone = width < 768;

  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: phone ? 812 : 900 } });
    test.describe.configure({ timeout: 240_000 });

    test('a big gift card waits; the approver is mailed, approves one and rejects one with a reason; the maker has no queue', async ({
      page,
      request,
      browser,
    }) => {
      const token = await adminToken(request);
      const partner = await freshPartner(request, token, 'Four Eyes', 'foureyes');
      const customers = await apiCall<{
        records: { id: number; accountStatus?: string; erasedAt?: string | null; email?: string | null }[];
      }>(request, token, 'GET', '/admin/user/customers?status=ACTIVE&pageSize=50');
      const customer = customers.records.find(isServable)!;
      const maker = await staffWith(request, token, 'Maker', [
        'rewards.issue',
        'partners.view',
        'dashboard.view',
      ]);
      await setSettings(request, token, { campaignTotalAbove: null, singleRewardAbove: 50_000 });
      try {
        const makerToken = (
          await (
            await request.post(`${API}/admin/auth/login`, {
              data: { email: maker.email, password: maker.password },
            })
          ).json()
        ).data.accessToken as string;
        const reward = (amount: number, title: string) => ({
          rewardType: 'GIFTCARD',
          issuedAmount: amount,
          title,
          description: 'For a big year',
          promotionalImage: PNG,
          issuedTo: customer.id,
          partnerId: partner.id,
        });
        const stamp = stampOf();
        const toApprove = `Approve me ${stamp}`;
        const toReject = `Reject me ${stamp}`;
        await askFor(request, makerToken, reward(60_000, toApprove));
        const rejected = await askFor(request, makerToken, reward(75_000, toReject));

        // The demo admin (a Super Admin holds rewards.approve) is mailed a link to the screen.
        await expect
          .poll(async () => (await latestMail(MAIN_DATA_DIR, DEMO_ADMIN.email)).subject, { timeout: 20_000 })
          .toContain(partner.organizationName);
        const mail = await latestMail(MAIN_DATA_DIR, DEMO_ADMIN.email);
        expect(mail.subject).toContain('Waiting for your approval');
        expect(mail.text).toContain(maker.name);
        expect(mail.text).toContain('/dashboard/approvals');

        // The maker lacks rewards.approve: no Approvals entry (a browser of their own).
        const makerContext = await browser.newContext({ viewport: { width, height: phone ? 812 : 900 } });
        const makerPage = await makerContext.newPage();
        await signIn(makerPage, { email: maker.email, password: maker.password });
        expect(await menuHas(makerPage, phone, 'Approvals')).toBe(false);
        await makerContext.close();

        await signIn(page);
        await openMenuEntry(page, phone, 'Approvals');
        await expect(page).toHaveURL(/\/dashboard\/approvals$/);
        await expect(page.getByRole('heading', { name: 'Approvals', level: 1 })).toBeVisible();
        const approveRow = page.getByRole('row').filter({ hasText: toApprove });
        await expect(approveRow).toContainText(maker.name);
        await expect(approveRow).toContainText(naira(60_000));
        await expect(approveRow).toContainText('Waiting for approval');
        await expectLaidOut(page, 'the queue');

        await approveRow.getByRole('button', { name: `Approve ${toApprove}` }).click();
        const approveDialog = page.getByRole('dialog', { name: 'Approve reward' });
        await expect(approveDialog).toContainText(naira(60_000));
        await expectLaidOut(page, 'the approve dialog');
        await approveDialog.getByRole('button', { name: 'Approve', exact: true }).click();
        await expect(page.getByText('Reward approved and issued')).toBeVisible();
        await expect(page.getByRole('row').filter({ hasText: toApprove })).toHaveCount(0);

        const rejectRow = page.getByRole('row').filter({ hasText: toReject });
        await rejectRow.getByRole('button', { name: `Reject ${toReject}` }).click();
        const rejectDialog = page.getByRole('dialog', { name: 'Reject reward' });
        await rejectDialog.getByRole('button', { name: 'Reject', exact: true }).click();
        await expect(rejectDialog.getByText('Give a reason')).toBeVisible();
        await rejectDialog.getByLabel('Reason').fill('Too generous for one customer');
        await expectLaidOut(page, 'the reject dialog');
        await rejectDialog.getByRole('button', { name: 'Reject', exact: true }).click();
        await expect(page.getByText('Reward request rejected')).toBeVisible();

        await page.getByRole('tab', { name: 'Decided' }).click();
        await expect(page).toHaveURL(/state=decided/);
        await expect(page.getByRole('row').filter({ hasText: toApprove })).toContainText('Approved');
        const decided = page.getByRole('row').filter({ hasText: toReject });
        await expect(decided).toContainText('Rejected');
        await expect(decided).toContainText('Too generous for one customer');
        await expectLaidOut(page, 'the decided tab');

        // The maker reads the state and the reason.
        const seen = await apiCall<{ state: string; rejectionReason: string }>(
          request,
          makerToken,
          'GET',
          `/partners/rewards/requests/${rejected.id}`,
        );
        expect(seen).toMatchObject({ state: 'rejected', rejectionReason: 'Too generous for one customer' });
      } finally {
        await setSettings(request, token, { campaignTotalAbove: null, singleRewardAbove: null });
      }
    });

    test('the Super Admin sets the thresholds and the expiry days', async ({ page, request }) => {
      const token = await adminToken(request);
      try {
        await signIn(page);
        await openMenuEntry(page, phone, 'Approval settings');
        await expect(page).toHaveURL(/\/dashboard\/settings\/approvals$/);
        await expect(page.getByRole('heading', { name: 'Approval settings', level: 1 })).toBeVisible();
        await page.getByLabel('Single reward above (₦)').fill('45000');
        await page.getByLabel('Campaign total above (₦)').fill('');
        await page.getByLabel('Requests expire after (days)').fill('0');
        await page.getByRole('button', { name: 'Save' }).click();
        await expect(page.getByText('Days must be a whole number from 1 to 365')).toBeVisible();
        await page.getByLabel('Requests expire after (days)').fill('5');
        await expectLaidOut(page, 'the settings form');
        await page.getByRole('button', { name: 'Save' }).click();
        await expect(page.getByText('Approval thresholds saved')).toBeVisible();
        const saved = await apiCall<Record<string, unknown>>(
          request,
          token,
          'GET',
          '/admin/settings/approvals',
        );
        expect(saved).toEqual({ campaignTotalAbove: null, singleRewardAbove: 45_000, approvalExpiryDays: 5 });
        await page.reload();
        await expect(page.getByLabel('Requests expire after (days)')).toHaveValue('5');
      } finally {
        await setSettings(request, token, {
          campaignTotalAbove: null,
          singleRewardAbove: null,
          approvalExpiryDays: 7,
        });
      }
    });
  });
}
