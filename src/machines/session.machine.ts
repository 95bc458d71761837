import { type ActorRefFrom, assign, emit, fromPromise, sendTo, setup } from 'xstate';
import type { LoginBody, LoginResponse, SessionUser, TokenPair } from '../../contract/auth';
import type { Profile } from '../../contract/profile';
import {
  clearStoredSession,
  readStoredSession,
  withTokens,
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
}

export interface SessionInput {
  /** The stored session to restore; read from localStorage when omitted. */
  restored?: LoginResponse | null;
}

export type SessionEvent =
  | { type: 'session.signIn'; credentials: LoginBody }
  | { type: 'session.logout' }
  | { type: 'token.rejected'; token: string }
  | { type: 'profile.updated'; profile: Profile }
  | TabEvent;

export type SessionEmitted =
  | { type: 'session.signedIn'; user: SessionUser }
  | { type: 'session.signInFailed'; error: unknown }
  /** The session ended, in this tab (`elsewhere: false`) or in another one. */
  | ({ type: 'session.ended' } & SessionEnd);

export type { EndReason };

const notProvided = (name: string) => () => Promise.reject(new Error(`${name} is not provided`));

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
    logOut: fromPromise<void, { accessToken: string }>(notProvided('logOut')),
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
  },
}).createMachine({
  id: 'session',
  context: ({ input }) => ({
    session: input?.restored === undefined ? readStoredSession() : input.restored,
    profile: null,
    error: null,
    ended: null,
  }),
  invoke: { id: 'tabSync', src: 'tabSync' },
  initial: 'restoring',
  states: {
    restoring: {
      always: [{ guard: 'hasSession', target: 'signedIn' }, { target: 'signedOut' }],
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
                    assign({
                      session: ({ context, event }) =>
                        context.session ? withTokens(context.session, event.output) : null,
                    }),
                    // Stored in this same step, before the lock actor is stopped and its release
                    // reaches the lock manager: the next tab to take the lock reads these tokens.
                    'storeSession',
                  ],
                },
                onError: {
                  target: '#session.signedOut.wiping',
                  actions: [
                    'announceExpiry',
                    'forgetStoredSession',
                    { type: 'endSession', params: { reason: 'expired', elsewhere: false } },
                  ],
                },
              },
            },
          },
        },
      },
    },
    signingOut: {
      invoke: {
        id: 'logOut',
        src: 'logOut',
        input: ({ context }) => ({ accessToken: context.session?.accessToken ?? '' }),
        onDone: '#session.signedOut.wiping',
        onError: '#session.signedOut.wiping',
      },
      // Logout is best effort: a hanging network does not keep the user signed in.
      after: { logoutTimeout: '#session.signedOut.wiping' },
      exit: { type: 'endSession', params: { reason: 'logout', elsewhere: false } },
    },
  },
});

export type SessionActor = ActorRefFrom<typeof sessionMachine>;

export const isSignedIn = (actor: Pick<SessionActor, 'getSnapshot'>): boolean =>
  actor.getSnapshot().matches('signedIn');
