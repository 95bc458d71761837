import type { Page } from '@playwright/test';
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { formatNaira } from '../../../contract/money';
import type { RewardLedger } from '../../../contract/redemption';
import { rewardMessages } from '../../../contract/rewards';
import type { GuidedContext, GuidedProgress } from '../../../src/machines/guided-redemption.machine';
import { guidedRedemptionMachine } from '../../../src/machines/guided-redemption.machine';
import type { FlowPath } from '../../model/flow-engine';
import { guidedRedemptionModel } from '../../model/flow-paths';
import {
  expect,
  expectError,
  type MachineWalk,
  OTP_MAIL,
  setNetwork,
  typeCode,
  type WalkContext,
} from '../walk-kit';
import { redeemEffects } from './redeem.walk';

/**
 * The guided redemption (/dashboard/redeem) walked in the browser as the run's partner staff
 * member, for the run's second customer. The model's rewards stand for fresh ones issued per path:
 * 11 a ₦5,000 gift card, 12 a coupon, 13 an already redeemed coupon (its Choose is disabled). 'Reload
 * the page at a step' is done as a user would: the walk goes to that step in the UI first (before
 * the path's steps), then reloads, and the page resumes from what it stored. Searching, loading the
 * rewards, sending the code and redeeming are held at the browser's edge until the path settles them.
 */

type Ids = { giftcard?: string; coupon?: string; redeemed?: string };

/** The guided customer's gift card is issued with ₦5,000. */
const ISSUED = 5000;
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const ids = (w: WalkContext) => w.data.codes as Ids;
const section = (w: WalkContext) => w.page.locator('section[aria-busy]');
const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });

const codeOf = (w: WalkContext, rewardId: number) =>
  rewardId === 11 ? ids(w).giftcard : rewardId === 12 ? ids(w).coupon : ids(w).redeemed;

async function rewardRow(w: WalkContext, rewardId: number) {
  const code = codeOf(w, rewardId);
  if (!code) throw new Error(`the path picks reward ${rewardId}, which was not made`);
  return w.page.getByRole('list', { name: 'Rewards' }).getByRole('listitem').filter({ hasText: code });
}

async function sendCodeClick(w: WalkContext) {
  w.data.seen = await w.mail.seen(w.world.guidedCustomer.email);
  w.data.otp = undefined;
  await button(w.page, 'Send code').click();
}

async function mailedCode(w: WalkContext): Promise<string> {
  w.data.otp ??= await w.mail.waitFor(w.world.guidedCustomer.email, w.data.seen as Set<string>, OTP_MAIL);
  return w.data.otp as string;
}

/** The UI walk to a stored step, with every request let through (before the path starts). */
async function reach(w: WalkContext, step: GuidedProgress['step']) {
  await w.edge.passAll(true);
  const page = w.page;
  await page.getByLabel('Customer name or email').fill(w.world.guidedCustomer.name);
  await button(page, 'Search').click();
  await page
    .getByRole('list', { name: 'Customers' })
    .getByRole('listitem')
    .filter({ hasText: w.world.guidedCustomer.name })
    .getByRole('button', { name: 'Choose' })
    .click();
  await expect(page.getByRole('list', { name: 'Rewards' })).toBeVisible();
  if (step !== 'pickReward') {
    await (await rewardRow(w, 11)).getByRole('button', { name: 'Choose' }).click();
    await expect(button(page, 'Send code')).toBeVisible();
  }
  const past = (steps: GuidedProgress['step'][]) => steps.includes(step);
  if (past(['enterCode', 'amount', 'confirm', 'receipt'])) {
    await sendCodeClick(w);
    await expect(page.getByRole('group', { name: 'One-time code' })).toBeVisible();
  }
  if (past(['amount', 'confirm', 'receipt'])) {
    await typeCode(page, await mailedCode(w));
    await page.getByLabel('Amount to redeem').fill('250');
  }
  if (past(['confirm', 'receipt'])) {
    await button(page, 'Next').click();
    await expect(button(page, 'Confirm')).toBeVisible();
  }
  if (step === 'receipt') {
    await button(page, 'Confirm').click();
    await expect(page.getByRole('heading', { name: /redeemed/i })).toBeVisible();
  }
  await w.edge.passAll(false);
}

const picks = (path: FlowPath, rewardId: number) =>
  path.steps.some((s) => {
    const e = s.event as EventObject & { rewardId?: number; progress?: GuidedProgress | null };
    return e.rewardId === rewardId || (rewardId === 11 && e.progress && e.progress.step !== 'pickReward');
  });

export const walk: MachineWalk = {
  file: 'guided-redemption',
  machine: guidedRedemptionMachine,
  model: guidedRedemptionModel,
  // Its own customer (guidedCustomer) and account (the partner staff member): a lane of its own.
  lane: 1,
  signInAs: (world) => world.staff,
  abstract: (s) => {
    const c = s.context as GuidedContext;
    return { customersListed: c.customers.length > 0, error: c.error !== null };
  },
  offers: (s, e) => {
    const c = s.context as GuidedContext;
    // The page reads its stored progress at once: nothing can be done before it resumes.
    if (s.matches('restoring')) return e.type === 'guided.resume';
    // A customer is chosen from the list a search found; Try again shows only under an error.
    if (e.type === 'guided.pickCustomer') return c.customers.length > 0;
    // 'Start over' is shown past the first step; the receipt offers 'Redeem another' instead.
    if (e.type === 'guided.restart') return !s.matches('findCustomer');
    if (e.type === 'guided.retry' && s.matches('pickReward')) return c.error !== null;
    return true;
  },
  effects: {
    findCustomers: { method: 'GET', path: /\/partners\/rewards\/customers$/ },
    loadRewards: { method: 'GET', path: /\/admin\/partners\/rewards$/ },
    sendCode: redeemEffects.sendCode,
    redeemReward: redeemEffects.redeemReward,
  },
  begin: async (w, path) => {
    const codes: Ids = {};
    const customer = w.world.guidedCustomer;
    const rewardIds: Record<number, number> = {};
    if (picks(path, 11)) {
      const issued = await w.api.issueReward(w.world, 'GIFTCARD', ISSUED, customer);
      codes.giftcard = issued.code;
      rewardIds[11] = issued.id;
    }
    if (picks(path, 12)) {
      const issued = await w.api.issueReward(w.world, 'COUPON', ISSUED, customer);
      codes.coupon = issued.code;
      rewardIds[12] = issued.id;
    }
    w.data.rewardIds = rewardIds;
    if (picks(path, 13)) codes.redeemed = await redeemedCoupon(w);
    w.data.codes = codes;
    const first = path.steps[0]?.event as (EventObject & { progress?: GuidedProgress | null }) | undefined;
    if (first?.type !== 'guided.resume') throw new Error('a guided path starts with the page opening');
    await w.edge.passAll(true);
    await w.page.goto('/dashboard/redeem');
    await expect(w.page.getByLabel('Customer name or email')).toBeVisible();
    await w.edge.passAll(false);
    if (first.progress) {
      await reach(w, first.progress.step);
      // Walked to a stored step past the reward: the gift card, and past the amount its ₦250.
      if (first.progress.step !== 'pickReward') w.data.picked = 11;
      if (['confirm', 'receipt'].includes(first.progress.step)) w.data.amount = 250;
    }
  },
  step: async (w, event) => {
    // What the path chose and typed (the receipt's expected amounts come from these, not the machine).
    if (event.type === 'guided.pickReward' && Number(event.rewardId) !== 13)
      w.data.picked = Number(event.rewardId);
    if (event.type === 'guided.amount' && /^\d+(\.\d{1,2})?$/.test(String(event.text)))
      w.data.amount = Number(event.text);
    if (await setNetwork(w, event)) return;
    if (event.type === 'xstate.done.actor.otp') {
      await expect(w.page.getByRole('group', { name: 'One-time code' })).toBeVisible();
      return typeCode(w.page, await mailedCode(w));
    }
    if (await w.edge.settle(event)) return;
    const page = w.page;
    switch (event.type) {
      case 'guided.resume':
        // The page opened (begin) with nothing stored; or it was walked to the step and reloads now.
        if ((event.progress as GuidedProgress | null) === null) return;
        await page.reload();
        return;
      case 'guided.search': {
        const text = String(event.text).trim() ? w.world.guidedCustomer.name : String(event.text);
        await page.getByLabel('Customer name or email').fill(text);
        return button(page, 'Search').click();
      }
      case 'guided.pickCustomer':
        return page
          .getByRole('list', { name: 'Customers' })
          .getByRole('listitem')
          .filter({ hasText: w.world.guidedCustomer.name })
          .getByRole('button', { name: 'Choose' })
          .click();
      case 'guided.pickReward': {
        const choose = (await rewardRow(w, Number(event.rewardId))).getByRole('button', { name: 'Choose' });
        // A reward that is not Active cannot be chosen: its button is disabled, the click does nothing.
        if (Number(event.rewardId) === 13) return expect(choose).toBeDisabled();
        return choose.click();
      }
      case 'guided.sendCode':
        return sendCodeClick(w);
      case 'guided.amount':
        return page.getByLabel('Amount to redeem').fill(String(event.text));
      case 'guided.next':
        return button(page, 'Next').click();
      case 'guided.confirm':
        return button(page, 'Confirm').click();
      case 'guided.retry':
        return button(page, 'Try again').click();
      case 'guided.back':
        return button(page, 'Back').click();
      case 'guided.restart':
        if (await button(page, 'Redeem another').isVisible()) return button(page, 'Redeem another').click();
        return button(page, 'Start over').click();
      default:
        throw new Error(`no way to do ${event.type} in the browser`);
    }
  },
  check: async (w, s: AnyMachineSnapshot) => {
    const c = s.context as GuidedContext;
    const page = w.page;
    const scope = section(w);
    switch (String(s.value)) {
      case 'findCustomer':
        await expect(page.getByLabel('Customer name or email')).toBeVisible();
        if (c.customers.length)
          await expect(page.getByRole('list', { name: 'Customers' })).toContainText(
            w.world.guidedCustomer.name,
          );
        return expectError(scope, c.error);
      case 'searching':
      case 'loadingRewards':
      case 'sendingCode':
        return expect(scope).toHaveAttribute('aria-busy', 'true');
      case 'redeeming':
        return expect(page.getByRole('status', { name: 'Redeeming' })).toBeVisible();
      case 'pickReward':
        await expect(
          page.getByRole('heading', { name: `Rewards of ${w.world.guidedCustomer.name}` }),
        ).toBeVisible();
        if (c.rewards.length)
          await expect(
            page.getByRole('list', { name: 'Rewards' }).getByRole('listitem').first(),
          ).toBeVisible();
        return expectError(scope, c.error);
      case 'sendCode':
        await expect(button(page, 'Send code')).toBeVisible();
        return expectError(scope, c.error);
      case 'enterCode':
      // After a reload at Amount or Confirm the code was not kept: the customer gives it again.
      case 'reenterCode':
        return expect(page.getByRole('group', { name: 'One-time code' })).toBeVisible();
      case 'amount':
        await expect(page.getByLabel('Amount to redeem')).toHaveValue(c.amountText);
        if (c.amountError) await expect(scope.getByText(c.amountError)).toBeVisible();
        return;
      case 'confirm':
        await expect(button(page, 'Confirm')).toBeVisible();
        return expectError(scope, c.error);
      case 'failed':
        await expect(button(page, 'Try again')).toBeVisible();
        return expectError(scope, c.error);
      case 'receipt': {
        await expect(
          page.getByRole('heading', { name: c.outcome?.message ?? 'Reward redeemed' }),
        ).toBeVisible();
        // The receipt's amount and balance, from what the path chose and typed, and the server's ledger.
        const receipt = page.getByLabel('Receipt');
        const picked = Number(w.data.picked);
        const rewardId = (w.data.rewardIds as Record<number, number>)[picked];
        const ledger = await w.api.call<RewardLedger>('GET', `/partners/rewards/${rewardId}/ledger`);
        if (picked === 11) {
          const amount = Number(w.data.amount);
          expect(amount, 'an amount typed for the gift card').toBeGreaterThan(0);
          await expect(receipt).toContainText(
            new RegExp(`Amount redeemed\\s*${escapeRegExp(formatNaira(amount))}`),
          );
          await expect(receipt).toContainText(
            new RegExp(`Balance left\\s*${escapeRegExp(formatNaira(ISSUED - amount))}`),
          );
          return expect(ledger.reward.balance, 'the balance on the server').toBe(ISSUED - amount);
        }
        await expect(receipt).toContainText(/Balance left\s*None \(single use\)/);
        return expect(ledger.reward.status, 'the coupon used on the server').toBe('Redeemed');
      }
    }
    throw new Error(`no check for state ${JSON.stringify(s.value)}`);
  },
  // Refused for want of the network: nothing went out. (The machine keeps that error in its context
  // after the network returns and a Confirm goes out, so a state that calls is not a refusal.)
  after: async (w, s, sentBefore) => {
    const calling = ['sendingCode', 'redeeming', 'searching', 'loadingRewards', 'receipt'];
    if (
      (s.context as GuidedContext).error === rewardMessages.networkRequired &&
      !calling.includes(String(s.value))
    )
      expect(w.edge.sent).toBe(sentBefore);
  },
};

const redeemedByRun = new Map<string, string>();

/** A coupon of the guided customer's, redeemed through the API with the mailed code (once a run). */
async function redeemedCoupon(w: WalkContext): Promise<string> {
  const known = redeemedByRun.get(w.world.runId);
  if (known) return known;
  const customer = w.world.guidedCustomer;
  const { code } = await w.api.issueReward(w.world, 'COUPON', 5000, customer);
  const seen = await w.mail.seen(customer.email);
  await w.api.call('POST', '/partners/rewards/initiate-reward-redemption-auth', {
    userId: customer.id,
    code,
  });
  const otp = await w.mail.waitFor(customer.email, seen, OTP_MAIL);
  await w.api.call(
    'POST',
    '/partners/rewards/redeem-coupon',
    { userId: customer.id, code, otp },
    { 'Idempotency-Key': crypto.randomUUID() },
  );
  redeemedByRun.set(w.world.runId, code);
  return code;
}
