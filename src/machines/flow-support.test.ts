import { afterEach, describe, expect, it, vi } from 'vitest';
import { attemptsLeftOf, errorText } from '../lib/error-message';
import { newIdempotencyKey } from '../lib/idempotency-key';
import { startsOnline, waitForLinkBack } from './flow-support';

describe('flow support', () => {
  it('errorText reads as sentences, never field names (issue 16)', () => {
    expect(
      errorText({
        status: 400,
        message: 'Bad',
        errors: [
          { fieldName: 'title', message: 'Title is required' },
          { fieldName: 'email', message: 'pls provide a valid email' },
          { fieldName: 'customerId', message: 'Customer is blocked.' },
        ],
      }),
    ).toBe('Title is required. Pls provide a valid email. Customer is blocked.');
    expect(errorText({ status: 0, message: 'Network Error', errors: [] })).toBe('Network Error');
    expect(errorText(null)).toBe('An error occurred');
  });

  it('reads the attempts left from the OTP check message', () => {
    expect(attemptsLeftOf({ message: 'Invalid code. 3 attempts left.' })).toBe(3);
    expect(
      attemptsLeftOf({ message: 'x', errors: [{ fieldName: 'otp', message: 'Wrong code, 1 attempt left' }] }),
    ).toBe(1);
    expect(attemptsLeftOf({ message: 'Wrong code' })).toBeNull();
  });

  it('makes v4 UUIDs, also without crypto.randomUUID', () => {
    const original = crypto.randomUUID;
    try {
      Object.defineProperty(crypto, 'randomUUID', { value: undefined, configurable: true });
      expect(newIdempotencyKey()).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      );
    } finally {
      Object.defineProperty(crypto, 'randomUUID', { value: original, configurable: true });
    }
    expect(newIdempotencyKey()).not.toBe(newIdempotencyKey());
  });
});

describe('where a machine starts, and waiting for the link to come back (issue 17)', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  /** A probe that answers each call with the next of `answers` ('error': it rejects), then keeps the last. */
  const probeOf = (...answers: Array<boolean | 'error'>) =>
    vi.fn(async () => {
      const answer = answers.length > 1 ? answers.shift() : answers[0];
      if (answer === 'error') throw new TypeError('Failed to fetch');
      return answer as boolean;
    });

  /** Whether the promise has settled by now (after the microtasks queued so far). */
  const settledYet = async (promise: Promise<void>) => {
    let settled = false;
    void promise.then(() => {
      settled = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    return settled;
  };

  it('startsOnline: a given flag wins over what the browser says', () => {
    vi.stubGlobal('navigator', { onLine: false });
    expect(startsOnline(true)).toBe(true);
    vi.stubGlobal('navigator', { onLine: true });
    expect(startsOnline(false)).toBe(false);
  });

  it("startsOnline: without a flag, the browser's navigator.onLine", () => {
    vi.stubGlobal('navigator', { onLine: false });
    expect(startsOnline(undefined)).toBe(false);
    vi.stubGlobal('navigator', { onLine: true });
    expect(startsOnline(undefined)).toBe(true);
  });

  it('startsOnline: online when nothing says otherwise (no navigator, or one without onLine)', () => {
    vi.stubGlobal('navigator', undefined);
    expect(startsOnline(undefined)).toBe(true);
    vi.stubGlobal('navigator', {});
    expect(startsOnline(undefined)).toBe(true);
  });

  it('probes first after everyMs, not at once, then every everyMs while the link is down', async () => {
    vi.useFakeTimers();
    const probe = probeOf(false);
    void waitForLinkBack(probe, { everyMs: 500 });
    expect(probe).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(499);
    expect(probe).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(probe).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(499);
    expect(probe).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(probe).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(5000);
    expect(probe).toHaveBeenCalledTimes(12);
  });

  it('probes every second by default', async () => {
    vi.useFakeTimers();
    const probe = probeOf(false);
    void waitForLinkBack(probe);
    await vi.advanceTimersByTimeAsync(999);
    expect(probe).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(probe).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1000);
    expect(probe).toHaveBeenCalledTimes(2);
  });

  it('resolves on the first answer after failed probes, not before, and probes no more', async () => {
    vi.useFakeTimers();
    const probe = probeOf(false, false, true);
    const back = waitForLinkBack(probe, { everyMs: 100 });
    await vi.advanceTimersByTimeAsync(200);
    expect(probe).toHaveBeenCalledTimes(2);
    expect(await settledYet(back)).toBe(false);
    await vi.advanceTimersByTimeAsync(100);
    expect(probe).toHaveBeenCalledTimes(3);
    expect(await settledYet(back)).toBe(true);
    await vi.advanceTimersByTimeAsync(1000);
    expect(probe).toHaveBeenCalledTimes(3);
  });

  it('counts a probe that rejects as the link being down', async () => {
    vi.useFakeTimers();
    const probe = probeOf('error', true);
    const back = waitForLinkBack(probe, { everyMs: 100 });
    await vi.advanceTimersByTimeAsync(100);
    expect(await settledYet(back)).toBe(false);
    await vi.advanceTimersByTimeAsync(100);
    expect(probe).toHaveBeenCalledTimes(2);
    expect(await settledYet(back)).toBe(true);
  });

  it('does not resolve for a link that never went down (the caller backs off on its own)', async () => {
    vi.useFakeTimers();
    const probe = probeOf(true);
    const back = waitForLinkBack(probe, { everyMs: 100 });
    await vi.advanceTimersByTimeAsync(2000);
    expect(probe).toHaveBeenCalledTimes(20);
    expect(await settledYet(back)).toBe(false);
  });

  it('an abort stops the probes and clears the pending timer', async () => {
    vi.useFakeTimers();
    const probe = probeOf(false, true);
    const abort = new AbortController();
    const back = waitForLinkBack(probe, { everyMs: 100, signal: abort.signal });
    await vi.advanceTimersByTimeAsync(100);
    expect(probe).toHaveBeenCalledTimes(1);
    expect(vi.getTimerCount()).toBe(1);
    abort.abort();
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(1000);
    expect(probe).toHaveBeenCalledTimes(1);
    expect(await settledYet(back)).toBe(false);
  });

  it('an abort while a probe is in flight: its answer neither resolves nor probes again', async () => {
    vi.useFakeTimers();
    let answer!: (up: boolean) => void;
    const probe = vi
      .fn<() => Promise<boolean>>()
      .mockResolvedValueOnce(false)
      .mockImplementationOnce(() => new Promise<boolean>((resolve) => (answer = resolve)));
    const abort = new AbortController();
    const back = waitForLinkBack(probe, { everyMs: 100, signal: abort.signal });
    await vi.advanceTimersByTimeAsync(200);
    expect(probe).toHaveBeenCalledTimes(2);
    abort.abort();
    answer(true);
    await vi.advanceTimersByTimeAsync(1000);
    expect(probe).toHaveBeenCalledTimes(2);
    expect(vi.getTimerCount()).toBe(0);
    expect(await settledYet(back)).toBe(false);
  });

  it('an already aborted signal never probes', async () => {
    vi.useFakeTimers();
    const probe = probeOf(false, true);
    const back = waitForLinkBack(probe, { everyMs: 100, signal: AbortSignal.abort() });
    await vi.advanceTimersByTimeAsync(1000);
    expect(probe).not.toHaveBeenCalled();
    expect(await settledYet(back)).toBe(false);
  });
});
