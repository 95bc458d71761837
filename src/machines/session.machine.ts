import { type ActorRefFrom, assign, emit, fromPromise, sendTo, setup } from 'xstate';
import type { LoginBody, LoginResponse, SessionUser, TokenPair } from '../../contract/auth';
import type { Profile } from '../../contract/profile';
import {
  clearLockedUser,
  clearStoredSession,
  type LockedUser,
  readLockedUser,
  readStoredSession,
  withTokens,
  writeLockedUser,
  writePendingRevocation,
  writeStoredSession,
  writeStoredUser,
} from '../lib/session-storage';
import { type EndReason, noTabSync, refreshLock, type TabEvent } from '../lib/tab-sync';

/**
 * The app-wide session: the only owner of tokens. Sign-in, restore from storage, one refresh
 * for any number of rejected tokens in any number of tabs, logout, and the wipe of the device
 * when the session ends. Effects are named actors; boot provides the real ones.
 */

export interface SessionEnd {
  reason: EndReason;
  /** Ended by another tab (its sign-out or failed refresh), not by this one. */
  elsewhere: boolean;
}

export interface SessionContext {
  session: LoginResponse | null;
  profile: Profile | null;
  error: unknown;
  /** How the last session ended (what the wipe and the sign-in screen are told). */
  ended: SessionEnd | null;
  /**
   * The session expired while the user had edits queued on this device (issue 17): they are kept,
   * and the user signs in again over the current screen. Kept in localStorage across reloads.
   */
  locked: LockedUser | null;
  /** Another user signed in over a locked session: their session, while the device is wiped first. */
  pending: LoginResponse | null;
  /** Refreshes in a row that got no answer (or a 5xx): the backoff before the next try grows with it. */
  refreshFailures: number;
  /** A sign-out the server could not be told of: the refresh token to revoke when the link returns. */
  revocation: string | null;
}

export interface SessionInput {
  /** The stored session to restore; read from localStorage when omitted. */
  restored?: LoginResponse | null;
  /**
   * A locked session to restore (the session expired with edits queued, then a reload); read from
   * localStorage when `restored` is omitted too. Given, it wins over `restored`.
   */
  locked?: LockedUser | null;
}

export type SessionEvent =
  | { type: 'session.signIn'; credentials: LoginBody }
  | { type: 'session.logout' }
  | { type: 'token.rejected'; token: string }
  | { type: 'profile.updated'; profile: Profile }
  /** The link is back (the browser's online event): a refresh waiting out its backoff goes now. */
  | { type: 'link.online' }
  | TabEvent;

export type SessionEmitted =
  | { type: 'session.signedIn'; user: SessionUser }
  | { type: 'session.signInFailed'; error: unknown }
  /** The session ended, in this tab (`elsewhere: false`) or in another one. */
  | ({ type: 'session.ended' } & SessionEnd)
  /** The session expired with edits queued: they stay, the user signs in over the current screen. */
  | { type: 'session.locked'; queued: number }
  /** The locked user signed in again: the queued edits go out. */
  | { type: 'session.resumed'; user: SessionUser }
  /** Another user signed in over a locked session: the previous user's queued edits were discarded. */
  | { type: 'session.discarded'; count: number; user: SessionUser }
  /** New tokens; `afterOutage` when earlier refreshes got no answer (the link is back). */
  | { type: 'session.refreshed'; afterOutage: boolean };

export type { EndReason };

const notProvided = (name: string) => () => Promise.reject(new Error(`${name} is not provided`));

/**
 * Only a refusal ends a session: the refresh call answered 4xx (401: the token is dead). No answer
 * (status 0, a timeout), 408, 429 or a 5xx means the link or the server is down: stay signed in.
 */
export const isRefusal = (error: unknown): boolean => {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' && status >= 400 && status < 500 && status !== 408 && status !== 429;
};

/** A locked session: the user is known, the tokens are dead (calls go without one and get 401s). */
const deadSession = (user: SessionUser): LoginResponse => ({ accessToken: '', refreshToken: '', user });

/** 1 s, 2 s, 4 s ... at most 30 s between refreshes that got no answer. */
export const refreshBackoffMs = (failures: number): number =>
  Math.min(30_000, 1000 * 2 ** Math.max(0, failures - 1));

/** Keeps the profile, and takes the user's role and permissions from it (they may have changed). */
const withProfile = (context: SessionContext, profile: Profile): Partial<SessionContext> => ({
  profile,
  session: context.session
    ? {
        ...context.session,
        user: { ...context.session.user, role: profile.role, permissions: profile.permissions },
      }
    : null,
});

/** How a session stored by some tab relates to this tab's. */
const compareStored = (mine: LoginResponse | null, stored: LoginResponse | null) => {
  if (!mine || !stored) return 'gone' as const;
  if (stored.user.id !== mine.user.id) return 'otherUser' as const;
  return stored.refreshToken === mine.refreshToken ? ('same' as const) : ('newer' as const);
};

export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
    emitted: {} as SessionEmitted,
    input: {} as SessionInput | undefined,
  },
  actors: {
    signIn: fromPromise<LoginResponse, LoginBody>(notProvided('signIn')),
    refreshTokens: fromPromise<TokenPair, { refreshToken: string }>(notProvided('refreshTokens')),
    fetchProfile: fromPromise<Profile, void>(notProvided('fetchProfile')),
    /** Tells the server the session is over; rejects when the server could not be told. */
    logOut: fromPromise<void, { accessToken: string; refreshToken: string }>(notProvided('logOut')),
    /** How many edits of this user wait in the outbox (kept when the session expires). */
    queuedEdits: fromPromise<number, { userId: number }>(async () => 0),
    /** Removes every trace of the user from this browser (device-wipe.ts). */
    wipeDevice: fromPromise<void, { reason: EndReason; elsewhere: boolean }>(notProvided('wipeDevice')),
    /** The cross-tab refresh lock: reports `lock.acquired`, releases when stopped. */
    refreshLock,
    /** The channel to the other tabs: reports their news, carries this tab's announcements. */
    tabSync: noTabSync,
  },
  actions: {
    storeSession: ({ context }) => {
      if (context.session) writeStoredSession(context.session);
    },
    /** Only the user: the stored tokens may be newer than this tab's (another tab refreshed). */
    storeUser: ({ context }) => {
      if (context.session) writeStoredUser(context.session.user);
    },
    forgetStoredSession: () => clearStoredSession(),
    /** Sign-out not heard by the server: only the refresh token stays, to be revoked later. */
    keepRevocation: ({ context }) => {
      if (context.revocation) writePendingRevocation(context.revocation);
    },
    storeLocked: ({ context }) => {
      if (context.locked) writeLockedUser(context.locked);
    },
    forgetLocked: () => clearLockedUser(),
    /** After the wipe for another user: that user's session, and the news of what was discarded. */
    adoptPending: assign(({ context }) => ({ session: context.pending, pending: null, locked: null })),
    emitDiscarded: emit(({ context }) => ({
      type: 'session.discarded' as const,
      count: context.locked?.queued ?? 0,
      user: (context.pending ?? context.session)?.user as SessionUser,
    })),
    adoptSynced: assign({
      session: ({ event }) => (event.type === 'session.synced' ? event.session : null),
    }),
    adoptStored: assign({
      session: ({ event }) => (event.type === 'lock.acquired' ? event.stored : null),
    }),
    /** The session is over: forget it and keep why (signedOut.wiping reports it and wipes). */
    endSession: assign((_, params: SessionEnd) => ({ session: null, profile: null, ended: params })),
    announceLogout: sendTo('tabSync', { type: 'tab.announceEnded', reason: 'logout' }),
    announceExpiry: sendTo('tabSync', { type: 'tab.announceEnded', reason: 'expired' }),
  },
  guards: {
    hasSession: ({ context }) => context.session !== null,
    refused: ({ event }) => isRefusal((event as { error?: unknown }).error),
    hasLocked: ({ context }) => context.locked !== null,
    hasQueuedEdits: ({ event }) => ((event as { output?: unknown }).output as number) > 0,
    sameLockedUser: ({ context, event }) =>
      (event as { output?: LoginResponse }).output?.user.id === context.locked?.user.id,
    isCurrentToken: ({ context, event }) =>
      event.type === 'token.rejected' && event.token === context.session?.accessToken,
    syncedSameUser: ({ context, event }) =>
      event.type === 'session.synced' && event.session.user.id === context.session?.user.id,
    syncedNewer: ({ context, event }) =>
      event.type === 'session.synced' && compareStored(context.session, event.session) === 'newer',
    storedNewer: ({ context, event }) =>
      event.type === 'lock.acquired' && compareStored(context.session, event.stored) === 'newer',
    storedSame: ({ context, event }) =>
      event.type === 'lock.acquired' && compareStored(context.session, event.stored) === 'same',
  },
  delays: {
    logoutTimeout: 5000,
    /** A wipe blocked (e.g. by a hung tab holding the database open) does not lock out the next user. */
    wipeTimeout: 10_000,
    refreshBackoff: ({ context }) => refreshBackoffMs(context.refreshFailures),
  },
}).createMachine({
  id: 'session',
  context: ({ input }) => {
    const locked =
      input?.locked !== undefined ? input.locked : input?.restored === undefined ? readLockedUser() : null;
    return {
      session: locked
        ? deadSession(locked.user)
        : input?.restored === undefined
          ? readStoredSession()
          : input.restored,
      profile: null,
      error: null,
      ended: null,
      locked,
      pending: null,
      refreshFailures: 0,
      revocation: null,
    };
  },
  invoke: { id: 'tabSync', src: 'tabSync' },
  initial: 'restoring',
  states: {
    restoring: {
      always: [
        { guard: 'hasLocked', target: 'locked' },
        { guard: 'hasSession', target: 'signedIn' },
        { target: 'signedOut' },
      ],
    },
    signedOut: {
      initial: 'idle',
      states: {
        /** The session just ended: the user's data leaves the browser before the next sign-in. */
        wiping: {
          entry: emit(({ context }) => ({
            type: 'session.ended' as const,
            ...(context.ended ?? { reason: 'logout' as const, elsewhere: false }),
          })),
          invoke: {
            id: 'wipeDevice',
            src: 'wipeDevice',
            input: ({ context }) => context.ended ?? { reason: 'logout' as const, elsewhere: false },
            onDone: 'idle',
            onError: 'idle',
          },
          after: { wipeTimeout: 'idle' },
          // Written after the wipe (which clears localStorage): the one thing of the user kept.
          exit: ['keepRevocation', assign({ revocation: null, locked: null })],
        },
        idle: { on: { 'session.signIn': 'loading' } },
        failure: { on: { 'session.signIn': 'loading' } },
        loading: {
          entry: assign({ error: null }),
          invoke: {
            id: 'signIn',
            src: 'signIn',
            input: ({ event }) => (event as Extract<SessionEvent, { type: 'session.signIn' }>).credentials,
            onDone: {
              target: '#session.signedIn',
              actions: [
                assign({ session: ({ event }) => event.output }),
                'storeSession',
                emit(({ event }) => ({ type: 'session.signedIn' as const, user: event.output.user })),
              ],
            },
            onError: {
              target: 'failure',
              actions: [
                assign({ error: ({ event }) => event.error }),
                emit(({ event }) => ({ type: 'session.signInFailed' as const, error: event.error })),
              ],
            },
          },
        },
      },
    },
    signedIn: {
      initial: 'active',
      invoke: {
        id: 'fetchProfile',
        src: 'fetchProfile',
        // The profile carries the role's current permissions: a role changed since sign-in shows
        // in the menus and guards from the next profile fetch (every reload), not the next sign-in.
        onDone: {
          actions: [assign(({ context, event }) => withProfile(context, event.output)), 'storeUser'],
        },
        // A failed profile fetch leaves the placeholder name; a dead session ends via token.rejected.
        onError: {},
      },
      on: {
        'session.logout': { target: 'signingOut', actions: ['announceLogout', 'forgetStoredSession'] },
        'profile.updated': {
          actions: [assign(({ context, event }) => withProfile(context, event.profile)), 'storeUser'],
        },
        // Another tab stored tokens (it refreshed) or a fresher user: take them.
        'session.synced': [
          { guard: 'syncedSameUser', actions: 'adoptSynced' },
          // Someone else signed in meanwhile: this tab's session is over.
          {
            target: '#session.signedOut.wiping',
            actions: { type: 'endSession', params: { reason: 'logout', elsewhere: true } },
          },
        ],
        'session.endedElsewhere': {
          target: '#session.signedOut.wiping',
          actions: {
            type: 'endSession',
            params: ({ event }) => ({ reason: event.reason, elsewhere: true }),
          },
        },
      },
      states: {
        active: {
          on: {
            // A stale token (already replaced) needs no refresh: the caller retries with the current one.
            'token.rejected': { guard: 'isCurrentToken', target: 'refreshing' },
          },
        },
        /** The refresh got no answer: signed in, offline; callers fail as offline until it succeeds. */
        linkDown: {
          after: { refreshBackoff: 'refreshing' },
          on: {
            'link.online': 'refreshing',
            // A call needs a token now: try at once (its caller waits for this one outcome).
            'token.rejected': { guard: 'isCurrentToken', target: 'refreshing' },
            // Another tab refreshed meanwhile: its tokens, and the link is evidently back.
            'session.synced': {
              guard: 'syncedNewer',
              target: 'active',
              actions: ['adoptSynced', assign({ refreshFailures: 0 })],
            },
          },
        },
        refreshing: {
          // Further rejections while refreshing are absorbed: their callers wait for this outcome.
          // The lock is held for as long as this state lasts (leaving it releases the lock).
          invoke: { id: 'refreshLock', src: 'refreshLock' },
          initial: 'waitingForLock',
          states: {
            waitingForLock: {
              on: {
                'lock.acquired': [
                  // Another tab refreshed while this one waited: its tokens, no second refresh.
                  { guard: 'storedNewer', target: '#session.signedIn.active', actions: 'adoptStored' },
                  { guard: 'storedSame', target: 'calling' },
                  // The stored session is gone (signed out in another tab) or another user's.
                  {
                    target: '#session.signedOut.wiping',
                    actions: { type: 'endSession', params: { reason: 'logout', elsewhere: true } },
                  },
                ],
                'session.synced': [
                  { guard: 'syncedNewer', target: '#session.signedIn.active', actions: 'adoptSynced' },
                  { guard: 'syncedSameUser' },
                  {
                    target: '#session.signedOut.wiping',
                    actions: { type: 'endSession', params: { reason: 'logout', elsewhere: true } },
                  },
                ],
              },
            },
            calling: {
              on: {
                // This tab holds the lock: a stored session now can only be an older copy.
                'session.synced': { guard: 'syncedSameUser' },
              },
              invoke: {
                id: 'refreshTokens',
                src: 'refreshTokens',
                input: ({ context }) => ({ refreshToken: context.session?.refreshToken ?? '' }),
                onDone: {
                  target: '#session.signedIn.active',
                  actions: [
                    // After refreshes that got no answer: the screens' failed calls can go again.
                    emit(({ context }) => ({
                      type: 'session.refreshed' as const,
                      afterOutage: context.refreshFailures > 0,
                    })),
                    assign({
                      session: ({ context, event }) =>
                        context.session ? withTokens(context.session, event.output) : null,
                      refreshFailures: 0,
                    }),
                    // Stored in this same step, before the lock actor is stopped and its release
                    // reaches the lock manager: the next tab to take the lock reads these tokens.
                    'storeSession',
                  ],
                },
                onError: [
                  // Refused: the session is over (with edits queued, they are kept: see `ending`).
                  {
                    guard: 'refused',
                    target: '#session.ending',
                    actions: ['announceExpiry', 'forgetStoredSession'],
                  },
                  // No answer, a timeout or a 5xx: offline. Still signed in; try again after a backoff.
                  {
                    target: '#session.signedIn.linkDown',
                    actions: assign({
                      refreshFailures: ({ context }) => Math.min(context.refreshFailures + 1, 6),
                    }),
                  },
                ],
              },
            },
          },
        },
      },
    },
    signingOut: {
      // Until the server confirms, the refresh token is what must be revoked (kept if it never hears).
      entry: assign({ revocation: ({ context }) => context.session?.refreshToken ?? null }),
      invoke: {
        id: 'logOut',
        src: 'logOut',
        input: ({ context }) => ({
          accessToken: context.session?.accessToken ?? '',
          refreshToken: context.session?.refreshToken ?? '',
        }),
        onDone: { target: '#session.signedOut.wiping', actions: assign({ revocation: null }) },
        // The server could not be told (or the call hangs): the session ends here at once all the
        // same, and its refresh token is kept (alone) to be revoked when the link returns (issue 17).
        onError: '#session.signedOut.wiping',
      },
      after: { logoutTimeout: '#session.signedOut.wiping' },
      exit: { type: 'endSession', params: { reason: 'logout', elsewhere: false } },
    },
    /** The refresh was refused: with edits queued on this device, they are kept (`locked`). */
    ending: {
      invoke: {
        id: 'queuedEdits',
        src: 'queuedEdits',
        input: ({ context }) => ({ userId: context.session?.user.id ?? -1 }),
        onDone: [
          {
            guard: 'hasQueuedEdits',
            target: 'locked',
            actions: [
              assign({
                locked: ({ context, event }) =>
                  context.session ? { user: context.session.user, queued: event.output } : null,
                // The user stays known (the screen, its saved data and the outbox are theirs); the
                // tokens are dead.
                session: ({ context }) => (context.session ? deadSession(context.session.user) : null),
                refreshFailures: 0,
              }),
              'storeLocked',
              emit(({ event }) => ({ type: 'session.locked' as const, queued: event.output })),
            ],
          },
          {
            target: '#session.signedOut.wiping',
            actions: { type: 'endSession', params: { reason: 'expired', elsewhere: false } },
          },
        ],
        onError: {
          target: '#session.signedOut.wiping',
          actions: { type: 'endSession', params: { reason: 'expired', elsewhere: false } },
        },
      },
    },
    /**
     * The session expired with edits queued: nothing is wiped, the screen stays, and a sign-in dialog
     * over it asks for the password. The same user continues (the edits go out); another user first
     * has the device wiped (the previous user's edits discarded, and told how many).
     */
    locked: {
      initial: 'idle',
      on: {
        'session.logout': {
          target: '#session.signedOut.wiping',
          actions: ['forgetLocked', { type: 'endSession', params: { reason: 'logout', elsewhere: false } }],
        },
        'session.endedElsewhere': {
          target: '#session.signedOut.wiping',
          actions: [
            'forgetLocked',
            { type: 'endSession', params: ({ event }) => ({ reason: event.reason, elsewhere: true }) },
          ],
        },
      },
      states: {
        idle: { on: { 'session.signIn': 'loading' } },
        failure: { on: { 'session.signIn': 'loading' } },
        loading: {
          entry: assign({ error: null }),
          invoke: {
            id: 'signIn',
            src: 'signIn',
            input: ({ event }) => (event as Extract<SessionEvent, { type: 'session.signIn' }>).credentials,
            onDone: [
              {
                guard: 'sameLockedUser',
                target: '#session.signedIn',
                actions: [
                  assign({ session: ({ event }) => event.output, locked: null }),
                  'forgetLocked',
                  'storeSession',
                  emit(({ event }) => ({ type: 'session.resumed' as const, user: event.output.user })),
                ],
              },
              { target: 'switching', actions: assign({ pending: ({ event }) => event.output }) },
            ],
            onError: {
              target: 'failure',
              actions: [
                assign({ error: ({ event }) => event.error }),
                emit(({ event }) => ({ type: 'session.signInFailed' as const, error: event.error })),
              ],
            },
          },
        },
        /** Another user: the previous user's data (queued edits too) leaves the device first. */
        switching: {
          invoke: {
            id: 'wipeDevice',
            src: 'wipeDevice',
            input: { reason: 'logout' as const, elsewhere: false },
            onDone: {
              target: '#session.signedIn',
              actions: ['emitDiscarded', 'adoptPending', 'forgetLocked', 'storeSession'],
            },
            onError: {
              target: '#session.signedIn',
              actions: ['emitDiscarded', 'adoptPending', 'forgetLocked', 'storeSession'],
            },
          },
          after: {
            wipeTimeout: {
              target: '#session.signedIn',
              actions: ['emitDiscarded', 'adoptPending', 'forgetLocked', 'storeSession'],
            },
          },
          // The wipe is under way: a sign-out now would only race it.
          on: { 'session.logout': {} },
        },
      },
    },
  },
});

export type SessionActor = ActorRefFrom<typeof sessionMachine>;

/**
 * The sign-in screen's button is busy: from the press until the screen is left (signed in, the
 * dashboard is on its way; on a slow link its files can take a while, and the button must not come
 * back meanwhile).
 */
export const signInBusy = (snapshot: ReturnType<SessionActor['getSnapshot']>): boolean =>
  snapshot.matches({ signedOut: 'loading' }) || snapshot.matches('signedIn');

/** Signed in, or locked (session expired with edits queued: the screens stay, under a sign-in dialog). */
export const isSignedIn = (actor: Pick<SessionActor, 'getSnapshot'>): boolean => {
  const snapshot = actor.getSnapshot();
  return snapshot.matches('signedIn') || snapshot.matches('locked');
};
