/**
 * The app behind the first screen (decision 061): the query cache with its persistence, the router
 * with the route tree, and what runs once idle. src/main.tsx loads this module at boot, except on
 * the prerendered first visit, where the sign-in form goes live without it and this module loads
 * while the person types (the router, TanStack Query and the route tree are not needed to type).
 */
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
import { preloadApiRegistry } from './api/call';
import { ApiError } from './api/client';
import { profileKeys, profileQueryOptions } from './api/profile';
import { statsKeys } from './api/stats';
import { ErrorScreen } from './components/error-screen';
import { NotFoundRedirect } from './components/not-found-redirect';
import { loadToaster } from './components/ui/notify';
import { firstPaintSnapshot } from './lib/first-paint-snapshot';
import type { SessionActor } from './machines/session.machine';
import { routeTree } from './routeTree.gen';

// TanStack Query assumes online until an 'offline' event: a page opened offline must know at once.
onlineManager.setOnline(navigator.onLine);

/** What src/main.tsx uses of the app; one per page. */
export type App = ReturnType<typeof startApp>;

declare module '@tanstack/react-router' {
  interface Register {
    router: App['router'];
  }
}

export function startApp(
  session: SessionActor,
  options: {
    /** Whether the session was signed in on this page (src/session-boot.ts), see `persistQuery`. */
    signedInHere: () => boolean;
  },
) {
  const currentUserId = () => session.getSnapshot().context.session?.user.id;

  /**
   * Each query also persists to IndexedDB for 7 days, per user and build (decision 002). Dexie and
   * the persister are loaded on demand (decision 012): by the first query of a signed-in user, or
   * once idle after the first screen, so the sign-in screen does not wait for them.
   */
  type Persistence = Awaited<ReturnType<typeof createQueryPersistenceOf>>;
  const createQueryPersistenceOf = () =>
    Promise.all([import('./db/app-db'), import('./lib/query-persister')]).then(
      ([{ appDb }, { createQueryPersistence }]) => createQueryPersistence({ db: appDb, currentUserId }),
    );
  let persistence: Promise<Persistence> | undefined;
  let persistenceLoaded: Persistence | undefined;
  let persistenceArrived: (loaded: Persistence) => void = () => undefined;
  /** Resolves once the persistence has loaded, whoever loaded it (a query, or the idle-time loads). */
  const whenPersistenceArrives = new Promise<Persistence>((resolve) => {
    persistenceArrived = resolve;
  });
  const loadPersistence = () => {
    persistence ??= createQueryPersistenceOf().then(
      (loaded) => {
        persistenceLoaded = loaded;
        persistenceArrived(loaded);
        return loaded;
      },
      (error: unknown) => {
        // Its files could not be fetched (the link died): the next query tries again.
        persistence = undefined;
        throw error;
      },
    );
    return persistence;
  };

  /**
   * A person who has just signed in on this page (decision 077): nothing of theirs was shown from
   * storage here, so their first screen's calls need not wait for the persistence's files (Dexie,
   * ~28 KB brotli on a slow link, which would share it with the screen's own JavaScript). Until those
   * have arrived their queries go to the network at once, and each answer is stored once they have;
   * they are not fetched for it: the idle-time loads after the first screen bring them. Every later
   * query, and every query of a session restored on load (a reload shows what was stored at once),
   * goes through the persister as before.
   */
  async function persistQuery<T, TQueryKey extends QueryKey>(
    queryFn: QueryFunction<T, TQueryKey, never>,
    ctx: QueryFunctionContext<TQueryKey>,
    query: Query,
  ): Promise<T> {
    // Signed out, nothing is read or written (the persister would only call the query function).
    const userId = currentUserId();
    if (userId === null || userId === undefined) return queryFn(ctx);
    if (persistenceLoaded || !options.signedInHere())
      return (await loadPersistence()).persisterFn(queryFn, ctx, query);
    const data = await queryFn(ctx);
    // After the query has taken the answer (as the persister stores it), once the files are here.
    void whenPersistenceArrives.then((loaded) =>
      setTimeout(() => void loaded.store(query).catch(() => undefined), 0),
    );
    return data;
  }

  /** The device wipe and the database it deletes, loaded on demand like the persister. */
  const loadWipe = () =>
    Promise.all([import('./lib/device-wipe'), import('./db/app-db')]).then(
      ([{ wipeDevice }, { appDb }]) =>
        () =>
          wipeDevice({ queryClient, db: appDb }),
    );

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

  /**
   * Once idle after the first screen: register the service worker (workbox-window), prune the
   * stored queries, have the wipe ready before any sign-out (a sign-out offline then needs no chunk
   * from the network) and the toaster before the first toast. None of it is needed to use the first
   * screen, so none of it is fetched before that screen is usable (decision 061: nor while a
   * sign-in's first screen is on its way, see src/main.tsx).
   */
  let idleLoadsStarted = false;
  const runIdleLoads = () => {
    if (idleLoadsStarted) return;
    idleLoadsStarted = true;
    void import('./lib/register-service-worker').then((sw) => sw.registerServiceWorker());
    void loadPersistence()
      .then((loaded) => loaded.prune())
      .catch(() => undefined);
    void loadWipe().catch(() => undefined);
    void loadToaster().catch(() => undefined);
    void preloadApiRegistry();
  };
  const whenIdle = (run: () => void) => {
    if ('requestIdleCallback' in window) requestIdleCallback(run, { timeout: 2000 });
    else setTimeout(run, 200);
  };

  /** Schedules the idle-time loads after the app's first render (an effect runs once it has painted). */
  function IdleLoads() {
    useEffect(() => whenIdle(runIdleLoads), []);
    return null;
  }

  const element = () => (
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
        <IdleLoads />
      </QueryClientProvider>
    </StrictMode>
  );

  /**
   * The JavaScript a sign-in's first screen needs, fetched ahead (decision 061): the dashboard's
   * frame, shared by the admin's dashboard and the partner staff's partner page (which of the two
   * comes is known only from the sign-in's answer; the router then loads it with its calls). Not the
   * persistence: a fresh sign-in's first calls do not wait for it (decision 077, `persistQuery`), and
   * the idle-time loads bring it.
   */
  const preloadAfterSignIn = () =>
    Promise.resolve(router.loadRouteChunk(router.routesById['/dashboard'])).then(
      () => undefined,
      () => undefined,
    );

  return {
    router,
    queryClient,
    element,
    whenIdle,
    runIdleLoads,
    preloadAfterSignIn,
    fetchProfile: () => queryClient.fetchQuery(profileQueryOptions()),
    wipeDevice: async () => (await loadWipe())(),
  };
}
