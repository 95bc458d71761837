import { afterEach, describe, expect, it, vi } from 'vitest';
import { type AnyActorRef, createActor, fromPromise } from 'xstate';
import { concurrencyMessages } from '../../contract/concurrency';
import type { QueuedEntry } from '../db/app-db';
import { conflictMachine } from './conflict.machine';
import { waitForLinkBack } from './flow-support';
import { isConflictError, isRetryableError, outboxMachine, retryDelay } from './outbox.machine';

const entry = (id: number): QueuedEntry => ({
  id,
  idempotencyKey: `key-${id}`,
  method: 'PATCH',
  path: '/admin/user/customers',
  body: { customerId: 42, address: `${id} Marina` },
  createdAt: id,
  userId: 1,
  status: 'pending',
});

afterEach(() => vi.useRealTimers());

describe('outbox machine', () => {
  it('pauses 2 s, 4 s, 8 s ... at most 60 s between tries', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 10].map(retryDelay)).toEqual([
      2000, 4000, 8000, 16_000, 32_000, 60_000, 60_000, 60_000,
    ]);
  });

  it('tells a changed record from other 409s, and what is worth retrying', () => {
    expect(isConflictError({ status: 409, message: concurrencyMessages.recordChanged, errors: [] })).toBe(
      true,
    );
    const inFlight = {
      status: 409,
      message: 'A request with this Idempotency-Key is in progress',
      errors: [],
    };
    expect(isConflictError(inFlight)).toBe(false);
    expect(isRetryableError(inFlight)).toBe(true);
    expect(isRetryableError({ status: 0, message: 'Network Error' })).toBe(true);
    expect(isRetryableError({ status: 502, message: 'Bad Gateway' })).toBe(true);
    expect(isRetryableError({ status: 400, message: 'Validation failed' })).toBe(false);
    expect(isRetryableError({ status: 404, message: 'Partner not found' })).toBe(false);
  });

  it('sends in order, one at a time; a failed try is repeated after the pause with the same key', async () => {
    vi.useFakeTimers();
    const stored = [entry(1), entry(2)];
    const sent: string[] = [];
    let failNext = true;
    const actor = createActor(
      outboxMachine.provide({
        actors: {
          loadEntries: fromPromise(async () => [...stored]),
          sendEntry: fromPromise(async ({ input }) => {
            sent.push(input.entry.idempotencyKey);
            if (failNext) {
              failNext = false;
              throw { status: 0, message: 'Network Error', errors: [] };
            }
            stored.splice(stored.indexOf(input.entry), 1);
            return null;
          }),
        },
      }),
      { input: { userId: 1, online: true } },
    ).start();
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().value).toBe('backoff');
    expect(sent).toEqual(['key-1']);
    await vi.advanceTimersByTimeAsync(1999);
    expect(sent).toEqual(['key-1']);
    await vi.advanceTimersByTimeAsync(1);
    expect(sent).toEqual(['key-1', 'key-1', 'key-2']);
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context.sent).toBe(2);
    actor.stop();
  });

  it('offline it sends nothing; the online event starts the queue', async () => {
    const sent: number[] = [];
    const actor = createActor(
      outboxMachine.provide({
        actors: {
          loadEntries: fromPromise(async () => (sent.length ? [] : [entry(1)])),
          sendEntry: fromPromise(async ({ input }) => {
            sent.push(input.entry.id);
          }),
        },
      }),
      { input: { userId: 1, online: false } },
    ).start();
    await new Promise((r) => setTimeout(r, 0));
    expect(actor.getSnapshot().value).toBe('idle');
    expect(sent).toEqual([]);
    actor.send({ type: 'network.online' });
    await new Promise((r) => setTimeout(r, 0));
    expect(sent).toEqual([1]);
    actor.stop();
  });

  it('issue 17, defect 8: after an outage it resumes within 2 s of the link returning, not after its backoff', async () => {
    vi.useFakeTimers();
    const stored = [entry(1)];
    const sent: number[] = [];
    let linkUp = false;
    let attempts = 0;
    const actor = createActor(
      outboxMachine.provide({
        actors: {
          loadEntries: fromPromise(async () => [...stored]),
          sendEntry: fromPromise(async ({ input }) => {
            attempts += 1;
            if (!linkUp) throw { status: 0, message: 'Network Error', errors: [] };
            sent.push(input.entry.id);
            stored.splice(stored.indexOf(input.entry), 1);
          }),
          linkBack: fromPromise(({ signal }) => waitForLinkBack(async () => linkUp, { signal })),
        },
      }),
      { input: { userId: 1, online: true } },
    ).start();
    // An outage of a minute: the backoff has grown to 32 s and more.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(attempts).toBeGreaterThanOrEqual(4);
    expect(actor.getSnapshot().value).toBe('backoff');
    linkUp = true;
    await vi.advanceTimersByTimeAsync(2000);
    expect(sent).toEqual([1]);
    expect(actor.getSnapshot().value).toBe('idle');
    actor.stop();
  });

  it('a link that never went down does not cut the backoff short (no hammering on a lossy link)', async () => {
    vi.useFakeTimers();
    let attempts = 0;
    const actor = createActor(
      outboxMachine.provide({
        actors: {
          loadEntries: fromPromise(async () => [entry(1)]),
          sendEntry: fromPromise(async (): Promise<unknown> => {
            attempts += 1;
            throw { status: 502, message: 'Bad Gateway', errors: [] };
          }),
          linkBack: fromPromise(({ signal }) => waitForLinkBack(async () => true, { signal })),
        },
      }),
      { input: { userId: 1, online: true } },
    ).start();
    await vi.advanceTimersByTimeAsync(2000 + 4000 - 1);
    expect(attempts).toBe(2);
    actor.stop();
  });
});

/** A promise the test settles by hand: an effect still under way while the test sends events. */
const deferred = <T = void>() => {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
};

const refusal = (status: number, message: string) => ({ status, message, errors: [] });
/** The server's 409 when the record changed meanwhile: its current record comes with it. */
const changed = (current: unknown) => ({
  status: 409,
  message: concurrencyMessages.recordChanged,
  errors: [],
  current,
});

interface Call {
  name: string;
  input: unknown;
}

interface QueueOptions {
  userId?: number;
  online?: boolean;
  /** What the server answers to each try of an entry, in order; a success once these run out. */
  answers?: Record<number, unknown[]>;
  /** Holds an effect until the test settles it. */
  holdLoad?: () => Promise<void>;
  holdSend?: (id: number) => Promise<void> | undefined;
  holdMark?: () => Promise<void>;
  loadFails?: unknown[];
  discardFails?: unknown;
  markFails?: unknown;
  linkBack?: () => Promise<void>;
}

/**
 * The outbox over a fake IndexedDB (`stored`) and a fake server: sending an entry the server accepts
 * removes it; marking and discarding change the store as the app's effects do.
 */
const startQueue = (initial: QueuedEntry[], options: QueueOptions = {}) => {
  const stored = initial.map((e) => ({ ...e }));
  const calls: Call[] = [];
  const answers = Object.fromEntries(Object.entries(options.answers ?? {}).map(([k, v]) => [k, [...v]]));
  const loadFails = [...(options.loadFails ?? [])];
  const remove = (id: number) => {
    const at = stored.findIndex((e) => e.id === id);
    if (at >= 0) stored.splice(at, 1);
  };
  const actor = createActor(
    outboxMachine.provide({
      actors: {
        loadEntries: fromPromise(async ({ input }) => {
          calls.push({ name: 'loadEntries', input });
          await options.holdLoad?.();
          if (loadFails.length) throw loadFails.shift();
          return stored.map((e) => ({ ...e }));
        }),
        sendEntry: fromPromise(async ({ input }) => {
          calls.push({ name: 'sendEntry', input });
          await options.holdSend?.(input.entry.id);
          const answer = answers[input.entry.id]?.shift();
          if (answer) throw answer;
          remove(input.entry.id);
          return null;
        }),
        markEntry: fromPromise(async ({ input }) => {
          calls.push({ name: 'markEntry', input });
          await options.holdMark?.();
          if (options.markFails) throw options.markFails;
          const e = stored.find((x) => x.id === input.id);
          if (e) Object.assign(e, { status: input.status, error: input.error });
        }),
        discardEntry: fromPromise(async ({ input }) => {
          calls.push({ name: 'discardEntry', input });
          if (options.discardFails) throw options.discardFails;
          remove(input.id);
        }),
        choice: conflictMachine.provide({
          actors: {
            // Keep mine: sent again naming the server's version; the server takes it.
            keepMine: fromPromise(async ({ input }) => {
              calls.push({ name: 'keepMine', input });
              remove((input.subject as QueuedEntry).id);
              return null;
            }),
          },
        }),
        ...(options.linkBack ? { linkBack: fromPromise(() => options.linkBack?.() as Promise<void>) } : {}),
      },
    }),
    { input: { userId: options.userId ?? 1, online: options.online ?? true } },
  ).start();
  const of = (name: string) => calls.filter((c) => c.name === name).map((c) => c.input);
  return {
    actor,
    stored,
    of,
    /** The ids sent, in order (one per try). */
    sent: () => of('sendEntry').map((i) => (i as { entry: QueuedEntry }).entry.id),
    state: () => actor.getSnapshot().value,
    context: () => actor.getSnapshot().context,
    /** The conflict dialog's machine, while the queue waits for the user. */
    dialog: () => (actor.getSnapshot().children as Record<string, AnyActorRef | undefined>).choice,
  };
};

const settle = () => vi.advanceTimersByTimeAsync(0);

describe('outbox machine: the queue', () => {
  it('what is worth trying again: no status at all, and every 5xx from 500; a 499 and other 4xx are not', () => {
    expect(isRetryableError(new TypeError('Failed to fetch'))).toBe(true);
    expect(isRetryableError({ status: 500, message: 'Internal Server Error' })).toBe(true);
    expect(isRetryableError({ status: 503, message: 'Service Unavailable' })).toBe(true);
    for (const status of [401, 408, 429]) expect(isRetryableError({ status, message: '' })).toBe(true);
    for (const status of [499, 422, 403]) expect(isRetryableError({ status, message: '' })).toBe(false);
  });

  it("reads the signed-in user's entries and sends each once, oldest first, then rests", async () => {
    vi.useFakeTimers();
    const q = startQueue([entry(1), entry(2), entry(3)], { userId: 7 });
    await settle();
    expect(q.of('loadEntries')[0]).toEqual({ userId: 7 });
    expect(q.sent()).toEqual([1, 2, 3]);
    expect(q.state()).toBe('idle');
    expect(q.context()).toMatchObject({ sent: 3, entries: [], error: null, attempt: 0 });
    await vi.advanceTimersByTimeAsync(120_000);
    expect(q.sent()).toEqual([1, 2, 3]);
    q.actor.stop();
  });

  it.each([400, 404, 499])(
    "a %i marks that entry failed with the server's words; the queue goes on and never sends it again",
    async (status) => {
      vi.useFakeTimers();
      const q = startQueue([entry(1), entry(2)], {
        answers: { 1: [refusal(status, 'Address is required.')] },
      });
      await settle();
      expect(q.of('markEntry')).toEqual([{ id: 1, status: 'failed', error: 'Address is required.' }]);
      expect(q.sent()).toEqual([1, 2]);
      expect(q.state()).toBe('idle');
      expect(q.context().entries).toEqual([{ ...entry(1), status: 'failed', error: 'Address is required.' }]);
      // Nothing left to send: neither the link coming back nor the pause sends the failed entry.
      q.actor.send({ type: 'network.online' });
      await vi.advanceTimersByTimeAsync(120_000);
      expect(q.sent()).toEqual([1, 2]);
      expect(q.state()).toBe('idle');
      q.actor.stop();
    },
  );

  it('a refused entry whose marking fails does not stop the queue, and is not sent again', async () => {
    vi.useFakeTimers();
    // The server would take entry 1 on a second try: were it sent again, the refused edit would land.
    const q = startQueue([entry(1), entry(2)], {
      answers: { 1: [refusal(400, 'Address is required.')] },
      markFails: new Error('QuotaExceededError'),
    });
    await settle();
    expect(q.of('markEntry')).toEqual([{ id: 1, status: 'failed', error: 'Address is required.' }]);
    // The queue reads the store again (the entry is still there, unmarked), reaches entry 2, and
    // holds entry 1 as failed for this session: a refusal is never sent again on its own.
    expect(q.sent()).toEqual([1, 2]);
    expect(q.state()).toBe('idle');
    expect(q.context().entries).toEqual([{ ...entry(1), status: 'failed', error: 'Address is required.' }]);
    q.actor.send({ type: 'outbox.changed' });
    q.actor.send({ type: 'network.online' });
    await vi.advanceTimersByTimeAsync(120_000);
    expect(q.sent()).toEqual([1, 2]);
    // The user's Retry sends it again (the marking still fails; the send does not need it).
    q.actor.send({ type: 'outbox.retry', id: 1 });
    await settle();
    expect(q.sent()).toEqual([1, 2, 1]);
    expect(q.stored).toEqual([]);
    q.actor.stop();
  });

  it('a 500 is tried again after the pause, with the server failing shown, and not marked', async () => {
    vi.useFakeTimers();
    const q = startQueue([entry(1)], { answers: { 1: [refusal(500, 'Internal Server Error')] } });
    await settle();
    expect(q.state()).toBe('backoff');
    expect(q.context()).toMatchObject({ attempt: 1, error: 'Internal Server Error' });
    expect(q.of('markEntry')).toEqual([]);
    await vi.advanceTimersByTimeAsync(2000);
    expect(q.sent()).toEqual([1, 1]);
    expect(q.state()).toBe('idle');
    expect(q.context()).toMatchObject({ attempt: 0, error: null, sent: 1 });
    q.actor.stop();
  });

  it('the link dropping while an entry is in flight: that one completes, the next waits for the link', async () => {
    vi.useFakeTimers();
    const first = deferred();
    const q = startQueue([entry(1), entry(2)], { holdSend: (id) => (id === 1 ? first.promise : undefined) });
    await settle();
    expect(q.state()).toBe('sending');
    q.actor.send({ type: 'network.offline' });
    expect(q.context().online).toBe(false);
    first.resolve();
    await vi.advanceTimersByTimeAsync(120_000);
    expect(q.sent()).toEqual([1]);
    expect(q.state()).toBe('idle');
    expect(q.context().entries.map((e) => e.id)).toEqual([2]);
    q.actor.send({ type: 'network.online' });
    await settle();
    expect(q.sent()).toEqual([1, 2]);
    q.actor.stop();
  });

  it('offline, a newly queued edit is read but not sent', async () => {
    vi.useFakeTimers();
    const q = startQueue([], { online: true });
    await settle();
    q.actor.send({ type: 'network.offline' });
    q.stored.push(entry(1));
    q.actor.send({ type: 'outbox.changed' });
    await settle();
    expect(q.state()).toBe('idle');
    expect(q.context().entries.map((e) => e.id)).toEqual([1]);
    expect(q.sent()).toEqual([]);
    q.actor.stop();
  });

  it('the link coming back while the queue is being read: it sends what it read', async () => {
    vi.useFakeTimers();
    const read = deferred();
    const q = startQueue([entry(1)], { online: false, holdLoad: () => read.promise });
    await settle();
    expect(q.state()).toBe('loading');
    q.actor.send({ type: 'network.online' });
    read.resolve();
    await settle();
    expect(q.sent()).toEqual([1]);
    q.actor.stop();
  });

  it('online with nothing to send, it remembers the link: a later edit goes at once', async () => {
    vi.useFakeTimers();
    const q = startQueue([], { online: false });
    await settle();
    q.actor.send({ type: 'network.online' });
    expect(q.state()).toBe('idle');
    expect(q.context().online).toBe(true);
    q.stored.push(entry(1));
    q.actor.send({ type: 'outbox.changed' });
    await settle();
    expect(q.sent()).toEqual([1]);
    q.actor.stop();
  });

  it('a failed read leaves the queue idle with the reason; the next change reads again and sends', async () => {
    vi.useFakeTimers();
    const q = startQueue([entry(1)], { loadFails: [new Error('Database closed')] });
    await settle();
    expect(q.state()).toBe('idle');
    expect(q.context().error).toBe('Database closed');
    expect(q.sent()).toEqual([]);
    q.actor.send({ type: 'outbox.changed' });
    await settle();
    expect(q.sent()).toEqual([1]);
    expect(q.context().error).toBeNull();
    q.actor.stop();
  });

  it('Retry on a failed entry marks it pending, clears the error and sends it', async () => {
    vi.useFakeTimers();
    let markGate: ReturnType<typeof deferred<void>> | null = null;
    const q = startQueue([entry(1)], {
      answers: { 1: [refusal(400, 'Address is required.')] },
      holdMark: () => markGate?.promise ?? Promise.resolve(),
    });
    await settle();
    expect(q.state()).toBe('idle');
    expect(q.context().error).toBe('Address is required.');
    markGate = deferred();
    q.actor.send({ type: 'outbox.retry', id: 1 });
    expect(q.state()).toBe('retrying');
    expect(q.context()).toMatchObject({ target: 1, error: null, attempt: 0 });
    markGate.resolve();
    await settle();
    expect(q.of('markEntry')).toEqual([
      { id: 1, status: 'failed', error: 'Address is required.' },
      { id: 1, status: 'pending', error: null },
    ]);
    expect(q.sent()).toEqual([1, 1]);
    expect(q.state()).toBe('idle');
    expect(q.stored).toEqual([]);
    q.actor.stop();
  });

  it('a Retry whose marking fails still reads the queue again (it does not hang)', async () => {
    vi.useFakeTimers();
    const q = startQueue([{ ...entry(1), status: 'failed', error: 'Address is required.' }], {
      markFails: new Error('QuotaExceededError'),
    });
    await settle();
    q.actor.send({ type: 'outbox.retry', id: 1 });
    await settle();
    expect(q.state()).toBe('idle');
    expect(q.of('loadEntries')).toHaveLength(2);
    expect(q.sent()).toEqual([]);
    q.actor.stop();
  });

  it('Discard removes a failed entry and clears its error', async () => {
    vi.useFakeTimers();
    const q = startQueue([entry(1)], { answers: { 1: [refusal(400, 'Address is required.')] } });
    await settle();
    expect(q.context().error).toBe('Address is required.');
    q.actor.send({ type: 'outbox.discard', id: 1 });
    await settle();
    expect(q.of('discardEntry')).toEqual([{ id: 1 }]);
    expect(q.state()).toBe('idle');
    expect(q.context()).toMatchObject({ entries: [], error: null });
    expect(q.sent()).toEqual([1]);
    q.actor.stop();
  });

  describe('in the pause after a failed try', () => {
    const inBackoff = async (options: QueueOptions = {}) => {
      vi.useFakeTimers();
      const q = startQueue([entry(1)], {
        answers: { 1: [refusal(503, 'Service Unavailable'), refusal(503, 'Service Unavailable')] },
        ...options,
      });
      await settle();
      await vi.advanceTimersByTimeAsync(2000);
      // Two tries failed: the next waits 4 s.
      expect(q.state()).toBe('backoff');
      expect(q.context()).toMatchObject({ attempt: 2, error: 'Service Unavailable' });
      expect(q.sent()).toEqual([1, 1]);
      return q;
    };

    it('a newly queued edit sends at once, not after the pause', async () => {
      const q = await inBackoff();
      q.stored.push(entry(2));
      q.actor.send({ type: 'outbox.changed' });
      await settle();
      expect(q.sent()).toEqual([1, 1, 1, 2]);
      expect(q.state()).toBe('idle');
      q.actor.stop();
    });

    it('the link dropping and returning resumes at once', async () => {
      const q = await inBackoff();
      q.actor.send({ type: 'network.offline' });
      q.actor.send({ type: 'network.online' });
      expect(q.context().online).toBe(true);
      await settle();
      expect(q.sent()).toEqual([1, 1, 1]);
      expect(q.state()).toBe('idle');
      q.actor.stop();
    });

    it('Retry resets the pause and sends at once', async () => {
      const q = await inBackoff();
      q.actor.send({ type: 'outbox.retry', id: 1 });
      expect(q.state()).toBe('retrying');
      expect(q.context()).toMatchObject({ attempt: 0, error: null });
      await settle();
      expect(q.of('markEntry')).toEqual([{ id: 1, status: 'pending', error: null }]);
      expect(q.sent()).toEqual([1, 1, 1]);
      q.actor.stop();
    });

    it('Discard drops the entry: nothing is sent when the pause ends', async () => {
      const q = await inBackoff();
      q.actor.send({ type: 'outbox.discard', id: 1 });
      await settle();
      expect(q.of('discardEntry')).toEqual([{ id: 1 }]);
      expect(q.state()).toBe('idle');
      expect(q.context()).toMatchObject({ entries: [], error: null });
      await vi.advanceTimersByTimeAsync(120_000);
      expect(q.sent()).toEqual([1, 1]);
      q.actor.stop();
    });

    it('the link answering again (linkBack) ends the pause early', async () => {
      const link = deferred();
      const q = await inBackoff({ linkBack: () => link.promise });
      link.resolve();
      await settle();
      expect(q.sent()).toEqual([1, 1, 1]);
      expect(q.state()).toBe('idle');
      q.actor.stop();
    });
  });
});

describe('outbox machine: a 409, the record changed meanwhile', () => {
  const theirs = { customerId: 42, address: '9 Quay' };
  const labelled = (id: number): QueuedEntry => ({ ...entry(id), label: `Edit customer ${id}` });

  const inConflict = async (options: QueueOptions = {}) => {
    vi.useFakeTimers();
    const q = startQueue([labelled(1), labelled(2)], { answers: { 1: [changed(theirs)] }, ...options });
    await settle();
    expect(q.state()).toBe('conflict');
    return q;
  };

  it("stops the queue and opens the choice for that entry with the server's record", async () => {
    const q = await inConflict();
    expect(q.sent()).toEqual([1]);
    expect(q.context().conflict).toEqual({ entry: labelled(1), current: theirs });
    expect(q.context().error).toBe(concurrencyMessages.recordChanged);
    expect(q.dialog()?.getSnapshot().context).toMatchObject({
      label: 'Edit customer 1',
      mine: labelled(1).body,
      theirs,
      subject: labelled(1),
    });
    // The queue waits for the user: no pause, no retry.
    await vi.advanceTimersByTimeAsync(120_000);
    expect(q.sent()).toEqual([1]);
    expect(q.state()).toBe('conflict');
    q.actor.stop();
  });

  it('an entry without a label opens the choice with an empty one', async () => {
    vi.useFakeTimers();
    const q = startQueue([entry(1)], { answers: { 1: [changed(theirs)] } });
    await settle();
    expect(q.dialog()?.getSnapshot().context.label).toBe('');
    q.actor.stop();
  });

  it("Keep mine sends the edit against the server's version; the queue then goes on", async () => {
    const q = await inConflict();
    q.dialog()?.send({ type: 'conflict.keepMine' });
    await settle();
    expect(q.of('keepMine')).toEqual([{ mine: labelled(1).body, theirs, subject: labelled(1) }]);
    expect(q.of('discardEntry')).toEqual([]);
    expect(q.sent()).toEqual([1, 2]);
    expect(q.state()).toBe('idle');
    expect(q.context()).toMatchObject({ conflict: null, error: null, entries: [] });
    q.actor.stop();
  });

  it('Use theirs discards that entry; the queue then goes on', async () => {
    const q = await inConflict();
    q.dialog()?.send({ type: 'conflict.useTheirs' });
    await settle();
    expect(q.of('discardEntry')).toEqual([{ id: 1 }]);
    expect(q.of('keepMine')).toEqual([]);
    expect(q.sent()).toEqual([1, 2]);
    expect(q.state()).toBe('idle');
    expect(q.context()).toMatchObject({ conflict: null, error: null, entries: [] });
    q.actor.stop();
  });

  it('Discard from the bar acts only on the entry in conflict', async () => {
    const q = await inConflict();
    q.actor.send({ type: 'outbox.discard', id: 2 });
    await settle();
    expect(q.state()).toBe('conflict');
    expect(q.of('discardEntry')).toEqual([]);
    q.actor.send({ type: 'outbox.discard', id: 1 });
    await settle();
    expect(q.of('discardEntry')).toEqual([{ id: 1 }]);
    expect(q.sent()).toEqual([1, 2]);
    expect(q.state()).toBe('idle');
    expect(q.context()).toMatchObject({ conflict: null, entries: [] });
    q.actor.stop();
  });

  it('a discard that fails still closes the choice and reads the queue again', async () => {
    const q = await inConflict({ discardFails: new Error('QuotaExceededError') });
    q.actor.send({ type: 'outbox.discard', id: 1 });
    await settle();
    expect(q.of('discardEntry')).toEqual([{ id: 1 }]);
    expect(q.context().conflict).toBeNull();
    expect(q.state()).not.toBe('discarding');
    expect(q.of('loadEntries').length).toBeGreaterThan(1);
    q.actor.stop();
  });
});
