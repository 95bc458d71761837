import { assign, fromPromise, setup } from 'xstate';
import { type ReversalResult, reversalReasonField } from '../../contract/redemption';
import { rewardMessages } from '../../contract/rewards';
import { errorStatus, errorText, fieldErrorsOf } from '../lib/error-message';
import { newIdempotencyKey } from '../lib/idempotency-key';
import { TEXTS } from '../lib/texts';
import { type NetworkEvent, startsOnline } from './flow-support';

/**
 * Reversing a redemption (the Reverse action of a reward's ledger, `rewards.reverse`): a reason is
 * required (the contract's rule, checked before anything is sent); the network is required (offline
 * the dialog says so and sends nothing, never queued); one Idempotency-Key per attempt: a retry of
 * the same reason sends the same key (the server answers it with the first result instead of
 * reversing twice), a changed reason is a new attempt with a new key.
 */

export interface ReversalInput {
  ledgerEntryId: number;
  online?: boolean;
}

export interface ReversalRequest {
  ledgerEntryId: number;
  reason: string;
  idempotencyKey: string;
}

export interface ReversalOutcome {
  result: ReversalResult;
  /** The server's message, shown after success. */
  message: string;
}

export interface ReversalContext {
  ledgerEntryId: number;
  online: boolean;
  reason: string;
  /** The reason's own message (the contract's rule, or the server's words about the field). */
  reasonError: string | null;
  error: string | null;
  /** The attempt sent last: its key is sent again while the reason stays the same. */
  attempt: { reason: string; idempotencyKey: string } | null;
  outcome: ReversalOutcome | null;
}

export type ReversalEvent =
  | { type: 'reversal.reason'; text: string }
  | { type: 'reversal.submit' }
  | { type: 'reversal.cancel' }
  | NetworkEvent;

/** The reason's first problem under the contract's rule, or null when it may be sent. */
export const reasonProblem = (reason: string): string | null => {
  const parsed = reversalReasonField.safeParse(reason);
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? TEXTS.reversal.reasonRequired);
};

const reasonOf = (error: unknown) => fieldErrorsOf(error).find((e) => e.fieldName === 'reason')?.message;

const notProvided = (name: string) => () => Promise.reject(new Error(`${name} is not provided`));

export const reversalMachine = setup({
  types: {
    context: {} as ReversalContext,
    events: {} as ReversalEvent,
    input: {} as ReversalInput,
    output: {} as ReversalOutcome | null,
  },
  actors: {
    reverseRedemption: fromPromise<ReversalOutcome, ReversalRequest>(notProvided('reverseRedemption')),
  },
  actions: {
    goOnline: assign({ online: true }),
    goOffline: assign({ online: false }),
  },
  guards: {
    isReasonInvalid: ({ context }) => reasonProblem(context.reason) !== null,
    isOffline: ({ context }) => !context.online,
    isReasonRefused: ({ event }) => reasonOf((event as { error?: unknown }).error) !== undefined,
    isNoAnswer: ({ event }) => errorStatus((event as { error?: unknown }).error) === 0,
  },
}).createMachine({
  id: 'reversal',
  context: ({ input }) => ({
    ledgerEntryId: input.ledgerEntryId,
    online: startsOnline(input.online),
    reason: '',
    reasonError: null,
    error: null,
    attempt: null,
    outcome: null,
  }),
  initial: 'editing',
  on: {
    'network.offline': { actions: 'goOffline' },
    'network.online': { actions: 'goOnline' },
  },
  states: {
    editing: {
      on: {
        'reversal.reason': { actions: assign({ reason: ({ event }) => event.text, reasonError: null }) },
        'reversal.submit': [
          {
            guard: 'isReasonInvalid',
            actions: assign({ reasonError: ({ context }) => reasonProblem(context.reason), error: null }),
          },
          { guard: 'isOffline', actions: assign({ error: rewardMessages.networkRequired }) },
          {
            target: 'reversing',
            actions: assign(({ context }) => {
              const reason = reversalReasonField.parse(context.reason);
              const idempotencyKey =
                context.attempt?.reason === reason ? context.attempt.idempotencyKey : newIdempotencyKey();
              return { error: null, reasonError: null, attempt: { reason, idempotencyKey } };
            }),
          },
        ],
        'reversal.cancel': 'cancelled',
      },
    },
    reversing: {
      invoke: {
        id: 'reverseRedemption',
        src: 'reverseRedemption',
        input: ({ context }) => ({
          ledgerEntryId: context.ledgerEntryId,
          reason: context.attempt?.reason ?? '',
          idempotencyKey: context.attempt?.idempotencyKey ?? '',
        }),
        onDone: { target: 'done', actions: assign({ outcome: ({ event }) => event.output }) },
        onError: [
          {
            guard: 'isReasonRefused',
            target: 'editing',
            actions: assign({ reasonError: ({ event }) => reasonOf(event.error) ?? null }),
          },
          { guard: 'isNoAnswer', target: 'editing', actions: assign({ error: TEXTS.reversal.noAnswer }) },
          { target: 'editing', actions: assign({ error: ({ event }) => errorText(event.error) }) },
        ],
      },
    },
    done: { type: 'final' },
    cancelled: { type: 'final' },
  },
  output: ({ context }) => context.outcome,
});
