import { lstatSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { CHROME_FLAGS, CHROME_PATH, E2E_TMP } from './env';

/**
 * A Chromium with a profile directory of its own on disk (a persistent context), so a test can
 * read every file the browser wrote: what a sign-out leaves behind on the device.
 */
export async function launchWithProfile(name: string, baseURL: string) {
  const profileDir = join(E2E_TMP, 'profiles', `${name}-${Date.now().toString(36)}`);
  mkdirSync(profileDir, { recursive: true });
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath: CHROME_PATH,
    args: CHROME_FLAGS,
    baseURL,
  });
  return { context, profileDir };
}

export interface ProfileScan {
  files: number;
  bytes: number;
  /** Each file holding a value, with the encoding it was found in. */
  hits: { value: string; encoding: 'utf8' | 'utf16le'; file: string }[];
}

/** Reads every file under `dir` as bytes and looks for each value as UTF-8 and as UTF-16LE. */
export function scanProfile(dir: string, values: string[]): ProfileScan {
  const needles = values.flatMap((value) =>
    (['utf8', 'utf16le'] as const).map((encoding) => ({
      value,
      encoding,
      bytes: Buffer.from(value, encoding),
    })),
  );
  const scan: ProfileScan = { files: 0, bytes: 0, hits: [] };
  const walk = (path: string) => {
    let stat: ReturnType<typeof lstatSync>;
    try {
      stat = lstatSync(path);
    } catch {
      return; // removed while walking (a running browser)
    }
    if (stat.isSymbolicLink()) return; // SingletonLock and friends point outside the profile
    if (stat.isDirectory()) {
      for (const entry of readdirSync(path)) walk(join(path, entry));
      return;
    }
    if (!stat.isFile()) return;
    let content: Buffer;
    try {
      content = readFileSync(path);
    } catch {
      return;
    }
    scan.files += 1;
    scan.bytes += content.length;
    for (const { value, encoding, bytes } of needles) {
      if (content.includes(bytes)) scan.hits.push({ value, encoding, file: path.slice(dir.length + 1) });
    }
  };
  walk(dir);
  return scan;
}

export interface StoreRows {
  db: string;
  store: string;
  rows: number;
  /** Which of the values asked about appear in the rows (structured clone → JSON). */
  holds: string[];
}

/** Every store of every IndexedDB database of the page's origin (and its Storage Buckets), with its rows. */
export function readIndexedDb(page: Page, values: string[] = []): Promise<StoreRows[]> {
  return page.evaluate(async (values) => {
    const request = <T>(r: IDBRequest<T>) =>
      new Promise<T>((resolve, reject) => {
        r.onsuccess = () => resolve(r.result);
        r.onerror = () => reject(r.error);
      });
    const out: { db: string; store: string; rows: number; holds: string[] }[] = [];
    // The default IndexedDB, and that of every Storage Bucket of the origin.
    const factories: [string, IDBFactory][] = [['', indexedDB]];
    const buckets = (
      navigator as {
        storageBuckets?: { keys(): Promise<string[]>; open(n: string): Promise<{ indexedDB: IDBFactory }> };
      }
    ).storageBuckets;
    for (const name of buckets ? await buckets.keys() : []) {
      factories.push([`${name}:`, (await buckets!.open(name)).indexedDB]);
    }
    for (const [prefix, factory] of factories)
      for (const info of await factory.databases()) {
        if (!info.name) continue;
        const open = factory.open(info.name);
        const db = await request(open);
        // Never hold up the app's own deletes or upgrades.
        db.onversionchange = () => db.close();
        try {
          for (const store of Array.from(db.objectStoreNames)) {
            const objects = db.transaction(store).objectStore(store);
            const all = await request(objects.getAll());
            const text = JSON.stringify(all);
            out.push({
              db: `${prefix}${info.name}`,
              store,
              rows: all.length,
              holds: values.filter((v) => text.includes(v)),
            });
          }
        } finally {
          db.close();
        }
      }
    return out;
  }, values);
}

/** The keys in localStorage and sessionStorage, the Cache Storage caches and the Storage Buckets. */
export function readWebStorage(page: Page) {
  return page.evaluate(async () => ({
    localStorage: Object.keys(localStorage),
    sessionStorage: Object.keys(sessionStorage),
    caches: typeof caches === 'undefined' ? [] : await caches.keys(),
    buckets:
      (await (navigator as { storageBuckets?: { keys(): Promise<string[]> } }).storageBuckets?.keys()) ?? [],
  }));
}
