import type { Page } from '@playwright/test';

/**
 * The keys of the query results stored in IndexedDB (the `queries` store of the app's database, in
 * the user's Storage Bucket when the browser has them, decision 009).
 */
export const storedQueryKeys = (page: Page) =>
  page.evaluate(async () => {
    const buckets = (
      navigator as { storageBuckets?: { open(name: string): Promise<{ indexedDB: IDBFactory }> } }
    ).storageBuckets;
    const factory = buckets ? (await buckets.open('reward-club-user')).indexedDB : indexedDB;
    return new Promise<string[]>((resolve, reject) => {
      const open = factory.open('reward-club-admin');
      open.onerror = () => reject(open.error);
      open.onsuccess = () => {
        const db = open.result;
        if (!db.objectStoreNames.contains('queries')) {
          db.close();
          resolve([]);
          return;
        }
        const keys = db.transaction('queries').objectStore('queries').getAllKeys();
        keys.onsuccess = () => {
          db.close();
          resolve(keys.result.map(String));
        };
        keys.onerror = () => reject(keys.error);
      };
    });
  });
