import type { AnyMachineSnapshot } from 'xstate';
import { rewardMessages } from '../../../contract/rewards';
import { type RedeemContext, redeemAttemptId, redeemMachine } from '../../../src/machines/redeem.machine';
import type { FlowPath } from '../../model/flow-engine';
import { redeemModel } from '../../model/flow-paths';
import {
  dialogOf,
  expect,
  expectError,
  inputOf,
  type MachineWalk,
  OTP_MAIL,
  onOrigin,
  setNetwork,
  typeCode,
  type WalkContext,
} from '../walk-kit';

/**
 * The redeem machine walked in the browser: a fresh reward of the path's type at the run's partner,
 * its Redeem button on the partner's Rewards tab, the code the server mails the customer read from
 * the mailbox and typed in the OTP modal. Sending the code and redeeming are held at the browser's
 * edge until the path says how they end.
 */

export const redeemEffects = {
  sendCode: { method: 'POST', path: /\/partners\/rewards\/initiate-reward-redemption-auth$/ },
  redeemReward: { method: 'POST', path: /\/partners\/rewards\/redeem-(giftcard|coupon)$/ },
};

type RedeemStart = {
  reward: { rewardType: 'GIFTCARD' | 'COUPON' };
  openAttempt: { amountToRedeem?: number } | null;
};

export const rewardsTab = (w: WalkContext) => `/dashboard/partners/${w.world.partner.id}?activeTab=rewards`;

/** Opens the partner's Rewards tab on a fresh reward of the type; returns its code. */
export async function openFreshReward(
  w: WalkContext,
  rewardType: 'GIFTCARD' | 'COUPON',
  issued?: { code: string },
) {
  const { code } = issued ?? (await w.api.issueReward(w.world, rewardType));
  w.data.code = code;
  await w.page.goto(rewardsTab(w));
  await expect(w.page.getByRole('button', { name: `Redeem ${code}` })).toBeVisible();
  return code;
}

/**
 * The model's third start, a redemption whose answer was lost (decision 030): this browser keeps
 * the open attempt of a fresh reward (its request and Idempotency-Key, in localStorage as the SPA
 * writes it) before the page opens, so Redeem sends that attempt first. When the path has the
 * server redeem it, the attempt carries a real code (sent through the API, read from the mailbox);
 * otherwise the server never sees it (its answers are the model's, given at the edge).
 */
async function keepLostAttempt(
  w: WalkContext,
  path: FlowPath,
  rewardType: 'GIFTCARD' | 'COUPON',
  amountToRedeem: number | undefined,
) {
  const { code } = await w.api.issueReward(w.world, rewardType);
  let otp = '000000';
  if (path.steps.some((s) => s.event.type === 'xstate.done.actor.redeemReward')) {
    const seen = await w.mail.seen(w.world.customer.email);
    await w.api.call('POST', '/partners/rewards/initiate-reward-redemption-auth', {
      userId: w.world.customer.id,
      code,
    });
    otp = await w.mail.waitFor(w.world.customer.email, seen, OTP_MAIL);
  }
  const request = {
    rewardType,
    userId: w.world.customer.id,
    code,
    otp,
    ...(rewardType === 'GIFTCARD' ? { amountToRedeem } : {}),
    idempotencyKey: crypto.randomUUID(),
  };
  // Before the first page of the path loads (the Redeem row reads it as it mounts).
  await onOrigin(w.context, (page) =>
    page.evaluate(
      ([id, value]) => {
        const all = JSON.parse(localStorage.getItem('money-attempts') ?? '{}') as Record<string, unknown>;
        localStorage.setItem('money-attempts', JSON.stringify({ ...all, [id]: value }));
      },
      [redeemAttemptId({ userId: w.world.customer.id, code }), request] as const,
    ),
  );
  return { code };
}

export const walk: MachineWalk = {
  file: 'redeem',
  machine: redeemMachine,
  model: redeemModel,
  effects: redeemEffects,
  begin: async (w, path) => {
    const { reward, openAttempt } = inputOf<RedeemStart>(path);
    const lost = openAttempt
      ? await keepLostAttempt(w, path, reward.rewardType, openAttempt.amountToRedeem)
      : undefined;
    await openFreshReward(w, reward.rewardType, lost);
  },
  step: async (w, event) => {
    if (await setNetwork(w, event)) return;
    if (await w.edge.settle(event)) return;
    const dialog = dialogOf(w.page);
    switch (event.type) {
      case 'redeem.start':
        w.data.seen = await w.mail.seen(w.world.customer.email);
        if (await dialog.isVisible()) return dialog.getByRole('button', { name: 'Try again' }).click();
        return w.page.getByRole('button', { name: `Redeem ${w.data.code}` }).click();
      case 'redeem.amount':
        return dialog.getByLabel('Amount to redeem').fill(String(event.text));
      case 'redeem.submit':
      case 'redeem.confirm':
        return dialog.getByRole('button', { name: 'Redeem', exact: true }).click();
      case 'redeem.retry':
        return dialog.getByRole('button', { name: 'Try again' }).click();
      case 'redeem.back':
        return dialog.getByRole('button', { name: 'Back' }).click();
      case 'redeem.cancel':
        if (!(await dialog.isVisible())) return; // not started: nothing to close
        if (await dialog.getByRole('group', { name: 'One-time code' }).isVisible())
          return dialog.getByRole('button', { name: 'Close' }).click();
        return dialog.getByRole('button', { name: 'Cancel' }).click();
      case 'xstate.done.actor.otp': {
        // The customer reads the mailed code; the partner types it in the OTP modal.
        await expect(dialog.getByRole('group', { name: 'One-time code' })).toBeVisible();
        const code = await w.mail.waitFor(w.world.customer.email, w.data.seen as Set<string>, OTP_MAIL);
        return typeCode(w.page, code);
      }
      default:
        throw new Error(`no way to do ${event.type} in the browser`);
    }
  },
  check: async (w, s: AnyMachineSnapshot) => {
    const c = s.context as RedeemContext;
    const dialog = dialogOf(w.page);
    switch (String(s.value)) {
      case 'idle':
        if (c.error) await expectError(dialog, c.error);
        else await expect(dialog).toHaveCount(0);
        return;
      case 'sendingCode':
        return expect(dialog.getByRole('status', { name: 'Sending the code' })).toBeVisible();
      case 'sendFailed':
        await expectError(dialog, c.error);
        return expect(dialog.getByRole('button', { name: 'Try again' })).toBeVisible();
      case 'enteringCode':
        return expect(dialog.getByRole('group', { name: 'One-time code' })).toBeVisible();
      case 'enteringAmount':
        await expect(dialog.getByLabel('Amount to redeem')).toHaveValue(c.amountText);
        if (c.amountError) await expect(dialog.getByText(c.amountError)).toBeVisible();
        return expectError(dialog, c.amountError ? null : c.error);
      case 'confirming':
        await expect(dialog.getByText('Redeem this coupon now?')).toBeVisible();
        return expectError(dialog, c.error);
      case 'redeeming':
        return expect(dialog.getByRole('status', { name: 'Redeeming' })).toBeVisible();
      case 'failed':
        await expectError(dialog, c.error);
        return expect(dialog.getByRole('button', { name: 'Back' })).toBeVisible();
      case 'done':
        await expect(w.page.getByText(c.outcome?.message ?? '')).toBeVisible();
        await expect(w.page).toHaveURL(/\/dashboard\/rewards$/);
        return expect(dialog).toHaveCount(0);
      case 'cancelled':
        return expect(dialog).toHaveCount(0);
    }
    throw new Error(`no check for state ${JSON.stringify(s.value)}`);
  },
  // Refused for want of the network: said so, and nothing went out.
  after: async (w, s, sentBefore) => {
    if ((s.context as RedeemContext).error === rewardMessages.networkRequired)
      expect(w.edge.sent).toBe(sentBefore);
  },
};
