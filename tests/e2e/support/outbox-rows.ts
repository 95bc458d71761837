import type { Page } from '@playwright/test';
import { USER_BUCKET } from '../../../src/db/user-bucket';

/** How many edits wait in the device's outbox (the user's storage bucket, or plain IndexedDB). */
export const outboxRows = (page: Page) =>
  page.evaluate(async (bucket) => {
    const buckets = (
      navigator as { storageBuckets?: { open(name: string): Promise<{ indexedDB: IDBFactory }> } }
    ).storageBuckets;
    const factory = buckets ? (await buckets.open(bucket)).indexedDB : indexedDB;
    return new Promise<number>((resolve, reject) => {
      const open = factory.open('reward-club-admin');
      open.onerror = () => reject(open.error);
      open.onsuccess = () => {
        const db = open.result;
        if (!db.objectStoreNames.contains('outbox')) {
          db.close();
          resolve(0);
          return;
        }
        const count = db.transaction('outbox', 'readonly').objectStore('outbox').count();
        count.onsuccess = () => {
          db.close();
          resolve(count.result);
        };
        count.onerror = () => reject(count.error);
      };
    });
  }, USER_BUCKET);
