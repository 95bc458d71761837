import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fromPromise } from 'xstate';
import type { Reward } from '../../../contract/rewards';
import { envelope, fakeApi, renderInApp } from '../../../tests/setup/render-in-app';
import { setApiClient } from '../../api/client';
import { guidedRedemptionMachine } from '../../machines/guided-redemption.machine';
import { otpMachine } from '../../machines/otp.machine';
import type { RedeemOutcome, RedeemRequest } from '../../machines/redeem.machine';
import { GuidedRedemption } from './guided-redemption';

const STAFF = { permissions: ['rewards.redeem' as const], partnerId: 3 };
const show = async (ui: React.ReactNode) => (await renderInApp(ui, STAFF)).unmount;
beforeEach(() => {
  // The receipt's ledger panel reads the reward's history.
  fakeApi((_m, path) => (path.endsWith('/ledger') ? envelope({ entries: [] }) : undefined));
});

const base = {
  user: { id: 42, firstName: 'Ngozi', lastName: 'Eze' },
  partner: { id: 3, organizationName: 'Eko Grill House' },
  status: 'Active',
  rewardTypeCategory: 'GENERAL',
} as const;
const giftcard = {
  ...base,
  id: 11,
  code: 'GC-11',
  title: 'Weekend treat',
  rewardType: 'GIFTCARD',
  balance: 5000,
  percentageDiscount: null,
} as unknown as Reward;
const coupon = {
  ...base,
  id: 12,
  code: 'CP-12',
  title: 'Lunch deal',
  rewardType: 'COUPON',
  balance: null,
  percentageDiscount: 15,
} as unknown as Reward;

const redeemed: RedeemRequest[] = [];
const machine = (customers = [{ id: 42, firstName: 'Ngozi', lastName: 'Eze', email: 'n***@mail.ng' }]) =>
  guidedRedemptionMachine.provide({
    actors: {
      findCustomers: fromPromise(async () => customers),
      loadRewards: fromPromise(async () => [giftcard, coupon]),
      sendCode: fromPromise(async () => ({ expiresAt: 'x', sentTo: 'n***@mail.ng' })),
      otp: otpMachine.provide({
        actors: { checkOtp: fromPromise(async () => ({ valid: true as const, attemptsLeft: 4 })) },
      }),
      redeemReward: fromPromise(async ({ input }: { input: RedeemRequest }): Promise<RedeemOutcome> => {
        redeemed.push(input);
        const gift = input.rewardType === 'GIFTCARD';
        return {
          message: gift ? 'Gift card redeemed successfully' : 'Coupon redeemed successfully',
          result: {
            rewardId: gift ? 11 : 12,
            ledgerEntryId: 900,
            code: input.code,
            rewardType: input.rewardType,
            amountRedeemed: gift ? (input.amountToRedeem ?? 0) : null,
            balance: gift ? 5000 - (input.amountToRedeem ?? 0) : null,
            status: gift ? 'Active' : 'Redeemed',
            redeemedAt: '2026-03-14T10:05:00.000Z',
          },
        };
      }),
    },
  });

const KEY = 'flow:guided-redemption:partner-3';
afterEach(() => {
  setApiClient(null);
  sessionStorage.clear();
  redeemed.length = 0;
});

const currentStep = () => screen.getByRole('list', { name: 'Steps' }).querySelector('[aria-current="step"]');

async function toCode(user: ReturnType<typeof userEvent.setup>, rewardCode: string) {
  await user.type(await screen.findByLabelText('Customer name or email'), 'ngozi');
  await user.click(screen.getByRole('button', { name: 'Search' }));
  await user.click(await screen.findByRole('button', { name: 'Choose' }));
  const rewards = await screen.findByRole('list', { name: 'Rewards' });
  const item = within(rewards).getByText(rewardCode).closest('li')!;
  await user.click(within(item as HTMLElement).getByRole('button', { name: 'Choose' }));
  await user.click(await screen.findByRole('button', { name: 'Send code' }));
  await user.click(await screen.findByRole('textbox', { name: 'Digit 1 of 6' }));
  await user.paste('123456');
  await user.click(screen.getByRole('button', { name: 'Submit' }));
}

describe('GuidedRedemption', () => {
  it("says 'No customer matches' when the search finds nobody", async () => {
    const user = userEvent.setup();
    await show(<GuidedRedemption partnerId={3} machine={machine([])} />);
    await user.type(await screen.findByLabelText('Customer name or email'), 'zzz nobody');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText("No customer matches 'zzz nobody'")).toBeInTheDocument();
  });

  it('keeps the Amount step and its amount across a reload, in sessionStorage, without the code', async () => {
    const user = userEvent.setup();
    const unmount = await show(<GuidedRedemption partnerId={3} machine={machine()} />);
    await toCode(user, 'GC-11');
    await user.type(await screen.findByLabelText('Amount to redeem'), '250');
    await waitFor(() => {
      const stored = JSON.parse(sessionStorage.getItem(KEY) ?? 'null');
      expect(stored).toMatchObject({ step: 'amount', context: { amountText: '250' } });
    });
    expect(sessionStorage.getItem(KEY)).not.toContain('123456');
    unmount();

    await show(<GuidedRedemption partnerId={3} machine={machine()} />);
    expect(await screen.findByLabelText('Amount to redeem')).toHaveValue('250');
    expect(currentStep()).toHaveTextContent('5. Amount');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(currentStep()).toHaveTextContent('6. Confirm');
    // The code was not kept: Confirm asks for it again, then redeems.
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    await user.click(await screen.findByRole('textbox', { name: 'Digit 1 of 6' }));
    await user.paste('123456');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(
      await screen.findByRole('heading', { name: 'Gift card redeemed successfully' }),
    ).toBeInTheDocument();
    expect(redeemed).toEqual([expect.objectContaining({ otp: '123456', amountToRedeem: 250 })]);
  });

  it('keeps the Confirm step across a reload', async () => {
    const user = userEvent.setup();
    const unmount = await show(<GuidedRedemption partnerId={3} machine={machine()} />);
    await toCode(user, 'CP-12');
    expect(await screen.findByRole('button', { name: 'Confirm' })).toBeInTheDocument();
    unmount();
    await show(<GuidedRedemption partnerId={3} machine={machine()} />);
    expect(await screen.findByRole('button', { name: 'Confirm' })).toBeInTheDocument();
    expect(currentStep()).toHaveTextContent('6. Confirm');
  });

  it("shows a coupon's discount before Confirm, and a receipt naming partner, customer, reward, amount, balance, time and reference", async () => {
    const user = userEvent.setup();
    await show(<GuidedRedemption partnerId={3} machine={machine()} />);
    await toCode(user, 'CP-12');
    const check = screen.getByLabelText('Redemption');
    expect(check).toHaveTextContent('Discount15% off');
    expect(check).toHaveTextContent('CustomerNgozi Eze');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    await screen.findByRole('heading', { name: 'Coupon redeemed successfully' });
    const receipt = screen.getByLabelText('Receipt');
    for (const text of [
      'PartnerEko Grill House',
      'CustomerNgozi Eze',
      'RewardLunch deal (CP-12), coupon',
      'Discount15% off',
      'Balance leftNone (single use)',
      'TimeMarch 14, 2026',
      'ReferenceRC-12-900',
    ])
      expect(receipt).toHaveTextContent(text);
    expect(screen.getByRole('button', { name: 'Print receipt' })).toBeInTheDocument();
  });
});
