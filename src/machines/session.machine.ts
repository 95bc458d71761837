import { type ActorRefFrom, assign, emit, fromPromise, setup } from 'xstate';
import type { LoginBody, LoginResponse, SessionUser, TokenPair } from '../../contract/auth';
import type { Profile } from '../../contract/profile';
import {
  clearStoredSession,
  readStoredSession,
  withTokens,
  writeStoredSession,
} from '../lib/session-storage';

/**
 * The app-wide session: the only owner of tokens. Sign-in, restore from storage, one refresh
 * for any number of rejected tokens, logout. Effects are named actors; boot provides the real ones.
 */

export interface SessionContext {
  session: LoginResponse | null;
  profile: Profile | null;
  error: unknown;
}

export interface SessionInput {
  /** The stored session to restore; read from localStorage when omitted. */
  restored?: LoginResponse | null;
}

export type SessionEvent =
  | { type: 'session.signIn'; credentials: LoginBody }
  | { type: 'session.logout' }
  | { type: 'token.rejected'; token: string }
  | { type: 'profile.updated'; profile: Profile };

export type SessionEmitted =
  | { type: 'session.signedIn'; user: SessionUser }
  | { type: 'session.signInFailed'; error: unknown }
  | { type: 'session.ended'; reason: 'logout' | 'expired' };

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
  },
  actions: {
    storeSession: ({ context }) => {
      if (context.session) writeStoredSession(context.session);
    },
    forgetStoredSession: () => clearStoredSession(),
    forgetSession: assign({ session: null, profile: null }),
  },
  guards: {
    hasSession: ({ context }) => context.session !== null,
    isCurrentToken: ({ context, event }) =>
      event.type === 'token.rejected' && event.token === context.session?.accessToken,
  },
  delays: {
    logoutTimeout: 5000,
  },
}).createMachine({
  id: 'session',
  context: ({ input }) => ({
    session: input?.restored === undefined ? readStoredSession() : input.restored,
    profile: null,
    error: null,
  }),
  initial: 'restoring',
  states: {
    restoring: {
      always: [{ guard: 'hasSession', target: 'signedIn' }, { target: 'signedOut' }],
    },
    signedOut: {
      initial: 'idle',
      states: {
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
          actions: [assign(({ context, event }) => withProfile(context, event.output)), 'storeSession'],
        },
        // A failed profile fetch leaves the placeholder name; a dead session ends via token.rejected.
        onError: {},
      },
      on: {
        'session.logout': { target: 'signingOut', actions: 'forgetStoredSession' },
        'profile.updated': {
          actions: [assign(({ context, event }) => withProfile(context, event.profile)), 'storeSession'],
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
          invoke: {
            id: 'refreshTokens',
            src: 'refreshTokens',
            input: ({ context }) => ({ refreshToken: context.session?.refreshToken ?? '' }),
            onDone: {
              target: 'active',
              actions: [
                assign({
                  session: ({ context, event }) =>
                    context.session ? withTokens(context.session, event.output) : null,
                }),
                'storeSession',
              ],
            },
            onError: {
              target: '#session.signedOut',
              actions: [
                'forgetSession',
                'forgetStoredSession',
                emit({ type: 'session.ended' as const, reason: 'expired' as const }),
              ],
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
        onDone: 'signedOut',
        onError: 'signedOut',
      },
      // Logout is best effort: a hanging network does not keep the user signed in.
      after: { logoutTimeout: 'signedOut' },
      exit: ['forgetSession', emit({ type: 'session.ended' as const, reason: 'logout' as const })],
    },
  },
});

export type SessionActor = ActorRefFrom<typeof sessionMachine>;

export const isSignedIn = (actor: Pick<SessionActor, 'getSnapshot'>): boolean =>
  actor.getSnapshot().matches('signedIn');
