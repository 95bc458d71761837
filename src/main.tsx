// First: zod is told to compile nothing before any schema exists (strict CSP, no eval).
import './lib/zod-jitless';
import {
  onlineManager,
  type Query,
  QueryClient,
  QueryClientProvider,
  type QueryFunction,
  type QueryFunctionContext,
  type QueryKey,
} from '@tanstack/react-query';
import { createRouter, RouterProvider } from '@tanstack/react-router';
import { StrictMode, useEffect } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { createActor, fromPromise } from 'xstate';
import { login, refreshTokens, revokeSession } from './api/auth';
import { preloadApiRegistry } from './api/call';
import { ApiError, createApiClient, setApiClient } from './api/client';
import { profileKeys, profileQueryOptions } from './api/profile';
import { statsKeys } from './api/stats';
import { ErrorScreen } from './components/error-screen';
import { NotFoundRedirect } from './components/not-found-redirect';
import { loadToaster, notify } from './components/ui/notify';
import { captureEarlySignIn } from './lib/early-sign-in';
import { authErrorMessage } from './lib/error-message';
import { firstPaintSnapshot } from './lib/first-paint-snapshot';
import { startRevocationSender } from './lib/pending-revocation';
import { browserTabSync } from './lib/tab-sync';
import { sessionMachine } from './machines/session.machine';
import { sessionTokenSource } from './machines/session-link';
import { routeTree } from './routeTree.gen';
import './index.css';

const currentUserId = () => session.getSnapshot().context.session?.user.id;

/**
 * Each query also persists to IndexedDB for 7 days, per user and build (decision 002). Dexie and
 * the persister are loaded on demand (decision 012): by the first query of a signed-in user, or
 * once the first screen has rendered, so the sign-in screen does not wait for them.
 */
let persistence: Promise<{ persisterFn: typeof persistQuery; prune(): Promise<void> }> | undefined;
const loadPersistence = () => {
  persistence ??= Promise.all([import('./db/app-db'), import('./lib/query-persister')]).then(
    ([{ appDb }, { createQueryPersistence }]) => createQueryPersistence({ db: appDb, currentUserId }),
  );
  return persistence;
};
async function persistQuery<T, TQueryKey extends QueryKey>(
  queryFn: QueryFunction<T, TQueryKey, never>,
  ctx: QueryFunctionContext<TQueryKey>,
  query: Query,
): Promise<T> {
  // Signed out, nothing is read or written (the persister would only call the query function).
  const userId = currentUserId();
  if (userId === null || userId === undefined) return queryFn(ctx);
  return (await loadPersistence()).persisterFn(queryFn, ctx, query);
}

/** The device wipe and the database it deletes, loaded on demand like the persister. */
const loadWipe = () =>
  Promise.all([import('./lib/device-wipe'), import('./db/app-db')]).then(
    ([{ wipeDevice }, { appDb }]) =>
      () =>
        wipeDevice({ queryClient, db: appDb }),
  );

// TanStack Query assumes online until an 'offline' event: a page opened offline must know at once.
onlineManager.setOnline(navigator.onLine);

/** docs/product.md#constants: unused query data is kept 60 seconds in memory. */
const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      gcTime: 60_000,
      persister: persistQuery,
      // Offline, the query function still runs once, so the persister can restore saved data.
      networkMode: 'offlineFirst',
      refetchOnWindowFocus: false,
      // Offline, a call with no answer is not retried: TanStack Query would pause the retry until
      // the online event, and a screen with nothing saved would spin for ever (issue 17, defect 7).
      retry: (failures, error) =>
        failures < 2 &&
        !(error instanceof ApiError && error.status >= 400 && error.status < 500) &&
        !(error instanceof ApiError && error.status === 0 && !onlineManager.isOnline()),
    },
  },
});

/** The one app-wide session actor: created outside React, owner of the tokens. */
const session = createActor(
  sessionMachine.provide({
    actors: {
      signIn: fromPromise(({ input }) => login(input)),
      refreshTokens: fromPromise(({ input }) => refreshTokens(input.refreshToken)),
      fetchProfile: fromPromise(() => queryClient.fetchQuery(profileQueryOptions())),
      // Rejects when the server could not be told: the machine keeps the refresh token to revoke later.
      logOut: fromPromise(({ input }) => revokeSession(input)),
      // Edits of this user saved on the device: kept (not wiped) when the session expires (issue 17).
      queuedEdits: fromPromise(async ({ input }) => {
        const { appDb } = await import('./db/app-db');
        return appDb.outbox.where('userId').equals(input.userId).count();
      }),
      wipeDevice: fromPromise(async () => (await loadWipe())()),
      tabSync: browserTabSync,
    },
  }),
  { input: {} },
);
setApiClient(createApiClient({ tokens: sessionTokenSource(session) }));

// The profile and the dashboard figures of the stored user paint from localStorage before any
// answer (decision 036); they are fetched again at once.
const snapshot = firstPaintSnapshot({
  queryClient,
  queryKeys: [profileKeys.detail(), statsKeys.users(), statsKeys.reward()],
  currentUserId,
});
snapshot.restore();
snapshot.subscribe();

const router = createRouter({
  routeTree,
  context: { queryClient, session },
  defaultPreload: 'intent',
  defaultPreloadStaleTime: 0,
  scrollRestoration: true,
  defaultNotFoundComponent: NotFoundRedirect,
  defaultErrorComponent: ErrorScreen,
});

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}

session.on('session.signedIn', () => {
  notify.success('Login successful');
  void router.navigate({ to: '/dashboard' });
});
session.on('session.signInFailed', ({ error }) => notify.error(authErrorMessage(error)));
// Issue 17: signed in again over a screen whose session had expired with changes saved on the device.
session.on('session.resumed', () => notify.success('Signed in again. Your saved changes are being sent.'));
session.on('session.discarded', ({ count }) => {
  notify.error(
    `${count === 1 ? '1 change' : `${count} changes`} saved on this device by the previous user ${count === 1 ? 'was' : 'were'} discarded.`,
  );
  void router.navigate({ to: '/dashboard' });
});
// The session is back after refreshes with no answer: what failed meanwhile loads again.
session.on('session.refreshed', ({ afterOutage }) => {
  if (afterOutage)
    void queryClient.invalidateQueries({ predicate: (query) => query.state.status === 'error' });
});
// The link is back: a refresh waiting out its backoff goes now.
window.addEventListener('online', () => session.send({ type: 'link.online' }));
// The session machine wipes the device (signedOut.wiping); here only what the user sees.
session.on('session.ended', ({ reason }) => {
  if (reason === 'expired') notify.error('Session expired. Please log in again.');
  void router.navigate({ to: '/' });
});

session.start();
// Sign-outs the server could not be told of are sent when the link returns (issue 17).
startRevocationSender({ revoke: revokeSession });

/**
 * After the first render (an effect runs once React has committed and the browser painted), once
 * idle: register the service worker (workbox-window), prune the stored queries, have the wipe ready
 * before any sign-out (a sign-out offline then needs no chunk from the network) and the toaster
 * before the first toast. None of it is needed to use the first screen, so none of it is fetched
 * before that screen is usable.
 */
let idleLoadsScheduled = false;
function IdleLoads() {
  useEffect(() => {
    if (idleLoadsScheduled) return;
    idleLoadsScheduled = true;
    const run = () => {
      void import('./lib/register-service-worker').then((sw) => sw.registerServiceWorker());
      void loadPersistence()
        .then((loaded) => loaded.prune())
        .catch(() => undefined);
      void loadWipe().catch(() => undefined);
      void loadToaster().catch(() => undefined);
      void preloadApiRegistry();
    };
    if ('requestIdleCallback' in window) requestIdleCallback(run, { timeout: 2000 });
    else setTimeout(run, 200);
  }, []);
  return null;
}

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');
const app = () => (
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      <IdleLoads />
    </QueryClientProvider>
  </StrictMode>
);
// The prerendered sign-in screen (decision 021) stays until the route's own chunk is there: React's
// first render replaces it, and rendering before would show a blank page while that chunk loads.
// What is typed on it meanwhile is kept: the app's form starts from it (decision 061).
// React takes the prerendered copy over in one task (flushSync: render, commit, layout AND passive
// effects, so the fields' store subscriptions too): a key pressed meanwhile waits for that task and
// lands in the app's field, never in between.
if (root.querySelector('[data-prerendered]')) {
  captureEarlySignIn(root);
  void router.load().finally(() => flushSync(() => createRoot(root).render(app())));
} else createRoot(root).render(app());
