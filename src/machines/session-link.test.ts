import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { z } from 'zod';
import type { LoginResponse, TokenPair } from '../../contract/auth';
import type { Profile } from '../../contract/profile';
import { ApiError, createApiClient, NETWORK_ERROR, SESSION_EXPIRED, type TokenSource } from '../api/client';
import { writeStoredSession } from '../lib/session-storage';
import { sessionMachine } from './session.machine';
import { sessionTokenSource } from './session-link';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const ok = (data: unknown, message = 'ok') => json(200, { success: true, data, message, errors: [] });
const unauthorized = () => json(401, { success: false, data: null, message: 'Unauthorized', errors: [] });

const bearer = (init?: RequestInit) => new Headers(init?.headers).get('Authorization');

const session: LoginResponse = {
  accessToken: 'access-1',
  refreshToken: 'refresh-1',
  user: {
    id: 1,
    email: 'admin@rewardclub.ng',
    firstName: 'Ada',
    lastName: 'Obi',
    userType: 'ADMIN',
    partnerId: null,
    role: null,
    permissions: [],
  },
};

/** A real session actor with a fake refresh, a fake fetch that accepts only `validToken`. */
function setup(options: { refresh?: () => Promise<{ accessToken: string; refreshToken: string }> } = {}) {
  const refresh = vi.fn(
    options.refresh ??
      (async () => {
        await new Promise((r) => setTimeout(r, 10));
        return { accessToken: 'access-2', refreshToken: 'refresh-2' };
      }),
  );
  // As in a real tab, the restored session is the one in localStorage (the refresh re-reads it).
  writeStoredSession(session);
  const actor = createActor(
    sessionMachine.provide({
      actors: {
        refreshTokens: fromPromise(() => refresh()),
        fetchProfile: fromPromise<Profile, void>(() => new Promise<Profile>(() => {})),
      },
    }),
    { input: { restored: session } },
  ).start();
  const fetch = vi.fn(async (_url: RequestInfo | URL, init?: RequestInit) =>
    bearer(init) === 'Bearer access-2' ? ok({ n: 1 }) : unauthorized(),
  );
  const client = createApiClient({
    tokens: sessionTokenSource(actor),
    fetch: fetch as typeof globalThis.fetch,
  });
  return { actor, client, fetch, refresh };
}

const schema = z.object({ n: z.number() });

describe('api client', () => {
  it('sends JSON with the bearer token to /api/v1 and unwraps the envelope', async () => {
    const fetch = vi.fn(async (_url: RequestInfo | URL, _init?: RequestInit) => ok({ n: 7 }, 'Done'));
    const tokens: TokenSource = { accessToken: async () => 'tok', rejected: async () => null };
    const client = createApiClient({ tokens, fetch: fetch as typeof globalThis.fetch });
    await expect(
      client.send('PATCH', '/user/profile', schema, { body: { firstName: 'Ada' }, query: { a: '1', b: '' } }),
    ).resolves.toEqual({ data: { n: 7 }, message: 'Done' });
    const [url, init] = fetch.mock.calls[0]!;
    expect(String(url)).toBe('/api/v1/user/profile?a=1');
    expect(init?.method).toBe('PATCH');
    expect(bearer(init)).toBe('Bearer tok');
    expect(new Headers(init?.headers).get('Content-Type')).toBe('application/json');
    expect(init?.body).toBe(JSON.stringify({ firstName: 'Ada' }));
  });

  it('on a 401 refreshes once and retries the request with the new token', async () => {
    const { client, fetch, refresh, actor } = setup();
    await expect(client.get('/admin/user/stats', schema)).resolves.toEqual({ n: 1 });
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(fetch.mock.calls.map(([, init]) => bearer(init))).toEqual(['Bearer access-1', 'Bearer access-2']);
    expect(actor.getSnapshot().context.session?.accessToken).toBe('access-2');
  });

  it('ten concurrent 401s cause ONE refresh and each request retries once', async () => {
    const { client, fetch, refresh } = setup();
    const results = await Promise.all(Array.from({ length: 10 }, () => client.get('/x', schema)));
    expect(results).toEqual(Array(10).fill({ n: 1 }));
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(fetch).toHaveBeenCalledTimes(20);
  });

  it('a refused refresh ends the session and the request fails with the expiry message', async () => {
    const { client, actor, fetch } = setup({
      refresh: () => Promise.reject(new ApiError(401, 'Invalid or expired refresh token')),
    });
    const error = await client.get('/x', schema).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 401, message: SESSION_EXPIRED });
    expect(actor.getSnapshot().matches('signedOut')).toBe(true);
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('issue 17, defect 2: a refresh with no answer keeps the session; the request fails as unanswered, not expired', async () => {
    const { client, actor, fetch } = setup({ refresh: () => Promise.reject(new ApiError(0, NETWORK_ERROR)) });
    const error = await client.get('/x', schema).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 0, message: NETWORK_ERROR });
    expect(actor.getSnapshot().matches({ signedIn: 'linkDown' })).toBe(true);
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('issue 17, defect 8: a call on a stalled link fails as unanswered after its timeout instead of hanging', async () => {
    const stalled = vi.fn(
      (_url: RequestInfo | URL, init?: RequestInit) =>
        new Promise<Response>((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(init.signal?.reason));
        }),
    );
    const client = createApiClient({
      tokens: { accessToken: async () => 't', rejected: async () => null },
      fetch: stalled as unknown as typeof fetch,
      timeoutMs: 50,
    });
    const error = await client.get('/x', schema).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 0, message: NETWORK_ERROR });
  });

  it('drops a response that arrives after its session ended: no data of a signed-out user reaches the caches', async () => {
    const { client, actor, fetch } = setup();
    let answer!: (response: Response) => void;
    fetch.mockImplementationOnce(() => new Promise<Response>((resolve) => (answer = resolve)));
    const pending = client.get('/x', schema).catch((e: unknown) => e);
    await vi.waitFor(() => expect(fetch).toHaveBeenCalledTimes(1));
    actor.send({ type: 'session.logout' });
    await waitFor(actor, (s) => s.matches('signedOut'));
    answer(ok({ n: 1 }));
    await expect(pending).resolves.toMatchObject({ status: 401, message: SESSION_EXPIRED });
  });

  it('does not refresh for calls made without the session token (sign-in)', async () => {
    const { client, refresh } = setup();
    const error = await client.post('/admin/auth/login', schema, { auth: 'none', body: {} }).catch((e) => e);
    expect(error).toMatchObject({ status: 401, message: 'Unauthorized' });
    expect(refresh).not.toHaveBeenCalled();
  });

  it('throws a typed ApiError with the field errors of a 400', async () => {
    const errors = [{ fieldName: 'email', message: 'pls provide a valid email' }];
    const fetch = async () =>
      json(400, {
        success: false,
        data: null,
        message: 'Validation failed',
        code: 'validation_failed',
        errors,
      });
    const tokens: TokenSource = { accessToken: async () => null, rejected: async () => null };
    const client = createApiClient({ tokens, fetch: fetch as typeof globalThis.fetch });
    const error = await client.post('/admin/auth/login', schema, { body: {} }).catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 400,
      message: 'Validation failed',
      errors,
      code: 'validation_failed',
    });
  });

  it("maps a network failure to 'Network Error'", async () => {
    const fetch = async () => {
      throw new TypeError('Failed to fetch');
    };
    const tokens: TokenSource = { accessToken: async () => null, rejected: async () => null };
    const client = createApiClient({ tokens, fetch: fetch as typeof globalThis.fetch });
    await expect(client.get('/x', schema)).rejects.toMatchObject({ status: 0, message: NETWORK_ERROR });
  });
});

interface Deferred<T> {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
}

const deferred = <T>(): Deferred<T> => {
  const d = {} as Deferred<T>;
  d.promise = new Promise<T>((resolve, reject) => Object.assign(d, { resolve, reject }));
  return d;
};

/**
 * A real session actor whose refresh, sign-out call and count of queued edits the test answers by
 * hand (each call's answer is the last entry of its list); sign-in and the wipe answer at once.
 */
function answeredByHand(restored: LoginResponse | null = session) {
  const refreshes: Deferred<TokenPair>[] = [];
  const logOuts: Deferred<void>[] = [];
  const queuedEdits: Deferred<number>[] = [];
  const track = <T>(list: Deferred<T>[]) => {
    const d = deferred<T>();
    list.push(d);
    return d.promise;
  };
  if (restored) writeStoredSession(restored);
  const actor = createActor(
    sessionMachine.provide({
      actors: {
        refreshTokens: fromPromise<TokenPair, { refreshToken: string }>(() => track(refreshes)),
        logOut: fromPromise<void, { accessToken: string; refreshToken: string }>(() => track(logOuts)),
        queuedEdits: fromPromise<number, { userId: number }>(() => track(queuedEdits)),
        signIn: fromPromise(async () => session),
        wipeDevice: fromPromise(async () => {}),
        fetchProfile: fromPromise<Profile, void>(() => new Promise<Profile>(() => {})),
      },
    }),
    { input: { restored } },
  ).start();
  const last = <T>(list: Deferred<T>[]) => {
    const d = list.at(-1);
    if (!d) throw new Error('not called');
    return d;
  };
  return { actor, tokens: sessionTokenSource(actor), refreshes, logOuts, queuedEdits, last };
}

/** Settles `promise` into an inspectable box, so a test can see it is still pending. */
const watch = <T>(promise: Promise<T>) => {
  const box: { done: boolean; value?: T; error?: unknown } = { done: false };
  promise.then(
    (value) => Object.assign(box, { done: true, value }),
    (error: unknown) => Object.assign(box, { done: true, error }),
  );
  return box;
};

/** Lets the actors, the lock and the waits run what they have queued. */
const flush = () => new Promise((resolve) => setTimeout(resolve, 5));

const refused = () => new ApiError(401, 'Invalid or expired refresh token');

describe('session token source', () => {
  it('hands out the current token, and null (no error) when signed out', async () => {
    await expect(answeredByHand().tokens.accessToken()).resolves.toBe('access-1');
    await expect(answeredByHand(null).tokens.accessToken()).resolves.toBeNull();
  });

  it('a token asked for while a refresh is in flight is the NEW token, once the refresh is done', async () => {
    const { actor, tokens, refreshes, last } = answeredByHand();
    actor.send({ type: 'token.rejected', token: 'access-1' });
    await vi.waitFor(() => expect(refreshes).toHaveLength(1));
    const token = watch(tokens.accessToken());
    await flush();
    expect(token.done).toBe(false);
    last(refreshes).resolve({ accessToken: 'access-2', refreshToken: 'refresh-2' });
    await vi.waitFor(() => expect(token.done).toBe(true));
    expect(token.value).toBe('access-2');
  });

  it('a token asked for during a sign-out waits for it, then there is none', async () => {
    const { actor, tokens, logOuts, last } = answeredByHand();
    actor.send({ type: 'session.logout' });
    expect(actor.getSnapshot().matches('signingOut')).toBe(true);
    const token = watch(tokens.accessToken());
    await flush();
    expect(token.done).toBe(false);
    last(logOuts).resolve();
    await vi.waitFor(() => expect(token.done).toBe(true));
    expect(token.value).toBeNull();
  });

  it('a token asked for while a refused refresh ends the session waits for the end, then there is none', async () => {
    const { actor, tokens, refreshes, queuedEdits, last } = answeredByHand();
    actor.send({ type: 'token.rejected', token: 'access-1' });
    await vi.waitFor(() => expect(refreshes).toHaveLength(1));
    last(refreshes).reject(refused());
    await vi.waitFor(() => expect(queuedEdits).toHaveLength(1));
    expect(actor.getSnapshot().matches('ending')).toBe(true);
    const token = watch(tokens.accessToken());
    await flush();
    expect(token.done).toBe(false);
    last(queuedEdits).resolve(0);
    await vi.waitFor(() => expect(token.done).toBe(true));
    expect(token.value).toBeNull();
  });

  it('rejected: the refreshed token to retry with', async () => {
    const { tokens, refreshes, last } = answeredByHand();
    const outcome = watch(tokens.rejected('access-1'));
    await vi.waitFor(() => expect(refreshes).toHaveLength(1));
    expect(outcome.done).toBe(false);
    last(refreshes).resolve({ accessToken: 'access-2', refreshToken: 'refresh-2' });
    await vi.waitFor(() => expect(outcome.done).toBe(true));
    expect(outcome.value).toBe('access-2');
  });

  it('rejected: null when the refresh gave the same token back (a retry would only fail again)', async () => {
    const { tokens, refreshes, last } = answeredByHand();
    const outcome = tokens.rejected('access-1');
    await vi.waitFor(() => expect(refreshes).toHaveLength(1));
    last(refreshes).resolve({ accessToken: 'access-1', refreshToken: 'refresh-2' });
    await expect(outcome).resolves.toBeNull();
  });

  it('rejected: null when the refused refresh ends the session', async () => {
    const { tokens, refreshes, queuedEdits, last } = answeredByHand();
    const outcome = watch(tokens.rejected('access-1'));
    await vi.waitFor(() => expect(refreshes).toHaveLength(1));
    last(refreshes).reject(refused());
    await vi.waitFor(() => expect(queuedEdits).toHaveLength(1));
    await flush();
    expect(outcome.done).toBe(false);
    last(queuedEdits).resolve(0);
    await vi.waitFor(() => expect(outcome.done).toBe(true));
    expect(outcome.value).toBeNull();
  });

  it('rejected: null when the session expired with edits queued (locked: the user signs in again)', async () => {
    const { actor, tokens, refreshes, queuedEdits, last } = answeredByHand();
    const outcome = tokens.rejected('access-1');
    await vi.waitFor(() => expect(refreshes).toHaveLength(1));
    last(refreshes).reject(refused());
    await vi.waitFor(() => expect(queuedEdits).toHaveLength(1));
    last(queuedEdits).resolve(2);
    await expect(outcome).resolves.toBeNull();
    expect(actor.getSnapshot().matches('locked')).toBe(true);
  });

  it('rejected: null when there is no session', async () => {
    await expect(answeredByHand(null).tokens.rejected('access-1')).resolves.toBeNull();
  });

  it('epoch counts the ended sessions upward', async () => {
    const { actor, tokens, logOuts, last } = answeredByHand();
    const signOut = async () => {
      actor.send({ type: 'session.logout' });
      last(logOuts).resolve();
      await waitFor(actor, (s) => s.matches({ signedOut: 'idle' }));
    };
    expect(tokens.epoch?.()).toBe(0);
    await signOut();
    expect(tokens.epoch?.()).toBe(1);
    actor.send({ type: 'session.signIn', credentials: { email: session.user.email, password: 'secret' } });
    await waitFor(actor, (s) => s.matches('signedIn'));
    expect(tokens.epoch?.()).toBe(1);
    await signOut();
    expect(tokens.epoch?.()).toBe(2);
  });
});
