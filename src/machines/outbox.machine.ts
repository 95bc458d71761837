import { type ActorRefFrom, assign, fromPromise, setup } from 'xstate';
import type { QueuedEntry } from '../db/app-db';
import { errorStatus, errorText } from '../lib/error-message';
import { type ConflictOutput, conflictMachine, isConflictError } from './conflict.machine';
import { type NetworkEvent, startsOnline } from './flow-support';

/**
 * The outbox (issue 6, docs/product.md#spa): edits saved on this device while the network was gone are
 * sent in order, one at a time, each exactly once (its Idempotency-Key makes a resend after a lost
 * answer a replay). It sends when the network returns (the browser's online event) and, while the
 * browser believes it is online but calls fail, again after a growing pause (2 s, 4 s ... 60 s).
 * A 409 (the record changed on the server meanwhile) stops the queue until the user chooses in the
 * `conflict` machine (invoked as `choice`): keep mine (send again against the server's version) or
 * use theirs (the entry is discarded). Any other refusal
 * (a 4xx: validation, not found, forbidden) marks the entry failed, for the user to retry or discard;
 * the queue goes on with the next. Effects are named actors provided by the app.
 */

export interface OutboxInput {
  userId: number;
  online?: boolean;
}

export interface OutboxConflict {
  entry: QueuedEntry;
  /** The record as the server has it now (the 409's data, or read after it). */
  current: unknown;
}

export interface OutboxContext {
  userId: number;
  online: boolean;
  /** The user's entries as last read from IndexedDB, oldest first. */
  entries: QueuedEntry[];
  /** Consecutive failed tries (network down, server error): the pause before the next one. */
  attempt: number;
  /** The entry an effect acts on (mark, discard). */
  target: number | null;
  conflict: OutboxConflict | null;
  /** The last failure, as the panel shows it. */
  error: string | null;
  /** Entries sent since start (figures for the panel and the tests). */
  sent: number;
  /**
   * Refused entries whose "failed" mark could not be written (IndexedDB refused the write), with the
   * refusal: read back as pending, they are held as failed for this session, never sent again on
   * their own (the user's Retry or Discard acts on them as on any failed entry).
   */
  refusedHere: Record<number, string | null>;
}

export type OutboxEvent =
  /** Something was queued or changed in IndexedDB (a form, another tab). */
  | { type: 'outbox.changed' }
  | { type: 'outbox.retry'; id: number }
  | { type: 'outbox.discard'; id: number }
  | NetworkEvent;

/** The pause before try n (1-based): 2 s, 4 s, 8 s ... at most 60 s. */
export const retryDelay = (attempt: number): number => Math.min(60_000, 1000 * 2 ** Math.max(1, attempt));

/** The entries as read, with those refused in this session but not marked in IndexedDB shown failed. */
export const withRefusedHere = (
  entries: readonly QueuedEntry[],
  refusedHere: OutboxContext['refusedHere'],
): QueuedEntry[] =>
  entries.map((e) =>
    e.id in refusedHere && e.status !== 'failed'
      ? { ...e, status: 'failed' as const, error: refusedHere[e.id] }
      : e,
  );

/** The next entry to send: the oldest one not failed. */
export const nextPending = (entries: readonly QueuedEntry[]): QueuedEntry | undefined =>
  entries.find((e) => e.status !== 'failed');

export { isConflictError };

/** Worth trying again later: no answer, the server failing or busy, or the session being renewed. */
export const isRetryableError = (error: unknown): boolean => {
  const status = errorStatus(error);
  return status === undefined || status === 0 || status >= 500 || [401, 408, 409, 429].includes(status);
};

const notProvided = (name: string) => () => Promise.reject(new Error(`${name} is not provided`));

export const outboxMachine = setup({
  types: {
    context: {} as OutboxContext,
    events: {} as OutboxEvent,
    input: {} as OutboxInput,
  },
  actors: {
    loadEntries: fromPromise<QueuedEntry[], { userId: number }>(notProvided('loadEntries')),
    /** Sends the entry (key, If-Match); on success removes it and moves later edits of the record on. */
    sendEntry: fromPromise<unknown, { entry: QueuedEntry }>(notProvided('sendEntry')),
    markEntry: fromPromise<void, { id: number; status: 'pending' | 'failed'; error: string | null }>(
      notProvided('markEntry'),
    ),
    /** Removes the entry and refreshes what it changed (discard, or 'use theirs'). */
    discardEntry: fromPromise<void, { id: number }>(notProvided('discardEntry')),
    /**
     * The user's choice at a 409 (src/machines/conflict.machine.ts); the app provides it with its
     * keepMine effect: the entry sent again against the server's current version.
     */
    choice: conflictMachine,
    retryTimer: fromPromise<void, { attempt: number }>(
      ({ input }) => new Promise((resolve) => setTimeout(resolve, retryDelay(input.attempt))),
    ),
    /**
     * Issue 17: resolves when the link comes back after an outage (a cheap call that got no answer
     * answers again), so the queue resumes within about a second instead of waiting out its backoff.
     */
    linkBack: fromPromise<void, void>(() => new Promise(() => {})),
  },
  actions: {
    goOnline: assign({ online: true }),
    goOffline: assign({ online: false }),
    target: assign({ target: ({ event }) => ('id' in event ? event.id : null) }),
    storeEntries: assign({
      entries: ({ context, event }) =>
        withRefusedHere((event as { output?: QueuedEntry[] }).output ?? [], context.refusedHere),
    }),
  },
  guards: {
    /** Just read: online, and something to send. */
    canSendLoaded: ({ context, event }) =>
      context.online &&
      nextPending(
        withRefusedHere((event as { output?: QueuedEntry[] }).output ?? [], context.refusedHere),
      ) !== undefined,
    hasPending: ({ context }) => nextPending(context.entries) !== undefined,
    isConflict: ({ event }) => isConflictError((event as { error?: unknown }).error),
    isRetryable: ({ event }) => isRetryableError((event as { error?: unknown }).error),
    isConflictEntry: ({ context, event }) =>
      event.type === 'outbox.discard' && context.conflict?.entry.id === event.id,
    isDropped: ({ event }) => (event as { output?: ConflictOutput }).output?.choice === 'dropped',
  },
}).createMachine({
  id: 'outbox',
  context: ({ input }) => ({
    userId: input.userId,
    online: startsOnline(input.online),
    entries: [],
    attempt: 0,
    target: null,
    conflict: null,
    error: null,
    sent: 0,
    refusedHere: {},
  }),
  initial: 'loading',
  on: {
    'network.offline': { actions: 'goOffline' },
    'network.online': { actions: 'goOnline' },
  },
  states: {
    loading: {
      invoke: {
        id: 'loadEntries',
        src: 'loadEntries',
        input: ({ context }) => ({ userId: context.userId }),
        onDone: [
          { guard: 'canSendLoaded', target: 'sending', actions: 'storeEntries' },
          { target: 'idle', actions: 'storeEntries' },
        ],
        onError: { target: 'idle', actions: assign({ error: ({ event }) => errorText(event.error) }) },
      },
    },
    idle: {
      on: {
        'outbox.changed': 'loading',
        'network.online': [
          { guard: 'hasPending', target: 'sending', actions: 'goOnline' },
          { actions: 'goOnline' },
        ],
        'outbox.retry': { target: 'retrying', actions: 'target' },
        'outbox.discard': { target: 'discarding', actions: 'target' },
      },
    },
    sending: {
      invoke: {
        id: 'sendEntry',
        src: 'sendEntry',
        input: ({ context }) => ({ entry: nextPending(context.entries) as QueuedEntry }),
        onDone: {
          target: 'loading',
          actions: assign({ attempt: 0, error: null, sent: ({ context }) => context.sent + 1 }),
        },
        onError: [
          {
            guard: 'isConflict',
            target: 'conflict',
            actions: assign({
              conflict: ({ context, event }) => ({
                entry: nextPending(context.entries) as QueuedEntry,
                current: (event.error as { current?: unknown }).current ?? null,
              }),
              attempt: 0,
              error: ({ event }) => errorText(event.error),
            }),
          },
          {
            guard: 'isRetryable',
            target: 'backoff',
            actions: assign({
              attempt: ({ context }) => context.attempt + 1,
              error: ({ event }) => errorText(event.error),
            }),
          },
          {
            target: 'failing',
            actions: assign({
              target: ({ context }) => nextPending(context.entries)?.id ?? null,
              error: ({ event }) => errorText(event.error),
            }),
          },
        ],
      },
    },
    // Calls fail though the browser says online (a weak network, a restarting server): wait, try again.
    backoff: {
      invoke: [
        {
          id: 'retryTimer',
          src: 'retryTimer',
          input: ({ context }) => ({ attempt: context.attempt }),
          onDone: 'loading',
        },
        { id: 'linkBack', src: 'linkBack', onDone: 'loading' },
      ],
      on: {
        'outbox.changed': 'loading',
        'network.online': { target: 'loading', actions: 'goOnline' },
        'outbox.retry': { target: 'retrying', actions: 'target' },
        'outbox.discard': { target: 'discarding', actions: 'target' },
      },
    },
    failing: {
      invoke: {
        id: 'markEntry',
        src: 'markEntry',
        input: ({ context }) => ({
          id: context.target ?? -1,
          status: 'failed' as const,
          error: context.error,
        }),
        onDone: 'loading',
        // Not written: held as failed in memory, or the next read would send the refused edit again.
        onError: {
          target: 'loading',
          actions: assign({
            refusedHere: ({ context }) =>
              context.target === null
                ? context.refusedHere
                : { ...context.refusedHere, [context.target]: context.error },
          }),
        },
      },
    },
    retrying: {
      entry: assign({
        attempt: 0,
        error: null,
        refusedHere: ({ context }) =>
          Object.fromEntries(
            Object.entries(context.refusedHere).filter(([id]) => Number(id) !== context.target),
          ),
      }),
      invoke: {
        id: 'markEntry',
        src: 'markEntry',
        input: ({ context }) => ({ id: context.target ?? -1, status: 'pending' as const, error: null }),
        onDone: 'loading',
        onError: 'loading',
      },
    },
    discarding: {
      invoke: {
        id: 'discardEntry',
        src: 'discardEntry',
        input: ({ context }) => ({ id: context.target ?? -1 }),
        onDone: { target: 'loading', actions: assign({ conflict: null, error: null }) },
        onError: { target: 'loading', actions: assign({ conflict: null }) },
      },
    },
    // The queue waits for the user: the server's record changed since the edit was made.
    conflict: {
      invoke: {
        id: 'choice',
        src: 'choice',
        input: ({ context }) => ({
          label: context.conflict?.entry.label ?? '',
          mine: context.conflict?.entry.body,
          theirs: context.conflict?.current,
          subject: context.conflict?.entry,
        }),
        onDone: [
          // 'Use theirs': the entry is discarded (and what it changed refreshed).
          {
            guard: 'isDropped',
            target: 'discarding',
            actions: assign({ target: ({ context }) => context.conflict?.entry.id ?? null }),
          },
          // 'Keep mine' sent (or refused: then the queue reads the entry as it is now).
          { target: 'loading', actions: assign({ conflict: null, error: null }) },
        ],
      },
      on: {
        'outbox.discard': { guard: 'isConflictEntry', target: 'discarding', actions: 'target' },
      },
    },
  },
});

export type OutboxActor = ActorRefFrom<typeof outboxMachine>;
