import { type ActorRefFrom, assign, fromPromise, setup } from 'xstate';
import { concurrencyMessages } from '../../contract/concurrency';
import { errorStatus, errorText } from '../lib/error-message';

/**
 * The 409 choice (decision 010): an edit met a record changed on the server after it was read. The
 * user keeps theirs ('Keep mine': the edit is sent again naming the server's current version; a
 * further change meanwhile asks again, with the newer record) or takes the server's ('Use theirs':
 * the edit is dropped). One machine for both places an edit meets a 409: the outbox's queue (it
 * invokes this machine while it waits, src/machines/outbox.machine.ts) and an online form's save
 * (src/components/outbox-edit.tsx). What 'Use theirs' does (drop the queued entry, refresh the form) is
 * its caller's, on the output.
 */

export interface ConflictInput {
  /** What the edit was, as the user named it ('Edit partner Eko Grill House'). */
  label: string;
  /** The edit's body. */
  mine: unknown;
  /** The record as the server has it now (the 409's data). */
  theirs: unknown;
  /** What the caller's keepMine effect needs besides (the outbox: the queued entry). */
  subject?: unknown;
  /** An online form's dialog may be closed (the form stays, unsaved); the queue's may not. */
  closable?: boolean;
}

export interface ConflictContext {
  label: string;
  mine: unknown;
  theirs: unknown;
  closable: boolean;
  subject: unknown;
  /** Why 'Keep mine' failed (any refusal but a 409 'changed'). */
  error: string | null;
  /** What 'Keep mine' answered. */
  result?: unknown;
  /** Set by the final state reached. */
  choice?: ConflictChoice;
}

export type ConflictChoice = 'kept' | 'dropped' | 'closed' | 'failed';

export interface ConflictOutput {
  choice: ConflictChoice;
  /** 'kept': what the keepMine effect answered. */
  result?: unknown;
  /** The record as last shown ('dropped': what the form shows now). */
  theirs: unknown;
  error: string | null;
}

export interface KeepMineInput {
  mine: unknown;
  theirs: unknown;
  subject: unknown;
}

export type ConflictEvent =
  | { type: 'conflict.keepMine' }
  | { type: 'conflict.useTheirs' }
  | { type: 'conflict.close' };

/** A 409 saying the record changed (not another 409, e.g. the same key still in flight elsewhere). */
export const isConflictError = (error: unknown): boolean =>
  errorStatus(error) === 409 && errorText(error) === concurrencyMessages.recordChanged;

const notProvided = (name: string) => () => Promise.reject(new Error(`${name} is not provided`));

export const conflictMachine = setup({
  types: {
    context: {} as ConflictContext,
    events: {} as ConflictEvent,
    input: {} as ConflictInput,
    output: {} as ConflictOutput,
  },
  actors: {
    /** Sends the edit again against the server's version (`theirs`); answers what the send answered. */
    keepMine: fromPromise<unknown, KeepMineInput>(notProvided('keepMine')),
  },
  guards: {
    isClosable: ({ context }) => context.closable,
    /** Changed again meanwhile: the 409 carries the newer record. */
    isConflictAgain: ({ event }) => isConflictError((event as { error?: unknown }).error),
  },
}).createMachine({
  id: 'conflict',
  context: ({ input }) => ({
    label: input.label,
    mine: input.mine,
    theirs: input.theirs,
    closable: input.closable ?? false,
    subject: input.subject,
    error: null,
  }),
  initial: 'choosing',
  states: {
    choosing: {
      on: {
        'conflict.keepMine': 'keeping',
        'conflict.useTheirs': 'dropped',
        'conflict.close': { guard: 'isClosable', target: 'closed' },
      },
    },
    keeping: {
      invoke: {
        id: 'keepMine',
        src: 'keepMine',
        input: ({ context }) => ({ mine: context.mine, theirs: context.theirs, subject: context.subject }),
        onDone: { target: 'kept', actions: assign({ result: ({ event }) => event.output }) },
        onError: [
          {
            guard: 'isConflictAgain',
            target: 'choosing',
            actions: assign({
              theirs: ({ context, event }) =>
                (event.error as { current?: unknown }).current ?? context.theirs,
            }),
          },
          { target: 'failed', actions: assign({ error: ({ event }) => errorText(event.error) }) },
        ],
      },
    },
    kept: { type: 'final', entry: assign({ choice: 'kept' as const }) },
    dropped: { type: 'final', entry: assign({ choice: 'dropped' as const }) },
    closed: { type: 'final', entry: assign({ choice: 'closed' as const }) },
    failed: { type: 'final', entry: assign({ choice: 'failed' as const }) },
  },
  output: ({ context }) => ({
    choice: context.choice ?? 'closed',
    result: context.result,
    theirs: context.theirs,
    error: context.error,
  }),
});

export type ConflictActor = ActorRefFrom<typeof conflictMachine>;
