import { onlineManager, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createRouter, RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createActor, fromPromise } from 'xstate';
import { login, logout, refreshTokens } from './api/auth';
import { ApiError, createApiClient, setApiClient } from './api/client';
import { profileQueryOptions } from './api/profile';
import { NotFoundRedirect } from './components/not-found-redirect';
import { notify } from './components/ui/toast';
import { appDb } from './db/app-db';
import { wipeDevice } from './lib/device-wipe';
import { authErrorMessage } from './lib/error-message';
import { createQueryPersistence } from './lib/query-persister';
import { registerServiceWorker } from './lib/register-service-worker';
import { browserTabSync } from './lib/tab-sync';
import { sessionMachine } from './machines/session.machine';
import { sessionTokenSource } from './machines/session-link';
import { routeTree } from './routeTree.gen';
import './index.css';

/** Each query also persists to IndexedDB for 7 days, per user and build (decision 002). */
const queryPersistence = createQueryPersistence({
  db: appDb,
  currentUserId: () => session.getSnapshot().context.session?.user.id,
});

// TanStack Query assumes online until an 'offline' event: a page opened offline must know at once.
onlineManager.setOnline(navigator.onLine);

/** SPEC section 9: unused query data is kept 60 seconds in memory. */
const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      gcTime: 60_000,
      persister: queryPersistence.persisterFn,
      // Offline, the query function still runs once, so the persister can restore saved data.
      networkMode: 'offlineFirst',
      refetchOnWindowFocus: false,
      retry: (failures, error) =>
        failures < 2 && !(error instanceof ApiError && error.status >= 400 && error.status < 500),
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
      logOut: fromPromise(({ input }) => logout(input.accessToken).catch(() => undefined)),
      wipeDevice: fromPromise(() => wipeDevice({ queryClient, db: appDb })),
      tabSync: browserTabSync,
    },
  }),
  { input: {} },
);
setApiClient(createApiClient({ tokens: sessionTokenSource(session) }));

const router = createRouter({
  routeTree,
  context: { queryClient, session },
  defaultPreload: 'intent',
  defaultPreloadStaleTime: 0,
  scrollRestoration: true,
  defaultNotFoundComponent: NotFoundRedirect,
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
// The session machine wipes the device (signedOut.wiping); here only what the user sees.
session.on('session.ended', ({ reason }) => {
  if (reason === 'expired') notify.error('Session expired. Please log in again.');
  void router.navigate({ to: '/' });
});

session.start();
void queryPersistence.prune().catch(() => undefined);
registerServiceWorker();

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');
createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
