import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { concurrencyMessages } from '../../contract/concurrency';
import type { QueuedEntry } from '../db/app-db';
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
