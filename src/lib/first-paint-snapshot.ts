import { createSyncStoragePersister } from '@tanstack/query-sync-storage-persister';
import { dehydrate, hydrate, type QueryClient, type QueryKey } from '@tanstack/react-query';
import type { PersistedClient } from '@tanstack/react-query-persist-client';
import { APP_BUILD, cacheBuster } from './cache-buster';

/**
 * The first-paint snapshot (docs/product.md#packages, decision 036): a few small queries (the profile and
 * the dashboard figures) kept in localStorage with `@tanstack/query-sync-storage-persister`, read
 * synchronously at boot, so a reload paints the user's name and figures before any answer, and
 * before Dexie and the per-query IndexedDB persister (decision 002) are even loaded (decision 012).
 * The restored queries are marked invalidated: they are fetched again at once, and the session still
 * takes the role and permissions from a fresh profile fetch.
 *
 * Written only for the signed-in user, under the same buster as the IndexedDB cache (build + user):
 * a snapshot of another user or build is discarded, never shown. The device wipe clears localStorage,
 * and with it the snapshot.
 */
export const FIRST_PAINT_STORAGE_KEY = 'rc-first-paint';

/** Like the IndexedDB cache (QUERY_CACHE_MAX_AGE_MS): a snapshot older than 7 days is discarded. */
const MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

export interface FirstPaintOptions {
  queryClient: QueryClient;
  /** The queries kept, by exact key (the profile and the dashboard figures in main.tsx). */
  queryKeys: readonly QueryKey[];
  /** The signed-in user, read at each write; nothing is written while signed out. */
  currentUserId: () => number | string | null | undefined;
  storage?: Storage | null;
  appBuild?: string;
  /** How often the snapshot is written at most (the persister's throttle). */
  throttleMs?: number;
}

const localStore = (): Storage | null => {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null; // storage access can throw (blocked by the browser's settings)
  }
};

export function firstPaintSnapshot({
  queryClient,
  queryKeys,
  currentUserId,
  storage = localStore(),
  appBuild = APP_BUILD,
  throttleMs = 1000,
}: FirstPaintOptions) {
  const busterNow = () => {
    const userId = currentUserId();
    return userId === null || userId === undefined ? null : cacheBuster(appBuild, userId);
  };
  const hashes = new Set(queryKeys.map((key) => JSON.stringify(key)));
  const kept = (queryKey: QueryKey) => hashes.has(JSON.stringify(queryKey));

  // The write is throttled: by the time it runs the user may have signed out (and the wipe cleared
  // the storage), or another user signed in. It then writes nothing.
  let pendingBuster: string | null = null;
  const guarded: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | undefined = storage
    ? {
        getItem: (key) => storage.getItem(key),
        setItem: (key, value) => {
          if (pendingBuster !== null && pendingBuster === busterNow()) storage.setItem(key, value);
        },
        removeItem: (key) => storage.removeItem(key),
      }
    : undefined;
  const persister = createSyncStoragePersister({
    storage: guarded,
    key: FIRST_PAINT_STORAGE_KEY,
    throttleTime: throttleMs,
  });

  /** Synchronous: the snapshot of this user and build goes into the cache; any other is removed. */
  function restore(): boolean {
    const buster = busterNow();
    let stored: PersistedClient | undefined;
    try {
      stored = persister.restoreClient() as PersistedClient | undefined;
    } catch {
      stored = undefined; // unreadable JSON
    }
    if (!stored) return false;
    if (buster === null || stored.buster !== buster || Date.now() - stored.timestamp > MAX_AGE_MS) {
      void persister.removeClient();
      return false;
    }
    hydrate(queryClient, stored.clientState);
    for (const key of queryKeys)
      void queryClient.invalidateQueries({ queryKey: key, exact: true, refetchType: 'none' });
    return true;
  }

  /** Writes the snapshot each time one of its queries gets data; returns the unsubscribe. */
  function subscribe(): () => void {
    return queryClient.getQueryCache().subscribe((event) => {
      if (event.type !== 'updated' || event.action.type !== 'success' || !kept(event.query.queryKey)) return;
      const buster = busterNow();
      if (buster === null) return;
      pendingBuster = buster;
      void persister.persistClient({
        buster,
        timestamp: Date.now(),
        clientState: dehydrate(queryClient, {
          shouldDehydrateQuery: (query) => query.state.status === 'success' && kept(query.queryKey),
          shouldDehydrateMutation: () => false,
        }),
      });
    });
  }

  return { restore, subscribe };
}
