import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
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
import { browserTabSync } from './lib/tab-sync';
import { sessionMachine } from './machines/session.machine';
import { sessionTokenSource } from './machines/session-link';
import { routeTree } from './routeTree.gen';
import './index.css';

/** SPEC section 9: unused query data is kept 60 seconds. */
const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      gcTime: 60_000,
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

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');
createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
