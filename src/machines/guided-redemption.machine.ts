import { type ActorRefFrom, assign, fromPromise, sendTo, setup } from 'xstate';
import { redeemAmountInput } from '../../contract/redemption';
import { type Reward, rewardMessages } from '../../contract/rewards';
import { errorText } from '../lib/error-message';
import { newIdempotencyKey } from '../lib/idempotency-key';
import { isSettledRefusal, readOpenAttempt } from '../lib/open-attempts';
import { startsOnline } from './flow-support';
import {
  type CustomerHit,
  freshGuidedContext,
  type GuidedContext,
  type GuidedEvent,
  type GuidedInput,
  type GuidedStep,
} from './guided-redemption-progress';
import { type CodeSent, otpMachine } from './otp.machine';
import {
  overBalanceMessage,
  type RedeemOutcome,
  type RedeemRequest,
  redeemAttemptId,
  WENT_THROUGH,
} from './redeem.machine';

export type { CustomerHit, GuidedContext, GuidedProgress, GuidedStep } from './guided-redemption-progress';
export { toGuidedProgress } from './guided-redemption-progress';

/**
 * Guided redemption for partner staff: find the customer, pick the reward, send the code, enter it,
 * the amount (gift card), confirm, receipt. The caller stores `toGuidedProgress(snapshot)` after every
 * transition and, on start, sends it back with `guided.resume`, so a reload resumes at the same step. The progress
 * never holds the one-time code: a step past the code resumes at that step with its inputs (the
 * amount and the idempotency key kept, so a redemption cut off by the reload is retried as the same
 * attempt) and Confirm asks for the code again (the customer still has it) before redeeming.
 *
 * Money after a lost reply (issue 17): the live `redeemReward` effect keeps each attempt open
 * (src/lib/open-attempts.ts, shared with the admin Redeem dialog) until an answer settles it, and
 * every later redemption of that reward (Try again, Back then Confirm, Start over and a new code, a
 * reload) sends that attempt first, so the server replays it instead of charging again; the receipt
 * then reads 'Redeemed: it went through'. Confirm after a reload needs no code while an attempt is
 * open: the attempt carries its own.
 */

/** What the cashier reads when the answer to a redemption was lost. */
export const GUIDED_OUTCOME_UNKNOWN =
  'No answer from the server: the redemption may have gone through. Try again to check; it will not be charged twice.';

/** An attempt of this reward sent earlier is still open (its outcome unknown). */
const hasOpenAttempt = (context: GuidedContext) =>
  context.customer !== null &&
  context.reward !== null &&
  readOpenAttempt(redeemAttemptId({ userId: context.customer.id, code: context.reward.code })) !== null;

/** The code boxes (the OTP machine) for the chosen reward. */
const codeBoxesInput = ({ context }: { context: GuidedContext }) => ({
  userId: context.customer?.id ?? 0,
  code: context.reward?.code ?? '',
  sentTo: context.sentTo,
  online: context.online,
});

const notProvided = (name: string) => () => Promise.reject(new Error(`${name} is not provided`));

export const guidedRedemptionMachine = setup({
  types: {
    context: {} as GuidedContext,
    events: {} as GuidedEvent,
    input: {} as GuidedInput,
  },
  actors: {
    findCustomers: fromPromise<CustomerHit[], { search: string; partnerId: number }>(
      notProvided('findCustomers'),
    ),
    loadRewards: fromPromise<Reward[], { partnerId: number; userId: number }>(notProvided('loadRewards')),
    sendCode: fromPromise<CodeSent, { userId: number; code: string }>(notProvided('sendCode')),
    otp: otpMachine,
    redeemReward: fromPromise<RedeemOutcome, RedeemRequest>(notProvided('redeemReward')),
  },
  actions: {
    setNetwork: assign({ online: ({ event }) => event.type === 'network.online' }),
    tellCodeBoxes: sendTo('otp', ({ event }) => event),
    refuseOffline: assign({ error: rewardMessages.networkRequired }),
    showError: assign({ error: ({ event }) => errorText((event as { error?: unknown }).error) }),
    /** A refusal says why; no answer says it may have gone through and that trying again is safe. */
    showRedeemError: assign(({ event }) => {
      const error = (event as { error?: unknown }).error;
      return isSettledRefusal(error)
        ? { error: errorText(error), uncertain: false }
        : { error: GUIDED_OUTCOME_UNKNOWN, uncertain: true };
    }),
    clearError: assign({ error: null }),
    restart: assign(({ context }) => freshGuidedContext(context.partnerId)),
    /** Same reward and amount as the key's attempt: keep the key; otherwise a new attempt. */
    resume: assign(({ context, event }) =>
      event.type === 'guided.resume' && event.progress
        ? { ...event.progress.context, partnerId: context.partnerId }
        : {},
    ),
    keyForAttempt: assign(({ context }) =>
      context.idempotencyKey && context.keyAmount === context.amountText
        ? { error: null }
        : { idempotencyKey: newIdempotencyKey(), keyAmount: context.amountText, error: null },
    ),
  },
  guards: {
    isOffline: ({ context }) => !context.online,
    /** No code in memory (a reload) and no open attempt carrying one: the customer gives it again. */
    needsCode: ({ context }) => context.otp === null && !hasOpenAttempt(context),
    wasAt: ({ event }, params: { steps: GuidedStep[] }) =>
      event.type === 'guided.resume' && event.progress !== null && params.steps.includes(event.progress.step),
    hasSearchText: ({ event }) => event.type === 'guided.search' && event.text.trim().length > 0,
    isRedeemable: ({ context, event }) =>
      event.type === 'guided.pickReward' &&
      context.rewards.some((r) => r.id === event.rewardId && r.status === 'Active'),
    isGiftcard: ({ context }) => context.reward?.rewardType === 'GIFTCARD',
    isAmountInvalid: ({ context }) => !redeemAmountInput.safeParse(context.amountText).success,
    isOverBalance: ({ context }) =>
      context.reward?.balance != null && Number(context.amountText.trim()) > context.reward.balance,
  },
}).createMachine({
  id: 'guided',
  context: ({ input }) => ({
    ...freshGuidedContext(input.partnerId),
    partnerId: input.partnerId,
    otp: null,
    online: startsOnline(input.online),
  }),
  initial: 'restoring',
  on: {
    'network.offline': { actions: assign({ online: false }) },
    'network.online': { actions: assign({ online: true }) },
    'guided.restart': { target: '.findCustomer', actions: 'restart' },
  },
  states: {
    // Waits for the stored progress (read from IndexedDB by the caller), then resumes there;
    // steps past the code resume at the code.
    restoring: {
      on: {
        'guided.resume': [
          {
            guard: { type: 'wasAt', params: { steps: ['pickReward'] } },
            target: 'loadingRewards',
            actions: 'resume',
          },
          {
            guard: { type: 'wasAt', params: { steps: ['sendCode'] } },
            target: 'sendCode',
            actions: 'resume',
          },
          {
            guard: { type: 'wasAt', params: { steps: ['enterCode'] } },
            target: 'enterCode',
            actions: 'resume',
          },
          // Past the code the step and its inputs come back; the code is asked again at Confirm.
          { guard: { type: 'wasAt', params: { steps: ['amount'] } }, target: 'amount', actions: 'resume' },
          { guard: { type: 'wasAt', params: { steps: ['confirm'] } }, target: 'confirm', actions: 'resume' },
          { guard: { type: 'wasAt', params: { steps: ['receipt'] } }, target: 'receipt', actions: 'resume' },
          { target: 'findCustomer' },
        ],
      },
    },
    findCustomer: {
      on: {
        'guided.search': {
          guard: 'hasSearchText',
          target: 'searching',
          actions: assign({ search: ({ event }) => event.text }),
        },
        'guided.pickCustomer': {
          target: 'loadingRewards',
          actions: assign({ customer: ({ event }) => event.customer, reward: null, error: null }),
        },
      },
    },
    searching: {
      invoke: {
        id: 'findCustomers',
        src: 'findCustomers',
        input: ({ context }) => ({ search: context.search, partnerId: context.partnerId }),
        onDone: {
          target: 'findCustomer',
          actions: assign({ customers: ({ event }) => event.output, error: null }),
        },
        onError: { target: 'findCustomer', actions: 'showError' },
      },
    },
    loadingRewards: {
      invoke: {
        id: 'loadRewards',
        src: 'loadRewards',
        input: ({ context }) => ({ partnerId: context.partnerId, userId: context.customer?.id ?? 0 }),
        onDone: {
          target: 'pickReward',
          actions: assign({ rewards: ({ event }) => event.output, error: null }),
        },
        onError: { target: 'pickReward', actions: 'showError' },
      },
    },
    pickReward: {
      on: {
        'guided.pickReward': {
          guard: 'isRedeemable',
          target: 'sendCode',
          actions: assign({
            reward: ({ context, event }) => context.rewards.find((r) => r.id === event.rewardId) ?? null,
            amountText: '',
            idempotencyKey: null,
            keyAmount: null,
            error: null,
          }),
        },
        'guided.retry': 'loadingRewards',
        'guided.back': { target: 'findCustomer', actions: 'clearError' },
      },
    },
    sendCode: {
      on: {
        'guided.sendCode': [
          { guard: 'isOffline', actions: 'refuseOffline' },
          { target: 'sendingCode', actions: 'clearError' },
        ],
        'guided.back': { target: 'pickReward', actions: 'clearError' },
      },
    },
    sendingCode: {
      invoke: {
        id: 'sendCode',
        src: 'sendCode',
        input: ({ context }) => ({ userId: context.customer?.id ?? 0, code: context.reward?.code ?? '' }),
        onDone: { target: 'enterCode', actions: assign({ sentTo: ({ event }) => event.output.sentTo }) },
        onError: { target: 'sendCode', actions: 'showError' },
      },
    },
    enterCode: {
      invoke: {
        id: 'otp',
        src: 'otp',
        input: codeBoxesInput,
        onDone: [
          {
            guard: 'isGiftcard',
            target: 'amount',
            actions: assign({ otp: ({ event }) => event.output.otp }),
          },
          { target: 'confirm', actions: [assign({ otp: ({ event }) => event.output.otp }), 'keyForAttempt'] },
        ],
      },
      on: {
        'network.offline': { actions: ['setNetwork', 'tellCodeBoxes'] },
        'network.online': { actions: ['setNetwork', 'tellCodeBoxes'] },
        'guided.back': 'sendCode',
      },
    },
    amount: {
      on: {
        'guided.amount': { actions: assign({ amountText: ({ event }) => event.text, amountError: null }) },
        'guided.next': [
          { guard: 'isAmountInvalid', actions: assign({ amountError: rewardMessages.invalidAmount }) },
          {
            guard: 'isOverBalance',
            actions: assign({
              amountError: ({ context }) => overBalanceMessage(context.reward?.balance ?? 0),
            }),
          },
          { target: 'confirm', actions: 'keyForAttempt' },
        ],
        // Another reward needs another code.
        'guided.back': { target: 'pickReward', actions: assign({ otp: null }) },
      },
    },
    confirm: {
      on: {
        'guided.confirm': [
          { guard: 'isOffline', actions: 'refuseOffline' },
          { guard: 'needsCode', target: 'reenterCode', actions: 'clearError' },
          { target: 'redeeming' },
        ],
        'guided.back': [
          { guard: 'isGiftcard', target: 'amount', actions: 'clearError' },
          { target: 'pickReward', actions: assign({ otp: null, error: null }) },
        ],
      },
    },
    // After a reload at Amount or Confirm: the code was not kept, so the customer gives it again
    // (it is still valid: the check does not consume it) and the redemption goes ahead.
    reenterCode: {
      invoke: {
        id: 'otp',
        src: 'otp',
        input: codeBoxesInput,
        onDone: { target: 'redeeming', actions: assign({ otp: ({ event }) => event.output.otp }) },
      },
      on: {
        'network.offline': { actions: ['setNetwork', 'tellCodeBoxes'] },
        'network.online': { actions: ['setNetwork', 'tellCodeBoxes'] },
        'guided.back': 'confirm',
      },
    },
    redeeming: {
      invoke: {
        id: 'redeemReward',
        src: 'redeemReward',
        input: ({ context }) => ({
          rewardType: context.reward?.rewardType ?? 'COUPON',
          userId: context.customer?.id ?? 0,
          code: context.reward?.code ?? '',
          otp: context.otp ?? '',
          ...(context.reward?.rewardType === 'GIFTCARD'
            ? { amountToRedeem: Number(context.amountText.trim()) }
            : {}),
          idempotencyKey: context.idempotencyKey ?? '',
        }),
        onDone: {
          target: 'receipt',
          actions: assign({
            outcome: ({ context, event }) =>
              context.uncertain ? { ...event.output, message: WENT_THROUGH } : event.output,
            otp: null,
            uncertain: false,
          }),
        },
        onError: { target: 'failed', actions: 'showRedeemError' },
      },
    },
    failed: {
      on: {
        'guided.retry': [
          { guard: 'isOffline', actions: 'refuseOffline' },
          { target: 'redeeming', actions: 'clearError' },
        ],
        'guided.back': { target: 'confirm', actions: 'clearError' },
      },
    },
    receipt: {},
  },
});

export type GuidedRedemptionActor = ActorRefFrom<typeof guidedRedemptionMachine>;
