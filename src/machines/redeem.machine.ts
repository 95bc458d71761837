import { type ActorRefFrom, assign, fromPromise, sendTo, setup } from 'xstate';
import { type RedemptionResult, redeemAmountInput } from '../../contract/redemption';
import { rewardMessages } from '../../contract/rewards';
import { formatNaira } from '../lib/format';
import { errorText, type NetworkEvent, startsOnline } from './flow-support';
import { newIdempotencyKey } from './idempotency-key';
import { type CodeSent, otpMachine } from './otp.machine';

/**
 * A partner redeems a known reward (SPEC section 4 'Redemption'): send the customer a code, check it
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
    /** A new attempt of the money call gets a new key; a retry keeps the one it has. */
    newAttempt: assign({ idempotencyKey: () => newIdempotencyKey(), error: null }),
  },
  guards: {
    isOffline: ({ context }) => !context.online,
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
  }),
  initial: 'idle',
  on: {
    'network.offline': { actions: assign({ online: false }) },
    'network.online': { actions: assign({ online: true, error: null }) },
  },
  states: {
    idle: {
      on: {
        'redeem.start': [{ guard: 'isOffline', actions: 'refuseOffline' }, { target: 'sendingCode' }],
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
          { target: 'redeeming', actions: 'newAttempt' },
        ],
        'redeem.cancel': 'cancelled',
      },
    },
    // The Redeem modal, coupon: one confirmation.
    confirming: {
      on: {
        'redeem.confirm': [
          { guard: 'isOffline', actions: 'refuseOffline' },
          { target: 'redeeming', actions: 'newAttempt' },
        ],
        'redeem.cancel': 'cancelled',
      },
    },
    redeeming: {
      invoke: {
        id: 'redeemReward',
        src: 'redeemReward',
        input: ({ context }) => ({
          rewardType: context.reward.rewardType,
          userId: context.reward.userId,
          code: context.reward.code,
          otp: context.otp ?? '',
          ...(context.reward.rewardType === 'GIFTCARD'
            ? { amountToRedeem: Number(context.amountText.trim()) }
            : {}),
          idempotencyKey: context.idempotencyKey ?? '',
        }),
        onDone: { target: 'done', actions: assign({ outcome: ({ event }) => event.output }) },
        onError: { target: 'failed', actions: 'showError' },
      },
    },
    failed: {
      on: {
        // The same attempt again: the same key, so a redemption that did go through is not repeated.
        'redeem.retry': [
          { guard: 'isOffline', actions: 'refuseOffline' },
          { target: 'redeeming', actions: 'clearError' },
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
