import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { Reward } from '../../contract/rewards';
import { ApiError } from '../lib/api-error';
import { type GuidedProgress, guidedRedemptionMachine, toGuidedProgress } from './guided-redemption.machine';
import { freshGuidedContext } from './guided-redemption-progress';
import { type OtpContext, otpMachine } from './otp.machine';
import type { RedeemOutcome, RedeemRequest } from './redeem.machine';

/**
 * Guided redemption for partner staff, its rules read from docs/product.md (#validation 'Redeem gift
 * card', OTP six digits, the network needed for money), decision 030 (a lost answer: "may have gone
 * through", the success after it "Redeemed: it went through", one key per attempt) and the machine's
 * own promise of a reload (the step comes back, the code never). Expected texts are written here.
 */

const NETWORK_REQUIRED =
  'This needs a network connection. Nothing was sent; try again when you are back online.';
const CODE = '482913';

const customer = { id: 42, firstName: 'Ngozi', lastName: 'Eze', email: 'ngozi@mail.ng' };
const reward = (id: number, rewardType: 'GIFTCARD' | 'COUPON', status: string, balance: number | null) =>
  ({
    id,
    code: `${rewardType === 'GIFTCARD' ? 'GC' : 'CP'}-${id}`,
    rewardType,
    status,
    balance,
  }) as unknown as Reward;
const giftcard = reward(11, 'GIFTCARD', 'Active', 5000);
const coupon = reward(12, 'COUPON', 'Active', null);
const used = reward(13, 'COUPON', 'Redeemed', null);
const redeemed = {
  result: { rewardId: 11, amountRedeemed: 250, balance: 4750 },
  message: 'Gift card redeemed',
};

interface Calls {
  findCustomers: unknown[];
  loadRewards: unknown[];
  sendCode: unknown[];
  checkOtp: unknown[];
  redeemReward: RedeemRequest[];
}

/** A server whose answers to redeemReward come from `redeemAnswers` in turn (an error is thrown). */
function start(opts: { online?: boolean; redeemAnswers?: unknown[]; searchFails?: boolean } = {}) {
  const calls: Calls = { findCustomers: [], loadRewards: [], sendCode: [], checkOtp: [], redeemReward: [] };
  const actor = createActor(
    guidedRedemptionMachine.provide({
      actors: {
        findCustomers: fromPromise(async ({ input }) => {
          calls.findCustomers.push(input);
          if (opts.searchFails) throw new ApiError(0, 'Network Error');
          return [customer];
        }),
        loadRewards: fromPromise(async ({ input }) => {
          calls.loadRewards.push(input);
          return [giftcard, coupon, used];
        }),
        sendCode: fromPromise(async ({ input }) => {
          calls.sendCode.push(input);
          return { expiresAt: '2026-03-01T10:05:00.000Z', sentTo: 'n***@mail.ng' };
        }),
        otp: otpMachine.provide({
          actors: {
            checkOtp: fromPromise(async ({ input }) => {
              calls.checkOtp.push(input);
              return { valid: true as const, attemptsLeft: 4 };
            }),
          },
        }),
        redeemReward: fromPromise(async ({ input }: { input: RedeemRequest }) => {
          calls.redeemReward.push(input);
          const answer = opts.redeemAnswers?.[calls.redeemReward.length - 1];
          if (answer !== undefined) throw answer;
          return redeemed as unknown as RedeemOutcome;
        }),
      },
    }),
    { input: { partnerId: 3, online: opts.online ?? true } },
  ).start();
  return { actor, calls };
}

type Guided = ReturnType<typeof start>['actor'];

/** What the open code boxes (the OTP machine) hold. */
const codeBoxes = (actor: Guided) =>
  (actor.getSnapshot().children.otp?.getSnapshot() as { context: OtpContext } | undefined)?.context;

/** The customer types the code into the boxes and submits; the server accepts it. */
async function enterCode(actor: Guided) {
  const otp = actor.getSnapshot().children.otp;
  if (!otp) throw new Error('no code boxes open');
  otp.send({ type: 'otp.paste', text: CODE });
  otp.send({ type: 'otp.submit' });
  await waitFor(actor, (s) => !s.matches('enterCode') && !s.matches('reenterCode'));
}

/** Opens the page, finds Ngozi, picks `which` and gets the code sent. */
async function toCode(actor: Guided, which: Reward) {
  actor.send({ type: 'guided.resume', progress: null });
  actor.send({ type: 'guided.search', text: 'ngozi' });
  await waitFor(actor, (s) => s.matches('findCustomer'));
  actor.send({ type: 'guided.pickCustomer', customer });
  await waitFor(actor, (s) => s.matches('pickReward'));
  actor.send({ type: 'guided.pickReward', rewardId: which.id });
  actor.send({ type: 'guided.sendCode' });
  await waitFor(actor, (s) => s.matches('enterCode'));
}

describe('guided redemption machine', () => {
  it("finds the customer in the staff member's partner, lists the rewards, sends the code for the one picked", async () => {
    const { actor, calls } = start();
    actor.send({ type: 'guided.resume', progress: null });
    expect(actor.getSnapshot().value).toBe('findCustomer');
    // A blank search sends nothing.
    actor.send({ type: 'guided.search', text: '   ' });
    expect(actor.getSnapshot().value).toBe('findCustomer');
    expect(calls.findCustomers).toEqual([]);
    actor.send({ type: 'guided.search', text: 'ngozi' });
    const found = await waitFor(actor, (s) => s.matches('findCustomer'));
    expect(calls.findCustomers).toEqual([{ search: 'ngozi', partnerId: 3 }]);
    expect(found.context.customers).toEqual([customer]);
    actor.send({ type: 'guided.pickCustomer', customer });
    const listed = await waitFor(actor, (s) => s.matches('pickReward'));
    expect(calls.loadRewards).toEqual([{ partnerId: 3, userId: 42 }]);
    expect(listed.context.rewards).toHaveLength(3);
    // A reward no longer Active cannot be picked.
    actor.send({ type: 'guided.pickReward', rewardId: used.id });
    expect(actor.getSnapshot().value).toBe('pickReward');
    actor.send({ type: 'guided.pickReward', rewardId: giftcard.id });
    expect(actor.getSnapshot().value).toBe('sendCode');
    expect(actor.getSnapshot().context.reward).toBe(giftcard);
    actor.send({ type: 'guided.sendCode' });
    const boxes = await waitFor(actor, (s) => s.matches('enterCode'));
    expect(calls.sendCode).toEqual([{ userId: 42, code: 'GC-11' }]);
    expect(boxes.context.sentTo).toBe('n***@mail.ng');
    // The code boxes are for that customer and reward, and show where the code went.
    expect(codeBoxes(actor)).toMatchObject({
      userId: 42,
      code: 'GC-11',
      sentTo: 'n***@mail.ng',
      online: true,
    });
  });

  it('a failed search says why and stays on the search', async () => {
    const { actor } = start({ searchFails: true });
    actor.send({ type: 'guided.resume', progress: null });
    actor.send({ type: 'guided.search', text: 'ngozi' });
    const s = await waitFor(actor, (x) => x.matches('findCustomer') && x.context.error !== null);
    expect(s.context.error).toBe('Network Error');
    expect(s.context.customers).toEqual([]);
  });

  it('offline the code is not sent; the code boxes hear the network change', async () => {
    const { actor, calls } = start();
    actor.send({ type: 'guided.resume', progress: null });
    actor.send({ type: 'guided.pickCustomer', customer });
    await waitFor(actor, (s) => s.matches('pickReward'));
    actor.send({ type: 'guided.pickReward', rewardId: coupon.id });
    actor.send({ type: 'network.offline' });
    actor.send({ type: 'guided.sendCode' });
    expect(actor.getSnapshot().value).toBe('sendCode');
    expect(actor.getSnapshot().context.error).toBe(NETWORK_REQUIRED);
    expect(calls.sendCode).toEqual([]);
    actor.send({ type: 'network.online' });
    actor.send({ type: 'guided.sendCode' });
    await waitFor(actor, (s) => s.matches('enterCode'));
    expect(actor.getSnapshot().context.error).toBeNull();
    actor.send({ type: 'network.offline' });
    expect(actor.getSnapshot().context.online).toBe(false);
    expect(codeBoxes(actor)?.online).toBe(false);
    actor.send({ type: 'network.online' });
    expect(actor.getSnapshot().context.online).toBe(true);
    expect(codeBoxes(actor)?.online).toBe(true);
  });

  it('a gift card asks the amount: valid, at most the balance; then redeems that amount with the code', async () => {
    const { actor, calls } = start();
    await toCode(actor, giftcard);
    await enterCode(actor);
    expect(calls.checkOtp).toEqual([{ userId: 42, otp: CODE, code: 'GC-11' }]);
    expect(actor.getSnapshot().value).toBe('amount');
    actor.send({ type: 'guided.amount', text: '0' });
    actor.send({ type: 'guided.next' });
    expect(actor.getSnapshot().context.amountError).toBe('Please enter a valid amount.');
    actor.send({ type: 'guided.amount', text: '5000.01' });
    expect(actor.getSnapshot().context.amountError).toBeNull();
    actor.send({ type: 'guided.next' });
    expect(actor.getSnapshot().value).toBe('amount');
    expect(actor.getSnapshot().context.amountError).toBe(
      'The amount cannot exceed the balance of ₦5,000.00.',
    );
    // The whole balance may be redeemed.
    actor.send({ type: 'guided.amount', text: ' 5000 ' });
    actor.send({ type: 'guided.next' });
    expect(actor.getSnapshot().value).toBe('confirm');
    actor.send({ type: 'guided.back' });
    expect(actor.getSnapshot().value).toBe('amount');
    actor.send({ type: 'guided.amount', text: '250' });
    actor.send({ type: 'guided.next' });
    const key = actor.getSnapshot().context.idempotencyKey;
    expect(key).toBeTruthy();
    actor.send({ type: 'guided.confirm' });
    const receipt = await waitFor(actor, (s) => s.matches('receipt'));
    expect(calls.redeemReward).toEqual([
      {
        rewardType: 'GIFTCARD',
        userId: 42,
        code: 'GC-11',
        otp: CODE,
        amountToRedeem: 250,
        idempotencyKey: key,
      },
    ]);
    expect(receipt.context.outcome).toEqual(redeemed);
    // The code is not kept once used.
    expect(receipt.context.otp).toBeNull();
  });

  it('the same amount keeps its key; a changed amount is a new attempt', async () => {
    const { actor } = start();
    await toCode(actor, giftcard);
    await enterCode(actor);
    actor.send({ type: 'guided.amount', text: '250' });
    actor.send({ type: 'guided.next' });
    const first = actor.getSnapshot().context.idempotencyKey;
    actor.send({ type: 'guided.back' });
    actor.send({ type: 'guided.next' });
    expect(actor.getSnapshot().context.idempotencyKey).toBe(first);
    actor.send({ type: 'guided.back' });
    actor.send({ type: 'guided.amount', text: '300' });
    actor.send({ type: 'guided.next' });
    expect(actor.getSnapshot().context.idempotencyKey).not.toBe(first);
    expect(actor.getSnapshot().context.keyAmount).toBe('300');
  });

  it('a coupon goes from the code to Confirm and is redeemed without an amount; Back returns to the rewards', async () => {
    const { actor, calls } = start();
    await toCode(actor, coupon);
    await enterCode(actor);
    expect(actor.getSnapshot().value).toBe('confirm');
    expect(actor.getSnapshot().context.idempotencyKey).toBeTruthy();
    actor.send({ type: 'guided.back' });
    expect(actor.getSnapshot().value).toBe('pickReward');
    // Another reward needs another code.
    expect(actor.getSnapshot().context.otp).toBeNull();
    actor.send({ type: 'guided.pickReward', rewardId: coupon.id });
    actor.send({ type: 'guided.sendCode' });
    await waitFor(actor, (s) => s.matches('enterCode'));
    await enterCode(actor);
    actor.send({ type: 'guided.confirm' });
    await waitFor(actor, (s) => s.matches('receipt'));
    expect(calls.redeemReward).toHaveLength(1);
    expect(calls.redeemReward[0]).toEqual({
      rewardType: 'COUPON',
      userId: 42,
      code: 'CP-12',
      otp: CODE,
      idempotencyKey: expect.any(String),
    });
  });

  it('Back from the amount goes to the rewards and forgets the code', async () => {
    const { actor } = start();
    await toCode(actor, giftcard);
    await enterCode(actor);
    actor.send({ type: 'guided.back' });
    expect(actor.getSnapshot().value).toBe('pickReward');
    expect(actor.getSnapshot().context.otp).toBeNull();
  });

  it('offline at Confirm: nothing is sent', async () => {
    const { actor, calls } = start();
    await toCode(actor, coupon);
    await enterCode(actor);
    actor.send({ type: 'network.offline' });
    actor.send({ type: 'guided.confirm' });
    expect(actor.getSnapshot().value).toBe('confirm');
    expect(actor.getSnapshot().context.error).toBe(NETWORK_REQUIRED);
    expect(calls.redeemReward).toEqual([]);
  });

  it('no answer: it may have gone through; Try again sends the same request, and the receipt says it went through', async () => {
    const { actor, calls } = start({ redeemAnswers: [new ApiError(0, 'Network Error')] });
    await toCode(actor, coupon);
    await enterCode(actor);
    actor.send({ type: 'guided.confirm' });
    const failed = await waitFor(actor, (s) => s.matches('failed'));
    expect(failed.context.error).toBe(
      'No answer from the server: the redemption may have gone through. Try again to check; it will not be charged twice.',
    );
    actor.send({ type: 'network.offline' });
    actor.send({ type: 'guided.retry' });
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context.error).toBe(NETWORK_REQUIRED);
    actor.send({ type: 'network.online' });
    actor.send({ type: 'guided.retry' });
    expect(actor.getSnapshot().context.error).toBeNull();
    const receipt = await waitFor(actor, (s) => s.matches('receipt'));
    expect(calls.redeemReward).toHaveLength(2);
    expect(calls.redeemReward[1]).toEqual(calls.redeemReward[0]);
    expect(receipt.context.outcome).toEqual({ ...redeemed, message: 'Redeemed: it went through' });
    expect(receipt.context.uncertain).toBe(false);
  });

  it("a refusal says the server's words; Back returns to Confirm with the error cleared", async () => {
    const { actor } = start({
      redeemAnswers: [
        new ApiError(400, 'Validation failed', [{ fieldName: 'code', message: 'reward already redeemed' }]),
      ],
    });
    await toCode(actor, coupon);
    await enterCode(actor);
    actor.send({ type: 'guided.confirm' });
    const failed = await waitFor(actor, (s) => s.matches('failed'));
    expect(failed.context.error).toBe('Reward already redeemed.');
    expect(failed.context.uncertain).toBe(false);
    actor.send({ type: 'guided.back' });
    expect(actor.getSnapshot().value).toBe('confirm');
    expect(actor.getSnapshot().context.error).toBeNull();
  });

  it('Start over: the search again, for the same partner, with nothing kept', async () => {
    const { actor } = start();
    await toCode(actor, giftcard);
    expect(actor.getSnapshot().context).toMatchObject({ search: 'ngozi', customers: [customer] });
    actor.send({ type: 'guided.restart' });
    expect(actor.getSnapshot().value).toBe('findCustomer');
    // Written out, not read from freshGuidedContext (the code under test): an empty search, nobody
    // found or picked, no code sent or entered, no amount, no attempt, no error, no outcome.
    expect(actor.getSnapshot().context).toEqual({
      partnerId: 3,
      online: true,
      search: '',
      customers: [],
      customer: null,
      rewards: [],
      reward: null,
      sentTo: null,
      otp: null,
      amountText: '',
      amountError: null,
      idempotencyKey: null,
      keyAmount: null,
      error: null,
      outcome: null,
    });
  });

  it('a reload resumes at the stored step with its inputs (for this partner), and asks the code again at Confirm', async () => {
    const stored: GuidedProgress = {
      step: 'confirm',
      context: {
        ...freshGuidedContext(99),
        customer,
        rewards: [giftcard],
        reward: giftcard,
        amountText: '250',
        idempotencyKey: 'stored-key',
        keyAmount: '250',
      },
    };
    const { actor, calls } = start();
    actor.send({ type: 'guided.resume', progress: stored });
    const s = actor.getSnapshot();
    expect(s.value).toBe('confirm');
    expect(s.context).toMatchObject({
      partnerId: 3,
      amountText: '250',
      idempotencyKey: 'stored-key',
      otp: null,
    });
    actor.send({ type: 'guided.confirm' });
    expect(actor.getSnapshot().value).toBe('reenterCode');
    actor.send({ type: 'guided.back' });
    expect(actor.getSnapshot().value).toBe('confirm');
    actor.send({ type: 'guided.confirm' });
    await enterCode(actor);
    await waitFor(actor, (x) => x.matches('receipt'));
    // The attempt cut off by the reload goes again with its key.
    expect(calls.redeemReward).toEqual([
      {
        rewardType: 'GIFTCARD',
        userId: 42,
        code: 'GC-11',
        otp: CODE,
        amountToRedeem: 250,
        idempotencyKey: 'stored-key',
      },
    ]);
  });

  it.each([
    ['pickReward', 'pickReward'],
    ['sendCode', 'sendCode'],
    ['enterCode', 'enterCode'],
    ['amount', 'amount'],
    ['receipt', 'receipt'],
  ] as const)('a reload at %s resumes there', async (step, state) => {
    const { actor } = start();
    actor.send({
      type: 'guided.resume',
      progress: {
        step,
        context: { ...freshGuidedContext(3), customer, rewards: [giftcard], reward: giftcard },
      },
    });
    await waitFor(actor, (s) => s.matches(state));
    expect(actor.getSnapshot().context.customer).toEqual(customer);
  });

  it('what is stored for a reload: the step the screen shows, never the code', async () => {
    const { actor } = start();
    expect(toGuidedProgress(actor.getSnapshot() as never)).toBeNull();
    await toCode(actor, giftcard);
    await enterCode(actor);
    actor.send({ type: 'guided.amount', text: '250' });
    actor.send({ type: 'guided.next' });
    const progress = toGuidedProgress(actor.getSnapshot() as never);
    expect(progress?.step).toBe('confirm');
    expect(progress?.context).not.toHaveProperty('otp');
    expect(progress?.context).not.toHaveProperty('online');
    expect(JSON.stringify(progress)).not.toContain(CODE);
    const steps = Object.fromEntries(
      [
        'findCustomer',
        'searching',
        'loadingRewards',
        'pickReward',
        'sendCode',
        'sendingCode',
        'enterCode',
        'amount',
        'confirm',
        'reenterCode',
        'redeeming',
        'failed',
        'receipt',
        'restoring',
      ].map((value) => [
        value,
        toGuidedProgress({ value, context: actor.getSnapshot().context })?.step ?? null,
      ]),
    );
    expect(steps).toEqual({
      findCustomer: 'findCustomer',
      searching: 'findCustomer',
      loadingRewards: 'pickReward',
      pickReward: 'pickReward',
      sendCode: 'sendCode',
      sendingCode: 'sendCode',
      enterCode: 'enterCode',
      amount: 'amount',
      confirm: 'confirm',
      reenterCode: 'confirm',
      redeeming: 'confirm',
      failed: 'confirm',
      receipt: 'receipt',
      restoring: null,
    });
  });
});
