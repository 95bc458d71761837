import { expect, test } from '@playwright/test';
import { reversalMessages } from '../../contract/redemption';
import { rewardMessages } from '../../contract/rewards';
import { naira, signIn } from './support/fixtures';
import { redeemedGiftcard } from './support/redeemed-giftcard';

/**
 * Reversing a redemption from the partner's Rewards tab, as a user holding rewards.reverse (the
 * demo super admin): the reward's history, the confirm dialog with a required reason, offline
 * refusal that sends nothing, then the restored balance and the reversal entry.
 */

const PARTNER = 'Eko Grill House';

test('a redemption is reversed from the reward history: reason required, online only, balance back', async ({
  page,
  context,
  request,
}) => {
  const setup = await redeemedGiftcard(request, PARTNER);
  await signIn(page);
  await page.goto(`/dashboard/partners/${setup.partnerId}?activeTab=rewards`);
  await page.getByRole('button', { name: `History of ${setup.code}` }).click();
  const history = page.getByRole('table', { name: `Ledger of ${setup.code}` });
  await expect(history.getByRole('row').nth(1)).toContainText(`Issued`);
  await expect(history.getByRole('row').nth(1)).toContainText(`+${naira(5000)}`);
  const redeemed = history.getByRole('row').filter({ hasText: 'Redeemed' });
  await expect(redeemed).toContainText(`-${naira(1200)}`);
  await expect(page.getByTestId('ledger-balance')).toHaveText(`Balance ${naira(3800)} · Active`);

  await redeemed.getByRole('button', { name: 'Reverse' }).click();
  const dialog = page.getByRole('dialog', { name: 'Reverse redemption' });
  await expect(dialog).toContainText(`Give back ${naira(1200)}`);

  // The reason is required, with a clear message; nothing is sent meanwhile.
  const sent: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/partners/rewards/reverse-redemption')) sent.push(r.url());
  });
  await dialog.getByRole('button', { name: 'Confirm reversal' }).click();
  await expect(dialog.getByText(reversalMessages.reasonRequired)).toBeVisible();
  await dialog.getByLabel('Reason').fill('ab');
  await dialog.getByRole('button', { name: 'Confirm reversal' }).click();
  await expect(dialog.getByText(reversalMessages.reasonTooShort)).toBeVisible();
  expect(sent).toEqual([]);

  // Offline: it says so and sends nothing at all.
  const offlineRequests: string[] = [];
  let offline = false;
  page.on('request', (r) => {
    if (offline && r.url().includes('/api/v1')) offlineRequests.push(`${r.method()} ${r.url()}`);
  });
  await context.setOffline(true);
  offline = true;
  await dialog.getByLabel('Reason').fill('Customer was charged twice');
  await dialog.getByRole('button', { name: 'Confirm reversal' }).click();
  await expect(dialog.getByRole('alert')).toHaveText(rewardMessages.networkRequired);
  offline = false;
  await context.setOffline(false);
  expect(offlineRequests).toEqual([]);

  // Online: reversed; the restored balance and the reversal entry are shown.
  await dialog.getByRole('button', { name: 'Confirm reversal' }).click();
  const done = page.getByRole('dialog', { name: 'Redemption reversed' });
  await expect(done.getByTestId('reversal-result')).toContainText(`Balance restored to${naira(5000)}`);
  // Said once (the title), not again as the status (issue 32 item 7); the status says what came back.
  await expect(done.getByText('Redemption reversed')).toHaveCount(1);
  await expect(done.getByRole('status')).toHaveText(`${naira(1200)} is back on the gift card.`);
  await expect(done).toContainText('Customer was charged twice');
  await expect(done).toContainText(`+${naira(1200)}`);
  expect(sent).toHaveLength(1);
  await done.getByRole('button', { name: 'Done' }).click();

  // The history now holds the reversal; the redemption is marked and cannot be reversed again.
  const reversal = history.getByRole('row').filter({ hasText: 'Reversal' });
  await expect(reversal).toContainText(`+${naira(1200)}`);
  await expect(reversal).toContainText('Customer was charged twice');
  await expect(redeemed).toContainText('Reversed');
  await expect(redeemed.getByRole('button', { name: 'Reverse' })).toHaveCount(0);
  await expect(page.getByTestId('ledger-balance')).toHaveText(`Balance ${naira(5000)} · Active`);
  // The Rewards table shows the balance back too.
  await expect(
    page
      .getByRole('table', { name: 'Rewards' })
      .getByRole('row')
      .filter({ hasText: naira(5000) })
      .first(),
  ).toBeVisible();
  console.log(`reversal: ${sent.length} reverse call sent (2 refused for the reason, 1 offline: none sent)`);
});
