import { hashKey, QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppDb } from '../db/app-db';
import { ApiError, NETWORK_ERROR } from './api-error';
import {
  createQueryPersistence,
  isRestoredFromStorage,
  QUERY_CACHE_MAX_AGE_MS,
  savedReason,
} from './query-persister';

const db = new AppDb('reward-club-admin-persister-test');

afterEach(async () => {
  vi.useRealTimers();
  await db.delete();
  await db.open();
});

const networkDown = () => Promise.reject(new ApiError(0, NETWORK_ERROR));
const PARTNERS = ['partners', 'list', { page: 1 }] as const;
/** vi.waitFor with room for a loaded CI machine (its 1-s default ran out once beside the e2e run). */
const eventually = <T>(check: () => T | Promise<T>) => vi.waitFor(check, { timeout: 10_000, interval: 20 });

/** A client as boot makes it (persister in the defaults, offline-first), for one user and build. */
function appClient(userId: number | null, appBuild = 'v1') {
  const persistence = createQueryPersistence({ db, currentUserId: () => userId, appBuild });
  const client = new QueryClient({
    defaultOptions: {
      queries: {
        gcTime: 60_000,
        retry: false,
        networkMode: 'offlineFirst',
        persister: persistence.persisterFn,
      },
    },
  });
  return { client, persistence };
}

async function seeOnce(
  userId: number,
  data: unknown,
  appBuild = 'v1',
  queryKey: readonly unknown[] = PARTNERS,
) {
  const { client } = appClient(userId, appBuild);
  await client.fetchQuery({ queryKey, queryFn: () => Promise.resolve(data) });
  await eventually(async () =>
    expect(await db.queries.get(`query-${hashKey(queryKey)}`)).toMatchObject({
      buster: `${appBuild}:user-${userId}`,
    }),
  );
  client.clear();
}

describe('query persister over Dexie', () => {
  it('stores a fetched result per query, keyed by build and user', async () => {
    await seeOnce(1, { rows: ['Mama Put'] });
    const rows = await db.queries.toArray();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      buster: 'v1:user-1',
      state: { data: { rows: ['Mama Put'] }, status: 'success' },
    });
    expect(rows[0]?.key).toContain('partners');
  });

  it('after a reload with the network down, restores the result with its original age', async () => {
    await seeOnce(1, { rows: ['Mama Put'] });
    const savedAt = (await db.queries.toArray())[0]?.updatedAt ?? 0;

    const { client } = appClient(1);
    const queryFn = vi.fn(networkDown);
    // A screen observes the query, as useQuery does.
    const unsubscribe = new QueryObserver(client, { queryKey: PARTNERS, queryFn }).subscribe(() => {});
    await eventually(() => expect(client.getQueryData(PARTNERS)).toEqual({ rows: ['Mama Put'] }));
    const query = client.getQueryCache().find({ queryKey: PARTNERS });
    expect(query && isRestoredFromStorage(query)).toBe(true);
    await eventually(() => expect(query?.state.dataUpdatedAt).toBe(savedAt));
    // It revalidates at once (stale); the dead network leaves the restored data in place.
    await eventually(() => expect(queryFn).toHaveBeenCalled());
    expect(client.getQueryData(PARTNERS)).toEqual({ rows: ['Mama Put'] });
    unsubscribe();

    // The network is back: the fresh result replaces it and is no longer "from the cache".
    await client.fetchQuery({
      queryKey: PARTNERS,
      queryFn: () => Promise.resolve({ rows: ['Buka'] }),
      staleTime: 0,
    });
    expect(query && isRestoredFromStorage(query)).toBe(false);
    await eventually(async () =>
      expect((await db.queries.toArray())[0]?.state).toMatchObject({ data: { rows: ['Buka'] } }),
    );
  });

  it('a revalidation that gets no answer keeps the data and its age, not an error', async () => {
    const { client } = appClient(1);
    await client.fetchQuery({ queryKey: PARTNERS, queryFn: () => Promise.resolve({ rows: ['Mama Put'] }) });
    const query = client.getQueryCache().find({ queryKey: PARTNERS });
    const fetchedAt = query?.state.dataUpdatedAt;

    await expect(
      client.fetchQuery({ queryKey: PARTNERS, queryFn: networkDown, staleTime: 0 }),
    ).resolves.toEqual({ rows: ['Mama Put'] });
    expect(query?.state.status).toBe('success');
    expect(query && savedReason(query)).toBe('unanswered');
    // Both together: the refetch may finish in the same millisecond as the first fetch, so the age
    // alone can already match before the kept state is written.
    await eventually(() => {
      expect(query?.state.dataUpdatedAt).toBe(fetchedAt);
      expect(query?.state.isInvalidated).toBe(true); // fetched again at the next mount or reconnect
    });

    await client.fetchQuery({
      queryKey: PARTNERS,
      queryFn: () => Promise.resolve({ rows: ['Buka'] }),
      staleTime: 0,
    });
    expect(query && savedReason(query)).toBeUndefined();
    expect(query?.state.isInvalidated).toBe(false);
  });

  it('never shows one user the cache of another, and drops it', async () => {
    await seeOnce(1, { rows: ['secret of user 1'] });
    const { client } = appClient(2);
    const queryFn = vi.fn(() => Promise.resolve({ rows: ['user 2'] }));
    await expect(client.fetchQuery({ queryKey: PARTNERS, queryFn })).resolves.toEqual({ rows: ['user 2'] });
    expect(queryFn).toHaveBeenCalledOnce();
    await eventually(async () =>
      expect((await db.queries.toArray()).map((r) => r.buster)).toEqual(['v1:user-2']),
    );
  });

  it('a new build starts with an empty cache', async () => {
    await seeOnce(1, { rows: ['old build'] });
    const { client } = appClient(1, 'v2');
    await expect(client.fetchQuery({ queryKey: PARTNERS, queryFn: networkDown })).rejects.toThrow(
      NETWORK_ERROR,
    );
    expect(await db.queries.count()).toBe(0);
  });

  it('keeps a result 7 days, not longer', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-01T10:00:00Z'));
    await seeOnce(1, { rows: ['week old'] });

    vi.setSystemTime(Date.now() + QUERY_CACHE_MAX_AGE_MS - 60_000);
    const first = appClient(1).client;
    await expect(first.fetchQuery({ queryKey: PARTNERS, queryFn: networkDown })).resolves.toEqual({
      rows: ['week old'],
    });
    first.clear();

    vi.setSystemTime(Date.now() + 120_000);
    await expect(
      appClient(1).client.fetchQuery({ queryKey: PARTNERS, queryFn: networkDown }),
    ).rejects.toThrow(NETWORK_ERROR);
    expect(await db.queries.count()).toBe(0);
  });

  it('writes nothing while signed out, nor for a fetch that ends after sign-out', async () => {
    await appClient(null).client.fetchQuery({ queryKey: PARTNERS, queryFn: () => Promise.resolve(1) });

    let userId: number | null = 1;
    const persistence = createQueryPersistence({ db, currentUserId: () => userId, appBuild: 'v1' });
    const client = new QueryClient({ defaultOptions: { queries: { persister: persistence.persisterFn } } });
    let answer: ((value: unknown) => void) | null = null;
    const pending = client.fetchQuery({
      queryKey: PARTNERS,
      queryFn: () => new Promise((r) => (answer = r)),
    });
    await eventually(() => expect(answer).not.toBeNull());
    userId = null; // signed out while the request was on its way
    answer!({ rows: ['late'] });
    await pending;
    await new Promise((r) => setTimeout(r, 50));
    expect(await db.queries.count()).toBe(0);
  });

  it('does not persist a query marked meta.persist = false', async () => {
    const { client } = appClient(1);
    await client.fetchQuery({
      queryKey: ['code'],
      queryFn: () => Promise.resolve('123456'),
      meta: { persist: false },
    });
    await client.fetchQuery({ queryKey: ['kept'], queryFn: () => Promise.resolve('ok') });
    await eventually(async () =>
      expect((await db.queries.toArray()).map((r) => r.key)).toEqual(['query-["kept"]']),
    );
  });

  it('reads the profile network-first, and its stored copy only when the network is down', async () => {
    await seeOnce(1, { name: 'Stored' }, 'v1', ['profile', 'detail']);
    const online = appClient(1).client;
    const queryFn = vi.fn(() => Promise.resolve({ name: 'Fresh' }));
    await expect(online.fetchQuery({ queryKey: ['profile', 'detail'], queryFn })).resolves.toEqual({
      name: 'Fresh',
    });
    expect(queryFn).toHaveBeenCalledOnce();
    await eventually(async () =>
      expect((await db.queries.toArray())[0]?.state).toMatchObject({ data: { name: 'Fresh' } }),
    );

    const offline = appClient(1).client;
    await expect(
      offline.fetchQuery({ queryKey: ['profile', 'detail'], queryFn: networkDown }),
    ).resolves.toEqual({
      name: 'Fresh',
    });
    const query = offline.getQueryCache().find({ queryKey: ['profile', 'detail'] });
    expect(query && isRestoredFromStorage(query)).toBe(true);
  });

  it('forgets the stored copy when the server answers 404 or 403', async () => {
    await seeOnce(1, { name: 'Deleted partner' }, 'v1', ['partners', 'detail', 7]);
    const { client } = appClient(1);
    const query = await client.fetchQuery({ queryKey: ['partners', 'detail', 7], queryFn: networkDown });
    expect(query).toEqual({ name: 'Deleted partner' });
    await expect(
      client.fetchQuery({
        queryKey: ['partners', 'detail', 7],
        queryFn: () => Promise.reject(new ApiError(404, 'Partner not found')),
        staleTime: 0,
      }),
    ).rejects.toThrow('Partner not found');
    await eventually(async () => expect(await db.queries.count()).toBe(0));
  });

  it('survives the database being deleted by sign-out (reopens it, empty)', async () => {
    await seeOnce(1, { rows: ['before'] });
    await db.delete(); // what the sign-out wipe does; Dexie closes the connection
    const { client } = appClient(1);
    await expect(client.fetchQuery({ queryKey: PARTNERS, queryFn: networkDown })).rejects.toThrow(
      NETWORK_ERROR,
    );
    await client.fetchQuery({
      queryKey: PARTNERS,
      queryFn: () => Promise.resolve({ rows: ['after'] }),
      staleTime: 0,
    });
    await eventually(async () => expect(await db.queries.count()).toBe(1));
  });

  it('prune drops entries of other users and builds, and old ones', async () => {
    await seeOnce(1, 'mine');
    await seeOnce(2, 'theirs', 'v1', ['other']);
    await seeOnce(1, 'old build', 'v0', ['older']);
    expect(await db.queries.count()).toBe(3);
    await appClient(1).persistence.prune();
    expect((await db.queries.toArray()).map((r) => r.buster)).toEqual(['v1:user-1']);
    await appClient(null).persistence.prune();
    expect(await db.queries.count()).toBe(0);
  });
});
