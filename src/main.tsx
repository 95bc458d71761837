// First: zod is told to compile nothing before any schema exists (strict CSP, no eval).
import './lib/zod-jitless';
import { StrictMode, useSyncExternalStore } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { createActor, fromPromise } from 'xstate';
import { login, refreshTokens, revokeSession } from './api/auth';
import { preloadApiRegistry } from './api/call';
import { createApiClient, setApiClient } from './api/client';
import type { App } from './app';
import { ScreenFrame } from './components/screen-frame';
import { forgotPasswordLinkClass } from './components/sign-in-form';
import { notify } from './components/ui/notify';
import { captureEarlySignIn } from './lib/early-sign-in';
import { authErrorMessage } from './lib/error-message';
import { startRevocationSender } from './lib/pending-revocation';
import { browserTabSync } from './lib/tab-sync';
import { isSignedIn, sessionMachine } from './machines/session.machine';
import { sessionTokenSource } from './machines/session-link';
import { SignInScreen } from './routes/-components/sign-in-screen';
import './index.css';

/**
 * Boot (decision 061). This module holds what the sign-in screen needs: React, the session machine,
 * the API client and the form. The router, TanStack Query and the route tree are ./app, loaded at
 * once on every visit but the prerendered first one, where the sign-in form goes live without them
 * and ./app loads while the person types.
 */
let app: App | undefined;
let appLoading: Promise<App> | undefined;
const loadApp = (): Promise<App> => {
  appLoading ??= import('./app').then(
    ({ startApp }) => {
      app = startApp(session);
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
 * the sign-in screen rendered here, without a router.
 */
let appShown = false;
const shownListeners = new Set<() => void>();
const showApp = () => {
  appShown = true;
  for (const listener of shownListeners) listener();
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

session.on('session.signedIn', () => {
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

session.start();
// Sign-outs the server could not be told of are sent when the link returns (issue 17).
startRevocationSender({ revoke: revokeSession });

/**
 * The first screen of a first visit, without a router: the sign-in screen (its forgot-password link
 * a plain link the app follows once loaded) in the frame every screen has (the offline banner, the
 * toaster, the update prompt); the app replaces it once shown.
 */
function FirstScreen() {
  const shown = useSyncExternalStore(
    (listener) => {
      shownListeners.add(listener);
      return () => shownListeners.delete(listener);
    },
    () => appShown,
  );
  if (shown && app) return app.element();
  return (
    <StrictMode>
      <ScreenFrame>
        <SignInScreen
          session={session}
          footer={
            <a
              href="/forgot-password"
              className={forgotPasswordLinkClass}
              onClick={(event) => {
                if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)
                  return;
                event.preventDefault();
                // Not loaded (no link): the browser follows the link itself.
                goTo('/forgot-password').catch(() => window.location.assign('/forgot-password'));
              }}
            >
              Forgot password?
            </a>
          }
        />
      </ScreenFrame>
    </StrictMode>
  );
}

/** A sign-in is under way or done (its first screen on the way): nothing else is fetched meanwhile. */
const signingIn = () => {
  return session.getSnapshot().matches({ signedOut: 'loading' }) || isSignedIn(session);
};

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');
if (root.querySelector('[data-prerendered]') && window.location.pathname === '/' && !signingIn()) {
  // The prerendered sign-in screen (decision 021) of a first visit: what is typed on it meanwhile is
  // kept and the app's form starts from it (decision 061). React takes the prerendered copy over in
  // one task (flushSync: render, commit, layout AND passive effects, so the fields' store
  // subscriptions too): a key pressed meanwhile waits for that task and lands in the app's field.
  captureEarlySignIn(root);
  flushSync(() => createRoot(root).render(<FirstScreen />));
  // The form is live. What the sign-in needs next first (the endpoint registry its call reads), then
  // the app and the dashboard's frame, while the person types; the idle-time loads (the service
  // worker's precache above all) only after that, and, when Sign in was pressed meanwhile, only once
  // the app is on screen (its own idle-time loads): nothing competes with the sign-in's first screen.
  // (A task later: the form's paint comes first.)
  void new Promise((painted) => setTimeout(painted, 0))
    .then(() => preloadApiRegistry())
    .then(() => loadApp())
    .then((loaded) =>
      loaded.preloadAfterSignIn().then(() =>
        loaded.whenIdle(() => {
          if (!signingIn()) loaded.runIdleLoads();
        }),
      ),
    )
    .catch(() => undefined);
} else {
  // Every other visit: the app at once. Over a prerendered copy (a stored session, or a path other
  // than '/'), the route's own chunks load first: rendering before would show a blank page.
  const prerendered = root.querySelector('[data-prerendered]') !== null;
  if (prerendered) captureEarlySignIn(root);
  void loadApp().then(async (loaded) => {
    if (prerendered) await loaded.router.load().catch(() => undefined);
    appShown = true;
    const render = () => createRoot(root).render(loaded.element());
    if (prerendered) flushSync(render);
    else render();
  });
}
