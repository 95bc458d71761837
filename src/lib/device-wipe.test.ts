import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { AppDb } from '../db/app-db';
import { isAppShellCache, wipeDevice } from './device-wipe';

/** A Cache Storage stand-in (jsdom has none): just the names, which is all the wipe looks at. */
function fakeCaches(names: string[]) {
  const held = new Set(names);
  return {
    held,
    caches: {
      keys: async () => [...held],
      delete: async (name: string) => held.delete(name),
    } as unknown as CacheStorage,
  };
}

const openRaw = (name: string) =>
  new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open(name, 1);
    request.onupgradeneeded = () => request.result.createObjectStore('things');
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });

const databaseNames = async () => (await indexedDB.databases()).map((d) => d.name).sort();

describe('wipeDevice', () => {
  it('removes the query cache, both storages, every database and every cache but the app shell', async () => {
    const db = new AppDb('wipe-test-app');
    await db.queries.put({
      key: '["customers"]',
      state: { email: 'planted@x.ng' },
      buster: 'b',
      updatedAt: 1,
    });
    await db.outbox.add({ idempotencyKey: 'k', method: 'PATCH', path: '/p', body: {}, createdAt: 1 });
    await db.flows.put({ id: 'guided-redemption:1', progress: { code: 'GC-PLANT' }, updatedAt: 1 });
    const other = await openRaw('wipe-test-other');
    other.onversionchange = () => other.close();
    const queryClient = new QueryClient();
    queryClient.setQueryData(['customers'], { email: 'planted@x.ng' });
    localStorage.setItem('admin', '{"accessToken":"a"}');
    localStorage.setItem('tsr-anything', 'x');
    sessionStorage.setItem('tsr-scroll-restoration-v1_3', '{"/dashboard/clients?search=planted":{}}');
    const { held, caches } = fakeCaches(['workbox-precache-v2-http://127.0.0.1/', 'api-runtime', 'images']);
    expect(await databaseNames()).toEqual(expect.arrayContaining(['wipe-test-app', 'wipe-test-other']));

    await wipeDevice({ queryClient, db, caches });

    expect(queryClient.getQueryCache().getAll()).toHaveLength(0);
    expect(localStorage.length).toBe(0);
    expect(sessionStorage.length).toBe(0);
    expect([...held]).toEqual(['workbox-precache-v2-http://127.0.0.1/']);
    expect(await databaseNames()).not.toContain('wipe-test-app');
    expect(await databaseNames()).not.toContain('wipe-test-other');
    // The app database reopens, empty, on its next use (the next user).
    expect(await db.queries.count()).toBe(0);
    expect(await db.outbox.count()).toBe(0);
    expect(await db.flows.count()).toBe(0);
    await db.delete();
  });

  it('a database held open by a connection that never closes does not stop the other steps', async () => {
    const db = new AppDb('wipe-test-app-2');
    await db.queries.put({ key: 'k', state: {}, buster: 'b', updatedAt: 1 });
    const stubborn = await openRaw('wipe-test-stubborn');
    stubborn.onversionchange = () => {}; // never closes
    localStorage.setItem('admin', '{}');
    const error = await wipeDevice({
      queryClient: new QueryClient(),
      db,
      caches: null,
      blockedTimeoutMs: 50,
    }).catch((e: unknown) => e);
    expect(String(error)).toContain('blocked');
    expect(localStorage.length).toBe(0);
    expect(await databaseNames()).not.toContain('wipe-test-app-2');
    stubborn.close();
    await db.delete();
  });

  it("keeps the pending revocations, also one another tab wrote that this tab's copy does not show yet", async () => {
    // Chromium's localStorage as a second renderer sees it: the origin's one store behind, this
    // tab's copy in front, which learns of another tab's writes only later.
    const shared = new Map([
      ['admin', '{"accessToken":"a"}'],
      ['tsr-anything', 'x'],
    ]);
    const copy = new Map(shared);
    shared.set('admin-revoke', '["refresh-of-the-other-tab"]'); // the tab that signed out, just now
    const local = {
      get length() {
        return copy.size;
      },
      key: (i: number) => [...copy.keys()][i] ?? null,
      getItem: (k: string) => copy.get(k) ?? null,
      setItem: (k: string, v: string) => {
        copy.set(k, v);
        shared.set(k, v);
      },
      removeItem: (k: string) => {
        copy.delete(k);
        shared.delete(k);
      },
      clear: () => {
        copy.clear();
        shared.clear();
      },
    } as Storage;
    const db = new AppDb('wipe-test-app-3');

    await wipeDevice({ queryClient: new QueryClient(), db, caches: null, localStorage: local });

    expect([...shared.entries()]).toEqual([['admin-revoke', '["refresh-of-the-other-tab"]']]);
    await db.delete();
  });

  it('keeps only the workbox precache', () => {
    expect(isAppShellCache('workbox-precache-v2-https://admin.example/')).toBe(true);
    expect(isAppShellCache('workbox-runtime-https://admin.example/')).toBe(false);
    expect(isAppShellCache('api')).toBe(false);
  });
});
