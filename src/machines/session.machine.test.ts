import { adjacencyMapToArray, getAdjacencyMap, getShortestPaths } from '@xstate/graph';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  type AnyMachineSnapshot,
  type AnyStateMachine,
  createActor,
  fromCallback,
  fromPromise,
  waitFor,
} from 'xstate';
import type { LoginBody, LoginResponse, TokenPair } from '../../contract/auth';
import type { Profile } from '../../contract/profile';
import {
  readPendingRevocations,
  readStoredSession,
  SESSION_STORAGE_KEY,
  writeStoredSession,
} from '../lib/session-storage';
import { createRefreshLock, type TabAnnouncement, type TabEvent } from '../lib/tab-sync';
import {
  isSignedIn,
  type SessionActor,
  type SessionEmitted,
  type SessionEnd,
  type SessionEvent,
  sessionMachine,
  signInBusy,
} from './session.machine';
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

/**
 * A stand-in for the browser's LockManager shared by several "tabs" (actors) of one test: grants
 * the lock to one request at a time in request order, honours a withdrawal (AbortSignal) and
 * records what localStorage held each time the lock was released.
 */
function fakeLocks() {
  type Waiting = { run: () => Promise<unknown>; resolve: (v: unknown) => void; reject: (e: unknown) => void };
  const queue: Waiting[] = [];
  let held = false;
  const stats = { granted: 0, withdrawn: 0, storedAtRelease: [] as (LoginResponse | null)[] };
  const next = () => {
    if (held) return;
    const item = queue.shift();
    if (!item) return;
    held = true;
    stats.granted += 1;
    void Promise.resolve()
      .then(item.run)
      .then(
        (value) => {
          stats.storedAtRelease.push(readStoredSession());
          held = false;
          item.resolve(value);
          next();
        },
        (error: unknown) => {
          held = false;
          item.reject(error);
          next();
        },
      );
  };
  const manager = {
    request(_name: string, options: LockOptions, run: () => Promise<unknown>) {
      return new Promise((resolve, reject) => {
        const item: Waiting = { run, resolve, reject };
        options.signal?.addEventListener('abort', () => {
          const at = queue.indexOf(item);
          if (at < 0) return;
          queue.splice(at, 1);
          stats.withdrawn += 1;
          reject(new DOMException('withdrawn', 'AbortError'));
        });
        queue.push(item);
        next();
      });
    },
  } as unknown as LockManager;
  return { logic: createRefreshLock(() => manager), stats };
}

/**
 * The other tabs' channels for one test: a sign-out announced by one tab reaches the others as
 * `session.endedElsewhere` (BroadcastChannel); `storageEvent()` delivers what localStorage holds to
 * every tab as the browser's `storage` event would.
 */
function fakeTabs() {
  const members = new Set<(event: TabEvent) => void>();
  const logic = fromCallback<TabAnnouncement>(({ sendBack, receive }) => {
    const deliver = (event: TabEvent) => sendBack(event);
    members.add(deliver);
    receive((event) => {
      for (const other of members) {
        if (other !== deliver)
          queueMicrotask(() => other({ type: 'session.endedElsewhere', reason: event.reason }));
      }
    });
    return () => members.delete(deliver);
  });
  const storageEvent = (except?: SessionActor) => {
    const session = readStoredSession();
    if (!session) return;
    for (const actor of actors) if (actor !== except) actor.send({ type: 'session.synced', session });
  };
  return { logic, storageEvent };
}

const actors = new Set<SessionActor>();
// The graph tests below walk the machine when the file is collected, and its storage actions run
// then (e.g. a locked session stored): each test starts from empty storage.
beforeEach(() => localStorage.clear());
afterEach(() => {
  for (const actor of actors) actor.stop();
  actors.clear();
});

function setupSession(
  overrides: {
    signIn?: (body: LoginBody) => Promise<LoginResponse>;
    refreshTokens?: (input: { refreshToken: string }) => Promise<TokenPair>;
    /** Restored into the actor and, like a real tab, found in localStorage. */
    restored?: LoginResponse | null;
    profile?: Profile;
    locks?: ReturnType<typeof fakeLocks>;
    tabs?: ReturnType<typeof fakeTabs>;
    wipe?: (input: SessionEnd) => Promise<void>;
    queuedEdits?: (input: { userId: number }) => Promise<number>;
  } = {},
) {
  const fakes = {
    signIn: vi.fn(overrides.signIn ?? (async () => loginResponse)),
    refreshTokens: vi.fn(
      overrides.refreshTokens ?? (async () => ({ accessToken: 'access-2', refreshToken: 'refresh-2' })),
    ),
    fetchProfile: vi.fn(async () => overrides.profile ?? profile),
    logOut: vi.fn(async (_input: { accessToken: string; refreshToken: string }) => {}),
    wipeDevice: vi.fn(overrides.wipe ?? (async (_input: SessionEnd) => {})),
    queuedEdits: vi.fn(overrides.queuedEdits ?? (async (_input: { userId: number }) => 0)),
  };
  if (overrides.restored) writeStoredSession(overrides.restored);
  const machine = sessionMachine.provide({
    actors: {
      signIn: fromPromise(({ input }) => fakes.signIn(input)),
      refreshTokens: fromPromise(({ input }) => fakes.refreshTokens(input)),
      fetchProfile: fromPromise(() => fakes.fetchProfile()),
      logOut: fromPromise(({ input }) => fakes.logOut(input)),
      queuedEdits: fromPromise(({ input }) => fakes.queuedEdits(input)),
      wipeDevice: fromPromise(({ input }) => fakes.wipeDevice(input)),
      refreshLock: (overrides.locks ?? fakeLocks()).logic,
      ...(overrides.tabs ? { tabSync: overrides.tabs.logic } : {}),
    },
  });
  const actor = createActor(machine, {
    input: overrides.restored === undefined ? undefined : { restored: overrides.restored },
  });
  const emitted: SessionEmitted[] = [];
  actor.on('*', (e) => emitted.push(e));
  actor.start();
  actors.add(actor);
  return { actor, fakes, emitted };
}

const stored = () => JSON.parse(localStorage.getItem(SESSION_STORAGE_KEY) ?? 'null');
/** The refresh call refused (401), and a refresh call that got no answer (status 0). */
const refused = Object.assign(new Error('Invalid or expired refresh token'), { status: 401 });
const unanswered = Object.assign(new Error('Network Error'), { status: 0 });

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
    const { actor, emitted, fakes } = setupSession({
      refreshTokens: () => Promise.reject(refused),
    });
    const link = sessionTokenSource(actor);
    await expect(link.rejected('access-1')).resolves.toBeNull();
    expect(actor.getSnapshot().matches('signedOut')).toBe(true);
    expect(actor.getSnapshot().context.session).toBeNull();
    expect(actor.getSnapshot().context.profile).toBeNull();
    expect(localStorage.getItem(SESSION_STORAGE_KEY)).toBeNull();
    expect(emitted).toContainEqual({ type: 'session.ended', reason: 'expired', elsewhere: false });
    await waitFor(actor, (s) => s.matches({ signedOut: 'idle' }));
    expect(fakes.wipeDevice).toHaveBeenCalledExactlyOnceWith({ reason: 'expired', elsewhere: false });
  });

  it('logout calls the logout effect with the token, clears storage and profile', async () => {
    localStorage.setItem(SESSION_STORAGE_KEY, JSON.stringify(loginResponse));
    const { actor, fakes, emitted } = setupSession();
    await waitFor(actor, (s) => s.context.profile !== null);
    actor.send({ type: 'session.logout' });
    expect(localStorage.getItem(SESSION_STORAGE_KEY)).toBeNull();
    const snapshot = await waitFor(actor, (s) => s.matches('signedOut'));
    expect(fakes.logOut).toHaveBeenCalledWith({ accessToken: 'access-1', refreshToken: 'refresh-1' });
    expect(snapshot.context.session).toBeNull();
    expect(snapshot.context.profile).toBeNull();
    expect(emitted).toContainEqual({ type: 'session.ended', reason: 'logout', elsewhere: false });
    await waitFor(actor, (s) => s.matches({ signedOut: 'idle' }));
    expect(fakes.wipeDevice).toHaveBeenCalledExactlyOnceWith({ reason: 'logout', elsewhere: false });
  });

  it('logout with the server unreachable (the logout call fails) still wipes the device', async () => {
    const { actor, fakes } = setupSession({ restored: loginResponse });
    fakes.logOut.mockRejectedValue(new TypeError('Failed to fetch'));
    actor.send({ type: 'session.logout' });
    await waitFor(actor, (s) => s.matches({ signedOut: 'idle' }));
    expect(fakes.logOut).toHaveBeenCalledTimes(1);
    expect(fakes.wipeDevice).toHaveBeenCalledExactlyOnceWith({ reason: 'logout', elsewhere: false });
    expect(localStorage.getItem(SESSION_STORAGE_KEY)).toBeNull();
  });

  it('sign-in waits for the wipe: no sign-in is taken while the last user is being wiped', async () => {
    const wipe = deferred<void>();
    const { actor } = setupSession({ restored: loginResponse, wipe: () => wipe.promise });
    actor.send({ type: 'session.logout' });
    await waitFor(actor, (s) => s.matches({ signedOut: 'wiping' }));
    actor.send({ type: 'session.signIn', credentials: { email: user.email, password: 'x' } });
    expect(actor.getSnapshot().matches({ signedOut: 'wiping' })).toBe(true);
    wipe.resolve();
    await waitFor(actor, (s) => s.matches({ signedOut: 'idle' }));
  });

  it('a wipe that hangs (a tab holding the database open) gives way after 10 seconds', async () => {
    vi.useFakeTimers();
    try {
      const { actor } = setupSession({ restored: loginResponse, wipe: () => new Promise(() => {}) });
      actor.send({ type: 'session.logout' });
      await vi.advanceTimersByTimeAsync(0);
      expect(actor.getSnapshot().matches({ signedOut: 'wiping' })).toBe(true);
      await vi.advanceTimersByTimeAsync(10_000);
      expect(actor.getSnapshot().matches({ signedOut: 'idle' })).toBe(true);
    } finally {
      vi.useRealTimers();
    }
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

describe('session machine on a lossy link (issue 17)', () => {
  it('defect 2: a refresh with no answer (or a 5xx) keeps the user signed in, offline, and tries again with backoff', async () => {
    vi.useFakeTimers();
    try {
      const failures = [unanswered, Object.assign(new Error('Bad gateway'), { status: 502 })];
      const { actor, fakes, emitted } = setupSession({
        restored: loginResponse,
        refreshTokens: async () => {
          const failure = failures.shift();
          if (failure) throw failure;
          return { accessToken: 'access-2', refreshToken: 'refresh-2' };
        },
      });
      const link = sessionTokenSource(actor);
      const first = link.rejected('access-1');
      await vi.advanceTimersByTimeAsync(0);
      await expect(first).resolves.toBe('offline');
      expect(actor.getSnapshot().matches({ signedIn: 'linkDown' })).toBe(true);
      expect(stored()).toEqual(loginResponse);
      expect(emitted.some((e) => e.type === 'session.ended')).toBe(false);
      // Backoff 1 s, then 2 s.
      await vi.advanceTimersByTimeAsync(1000);
      expect(fakes.refreshTokens).toHaveBeenCalledTimes(2);
      expect(actor.getSnapshot().matches({ signedIn: 'linkDown' })).toBe(true);
      await vi.advanceTimersByTimeAsync(1999);
      expect(fakes.refreshTokens).toHaveBeenCalledTimes(2);
      await vi.advanceTimersByTimeAsync(1);
      expect(fakes.refreshTokens).toHaveBeenCalledTimes(3);
      expect(actor.getSnapshot().matches({ signedIn: 'active' })).toBe(true);
      expect(stored()).toMatchObject({ accessToken: 'access-2', refreshToken: 'refresh-2' });
      expect(fakes.wipeDevice).not.toHaveBeenCalled();
    } finally {
      vi.useRealTimers();
    }
  });

  it('the online event ends the backoff at once', async () => {
    vi.useFakeTimers();
    try {
      let calls = 0;
      const { actor, fakes } = setupSession({
        restored: loginResponse,
        refreshTokens: async () => {
          calls += 1;
          if (calls < 4) throw unanswered;
          return { accessToken: 'access-2', refreshToken: 'refresh-2' };
        },
      });
      const link = sessionTokenSource(actor);
      void link.rejected('access-1');
      await vi.advanceTimersByTimeAsync(1000 + 2000);
      expect(fakes.refreshTokens).toHaveBeenCalledTimes(3);
      actor.send({ type: 'link.online' });
      await vi.advanceTimersByTimeAsync(0);
      expect(fakes.refreshTokens).toHaveBeenCalledTimes(4);
      expect(actor.getSnapshot().matches({ signedIn: 'active' })).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('defect 3: a refused refresh with edits queued keeps them (no wipe); the same user signs in over the screen and goes on', async () => {
    const { actor, fakes, emitted } = setupSession({
      restored: loginResponse,
      refreshTokens: () => Promise.reject(refused),
      queuedEdits: async () => 2,
    });
    const link = sessionTokenSource(actor);
    await expect(link.rejected('access-1')).resolves.toBeNull();
    await waitFor(actor, (s) => s.matches({ locked: 'idle' }));
    expect(fakes.queuedEdits).toHaveBeenCalledWith({ userId: 1 });
    expect(fakes.wipeDevice).not.toHaveBeenCalled();
    expect(localStorage.getItem(SESSION_STORAGE_KEY)).toBeNull();
    expect(emitted).toContainEqual({ type: 'session.locked', queued: 2 });
    expect(actor.getSnapshot().context.locked?.user.id).toBe(1);
    actor.send({ type: 'session.signIn', credentials: { email: user.email, password: 'x' } });
    await waitFor(actor, (s) => s.matches('signedIn'));
    expect(fakes.wipeDevice).not.toHaveBeenCalled();
    expect(emitted).toContainEqual({ type: 'session.resumed', user });
    expect(stored()).toEqual(loginResponse);
    expect(localStorage.getItem('admin-locked')).toBeNull();
  });

  it('a locked session survives a reload: the restored actor asks the same user to sign in again', async () => {
    const first = setupSession({
      restored: loginResponse,
      refreshTokens: () => Promise.reject(refused),
      queuedEdits: async () => 1,
    });
    await sessionTokenSource(first.actor).rejected('access-1');
    await waitFor(first.actor, (s) => s.matches('locked'));
    first.actor.stop();
    const { actor } = setupSession();
    expect(actor.getSnapshot().matches({ locked: 'idle' })).toBe(true);
    expect(actor.getSnapshot().context.locked).toEqual({ user, queued: 1 });
  });

  it('another user signing in over a locked session: the device is wiped first and the screen told how many edits were discarded', async () => {
    const other: LoginResponse = { ...loginResponse, user: { ...user, id: 2, email: 'b@rewardclub.ng' } };
    const { actor, fakes, emitted } = setupSession({
      restored: loginResponse,
      refreshTokens: () => Promise.reject(refused),
      queuedEdits: async () => 3,
      signIn: async () => other,
    });
    await sessionTokenSource(actor).rejected('access-1');
    await waitFor(actor, (s) => s.matches('locked'));
    actor.send({ type: 'session.signIn', credentials: { email: other.user.email, password: 'x' } });
    await waitFor(actor, (s) => s.matches('signedIn'));
    expect(fakes.wipeDevice).toHaveBeenCalledTimes(1);
    expect(emitted).toContainEqual({ type: 'session.discarded', count: 3, user: other.user });
    expect(actor.getSnapshot().context.session).toEqual(other);
    expect(stored()).toEqual(other);
  });

  it('defect 6: a sign-out the server cannot be told of ends the session at once and keeps only the refresh token, to revoke later', async () => {
    const { actor, fakes } = setupSession({ restored: loginResponse });
    fakes.logOut.mockRejectedValue(unanswered);
    localStorage.setItem('other', 'x');
    actor.send({ type: 'session.logout' });
    expect(localStorage.getItem(SESSION_STORAGE_KEY)).toBeNull();
    await waitFor(actor, (s) => s.matches({ signedOut: 'idle' }));
    expect(readPendingRevocations()).toEqual(['refresh-1']);
    expect(actor.getSnapshot().context.revocation).toBeNull();
  });

  it('a sign-out the server heard keeps nothing', async () => {
    const { actor } = setupSession({ restored: loginResponse });
    actor.send({ type: 'session.logout' });
    await waitFor(actor, (s) => s.matches({ signedOut: 'idle' }));
    expect(readPendingRevocations()).toEqual([]);
  });
});

describe('session machine: several tabs', () => {
  it('two tabs, ten rejections each at once: ONE refresh in total, both tabs take the new tokens', async () => {
    const locks = fakeLocks();
    const tabs = fakeTabs();
    const refresh = deferred<TokenPair>();
    const a = setupSession({ restored: loginResponse, locks, tabs, refreshTokens: () => refresh.promise });
    const b = setupSession({ restored: loginResponse, locks, tabs, refreshTokens: () => refresh.promise });
    const linkA = sessionTokenSource(a.actor);
    const linkB = sessionTokenSource(b.actor);
    const outcomes = [
      ...Array.from({ length: 10 }, () => linkA.rejected('access-1')),
      ...Array.from({ length: 10 }, () => linkB.rejected('access-1')),
    ];
    await waitFor(a.actor, (s) => s.matches({ signedIn: { refreshing: 'calling' } }));
    // Tab B waits for the lock tab A holds.
    expect(b.actor.getSnapshot().matches({ signedIn: { refreshing: 'waitingForLock' } })).toBe(true);
    refresh.resolve({ accessToken: 'access-2', refreshToken: 'refresh-2' });
    await expect(Promise.all(outcomes)).resolves.toEqual(Array(20).fill('access-2'));
    expect(a.fakes.refreshTokens.mock.calls.length + b.fakes.refreshTokens.mock.calls.length).toBe(1);
    expect(b.fakes.refreshTokens).not.toHaveBeenCalled();
    expect(locks.stats.granted).toBe(2);
    for (const tab of [a, b]) {
      expect(tab.actor.getSnapshot().matches({ signedIn: 'active' })).toBe(true);
      expect(tab.emitted.filter((e) => e.type === 'session.ended')).toEqual([]);
    }
    expect(stored()).toMatchObject({ accessToken: 'access-2', refreshToken: 'refresh-2' });
  });

  it('the new tokens are stored before the lock is released, so the next tab reads them', async () => {
    const locks = fakeLocks();
    const { actor } = setupSession({ restored: loginResponse, locks });
    await sessionTokenSource(actor).rejected('access-1');
    await vi.waitFor(() => expect(locks.stats.storedAtRelease).toHaveLength(1));
    expect(locks.stats.storedAtRelease[0]).toMatchObject({
      accessToken: 'access-2',
      refreshToken: 'refresh-2',
    });
  });

  it('a tab that meets a 401 after another tab already refreshed takes the stored tokens, no second refresh', async () => {
    const { actor, fakes } = setupSession({ restored: loginResponse });
    // Another tab rotated the tokens; this tab has not seen the storage event yet.
    writeStoredSession({ ...loginResponse, accessToken: 'access-9', refreshToken: 'refresh-9' });
    await expect(sessionTokenSource(actor).rejected('access-1')).resolves.toBe('access-9');
    expect(fakes.refreshTokens).not.toHaveBeenCalled();
    expect(actor.getSnapshot().context.session?.refreshToken).toBe('refresh-9');
  });

  it("a storage event with another tab's tokens is taken at once; a later 401 of the old token needs no refresh", async () => {
    const tabs = fakeTabs();
    const { actor, fakes } = setupSession({ restored: loginResponse, tabs });
    writeStoredSession({ ...loginResponse, accessToken: 'access-9', refreshToken: 'refresh-9' });
    tabs.storageEvent();
    const link = sessionTokenSource(actor);
    await expect(link.accessToken()).resolves.toBe('access-9');
    await expect(link.rejected('access-1')).resolves.toBe('access-9');
    expect(fakes.refreshTokens).not.toHaveBeenCalled();
  });

  it('a tab waiting for the lock takes tokens announced by a storage event and withdraws its request', async () => {
    const locks = fakeLocks();
    const tabs = fakeTabs();
    const refresh = deferred<TokenPair>();
    const a = setupSession({ restored: loginResponse, locks, tabs, refreshTokens: () => refresh.promise });
    const b = setupSession({ restored: loginResponse, locks, tabs });
    void sessionTokenSource(a.actor).rejected('access-1');
    await waitFor(a.actor, (s) => s.matches({ signedIn: { refreshing: 'calling' } }));
    const outcomeB = sessionTokenSource(b.actor).rejected('access-1');
    expect(b.actor.getSnapshot().matches({ signedIn: { refreshing: 'waitingForLock' } })).toBe(true);
    // Tab A's refresh lands in storage; tab B hears of it before it gets the lock.
    writeStoredSession({ ...loginResponse, accessToken: 'access-2', refreshToken: 'refresh-2' });
    tabs.storageEvent(a.actor);
    await expect(outcomeB).resolves.toBe('access-2');
    expect(locks.stats.withdrawn).toBe(1);
    expect(b.fakes.refreshTokens).not.toHaveBeenCalled();
    refresh.resolve({ accessToken: 'access-2', refreshToken: 'refresh-2' });
    await waitFor(a.actor, (s) => s.matches({ signedIn: 'active' }));
  });

  it('a profile fetch stores the fresher user but never writes older tokens over newer ones', async () => {
    const profileDone = deferred<Profile>();
    const { actor } = setupSession({ restored: loginResponse });
    actor.stop();
    const slow = createActor(
      sessionMachine.provide({
        actors: { fetchProfile: fromPromise(() => profileDone.promise), refreshLock: fakeLocks().logic },
      }),
      { input: { restored: loginResponse } },
    ).start();
    actors.add(slow);
    writeStoredSession({ ...loginResponse, accessToken: 'access-9', refreshToken: 'refresh-9' });
    profileDone.resolve({ ...profile, permissions: ['dashboard.view', 'partners.view'] });
    await waitFor(slow, (s) => s.context.profile !== null);
    expect(stored()).toMatchObject({ accessToken: 'access-9', refreshToken: 'refresh-9' });
    expect(stored().user.permissions).toEqual(['dashboard.view', 'partners.view']);
  });

  it('sign-out in one tab signs out and wipes every other tab', async () => {
    const tabs = fakeTabs();
    const a = setupSession({ restored: loginResponse, tabs });
    const b = setupSession({ restored: loginResponse, tabs });
    const c = setupSession({ restored: loginResponse, tabs });
    a.actor.send({ type: 'session.logout' });
    for (const tab of [b, c]) {
      await waitFor(tab.actor, (s) => s.matches({ signedOut: 'idle' }));
      expect(tab.actor.getSnapshot().context.session).toBeNull();
      expect(tab.emitted).toContainEqual({ type: 'session.ended', reason: 'logout', elsewhere: true });
      expect(tab.fakes.wipeDevice).toHaveBeenCalledExactlyOnceWith({ reason: 'logout', elsewhere: true });
      expect(tab.fakes.logOut).not.toHaveBeenCalled();
    }
    await waitFor(a.actor, (s) => s.matches({ signedOut: 'idle' }));
    expect(a.fakes.wipeDevice).toHaveBeenCalledExactlyOnceWith({ reason: 'logout', elsewhere: false });
  });

  it('a failed refresh in one tab ends every tab with the expiry (the other tab was waiting for the lock)', async () => {
    const locks = fakeLocks();
    const tabs = fakeTabs();
    const refresh = deferred<TokenPair>();
    const a = setupSession({ restored: loginResponse, locks, tabs, refreshTokens: () => refresh.promise });
    const b = setupSession({ restored: loginResponse, locks, tabs });
    const outcomeA = sessionTokenSource(a.actor).rejected('access-1');
    await waitFor(a.actor, (s) => s.matches({ signedIn: { refreshing: 'calling' } }));
    const outcomeB = sessionTokenSource(b.actor).rejected('access-1');
    refresh.reject(refused);
    await expect(outcomeA).resolves.toBeNull();
    await expect(outcomeB).resolves.toBeNull();
    expect(a.emitted).toContainEqual({ type: 'session.ended', reason: 'expired', elsewhere: false });
    expect(b.emitted).toContainEqual({ type: 'session.ended', reason: 'expired', elsewhere: true });
    expect(b.fakes.refreshTokens).not.toHaveBeenCalled();
    expect(localStorage.getItem(SESSION_STORAGE_KEY)).toBeNull();
  });

  it('a stored session found gone inside the lock (signed out elsewhere) ends this tab without a refresh', async () => {
    const { actor, fakes, emitted } = setupSession({ restored: loginResponse });
    localStorage.removeItem(SESSION_STORAGE_KEY);
    await expect(sessionTokenSource(actor).rejected('access-1')).resolves.toBeNull();
    expect(fakes.refreshTokens).not.toHaveBeenCalled();
    expect(emitted).toContainEqual({ type: 'session.ended', reason: 'logout', elsewhere: true });
    await waitFor(actor, (s) => s.matches({ signedOut: 'idle' }));
    expect(fakes.wipeDevice).toHaveBeenCalledTimes(1);
  });

  it("another user's session stored by another tab ends this tab's session", async () => {
    const tabs = fakeTabs();
    const { actor, fakes } = setupSession({ restored: loginResponse, tabs });
    writeStoredSession({ ...loginResponse, accessToken: 'x', refreshToken: 'y', user: { ...user, id: 2 } });
    tabs.storageEvent();
    await waitFor(actor, (s) => s.matches({ signedOut: 'idle' }));
    expect(fakes.wipeDevice).toHaveBeenCalledExactlyOnceWith({ reason: 'logout', elsewhere: true });
  });
});

describe('session machine graph', () => {
  const tokens = { accessToken: 'access-2', refreshToken: 'refresh-2' };
  const newer: LoginResponse = { ...loginResponse, accessToken: 'access-9', refreshToken: 'refresh-9' };
  const otherUser: LoginResponse = { ...newer, user: { ...user, id: 2 } };
  const events = [
    { type: 'session.signIn', credentials: { email: user.email, password: 'x' } },
    { type: 'session.logout' },
    { type: 'token.rejected', token: 'access-1' },
    { type: 'token.rejected', token: 'stale' },
    { type: 'xstate.done.actor.signIn', output: loginResponse },
    { type: 'xstate.error.actor.signIn', error: new Error('401') },
    { type: 'xstate.done.actor.refreshTokens', output: tokens },
    { type: 'xstate.error.actor.refreshTokens', error: refused },
    { type: 'xstate.error.actor.refreshTokens', error: unanswered },
    { type: 'xstate.after.refreshBackoff.session.signedIn.linkDown' },
    { type: 'link.online' },
    { type: 'xstate.done.actor.queuedEdits', output: 0 },
    { type: 'xstate.done.actor.queuedEdits', output: 2 },
    { type: 'xstate.done.actor.signIn', output: otherUser },
    { type: 'xstate.after.wipeTimeout.session.locked.switching' },
    { type: 'xstate.done.actor.fetchProfile', output: profile },
    { type: 'xstate.done.actor.logOut', output: undefined },
    { type: 'xstate.error.actor.logOut', error: new Error('offline') },
    { type: 'xstate.after.logoutTimeout.session.signingOut' },
    { type: 'xstate.done.actor.wipeDevice', output: undefined },
    { type: 'xstate.error.actor.wipeDevice', error: new Error('blocked') },
    { type: 'xstate.after.wipeTimeout.session.signedOut.wiping' },
    // The other tabs: the lock granted with what storage holds, storage events, broadcasts.
    { type: 'lock.acquired', stored: loginResponse },
    { type: 'lock.acquired', stored: newer },
    { type: 'lock.acquired', stored: null },
    { type: 'lock.acquired', stored: otherUser },
    { type: 'session.synced', session: newer },
    { type: 'session.synced', session: otherUser },
    { type: 'session.endedElsewhere', reason: 'logout' },
    { type: 'session.endedElsewhere', reason: 'expired' },
  ] as unknown as Parameters<typeof sessionMachine.transition>[1][];
  const options = { events, input: { restored: null } };
  // Every edge of the reachable graph. (The cast: the machine's emitted-event types do not fit the
  // generic ActorLogic that getAdjacencyMap is typed with.)
  const edges = adjacencyMapToArray(
    getAdjacencyMap(sessionMachine as unknown as AnyStateMachine, options as never),
  ) as unknown as { state: AnyMachineSnapshot; event: SessionEvent; nextState: AnyMachineSnapshot }[];
  const inState = (snapshot: AnyMachineSnapshot, value: string) => snapshot.matches(value);

  it('reaches every state from a signed-out start', () => {
    const paths = getShortestPaths(sessionMachine, options);
    const reached = new Set(paths.map((p) => JSON.stringify(p.state.value)));
    expect([...reached].sort()).toEqual(
      [
        { signedOut: 'idle' },
        { signedOut: 'loading' },
        { signedOut: 'failure' },
        { signedOut: 'wiping' },
        { signedIn: 'active' },
        { signedIn: { refreshing: 'waitingForLock' } },
        { signedIn: { refreshing: 'calling' } },
        { signedIn: 'linkDown' },
        'signingOut',
        'ending',
        { locked: 'idle' },
        { locked: 'loading' },
        { locked: 'failure' },
        { locked: 'switching' },
      ]
        .map((v) => JSON.stringify(v))
        .sort(),
    );
  });

  it('never holds a session in a signed-out state, and always holds one when signed in', () => {
    for (const { nextState } of edges) {
      if (nextState.matches('signedOut')) expect(nextState.context.session).toBeNull();
      if (nextState.matches('signedIn')) expect(nextState.context.session).not.toBeNull();
    }
  });

  it('every way a session ends goes through the wipe, with the reason kept for it', () => {
    let endings = 0;
    for (const { state, nextState, event } of edges) {
      const wasIn = inState(state, 'signedIn') || inState(state, 'signingOut');
      if (!wasIn || !nextState.matches('signedOut')) continue;
      endings += 1;
      expect(
        nextState.matches({ signedOut: 'wiping' }),
        `${JSON.stringify(state.value)} --${event.type}`,
      ).toBe(true);
      expect(nextState.context.ended).not.toBeNull();
    }
    // Logout (done, failed, timed out), refresh failure, another tab's end (2 reasons), a gone or
    // foreign stored session inside the lock, another user's session synced (2 states).
    expect(endings).toBeGreaterThanOrEqual(9);
    console.log(`session graph: ${edges.length} edges, ${endings} of them end a session, all into the wipe`);
  });

  it("the refresh call is made only inside the lock, and only when storage holds this tab's own tokens", () => {
    const intoCalling = edges.filter(
      ({ state, nextState }) =>
        nextState.matches({ signedIn: { refreshing: 'calling' } }) &&
        !state.matches({ signedIn: { refreshing: 'calling' } }),
    );
    expect(intoCalling.length).toBeGreaterThan(0);
    for (const { state, event } of intoCalling) {
      expect(event.type).toBe('lock.acquired');
      const stored = (event as Extract<SessionEvent, { type: 'lock.acquired' }>).stored;
      expect(stored?.refreshToken).toBe(state.context.session?.refreshToken);
    }
  });

  it('a tab that sees newer tokens (lock or storage event) takes them instead of refreshing', () => {
    const adopting = edges.filter(
      ({ state, event }) =>
        state.matches({ signedIn: { refreshing: 'waitingForLock' } }) &&
        ((event.type === 'lock.acquired' && (event as { stored: LoginResponse | null }).stored === newer) ||
          (event.type === 'session.synced' && (event as { session: LoginResponse }).session === newer)),
    );
    expect(adopting.length).toBeGreaterThan(0);
    for (const { nextState } of adopting) {
      expect(nextState.matches({ signedIn: 'active' })).toBe(true);
      expect(nextState.context.session).toEqual(newer);
    }
  });
});

/** A refresh lock that is never granted: the tab waits in `refreshing.waitingForLock` until told. */
const lockNeverGranted = () =>
  ({ logic: fromCallback(() => () => {}), stats: {} }) as unknown as ReturnType<typeof fakeLocks>;
/** A tab channel that records what this tab announces to the others. */
const announcing = (announced: TabAnnouncement[]) =>
  ({
    logic: fromCallback<TabAnnouncement>(({ receive }) => {
      receive((event) => announced.push(event));
      return () => {};
    }),
    storageEvent: () => {},
  }) as ReturnType<typeof fakeTabs>;
const otherUser: LoginResponse = {
  accessToken: 'access-b',
  refreshToken: 'refresh-b',
  user: { ...user, id: 2, email: 'b@rewardclub.ng' },
};

describe('session machine: survivors of mutation testing', () => {
  it.each([
    [400, 'signedOut'],
    [403, 'signedOut'],
    [499, 'signedOut'],
    [408, 'linkDown'],
    [429, 'linkDown'],
    [500, 'linkDown'],
  ] as const)(
    'a refresh answered %i: only a 4xx refusal (not 408/429/5xx) ends the session',
    async (status, outcome) => {
      const error = Object.assign(new Error('refresh failed'), { status });
      const { actor, fakes } = setupSession({
        restored: loginResponse,
        refreshTokens: () => Promise.reject(error),
      });
      actor.send({ type: 'token.rejected', token: 'access-1' });
      await waitFor(actor, (s) => s.matches('signedOut') || s.matches({ signedIn: 'linkDown' }));
      expect(
        actor.getSnapshot().matches(outcome === 'signedOut' ? 'signedOut' : { signedIn: 'linkDown' }),
      ).toBe(true);
      expect(fakes.refreshTokens).toHaveBeenCalledTimes(1);
    },
  );

  it('a rejection of a stale token (not the current one) starts no refresh', async () => {
    const { actor, fakes } = setupSession({ restored: loginResponse });
    actor.send({ type: 'token.rejected', token: 'access-0' });
    expect(actor.getSnapshot().matches({ signedIn: 'active' })).toBe(true);
    await Promise.resolve();
    expect(fakes.refreshTokens).not.toHaveBeenCalled();
  });

  it('offline, a 401 of the current token retries at once (no backoff wait); a stale one does not', async () => {
    vi.useFakeTimers();
    try {
      let calls = 0;
      const { actor, fakes } = setupSession({
        restored: loginResponse,
        refreshTokens: async () => {
          calls += 1;
          if (calls < 2) throw unanswered;
          return { accessToken: 'access-2', refreshToken: 'refresh-2' };
        },
      });
      actor.send({ type: 'token.rejected', token: 'access-1' });
      await vi.advanceTimersByTimeAsync(0);
      expect(actor.getSnapshot().matches({ signedIn: 'linkDown' })).toBe(true);
      actor.send({ type: 'token.rejected', token: 'access-0' });
      await vi.advanceTimersByTimeAsync(0);
      expect(fakes.refreshTokens).toHaveBeenCalledTimes(1);
      actor.send({ type: 'token.rejected', token: 'access-1' });
      await vi.advanceTimersByTimeAsync(0);
      expect(fakes.refreshTokens).toHaveBeenCalledTimes(2);
      expect(actor.getSnapshot().matches({ signedIn: 'active' })).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a refresh after refreshes with no answer reports the outage is over; a plain refresh does not', async () => {
    vi.useFakeTimers();
    try {
      let calls = 0;
      const { actor, emitted } = setupSession({
        restored: loginResponse,
        refreshTokens: async () => {
          calls += 1;
          if (calls === 1) throw unanswered;
          return { accessToken: `access-${calls + 1}`, refreshToken: `refresh-${calls + 1}` };
        },
      });
      actor.send({ type: 'token.rejected', token: 'access-1' });
      await vi.advanceTimersByTimeAsync(1000);
      expect(actor.getSnapshot().matches({ signedIn: 'active' })).toBe(true);
      expect(emitted.filter((e) => e.type === 'session.refreshed')).toEqual([
        { type: 'session.refreshed', afterOutage: true },
      ]);
      expect(actor.getSnapshot().context.session?.accessToken).toBe('access-3');
      actor.send({ type: 'token.rejected', token: 'access-3' });
      // The lock is handed over 200 ms after tokens were rotated (tab-sync HANDOVER_MS).
      await vi.advanceTimersByTimeAsync(300);
      expect(emitted.filter((e) => e.type === 'session.refreshed')).toEqual([
        { type: 'session.refreshed', afterOutage: true },
        { type: 'session.refreshed', afterOutage: false },
      ]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("offline, another tab's newer tokens are taken and end the outage; another user's session ends this one", async () => {
    const failing = () => Promise.reject(unanswered);
    const newer: LoginResponse = { ...loginResponse, accessToken: 'access-9', refreshToken: 'refresh-9' };
    const a = setupSession({ restored: loginResponse, refreshTokens: failing });
    a.actor.send({ type: 'token.rejected', token: 'access-1' });
    await waitFor(a.actor, (s) => s.matches({ signedIn: 'linkDown' }));
    expect(a.actor.getSnapshot().context.refreshFailures).toBe(1);
    a.actor.send({ type: 'session.synced', session: newer });
    expect(a.actor.getSnapshot().matches({ signedIn: 'active' })).toBe(true);
    expect(a.actor.getSnapshot().context.session).toEqual(newer);
    expect(a.actor.getSnapshot().context.refreshFailures).toBe(0);

    const b = setupSession({ restored: loginResponse, refreshTokens: failing });
    b.actor.send({ type: 'token.rejected', token: 'access-1' });
    await waitFor(b.actor, (s) => s.matches({ signedIn: 'linkDown' }));
    b.actor.send({ type: 'session.synced', session: otherUser });
    expect(b.actor.getSnapshot().matches({ signedOut: 'wiping' })).toBe(true);
    expect(b.actor.getSnapshot().context.session).toBeNull();
    expect(b.emitted).toContainEqual({ type: 'session.ended', reason: 'logout', elsewhere: true });
  });

  it("signed in, another user's session stored by another tab ends this one (it is not taken)", async () => {
    const { actor, fakes } = setupSession({ restored: loginResponse });
    actor.send({ type: 'session.synced', session: otherUser });
    expect(actor.getSnapshot().context.session).toBeNull();
    await waitFor(actor, (s) => s.matches({ signedOut: 'idle' }));
    expect(fakes.wipeDevice).toHaveBeenCalledExactlyOnceWith({ reason: 'logout', elsewhere: true });
  });

  it("waiting for the lock: the same tokens stored change nothing, another user's session ends this one", async () => {
    const { actor, fakes } = setupSession({ restored: loginResponse, locks: lockNeverGranted() });
    actor.send({ type: 'token.rejected', token: 'access-1' });
    expect(actor.getSnapshot().matches({ signedIn: { refreshing: 'waitingForLock' } })).toBe(true);
    actor.send({ type: 'session.synced', session: loginResponse });
    expect(actor.getSnapshot().matches({ signedIn: { refreshing: 'waitingForLock' } })).toBe(true);
    actor.send({ type: 'session.synced', session: otherUser });
    expect(actor.getSnapshot().matches({ signedOut: 'wiping' })).toBe(true);
    await waitFor(actor, (s) => s.matches({ signedOut: 'idle' }));
    expect(fakes.wipeDevice).toHaveBeenCalledExactlyOnceWith({ reason: 'logout', elsewhere: true });
    expect(fakes.refreshTokens).not.toHaveBeenCalled();
  });

  it("during the refresh call, another user's session stored elsewhere still ends this one", async () => {
    const refresh = deferred<TokenPair>();
    const { actor } = setupSession({ restored: loginResponse, refreshTokens: () => refresh.promise });
    actor.send({ type: 'token.rejected', token: 'access-1' });
    await waitFor(actor, (s) => s.matches({ signedIn: { refreshing: 'calling' } }));
    actor.send({ type: 'session.synced', session: loginResponse });
    expect(actor.getSnapshot().matches({ signedIn: { refreshing: 'calling' } })).toBe(true);
    actor.send({ type: 'session.synced', session: otherUser });
    expect(actor.getSnapshot().matches({ signedOut: 'wiping' })).toBe(true);
  });

  it('tells the other tabs why the session ended: logout on sign-out, expired on a refused refresh', async () => {
    const announced: TabAnnouncement[] = [];
    const a = setupSession({ restored: loginResponse, tabs: announcing(announced) });
    a.actor.send({ type: 'session.logout' });
    expect(announced).toEqual([{ type: 'tab.announceEnded', reason: 'logout' }]);
    a.actor.stop();
    localStorage.clear();
    const expired: TabAnnouncement[] = [];
    const b = setupSession({
      restored: loginResponse,
      tabs: announcing(expired),
      refreshTokens: () => Promise.reject(refused),
    });
    b.actor.send({ type: 'token.rejected', token: 'access-1' });
    await waitFor(b.actor, (s) => s.matches('signedOut'));
    expect(expired).toEqual([{ type: 'tab.announceEnded', reason: 'expired' }]);
  });

  it('a profile saved on the profile screen updates the role and permissions and the stored user', async () => {
    const { actor } = setupSession({ restored: loginResponse });
    await waitFor(actor, (s) => s.context.profile !== null);
    const changed: Profile = {
      ...profile,
      role: { id: 7, name: 'Auditor' },
      permissions: ['activities.view'],
    };
    actor.send({ type: 'profile.updated', profile: changed });
    expect(actor.getSnapshot().context.profile).toEqual(changed);
    expect(actor.getSnapshot().context.session?.user).toMatchObject({
      role: { id: 7, name: 'Auditor' },
      permissions: ['activities.view'],
    });
    expect(stored().user.permissions).toEqual(['activities.view']);
  });

  it('after a failed sign-in the user can try again; the earlier error is cleared', async () => {
    const error = new Error('Invalid email or password');
    const { actor, fakes } = setupSession();
    fakes.signIn.mockRejectedValueOnce(error);
    actor.send({ type: 'session.signIn', credentials: { email: user.email, password: 'wrong' } });
    await waitFor(actor, (s) => s.matches({ signedOut: 'failure' }));
    actor.send({ type: 'session.signIn', credentials: { email: user.email, password: 'right' } });
    expect(actor.getSnapshot().matches({ signedOut: 'loading' })).toBe(true);
    expect(actor.getSnapshot().context.error).toBeNull();
    await waitFor(actor, (s) => s.matches('signedIn'));
  });

  it('a locked session keeps the user and the count of queued edits, with dead tokens', async () => {
    const { actor } = setupSession({
      restored: loginResponse,
      refreshTokens: () => Promise.reject(refused),
      queuedEdits: async () => 2,
    });
    actor.send({ type: 'token.rejected', token: 'access-1' });
    const snapshot = await waitFor(actor, (s) => s.matches({ locked: 'idle' }));
    expect(snapshot.context.locked).toEqual({ user, queued: 2 });
    expect(snapshot.context.session).toEqual({ accessToken: '', refreshToken: '', user });
    expect(JSON.parse(localStorage.getItem('admin-locked') ?? 'null')).toEqual({ user, queued: 2 });
  });

  it('a refused refresh whose queued edits cannot be counted ends the session as expired', async () => {
    const { actor, fakes, emitted } = setupSession({
      restored: loginResponse,
      refreshTokens: () => Promise.reject(refused),
      queuedEdits: () => Promise.reject(new Error('outbox unreadable')),
    });
    actor.send({ type: 'token.rejected', token: 'access-1' });
    await waitFor(actor, (s) => s.matches({ signedOut: 'idle' }));
    expect(emitted).toContainEqual({ type: 'session.ended', reason: 'expired', elsewhere: false });
    expect(fakes.wipeDevice).toHaveBeenCalledExactlyOnceWith({ reason: 'expired', elsewhere: false });
  });

  async function lockedSession(overrides: Parameters<typeof setupSession>[0] = {}) {
    const setup = setupSession({
      restored: loginResponse,
      refreshTokens: () => Promise.reject(refused),
      queuedEdits: async () => 2,
      ...overrides,
    });
    setup.actor.send({ type: 'token.rejected', token: 'access-1' });
    await waitFor(setup.actor, (s) => s.matches({ locked: 'idle' }));
    return setup;
  }

  it('locked: signing out wipes the device and forgets the locked user', async () => {
    const { actor, fakes, emitted } = await lockedSession();
    actor.send({ type: 'session.logout' });
    expect(actor.getSnapshot().matches({ signedOut: 'wiping' })).toBe(true);
    await waitFor(actor, (s) => s.matches({ signedOut: 'idle' }));
    expect(emitted).toContainEqual({ type: 'session.ended', reason: 'logout', elsewhere: false });
    expect(fakes.wipeDevice).toHaveBeenCalledExactlyOnceWith({ reason: 'logout', elsewhere: false });
    expect(localStorage.getItem('admin-locked')).toBeNull();
    expect(actor.getSnapshot().context.locked).toBeNull();
  });

  it('locked: a session ended in another tab ends this one with its reason', async () => {
    const { actor, fakes, emitted } = await lockedSession();
    actor.send({ type: 'session.endedElsewhere', reason: 'expired' });
    expect(actor.getSnapshot().matches({ signedOut: 'wiping' })).toBe(true);
    await waitFor(actor, (s) => s.matches({ signedOut: 'idle' }));
    expect(emitted).toContainEqual({ type: 'session.ended', reason: 'expired', elsewhere: true });
    expect(fakes.wipeDevice).toHaveBeenCalledExactlyOnceWith({ reason: 'expired', elsewhere: true });
    expect(localStorage.getItem('admin-locked')).toBeNull();
  });

  it('locked: a failed sign-in is reported and can be tried again with the error cleared', async () => {
    const error = new Error('Invalid email or password');
    const { actor, fakes, emitted } = await lockedSession();
    fakes.signIn.mockRejectedValueOnce(error);
    actor.send({ type: 'session.signIn', credentials: { email: user.email, password: 'wrong' } });
    const failed = await waitFor(actor, (s) => s.matches({ locked: 'failure' }));
    expect(fakes.signIn).toHaveBeenCalledWith({ email: user.email, password: 'wrong' });
    expect(failed.context.error).toBe(error);
    expect(emitted).toContainEqual({ type: 'session.signInFailed', error });
    actor.send({ type: 'session.signIn', credentials: { email: user.email, password: 'right' } });
    expect(actor.getSnapshot().matches({ locked: 'loading' })).toBe(true);
    expect(actor.getSnapshot().context.error).toBeNull();
    await waitFor(actor, (s) => s.matches('signedIn'));
    expect(emitted).toContainEqual({ type: 'session.resumed', user });
  });

  it('another user over a locked session: the wipe is told "logout", a sign-out meanwhile is ignored, and a failed wipe still lets them in', async () => {
    const wipe = deferred<void>();
    const { actor, fakes, emitted } = await lockedSession({
      signIn: async () => otherUser,
      wipe: () => wipe.promise,
    });
    actor.send({ type: 'session.signIn', credentials: { email: otherUser.user.email, password: 'x' } });
    await waitFor(actor, (s) => s.matches({ locked: 'switching' }));
    expect(fakes.wipeDevice).toHaveBeenCalledExactlyOnceWith({ reason: 'logout', elsewhere: false });
    actor.send({ type: 'session.logout' });
    expect(actor.getSnapshot().matches({ locked: 'switching' })).toBe(true);
    wipe.reject(new Error('blocked'));
    const snapshot = await waitFor(actor, (s) => s.matches('signedIn'));
    expect(snapshot.context.session).toEqual(otherUser);
    expect(stored()).toEqual(otherUser);
    expect(emitted).toContainEqual({ type: 'session.discarded', count: 2, user: otherUser.user });
    expect(localStorage.getItem('admin-locked')).toBeNull();
  });

  it('another user over a locked session: a wipe that hangs gives way after 10 seconds', async () => {
    const { actor, emitted } = await lockedSession({
      signIn: async () => otherUser,
      wipe: () => new Promise(() => {}),
    });
    vi.useFakeTimers();
    try {
      actor.send({ type: 'session.signIn', credentials: { email: otherUser.user.email, password: 'x' } });
      await vi.advanceTimersByTimeAsync(9999);
      expect(actor.getSnapshot().matches({ locked: 'switching' })).toBe(true);
      await vi.advanceTimersByTimeAsync(1);
      expect(actor.getSnapshot().matches('signedIn')).toBe(true);
      expect(actor.getSnapshot().context.session).toEqual(otherUser);
      expect(stored()).toEqual(otherUser);
      expect(emitted).toContainEqual({ type: 'session.discarded', count: 2, user: otherUser.user });
    } finally {
      vi.useRealTimers();
    }
  });

  it('the sign-in button is busy while signing in and once signed in; signed in includes locked', async () => {
    const signIn = deferred<LoginResponse>();
    const { actor } = setupSession({ signIn: () => signIn.promise });
    expect(signInBusy(actor.getSnapshot())).toBe(false);
    expect(isSignedIn(actor)).toBe(false);
    actor.send({ type: 'session.signIn', credentials: { email: user.email, password: 'x' } });
    expect(signInBusy(actor.getSnapshot())).toBe(true);
    expect(isSignedIn(actor)).toBe(false);
    signIn.resolve(loginResponse);
    await waitFor(actor, (s) => s.matches('signedIn'));
    expect(signInBusy(actor.getSnapshot())).toBe(true);
    expect(isSignedIn(actor)).toBe(true);
    const locked = await lockedSession();
    expect(isSignedIn(locked.actor)).toBe(true);
    expect(signInBusy(locked.actor.getSnapshot())).toBe(false);
  });
});
