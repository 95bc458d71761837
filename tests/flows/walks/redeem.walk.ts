import type { AnyMachineSnapshot } from 'xstate';
import type { RewardLedger } from '../../../contract/redemption';
import { rewardMessages, rewardServerMessages } from '../../../contract/rewards';
import {
  type RedeemContext,
  redeemAttemptId,
  redeemMachine,
  WENT_THROUGH,
} from '../../../src/machines/redeem.machine';
import type { FlowPath } from '../../model/flow-engine';
import { redeemModel, refusedError } from '../../model/flow-paths';
import {
  dialogOf,
  expect,
  expectError,
  inputOf,
  type MachineWalk,
  OTP_MAIL,
  onOrigin,
  serverSaid,
  setNetwork,
  shownError,
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
  issued?: { code: string; id: number },
) {
  const { code, id } = issued ?? (await w.api.issueReward(w.world, rewardType, ISSUED));
  w.data.code = code;
  w.data.rewardId = id;
  await w.page.goto(rewardsTab(w));
  // The path's first page of the SPA: on a busy shared machine its load can pass 10 s.
  await expect(w.page.getByRole('button', { name: `Redeem ${code}` })).toBeVisible({ timeout: 30_000 });
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
  const { code, id } = await w.api.issueReward(w.world, rewardType, ISSUED);
  let otp = '000000';
  const refused = path.steps.some((s) => s.event.type === 'xstate.error.actor.redeemReward');
  if (refused || path.steps.some((s) => s.event.type === 'xstate.done.actor.redeemReward')) {
    const seen = await w.mail.seen(w.world.customer.email);
    await w.api.call('POST', '/partners/rewards/initiate-reward-redemption-auth', {
      userId: w.world.customer.id,
      code,
    });
    otp = await w.mail.waitFor(w.world.customer.email, seen, OTP_MAIL);
    w.data.otp = otp;
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
  return { code, id };
}

/** What each reward of the walk is issued with (a gift card's ₦5,000). */
const ISSUED = 5000;

/** The path's steps after the one being done. */
const rest = (w: WalkContext) => (w.data.path as FlowPath).steps.slice(Number(w.data.i));

/**
 * The amount the path redeems from the gift card, from the path's own steps (the product's rule:
 * the amount typed in the Redeem modal, or the amount of the attempt that got no answer), never
 * from the machine's context: a gift card redeemed with no amount typed is a failure.
 */
function typedAmount(w: WalkContext): number {
  const path = w.data.path as FlowPath;
  const done = path.steps.slice(0, Number(w.data.i));
  let amount: number | null = inputOf<RedeemStart>(path).openAttempt?.amountToRedeem ?? null;
  for (const step of done) {
    const text = (step.event as { text?: string }).text;
    if (step.event.type === 'redeem.amount' && /^\d+(\.\d{1,2})?$/.test(String(text)) && Number(text) > 0)
      amount = Number(text);
  }
  if (amount === null) throw new Error('a gift card was redeemed with no amount typed in the Redeem modal');
  return amount;
}

/**
 * The server refuses the redemption, for real: a gift card's request goes with an amount over its
 * balance (the server keeps the code for a corrected amount); a coupon's code is used from outside
 * first (through the API) when the path does not redeem it later, or the request goes with a wrong
 * code otherwise (the code stays good for the next try).
 */
async function refuseAtServer(w: WalkContext, rewardType: 'GIFTCARD' | 'COUPON') {
  if (rewardType === 'GIFTCARD') {
    const ledger = await w.api.call<RewardLedger>('GET', `/partners/rewards/${w.data.rewardId}/ledger`);
    const over = Number(ledger.reward.balance) + 1;
    await w.edge.passEdited('redeemReward', (body) => ({ ...body, amountToRedeem: over }));
  } else if (!rest(w).some((s) => s.event.type === 'xstate.done.actor.redeemReward')) {
    await w.api.call(
      'POST',
      '/partners/rewards/redeem-coupon',
      { userId: w.world.customer.id, code: w.data.code, otp: w.data.otp },
      { 'Idempotency-Key': crypto.randomUUID() },
    );
    await w.edge.pass('redeemReward');
  } else {
    const otp = String(w.data.otp);
    await w.edge.passEdited('redeemReward', (body) => ({
      ...body,
      otp: `${otp.slice(0, 5)}${(Number(otp[5]) + 1) % 10}`,
    }));
  }
  const answer = await w.edge.answerOf('redeemReward');
  expect(answer?.status, 'the server refuses the redemption').toBeGreaterThanOrEqual(400);
  if (answer) serverSaid(w).set(refusedError.message, answer.message);
}

export const walk: MachineWalk = {
  file: 'redeem',
  machine: redeemMachine,
  model: redeemModel,
  effects: redeemEffects,
  // A gift card and a coupon each redeemed at the server, whichever paths the transitions need.
  goals: (step) =>
    step.event.type === 'xstate.done.actor.redeemReward'
      ? [`${(step.state.context as RedeemContext).reward.rewardType} redeemed at the server`]
      : [],
  begin: async (w, path) => {
    w.data.path = path;
    w.data.i = 0;
    const { reward, openAttempt } = inputOf<RedeemStart>(path);
    const lost = openAttempt
      ? await keepLostAttempt(w, path, reward.rewardType, openAttempt.amountToRedeem)
      : undefined;
    await openFreshReward(w, reward.rewardType, lost);
  },
  step: async (w, event) => {
    w.data.i = Number(w.data.i) + 1;
    if (await setNetwork(w, event)) return;
    if (event.type === 'xstate.error.actor.redeemReward' && event.error === refusedError)
      return refuseAtServer(w, inputOf<RedeemStart>(w.data.path as FlowPath).reward.rewardType);
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
        w.data.otp = code;
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
        if (c.error) await expectError(dialog, shownError(w, c.error));
        else await expect(dialog).toHaveCount(0);
        return;
      case 'sendingCode':
        return expect(dialog.getByRole('status', { name: 'Sending the code' })).toBeVisible();
      case 'sendFailed':
        await expectError(dialog, shownError(w, c.error));
        return expect(dialog.getByRole('button', { name: 'Try again' })).toBeVisible();
      case 'enteringCode':
        return expect(dialog.getByRole('group', { name: 'One-time code' })).toBeVisible();
      case 'enteringAmount':
        await expect(dialog.getByLabel('Amount to redeem')).toHaveValue(c.amountText);
        if (c.amountError) await expect(dialog.getByText(c.amountError)).toBeVisible();
        return expectError(dialog, c.amountError ? null : shownError(w, c.error));
      case 'confirming':
        await expect(dialog.getByText('Redeem this coupon now?')).toBeVisible();
        return expectError(dialog, shownError(w, c.error));
      case 'redeeming':
        return expect(dialog.getByRole('status', { name: 'Redeeming' })).toBeVisible();
      case 'failed':
        await expectError(dialog, shownError(w, c.error));
        return expect(dialog.getByRole('button', { name: 'Back' })).toBeVisible();
      case 'done': {
        // What redeeming means: the product's message for the reward's type on screen, and on the
        // server the amount the path typed taken from the gift card once (its new balance), or the
        // coupon used, read back through the API.
        const path = w.data.path as FlowPath;
        const giftcard = inputOf<RedeemStart>(path).reward.rewardType === 'GIFTCARD';
        // An attempt whose answer was lost (kept from before, or no answer in this path) that went
        // through is reported as such (decision 030), with the type's message otherwise.
        const lost =
          inputOf<RedeemStart>(path).openAttempt !== null ||
          path.steps
            .slice(0, Number(w.data.i))
            .some(
              (st) =>
                st.event.type === 'xstate.error.actor.redeemReward' &&
                (st.event as { error?: unknown }).error !== refusedError,
            );
        const message = giftcard
          ? rewardServerMessages.giftcardRedeemed
          : rewardServerMessages.couponRedeemed;
        await expect(w.page).toHaveURL(/\/dashboard\/rewards$/);
        await expect(dialog).toHaveCount(0);
        await expect(w.page.getByText(lost ? WENT_THROUGH : message)).toBeVisible();
        // The server's own words for the type, whatever the screen says of a lost answer.
        expect((await w.edge.answerOf('redeemReward'))?.message, "the server's message").toBe(message);
        const ledger = await w.api.call<RewardLedger>('GET', `/partners/rewards/${w.data.rewardId}/ledger`);
        const redeemed = ledger.entries.filter((e) => e.kind === 'REDEEM');
        expect(redeemed, 'one redemption on the ledger').toHaveLength(1);
        if (!giftcard) return expect(ledger.reward.status).toBe('Redeemed');
        const amount = typedAmount(w);
        expect(redeemed[0]?.amount, 'the amount redeemed').toBe(-amount);
        return expect(ledger.reward.balance, 'the new balance').toBe(ISSUED - amount);
      }
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
