import { type BucketManager, browserBuckets, USER_BUCKET } from '../db/user-bucket';
import { REVOCATION_STORAGE_KEY } from './session-storage';

/**
 * Sign-out wipes the device (issue 6, decision 009): when a session ends, for whatever reason and in
 * whichever tab, nothing of the user stays in this browser: the in-memory query cache, localStorage
 * and sessionStorage, the Cache Storage (except the service worker's app-shell precache, which
 * holds only the built app), and every IndexedDB database, deleted whole rather than emptied (the
 * app's lives in a Storage Bucket, deleted with its files).
 * Each step runs even when an earlier one failed; the first failure is rethrown at the end.
 */

export interface WipeTargets {
  /** The in-memory query cache (TanStack Query's QueryClient). */
  queryClient: { cancelQueries(): Promise<void>; clear(): void };
  /** The app's Dexie database: deleted whole (with its Storage Bucket), reopened empty on its next use. */
  db: { name: string; wipe(): Promise<void> };
  /** Storage Buckets (`navigator.storageBuckets` by default): any other bucket is deleted too. */
  buckets?: BucketManager | null;
  /** The browser's stores; the globals by default (tests pass their own). */
  localStorage?: Storage | null;
  sessionStorage?: Storage | null;
  caches?: CacheStorage | null;
  indexedDB?: IDBFactory | null;
  /** How long one database deletion may stay blocked by a connection that does not close. */
  blockedTimeoutMs?: number;
}

/** Workbox names its precache `workbox-precache-v2-<scope>`: the app shell, no user data. */
export const isAppShellCache = (name: string): boolean => name.startsWith('workbox-precache');

const global = <K extends 'localStorage' | 'sessionStorage' | 'caches' | 'indexedDB'>(key: K) => {
  try {
    return typeof globalThis[key] === 'undefined' ? null : globalThis[key];
  } catch {
    return null; // storage access can throw (e.g. blocked by the browser's settings)
  }
};

function deleteDatabase(factory: IDBFactory, name: string, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = factory.deleteDatabase(name);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const done = (error?: unknown) => {
      clearTimeout(timer);
      if (error) reject(error);
      else resolve();
    };
    request.onsuccess = () => done();
    request.onerror = () => done(request.error ?? new Error(`deleting ${name} failed`));
    // Blocked: another connection has not closed yet. The delete goes ahead once it does;
    // the wipe does not wait for ever (the request itself stays queued in the browser).
    request.onblocked = () => {
      timer = setTimeout(() => done(new Error(`deleting ${name} is blocked`)), timeoutMs);
    };
  });
}

export async function wipeDevice(targets: WipeTargets): Promise<void> {
  const failures: unknown[] = [];
  const step = async (run: () => unknown) => {
    try {
      await run();
    } catch (error) {
      failures.push(error);
    }
  };

  // Memory first: nothing left for a screen to render or for a persister to write back.
  await step(() => targets.queryClient.cancelQueries());
  await step(() => targets.queryClient.clear());

  await step(() => {
    const local = targets.localStorage === undefined ? global('localStorage') : targets.localStorage;
    if (!local) return;
    // Sign-outs the server has not heard of yet (refresh tokens only, issue 17) outlive the wipe:
    // they are what revokes those sessions when the link returns. Every other key is removed one
    // by one, never clear() and the revocations put back: the tab that signed out may have just
    // written its revocation while this tab's copy of the storage (another renderer) does not show
    // it yet, and a clear() from here would drop it (seen in the e2e suite on a loaded machine).
    const keys = Array.from({ length: local.length }, (_, i) => local.key(i));
    for (const key of keys) if (key !== null && key !== REVOCATION_STORAGE_KEY) local.removeItem(key);
  });
  await step(() =>
    (targets.sessionStorage === undefined ? global('sessionStorage') : targets.sessionStorage)?.clear(),
  );

  const caches = targets.caches === undefined ? global('caches') : targets.caches;
  if (caches) {
    await step(async () => {
      const names = await caches.keys();
      await Promise.all(names.filter((name) => !isAppShellCache(name)).map((name) => caches.delete(name)));
    });
  }

  await step(() => targets.db.wipe());
  const factory = targets.indexedDB === undefined ? global('indexedDB') : targets.indexedDB;
  if (factory && typeof factory.databases === 'function') {
    await step(async () => {
      const others = (await factory.databases())
        .map((info) => info.name)
        .filter((name): name is string => Boolean(name) && name !== targets.db.name);
      await Promise.all(
        others.map((name) => deleteDatabase(factory, name, targets.blockedTimeoutMs ?? 3000)),
      );
    });
  }

  const buckets = targets.buckets === undefined ? browserBuckets() : targets.buckets;
  if (buckets) {
    await step(async () => {
      const others = (await buckets.keys()).filter((name) => name !== USER_BUCKET);
      await Promise.all(others.map((name) => buckets.delete(name)));
    });
  }

  if (failures.length > 0) throw failures[0];
}
