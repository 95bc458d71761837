import { type ActorRefFrom, and, assign, fromPromise, sendTo, setup } from 'xstate';
import { type RedemptionResult, redeemAmountInput } from '../../contract/redemption';
import { rewardMessages } from '../../contract/rewards';
import { errorText } from '../lib/error-message';
import { formatNaira } from '../lib/format';
import { newIdempotencyKey } from '../lib/idempotency-key';
import {
  attemptId,
  closeOpenAttempt,
  isSettledRefusal,
  keepOpenAttempt,
  readOpenAttempt,
} from '../lib/open-attempts';
import { type NetworkEvent, startsOnline } from './flow-support';
import { type CodeSent, otpMachine } from './otp.machine';

/**
 * A partner redeems a known reward (docs/product.md#states 'Redemption'): send the customer a code, check it
 * in the OTP modal (the `otp` machine, invoked), then the Redeem modal: a gift card asks for an
 * amount (at most the balance), a coupon asks for a confirmation. Money needs the network: offline,
 * a money step is refused and nothing is queued. A retry after a failure sends the same
 * Idempotency-Key, so the server answers it with the first result instead of redeeming twice.
 */

export interface RedeemableReward {
  userId: number;
  code: string;
  rewardType: 'GIFTCARD' | 'COUPON';
  /** Gift cards: what is left; null for coupons. */
  balance: number | null;
}

export interface RedeemInput {
  reward: RedeemableReward;
  online?: boolean;
  /** The open attempt of this reward (issue 17); read from localStorage when omitted. */
  openAttempt?: RedeemRequest | null;
}

export interface RedeemRequest {
  rewardType: 'GIFTCARD' | 'COUPON';
  userId: number;
  code: string;
  otp: string;
  /** Gift cards only. */
  amountToRedeem?: number;
  idempotencyKey: string;
}

export interface RedeemOutcome {
  result: RedemptionResult;
  /** The server's message, shown after success. */
  message: string;
}

export interface RedeemContext {
  reward: RedeemableReward;
  online: boolean;
  sentTo: string | null;
  /** The checked code: kept in memory only, sent with the redeem call. */
  otp: string | null;
  amountText: string;
  amountError: string | null;
  idempotencyKey: string | null;
  error: string | null;
  outcome: RedeemOutcome | null;
  /**
   * The attempt sent whose outcome is not known yet (issue 17): kept (also in localStorage) until an
   * answer settles it; every next try sends this same request and key first.
   */
  open: RedeemRequest | null;
  /** An answer to the open attempt was lost: the next success says plainly that it went through. */
  uncertain: boolean;
  /** Started with an open attempt from before (a reload, a new dialog): it is settled first. */
  resuming: boolean;
}

export type RedeemEvent =
  | { type: 'redeem.start' }
  | { type: 'redeem.amount'; text: string }
  | { type: 'redeem.submit' }
  | { type: 'redeem.confirm' }
  | { type: 'redeem.retry' }
  | { type: 'redeem.back' }
  | { type: 'redeem.cancel' }
  | NetworkEvent;

/** What the cashier is told when a redemption whose answer was lost turns out to have gone through. */
export const WENT_THROUGH = 'Redeemed: it went through';
/** What the cashier is told when the answer to a redemption was lost. */
export const OUTCOME_UNKNOWN =
  'No answer from the server: the redemption may have gone through. Confirm again to check; it will not be charged twice.';

/** A refusal settles an attempt (nothing was charged); see src/lib/open-attempts.ts. */
export { isSettledRefusal };

export const redeemAttemptId = (reward: Pick<RedeemableReward, 'userId' | 'code'>) =>
  attemptId('redeem', reward.userId, reward.code);

const requestOf = (context: RedeemContext, idempotencyKey: string): RedeemRequest => ({
  rewardType: context.reward.rewardType,
  userId: context.reward.userId,
  code: context.reward.code,
  otp: context.otp ?? '',
  ...(context.reward.rewardType === 'GIFTCARD' ? { amountToRedeem: Number(context.amountText.trim()) } : {}),
  idempotencyKey,
});

export const overBalanceMessage = (balance: number) =>
  `The amount cannot exceed the balance of ${formatNaira(balance)}.`;

const notProvided = (name: string) => () => Promise.reject(new Error(`${name} is not provided`));

export const redeemMachine = setup({
  types: {
    context: {} as RedeemContext,
    events: {} as RedeemEvent,
    input: {} as RedeemInput,
    output: {} as RedeemOutcome | null,
  },
  actors: {
    sendCode: fromPromise<CodeSent, { userId: number; code: string }>(notProvided('sendCode')),
    otp: otpMachine,
    redeemReward: fromPromise<RedeemOutcome, RedeemRequest>(notProvided('redeemReward')),
  },
  actions: {
    refuseOffline: assign({ error: rewardMessages.networkRequired }),
    showError: assign({ error: ({ event }) => errorText((event as { error?: unknown }).error) }),
    clearError: assign({ error: null }),
    /**
     * A try of the money call: the open attempt again if there is one (same request, same key),
     * else a new attempt with a new key, kept until its outcome is known.
     */
    beginAttempt: assign(({ context }) => {
      if (context.open) return { error: null, idempotencyKey: context.open.idempotencyKey };
      const open = requestOf(context, newIdempotencyKey());
      keepOpenAttempt(redeemAttemptId(context.reward), open);
      return { error: null, idempotencyKey: open.idempotencyKey, open };
    }),
    /** An answer settled the attempt (done, or refused: nothing charged). */
    settleAttempt: assign(({ context }) => {
      closeOpenAttempt(redeemAttemptId(context.reward));
      return { open: null };
    }),
    /** No answer (or not a final one): the attempt stays open. */
    keepUncertain: assign({ uncertain: true, error: OUTCOME_UNKNOWN }),
  },
  guards: {
    isOffline: ({ context }) => !context.online,
    hasOpenAttempt: ({ context }) => context.open !== null,
    isRefusal: ({ event }) => isSettledRefusal((event as { error?: unknown }).error),
    isResuming: ({ context }) => context.resuming,
    isGiftcard: ({ context }) => context.reward.rewardType === 'GIFTCARD',
    isAmountInvalid: ({ context }) => !redeemAmountInput.safeParse(context.amountText).success,
    isOverBalance: ({ context }) =>
      context.reward.balance !== null && Number(context.amountText.trim()) > context.reward.balance,
  },
}).createMachine({
  id: 'redeem',
  context: ({ input }) => ({
    reward: input.reward,
    online: startsOnline(input.online),
    sentTo: null,
    otp: null,
    amountText: '',
    amountError: null,
    idempotencyKey: null,
    error: null,
    outcome: null,
    open:
      input.openAttempt === undefined
        ? readOpenAttempt<RedeemRequest>(redeemAttemptId(input.reward))
        : input.openAttempt,
    uncertain: false,
    resuming: false,
  }),
  initial: 'idle',
  on: {
    'network.offline': { actions: assign({ online: false }) },
    'network.online': { actions: assign({ online: true, error: null }) },
  },
  states: {
    idle: {
      on: {
        'redeem.start': [
          { guard: 'isOffline', actions: 'refuseOffline' },
          // An earlier try of this reward got no answer: settle it before anything else (issue 17).
          {
            guard: 'hasOpenAttempt',
            target: 'redeeming',
            actions: [assign({ uncertain: true, resuming: true }), 'beginAttempt'],
          },
          { target: 'sendingCode' },
        ],
        'redeem.cancel': 'cancelled',
      },
    },
    sendingCode: {
      entry: 'clearError',
      invoke: {
        id: 'sendCode',
        src: 'sendCode',
        input: ({ context }) => ({ userId: context.reward.userId, code: context.reward.code }),
        onDone: { target: 'enteringCode', actions: assign({ sentTo: ({ event }) => event.output.sentTo }) },
        onError: { target: 'sendFailed', actions: 'showError' },
      },
    },
    sendFailed: {
      on: {
        'redeem.retry': [{ guard: 'isOffline', actions: 'refuseOffline' }, { target: 'sendingCode' }],
        'redeem.cancel': 'cancelled',
      },
    },
    // The OTP modal: the invoked `otp` actor owns the six boxes; its output is the checked code.
    enteringCode: {
      invoke: {
        id: 'otp',
        src: 'otp',
        input: ({ context }) => ({
          userId: context.reward.userId,
          code: context.reward.code,
          sentTo: context.sentTo,
          online: context.online,
        }),
        onDone: [
          {
            guard: 'isGiftcard',
            target: 'enteringAmount',
            actions: assign({ otp: ({ event }) => event.output.otp }),
          },
          { target: 'confirming', actions: assign({ otp: ({ event }) => event.output.otp }) },
        ],
      },
      on: {
        'network.offline': {
          actions: [assign({ online: false }), sendTo('otp', { type: 'network.offline' })],
        },
        'network.online': { actions: [assign({ online: true }), sendTo('otp', { type: 'network.online' })] },
        'redeem.cancel': 'cancelled',
      },
    },
    // The Redeem modal, gift card: an amount of at most the balance.
    enteringAmount: {
      on: {
        'redeem.amount': { actions: assign({ amountText: ({ event }) => event.text, amountError: null }) },
        'redeem.submit': [
          { guard: 'isOffline', actions: 'refuseOffline' },
          { guard: 'isAmountInvalid', actions: assign({ amountError: rewardMessages.invalidAmount }) },
          {
            guard: 'isOverBalance',
            actions: assign({
              amountError: ({ context }) => overBalanceMessage(context.reward.balance ?? 0),
            }),
          },
          { target: 'redeeming', actions: 'beginAttempt' },
        ],
        'redeem.cancel': 'cancelled',
      },
    },
    // The Redeem modal, coupon: one confirmation.
    confirming: {
      on: {
        'redeem.confirm': [
          { guard: 'isOffline', actions: 'refuseOffline' },
          { target: 'redeeming', actions: 'beginAttempt' },
        ],
        'redeem.cancel': 'cancelled',
      },
    },
    redeeming: {
      invoke: {
        id: 'redeemReward',
        src: 'redeemReward',
        input: ({ context }) => context.open ?? requestOf(context, context.idempotencyKey ?? ''),
        onDone: {
          target: 'done',
          actions: [
            'settleAttempt',
            assign({
              outcome: ({ context, event }) =>
                context.uncertain ? { ...event.output, message: WENT_THROUGH } : event.output,
            }),
          ],
        },
        onError: [
          // An earlier try settled at the start was refused (e.g. its code was since replaced):
          // nothing was charged; the flow goes on as usual with a code.
          {
            guard: and(['isRefusal', 'isResuming']),
            target: 'sendingCode',
            actions: ['settleAttempt', assign({ uncertain: false, resuming: false })],
          },
          { guard: 'isRefusal', target: 'failed', actions: ['settleAttempt', 'showError'] },
          // No answer: it may have gone through. The attempt stays open.
          { target: 'failed', actions: 'keepUncertain' },
        ],
      },
    },
    failed: {
      on: {
        // The same attempt again: the same key, so a redemption that did go through is not repeated.
        'redeem.retry': [
          { guard: 'isOffline', actions: 'refuseOffline' },
          { target: 'redeeming', actions: 'beginAttempt' },
        ],
        'redeem.back': [
          { guard: 'isGiftcard', target: 'enteringAmount', actions: 'clearError' },
          { target: 'confirming', actions: 'clearError' },
        ],
        'redeem.cancel': 'cancelled',
      },
    },
    done: { type: 'final' },
    cancelled: { type: 'final' },
  },
  output: ({ context }) => context.outcome,
});

export type RedeemActor = ActorRefFrom<typeof redeemMachine>;
