import type { AnyMachineSnapshot } from 'xstate';
import { formatNaira } from '../../../contract/money';
import { rewardMessages } from '../../../contract/rewards';
import { TEXTS } from '../../../src/lib/texts';
import type { ReversalContext } from '../../../src/machines/reversal.machine';
import { reversalMachine } from '../../../src/machines/reversal.machine';
import { reversalModel } from '../../model/reversal-model';
import { dialogOf, expect, expectError, type MachineWalk, OTP_MAIL, type WalkContext } from '../walk-kit';
import { rewardsTab } from './redeem.walk';

/**
 * The reversal machine walked in the browser: a gift card of the run's partner with ₦250 redeemed
 * through the real calls (the code read from the customer's mailbox), its history opened on the
 * partner's Rewards tab, Reverse on the redemption. The reverse call is held at the browser's edge
 * until the path says how it ends ('done' goes to the real server). A redemption not reversed by a
 * path is used again by the next one: only a path that reverses it costs a new code.
 */

interface Redeemed {
  rewardId: number;
  code: string;
  entryId: number;
}

/** The run's redemption not yet reversed (paths run one at a time in a lane). */
let kept: Redeemed | null = null;

type Ledger = {
  reward: { balance: number | null };
  entries: {
    id: number;
    kind: string;
    amount: number;
    reversedById: number | null;
    reversesId: number | null;
  }[];
};

/** The gift card each path reverses: issued with ₦5,000, ₦250 redeemed (so ₦4,750 before the reversal). */
const ISSUED = 5000;
const REDEEMED = 250;

async function stillReversible(w: WalkContext, r: Redeemed): Promise<boolean> {
  const ledger = await w.api.call<Ledger>('GET', `/partners/rewards/${r.rewardId}/ledger`);
  return ledger.entries.some((e) => e.id === r.entryId && e.reversedById === null);
}

/** A fresh ₦5,000 gift card with ₦250 redeemed: the code is sent, read from the mailbox, redeemed. */
async function redeemFresh(w: WalkContext): Promise<Redeemed> {
  const { id, code } = await w.api.issueReward(w.world, 'GIFTCARD', ISSUED);
  const customer = w.world.customer;
  const seen = await w.mail.seen(customer.email);
  await w.api.call('POST', '/partners/rewards/initiate-reward-redemption-auth', {
    userId: customer.id,
    code,
  });
  const otp = await w.mail.waitFor(customer.email, seen, OTP_MAIL);
  await w.api.call(
    'POST',
    '/partners/rewards/redeem-giftcard',
    { userId: customer.id, code, amountToRedeem: REDEEMED, otp },
    { 'Idempotency-Key': crypto.randomUUID() },
  );
  const ledger = await w.api.call<Ledger>('GET', `/partners/rewards/${id}/ledger`);
  const entry = ledger.entries.find((e) => e.kind === 'REDEEM');
  if (!entry) throw new Error(`no REDEEM entry in the ledger of ${code}`);
  return { rewardId: id, code, entryId: entry.id };
}

const reasonBox = (w: WalkContext) => dialogOf(w.page).getByLabel('Reason');

export const walk: MachineWalk = {
  file: 'reversal',
  machine: reversalMachine,
  model: reversalModel,
  effects: {
    reverseRedemption: { method: 'POST', path: /\/partners\/rewards\/reverse-redemption$/ },
  },
  // The customer's mailbox is the otp and redeem walks' one: the same lane, one path at a time.
  lane: 0,
  begin: async (w, path) => {
    if (!kept || !(await stillReversible(w, kept))) kept = await redeemFresh(w);
    w.data.code = kept.code;
    w.data.kept = kept;
    await w.page.goto(rewardsTab(w));
    await w.page.getByRole('button', { name: `History of ${kept.code}` }).click();
    const row = w.page
      .getByRole('table', { name: `Ledger of ${kept.code}` })
      .locator(`tr[data-entry-id="${kept.entryId}"]`);
    // The ledger is loaded before the network goes (an offline start opens the dialog offline).
    await expect(row.getByRole('button', { name: 'Reverse' })).toBeVisible();
    if ((path.start.input as { online?: boolean }).online === false) await w.context.setOffline(true);
    await row.getByRole('button', { name: 'Reverse' }).click();
    await expect(dialogOf(w.page)).toHaveAccessibleName('Reverse redemption');
  },
  step: async (w, event) => {
    if (event.type === 'network.offline' || event.type === 'network.online') {
      await w.context.setOffline(event.type === 'network.offline');
      return;
    }
    if (await w.edge.settle(event)) return;
    const dialog = dialogOf(w.page);
    switch (event.type) {
      case 'reversal.reason':
        return reasonBox(w).fill(String(event.text));
      case 'reversal.submit':
        return dialog.getByRole('button', { name: 'Confirm reversal' }).click();
      case 'reversal.cancel':
        return dialog.getByRole('button', { name: 'Cancel' }).click();
      default:
        throw new Error(`no way to do ${event.type} in the browser`);
    }
  },
  check: async (w, s: AnyMachineSnapshot) => {
    const c = s.context as ReversalContext;
    const dialog = dialogOf(w.page);
    switch (String(s.value)) {
      case 'editing':
        await expect(dialog).toHaveAccessibleName('Reverse redemption');
        await expect(reasonBox(w)).toHaveValue(c.reason);
        await expect(reasonBox(w)).toBeEnabled();
        if (c.reasonError) await expect(dialog.getByText(c.reasonError)).toBeVisible();
        if (c.online) await expect(dialog.getByText(TEXTS.reversal.offline)).toHaveCount(0);
        else await expect(dialog.getByText(TEXTS.reversal.offline)).toBeVisible();
        return expectError(dialog, c.error);
      case 'reversing':
        await expect(dialog.getByRole('button', { name: /Reversing|Confirm reversal/ })).toHaveAttribute(
          'aria-busy',
          'true',
        );
        return expect(reasonBox(w)).toBeDisabled();
      case 'done': {
        // Reversed means the amount redeemed is back: on screen, and on the server's ledger.
        const kept = w.data.kept as Redeemed;
        const result = dialog.getByTestId('reversal-result');
        await expect(dialog).toHaveAccessibleName(TEXTS.reversal.done);
        await expect(result).toContainText(c.reason.trim());
        await expect(result).toContainText(`${formatNaira(REDEEMED)} is back on the gift card.`);
        await expect(result).toContainText(
          new RegExp(`Balance restored to\\s*${formatNaira(ISSUED).replace(/[.,]/g, '\\$&')}`),
        );
        const ledger = await w.api.call<Ledger>('GET', `/partners/rewards/${kept.rewardId}/ledger`);
        expect(ledger.reward.balance, 'the balance restored on the server').toBe(ISSUED);
        const reversal = ledger.entries.filter((e) => e.kind === 'REVERSAL');
        expect(reversal.map((e) => [e.amount, e.reversesId])).toEqual([[REDEEMED, kept.entryId]]);
        return expect(ledger.entries.find((e) => e.id === kept.entryId)?.reversedById).toBe(reversal[0]?.id);
      }
      case 'cancelled':
        return expect(dialog).toHaveCount(0);
    }
    throw new Error(`no check for state ${JSON.stringify(s.value)}`);
  },
  // Refused for want of the network, or for the reason: nothing went out.
  after: async (w, s, sentBefore) => {
    const c = s.context as ReversalContext;
    if (c.error === rewardMessages.networkRequired || (s.matches('editing') && c.reasonError && !c.attempt))
      expect(w.edge.sent).toBe(sentBefore);
  },
};
