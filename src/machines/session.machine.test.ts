import { getShortestPaths } from '@xstate/graph';
import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { LoginBody, LoginResponse, TokenPair } from '../../contract/auth';
import type { Profile } from '../../contract/profile';
import { SESSION_STORAGE_KEY } from '../lib/session-storage';
import { type SessionEmitted, sessionMachine } from './session.machine';
import { sessionTokenSource } from './session-link';

const user = {
  id: 1,
  email: 'admin@rewardclub.ng',
  firstName: 'Ada',
  lastName: 'Obi',
  userType: 'ADMIN' as const,
  partnerId: null,
  role: { id: 1, name: 'Super Admin' },
  permissions: ['dashboard.view'],
};
const loginResponse: LoginResponse = { accessToken: 'access-1', refreshToken: 'refresh-1', user };
const profile: Profile = {
  id: 1,
  email: user.email,
  firstName: 'Ada',
  lastName: 'Obi',
  phone: null,
  address: null,
  profileImage: null,
  imageUrl: null,
  userType: 'ADMIN',
  role: user.role,
  permissions: user.permissions,
  createdAt: '2026-01-01T00:00:00.000Z',
};

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

function setupSession(
  overrides: {
    signIn?: (body: LoginBody) => Promise<LoginResponse>;
    refreshTokens?: (input: { refreshToken: string }) => Promise<TokenPair>;
    restored?: LoginResponse | null;
    profile?: Profile;
  } = {},
) {
  const fakes = {
    signIn: vi.fn(overrides.signIn ?? (async () => loginResponse)),
    refreshTokens: vi.fn(
      overrides.refreshTokens ?? (async () => ({ accessToken: 'access-2', refreshToken: 'refresh-2' })),
    ),
    fetchProfile: vi.fn(async () => overrides.profile ?? profile),
    logOut: vi.fn(async (_input: { accessToken: string }) => {}),
  };
  const machine = sessionMachine.provide({
    actors: {
      signIn: fromPromise(({ input }) => fakes.signIn(input)),
      refreshTokens: fromPromise(({ input }) => fakes.refreshTokens(input)),
      fetchProfile: fromPromise(() => fakes.fetchProfile()),
      logOut: fromPromise(({ input }) => fakes.logOut(input)),
    },
  });
  const actor = createActor(machine, {
    input: overrides.restored === undefined ? undefined : { restored: overrides.restored },
  });
  const emitted: SessionEmitted[] = [];
  actor.on('*', (e) => emitted.push(e));
  actor.start();
  return { actor, fakes, emitted };
}

const stored = () => JSON.parse(localStorage.getItem(SESSION_STORAGE_KEY) ?? 'null');

describe('session machine', () => {
  it('starts signed out without a stored session', () => {
    const { actor } = setupSession();
    expect(actor.getSnapshot().matches({ signedOut: 'idle' })).toBe(true);
  });

  it('signs in: stores the login response under `admin` and fetches the profile', async () => {
    const { actor, fakes, emitted } = setupSession();
    actor.send({ type: 'session.signIn', credentials: { email: user.email, password: 'RewardClub#2026' } });
    expect(actor.getSnapshot().matches({ signedOut: 'loading' })).toBe(true);
    await waitFor(actor, (s) => s.context.profile !== null);
    expect(actor.getSnapshot().matches({ signedIn: 'active' })).toBe(true);
    expect(fakes.signIn).toHaveBeenCalledWith({ email: user.email, password: 'RewardClub#2026' });
    expect(stored()).toEqual(loginResponse);
    expect(fakes.fetchProfile).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().context.profile).toEqual(profile);
    expect(emitted.filter((e) => e.type === 'session.signedIn')).toHaveLength(1);
  });

  it('goes to failure when sign-in is rejected, storing nothing', async () => {
    const error = new Error('Invalid email or password');
    const { actor, emitted } = setupSession({ signIn: () => Promise.reject(error) });
    actor.send({ type: 'session.signIn', credentials: { email: user.email, password: 'wrong' } });
    const snapshot = await waitFor(actor, (s) => s.matches({ signedOut: 'failure' }));
    expect(snapshot.context.error).toBe(error);
    expect(localStorage.getItem(SESSION_STORAGE_KEY)).toBeNull();
    expect(emitted).toContainEqual({ type: 'session.signInFailed', error });
  });

  it('restores a stored session from localStorage on start', async () => {
    localStorage.setItem(SESSION_STORAGE_KEY, JSON.stringify(loginResponse));
    const { actor, fakes } = setupSession();
    expect(actor.getSnapshot().matches({ signedIn: 'active' })).toBe(true);
    expect(actor.getSnapshot().context.session).toEqual(loginResponse);
    await waitFor(actor, (s) => s.context.profile !== null);
    expect(fakes.fetchProfile).toHaveBeenCalledTimes(1);
  });

  it('takes the current role and permissions from the profile, so a changed role shows without signing in again', async () => {
    const changed: Profile = {
      ...profile,
      role: { id: 7, name: 'Auditor' },
      permissions: ['dashboard.view', 'activities.view'],
    };
    localStorage.setItem(SESSION_STORAGE_KEY, JSON.stringify(loginResponse));
    const { actor } = setupSession({ profile: changed });
    await waitFor(actor, (s) => s.context.profile !== null);
    expect(actor.getSnapshot().context.session?.user.permissions).toEqual([
      'dashboard.view',
      'activities.view',
    ]);
    expect(actor.getSnapshot().context.session?.user.role).toEqual({ id: 7, name: 'Auditor' });
    expect(stored().user.permissions).toEqual(['dashboard.view', 'activities.view']);
    expect(stored().accessToken).toBe(loginResponse.accessToken);
  });

  it('drops an unreadable stored session', () => {
    localStorage.setItem(SESSION_STORAGE_KEY, '{"accessToken":1}');
    const { actor } = setupSession();
    expect(actor.getSnapshot().matches('signedOut')).toBe(true);
    expect(localStorage.getItem(SESSION_STORAGE_KEY)).toBeNull();
  });

  it('a rejected token causes one refresh; the new tokens are stored and handed to the caller', async () => {
    const { actor, fakes } = setupSession({ restored: loginResponse });
    const link = sessionTokenSource(actor);
    await expect(link.rejected('access-1')).resolves.toBe('access-2');
    expect(fakes.refreshTokens).toHaveBeenCalledWith({ refreshToken: 'refresh-1' });
    expect(actor.getSnapshot().matches({ signedIn: 'active' })).toBe(true);
    expect(stored()).toMatchObject({ accessToken: 'access-2', refreshToken: 'refresh-2', user });
    await expect(link.accessToken()).resolves.toBe('access-2');
  });

  it('a burst of 10 rejections of the same token causes exactly ONE refresh', async () => {
    const refresh = deferred<TokenPair>();
    const { actor, fakes } = setupSession({ restored: loginResponse, refreshTokens: () => refresh.promise });
    const link = sessionTokenSource(actor);
    const outcomes = Array.from({ length: 10 }, () => link.rejected('access-1'));
    expect(actor.getSnapshot().matches({ signedIn: 'refreshing' })).toBe(true);
    // A request starting now waits for the refresh instead of using the dying token.
    const pendingToken = link.accessToken();
    refresh.resolve({ accessToken: 'access-2', refreshToken: 'refresh-2' });
    await expect(Promise.all(outcomes)).resolves.toEqual(Array(10).fill('access-2'));
    await expect(pendingToken).resolves.toBe('access-2');
    expect(fakes.refreshTokens).toHaveBeenCalledTimes(1);
  });

  it('a stale token (already replaced) retries with the current one without refreshing', async () => {
    const { actor, fakes } = setupSession({ restored: loginResponse });
    const link = sessionTokenSource(actor);
    await link.rejected('access-1');
    await expect(link.rejected('access-1')).resolves.toBe('access-2');
    expect(fakes.refreshTokens).toHaveBeenCalledTimes(1);
  });

  it('a failed refresh signs out, clears storage and reports the expiry', async () => {
    localStorage.setItem(SESSION_STORAGE_KEY, JSON.stringify(loginResponse));
    const { actor, emitted } = setupSession({ refreshTokens: () => Promise.reject(new Error('401')) });
    const link = sessionTokenSource(actor);
    await expect(link.rejected('access-1')).resolves.toBeNull();
    expect(actor.getSnapshot().matches({ signedOut: 'idle' })).toBe(true);
    expect(actor.getSnapshot().context.session).toBeNull();
    expect(actor.getSnapshot().context.profile).toBeNull();
    expect(localStorage.getItem(SESSION_STORAGE_KEY)).toBeNull();
    expect(emitted).toContainEqual({ type: 'session.ended', reason: 'expired' });
  });

  it('logout calls the logout effect with the token, clears storage and profile', async () => {
    localStorage.setItem(SESSION_STORAGE_KEY, JSON.stringify(loginResponse));
    const { actor, fakes, emitted } = setupSession();
    await waitFor(actor, (s) => s.context.profile !== null);
    actor.send({ type: 'session.logout' });
    expect(localStorage.getItem(SESSION_STORAGE_KEY)).toBeNull();
    const snapshot = await waitFor(actor, (s) => s.matches('signedOut'));
    expect(fakes.logOut).toHaveBeenCalledWith({ accessToken: 'access-1' });
    expect(snapshot.context.session).toBeNull();
    expect(snapshot.context.profile).toBeNull();
    expect(emitted).toContainEqual({ type: 'session.ended', reason: 'logout' });
  });

  it('logout still completes when the logout call hangs', async () => {
    vi.useFakeTimers();
    try {
      const { actor, fakes } = setupSession({ restored: loginResponse });
      fakes.logOut.mockImplementation(() => new Promise(() => {}));
      actor.send({ type: 'session.logout' });
      expect(actor.getSnapshot().matches('signingOut')).toBe(true);
      await vi.advanceTimersByTimeAsync(5000);
      expect(actor.getSnapshot().matches({ signedOut: 'idle' })).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('session machine graph', () => {
  const tokens = { accessToken: 'access-2', refreshToken: 'refresh-2' };
  const events = [
    { type: 'session.signIn', credentials: { email: user.email, password: 'x' } },
    { type: 'session.logout' },
    { type: 'token.rejected', token: 'access-1' },
    { type: 'token.rejected', token: 'stale' },
    { type: 'xstate.done.actor.signIn', output: loginResponse },
    { type: 'xstate.error.actor.signIn', error: new Error('401') },
    { type: 'xstate.done.actor.refreshTokens', output: tokens },
    { type: 'xstate.error.actor.refreshTokens', error: new Error('401') },
    { type: 'xstate.done.actor.fetchProfile', output: profile },
    { type: 'xstate.done.actor.logOut', output: undefined },
    { type: 'xstate.error.actor.logOut', error: new Error('offline') },
  ] as unknown as Parameters<typeof sessionMachine.transition>[1][];

  it('reaches every state from a signed-out start', () => {
    const paths = getShortestPaths(sessionMachine, { events, input: { restored: null } });
    const reached = new Set(paths.map((p) => JSON.stringify(p.state.value)));
    expect([...reached].sort()).toEqual(
      [
        { signedOut: 'idle' },
        { signedOut: 'loading' },
        { signedOut: 'failure' },
        { signedIn: 'active' },
        { signedIn: 'refreshing' },
        'signingOut',
      ]
        .map((v) => JSON.stringify(v))
        .sort(),
    );
  });

  it('never holds a session in a signed-out state, and always holds one when signed in', () => {
    const paths = getShortestPaths(sessionMachine, { events, input: { restored: null } });
    for (const { state } of paths) {
      if (state.matches('signedOut')) expect(state.context.session).toBeNull();
      if (state.matches('signedIn')) expect(state.context.session).not.toBeNull();
    }
  });
});
