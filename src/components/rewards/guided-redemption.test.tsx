import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { fromPromise } from 'xstate';
import type { Reward } from '../../../contract/rewards';
import { appDb } from '../../db/app-db';
import { guidedRedemptionMachine } from '../../machines/guided-redemption.machine';
import { otpMachine } from '../../machines/otp.machine';
import { GuidedRedemption } from './guided-redemption';

const reward = {
  id: 11,
  code: 'GC-11',
  rewardType: 'GIFTCARD',
  balance: 5000,
  percentageDiscount: null,
  status: 'Active',
  user: { id: 42, firstName: 'Ngozi', lastName: 'Eze' },
} as Reward;

const machine = guidedRedemptionMachine.provide({
  actors: {
    findCustomers: fromPromise(async () => [
      { id: 42, firstName: 'Ngozi', lastName: 'Eze', email: 'n@mail.ng' },
    ]),
    loadRewards: fromPromise(async () => [reward]),
    sendCode: fromPromise(async () => ({ expiresAt: 'x', sentTo: 'n***@mail.ng' })),
    otp: otpMachine.provide({
      actors: { checkOtp: fromPromise(async () => ({ valid: true as const, attemptsLeft: 4 })) },
    }),
  },
});

afterEach(async () => {
  await appDb.flows.clear();
});

describe('GuidedRedemption', () => {
  it('keeps its step across a reload (unmount and mount), without storing the code', async () => {
    const user = userEvent.setup();
    const first = render(<GuidedRedemption partnerId={3} machine={machine} />);
    await user.type(await screen.findByLabelText('Customer name or email'), 'ngozi');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await user.click(await screen.findByRole('button', { name: 'Choose' }));
    await user.click(await screen.findByRole('button', { name: 'Choose' }));
    await user.click(await screen.findByRole('button', { name: 'Send code' }));
    const group = await screen.findByRole('group', { name: 'One-time code' });
    expect(group).toBeInTheDocument();
    await user.click(screen.getByRole('textbox', { name: 'Digit 1 of 6' }));
    await user.paste('123456');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await user.type(await screen.findByLabelText('Amount to redeem'), '250');
    await waitFor(async () => {
      const stored = await appDb.flows.get('guided-redemption:partner-3');
      expect(stored?.progress).toMatchObject({ step: 'amount', context: { amountText: '250' } });
      expect(JSON.stringify(stored)).not.toContain('123456');
    });
    first.unmount();

    render(<GuidedRedemption partnerId={3} machine={machine} />);
    // Past the code, a reload resumes at the code; the amount is kept.
    expect(await screen.findByRole('group', { name: 'One-time code' })).toBeInTheDocument();
    expect(screen.getByText('4. Enter code')).toHaveAttribute('aria-current', 'step');
    await user.click(screen.getByRole('textbox', { name: 'Digit 1 of 6' }));
    await user.paste('123456');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByLabelText('Amount to redeem')).toHaveValue('250');
  });
});
