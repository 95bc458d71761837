// First: zod is told to compile nothing before any schema exists (strict CSP, no eval).
import './lib/zod-jitless';
import { StrictMode, useSyncExternalStore } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import type { LoginBody } from '../contract/auth';
import { ScreenFrame } from './components/screen-frame';
import { forgotPasswordLinkClass } from './components/sign-in-form';
import { notify } from './components/ui/notify';
import { NETWORK_ERROR } from './lib/api-error';
import { captureEarlySignIn } from './lib/early-sign-in';
import { storedSessionPresent } from './lib/session-keys';
import { SignInScreen } from './routes/-components/sign-in-screen';
import type { SessionBoot } from './session-boot';
import './index.css';

/**
 * Boot (decisions 061 and 072). This module holds what the sign-in screen needs to be live: React,
 * the screen and its form. The session (XState, the session machine, the API client: ./session-boot)
 * and the app (the router, TanStack Query and the route tree: ./app) load at once on every visit but
 * the prerendered first one, where the sign-in form goes live without them and they load while the
 * person types; a press of Sign in before the session is there is carried out once it is.
 */
let boot: SessionBoot | undefined;
let booting: Promise<SessionBoot> | undefined;
/** Credentials of a press of Sign in made before the session had loaded (the button is busy meanwhile). */
let pending: LoginBody | null = null;

let version = 0;
const listeners = new Set<() => void>();
const changed = () => {
  version += 1;
  for (const listener of listeners) listener();
};

const loadBoot = (): Promise<SessionBoot> => {
  booting ??= import('./session-boot').then(
    ({ startSession }) => {
      boot = startSession(changed);
      const credentials = pending;
      pending = null;
      if (credentials) boot.signIn(credentials);
      changed();
      return boot;
    },
    (error: unknown) => {
      // A chunk that could not be fetched: the next need tries again.
      booting = undefined;
      throw error;
    },
  );
  return booting;
};

/**
 * The whole app's CSS (decision 072). The prerendered first visit's HTML links only the sign-in
 * screen's own (vite.config.ts); its link names the app's in `data-app-css`, added here once the form
 * is live, so that it does not share the link with the first screen's JavaScript. The app's screens
 * are shown only once it has arrived (or failed: they are shown all the same).
 */
let appCssLoaded = document.querySelector('link[data-app-css]') === null;
let appCss: Promise<void> | undefined;
const loadAppCss = (): Promise<void> => {
  appCss ??= new Promise<void>((resolve) => {
    const href = document.querySelector<HTMLLinkElement>('link[data-app-css]')?.dataset.appCss;
    if (!href) return resolve();
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = href;
    link.onload = link.onerror = () => resolve();
    document.head.append(link);
  }).then(() => {
    appCssLoaded = true;
    changed();
  });
  return appCss;
};

/** Sign in pressed: through the session, once it is there (the first press only; the button is busy). */
const signIn = (credentials: LoginBody) => {
  if (boot) {
    boot.signIn(credentials);
    return;
  }
  if (pending) return;
  pending = credentials;
  changed();
  loadBoot().catch(() => {
    // Its file could not be fetched (the link died): as a sign-in call that got no answer.
    pending = null;
    changed();
    notify.error(NETWORK_ERROR);
  });
};

/**
 * The first screen of a first visit, without a router and (until it loads) without the session: the
 * sign-in screen (its forgot-password link a plain link the app follows once loaded) in the frame
 * every screen has (the offline banner, the toaster, the update prompt); the app replaces it once
 * shown.
 */
function FirstScreen() {
  useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => version,
  );
  const app = boot?.shownApp();
  if (app && appCssLoaded) return app.element();
  return (
    <StrictMode>
      <ScreenFrame>
        <SignInScreen
          submitting={pending !== null || (boot?.busy() ?? false)}
          onSubmit={signIn}
          footer={
            <a
              href="/forgot-password"
              className={forgotPasswordLinkClass}
              onClick={(event) => {
                if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)
                  return;
                event.preventDefault();
                // Not loaded (no link): the browser follows the link itself.
                loadBoot()
                  .then((loaded) => loaded.goTo('/forgot-password'))
                  .catch(() => window.location.assign('/forgot-password'));
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

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');
if (root.querySelector('[data-prerendered]') && window.location.pathname === '/' && !storedSessionPresent()) {
  // The prerendered sign-in screen (decision 021) of a first visit: what is typed on it meanwhile is
  // kept and the app's form starts from it (decision 061). React takes the prerendered copy over in
  // one task (flushSync: render, commit, layout AND passive effects, so the fields' store
  // subscriptions too): a key pressed meanwhile waits for that task and lands in the app's field.
  captureEarlySignIn(root);
  flushSync(() => createRoot(root).render(<FirstScreen />));
  // The form is live. What the sign-in needs next first (the session, with the endpoint registry its
  // call reads and the contract's schema the form checks with; the app's CSS beside it), then the app
  // and the dashboard's frame, while the person types; the idle-time loads
  // (the service worker's precache above all) only after that, and, when Sign in was pressed
  // meanwhile, only once the app is on screen (its own idle-time loads): nothing competes with the
  // sign-in's first screen. (A task later: the form's paint comes first.)
  void new Promise((painted) => setTimeout(painted, 0))
    .then(() => {
      const session = loadBoot();
      void loadAppCss();
      return session;
    })
    .then((loaded) => loaded.loadBehindFirstScreen())
    .catch(() => undefined);
} else {
  // Every other visit: the session and the app at once (both files fetched together). Over a
  // prerendered copy (a stored session, or a path other than '/'), the route's own chunks load
  // first: rendering before would show a blank page.
  const prerendered = root.querySelector('[data-prerendered]') !== null;
  if (prerendered) captureEarlySignIn(root);
  void import('./app').catch(() => undefined);
  const css = loadAppCss();
  void loadBoot()
    .then(async (loaded) => {
      const app = await loaded.loadApp();
      if (prerendered) await app.router.load().catch(() => undefined);
      await css;
      loaded.showApp();
      const render = () => createRoot(root).render(app.element());
      if (prerendered) flushSync(render);
      else render();
    })
    .catch(() => undefined);
}
