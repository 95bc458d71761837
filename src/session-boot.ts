import { createActor, fromPromise } from 'xstate';
import type { LoginBody } from '../contract/auth';
import { login, refreshTokens, revokeSession } from './api/auth';
import { preloadApiRegistry } from './api/call';
import { createApiClient, setApiClient } from './api/client';
import type { App } from './app';
import { notify } from './components/ui/notify';
import { authErrorMessage } from './lib/error-message';
import { startRevocationSender } from './lib/pending-revocation';
import { browserTabSync } from './lib/tab-sync';
import { isSignedIn, sessionMachine, signInBusy } from './machines/session.machine';
import { sessionTokenSource } from './machines/session-link';

/**
 * The session behind the first screen (decision 072, step 2): the one app-wide session actor (XState
 * and the session machine), the API client it hands tokens to, what the app shows on its events, and
 * the loading of the app (./app). src/main.tsx loads this module once the prerendered first visit's
 * sign-in form is live (the form needs only the busy flag until Sign in is pressed; a press before
 * then is carried out here once loaded), and at once on every other visit.
 */
export function startSession(onChange: () => void) {
  let app: App | undefined;
  let appLoading: Promise<App> | undefined;
  const loadApp = (): Promise<App> => {
    appLoading ??= import('./app').then(
      ({ startApp }) => {
        app = startApp(session, { signedInHere: () => signedInHere });
        return app;
      },
      (error: unknown) => {
        // A chunk that could not be fetched: the next need tries again.
        appLoading = undefined;
        throw error;
      },
    );
    return appLoading;
  };

  /** The one app-wide session actor: created outside React, owner of the tokens. */
  const session = createActor(
    sessionMachine.provide({
      actors: {
        signIn: fromPromise(({ input }) => login(input)),
        refreshTokens: fromPromise(({ input }) => refreshTokens(input.refreshToken)),
        fetchProfile: fromPromise(async () => (await loadApp()).fetchProfile()),
        // Rejects when the server could not be told: the machine keeps the refresh token to revoke later.
        logOut: fromPromise(({ input }) => revokeSession(input)),
        // Edits of this user saved on the device: kept (not wiped) when the session expires (issue 17).
        queuedEdits: fromPromise(async ({ input }) => {
          const { appDb } = await import('./db/app-db');
          return appDb.outbox.where('userId').equals(input.userId).count();
        }),
        wipeDevice: fromPromise(async () => (await loadApp()).wipeDevice()),
        tabSync: browserTabSync,
      },
    }),
    { input: {} },
  );
  setApiClient(createApiClient({ tokens: sessionTokenSource(session) }));

  /**
   * Whether the app (the router's screens) is on screen; until then the prerendered first visit shows
   * the sign-in screen of src/main.tsx, without a router.
   */
  let appShown = false;
  const showApp = () => {
    appShown = true;
    onChange();
  };

  /**
   * Goes to `to`: through the router once the app is on screen; before that (the first screen of a
   * first visit) the router loads `to` with its data calls and chunks, and the app replaces the
   * sign-in screen only then (the sign-in button stays busy meanwhile).
   */
  async function goTo(to: '/' | '/dashboard' | '/forgot-password') {
    const loaded = await loadApp();
    if (!appShown && to === '/' && window.location.pathname === '/') return;
    await loaded.router.navigate({ to });
    if (!appShown) showApp();
  }

  /**
   * Signed in on this page (not a session restored on load): told to the app, whose first queries
   * then need not wait for the persistence's files (decision 077). Noted here, where the session
   * starts, because on a slow link the app often arrives after the sign-in's answer.
   */
  let signedInHere = false;
  session.on('session.signedIn', () => {
    signedInHere = true;
    const leaving = goTo('/dashboard');
    // From the first visit's sign-in screen the toast comes with the dashboard: the toaster's file
    // would otherwise share the link with the dashboard's calls and files (decision 072).
    if (appShown) notify.success('Login successful');
    else void leaving.finally(() => notify.success('Login successful'));
  });
  session.on('session.signInFailed', ({ error }) => notify.error(authErrorMessage(error)));
  // Issue 17: signed in again over a screen whose session had expired with changes saved on the device.
  session.on('session.resumed', () => notify.success('Signed in again. Your saved changes are being sent.'));
  session.on('session.discarded', ({ count }) => {
    notify.error(
      `${count === 1 ? '1 change' : `${count} changes`} saved on this device by the previous user ${count === 1 ? 'was' : 'were'} discarded.`,
    );
    void goTo('/dashboard');
  });
  // The session is back after refreshes with no answer: what failed meanwhile loads again.
  session.on('session.refreshed', ({ afterOutage }) => {
    if (afterOutage)
      void app?.queryClient.invalidateQueries({ predicate: (query) => query.state.status === 'error' });
  });
  // The link is back: a refresh waiting out its backoff goes now.
  window.addEventListener('online', () => session.send({ type: 'link.online' }));
  // The session machine wipes the device (signedOut.wiping); here only what the user sees.
  session.on('session.ended', ({ reason }) => {
    if (reason === 'expired') notify.error('Session expired. Please log in again.');
    void goTo('/');
  });
  // What the first screen shows (busy or not) follows the session.
  let busy = false;
  session.subscribe((snapshot) => {
    if (signInBusy(snapshot) === busy) return;
    busy = !busy;
    onChange();
  });

  session.start();
  // Sign-outs the server could not be told of are sent when the link returns (issue 17).
  startRevocationSender({ revoke: revokeSession });

  /** A sign-in is under way or done (its first screen on the way): nothing else is fetched meanwhile. */
  const signingIn = () => session.getSnapshot().matches({ signedOut: 'loading' }) || isSignedIn(session);

  return {
    session,
    loadApp,
    /**
     * What comes behind the first visit's live sign-in form: the endpoint registry the sign-in's call
     * reads, the app and the dashboard's frame, then (unless a sign-in is under way: the app's own
     * idle-time loads follow its first screen) the idle-time loads, the service worker's precache
     * above all.
     */
    loadBehindFirstScreen: () =>
      preloadApiRegistry()
        .then(() => loadApp())
        .then((loaded) =>
          loaded.preloadAfterSignIn().then(() =>
            loaded.whenIdle(() => {
              if (!signingIn()) loaded.runIdleLoads();
            }),
          ),
        ),
    goTo,
    /** The app, once loaded and on screen (the router's screens replace the first screen). */
    shownApp: (): App | undefined => (appShown ? app : undefined),
    /** The app on screen without a navigation (every visit but the prerendered first one). */
    showApp,
    /** The sign-in screen's button is busy (see `signInBusy`). */
    busy: () => signInBusy(session.getSnapshot()),
    signIn: (credentials: LoginBody) => session.send({ type: 'session.signIn', credentials }),
  };
}

export type SessionBoot = ReturnType<typeof startSession>;
