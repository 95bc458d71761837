import type { Query, QueryFunction, QueryFunctionContext, QueryKey, QueryState } from '@tanstack/react-query';
import {
  type AsyncStorage,
  experimental_createQueryPersister,
  type PersistedQuery,
} from '@tanstack/react-query-persist-client';
import type { AppDb, CachedQuery } from '../db/app-db';
import { ApiError } from './api-error';
import { APP_BUILD, cacheBuster } from './cache-buster';
import { isNetworkFailure, savedQueries } from './saved-queries';

export { isNetworkFailure, isRestoredFromStorage, type SavedReason, savedReason } from './saved-queries';

/**
 * Every query persisted per query to IndexedDB (the `queries` store of the one Dexie database), so
 * a reload or a dead network shows what was last seen at once while it revalidates (decision 002).
 */

/** IndexedDB keeps a query result 7 days; in memory unused data still goes after 60 s (docs/product.md#constants). */
export const QUERY_CACHE_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;
const PREFIX = 'query';

/** A row of `AppDb.queries` as this persister writes it. */
interface StoredQuery extends CachedQuery {
  state: QueryState;
  queryKey: QueryKey;
  queryHash: string;
}

/** Only what a screen needs back: the data and when it was fetched, as a settled success. */
function storedState(state: QueryState): QueryState {
  return {
    data: state.data,
    dataUpdateCount: state.dataUpdateCount,
    dataUpdatedAt: state.dataUpdatedAt,
    error: null,
    errorUpdateCount: 0,
    errorUpdatedAt: 0,
    fetchFailureCount: 0,
    fetchFailureReason: null,
    fetchMeta: null,
    isInvalidated: false,
    status: 'success',
    fetchStatus: 'idle',
  };
}

const isClosed = (error: unknown) => error instanceof Error && error.name === 'DatabaseClosedError';

/**
 * Runs a Dexie operation; when sign-out deleted the database (`db.delete()` closes it), it is
 * reopened (empty, with its stores) and the operation runs once more.
 */
async function withOpenDb<T>(db: AppDb, op: () => Promise<T>): Promise<T> {
  try {
    return await op();
  } catch (error) {
    if (!isClosed(error)) throw error;
    await db.open();
    return op();
  }
}

/**
 * The persister's storage over `AppDb.queries`: rows are stored as structured clones (no JSON), so
 * whatever the contract schemas produce comes back as it was.
 */
export function dexieQueryStorage(
  db: AppDb,
  /** Checked at each write: a fetch that ends after sign-out or a user switch writes nothing. */
  acceptsBuster: (buster: string) => boolean = () => true,
): AsyncStorage<PersistedQuery> {
  const toPersisted = (row: CachedQuery | undefined): PersistedQuery | undefined => {
    const stored = row as StoredQuery | undefined;
    if (!stored?.state || typeof stored.queryHash !== 'string') return undefined;
    return {
      buster: stored.buster,
      queryHash: stored.queryHash,
      queryKey: stored.queryKey,
      state: stored.state,
    };
  };
  return {
    getItem: (key) => withOpenDb(db, async () => toPersisted(await db.queries.get(key)) ?? null),
    setItem: (key, value) => {
      if (value.state.data === undefined || !acceptsBuster(value.buster)) return Promise.resolve();
      const row: StoredQuery = {
        key,
        buster: value.buster,
        updatedAt: value.state.dataUpdatedAt,
        state: value.state,
        queryKey: value.queryKey,
        queryHash: value.queryHash,
      };
      return withOpenDb(db, () => db.queries.put(row));
    },
    removeItem: (key) => withOpenDb(db, () => db.queries.delete(key)),
    entries: () =>
      withOpenDb(db, async () =>
        (await db.queries.toArray()).flatMap((row): Array<[string, PersistedQuery]> => {
          const persisted = toPersisted(row);
          return persisted ? [[row.key, persisted]] : [];
        }),
      ),
  };
}

/**
 * Which queries are persisted. All of them, except a query that says `meta: { persist: false }`:
 * anything holding a one-time code, a token or another secret that must never reach the disk must
 * set it. (Today none does: one-time codes only travel in mutations, which are never persisted.)
 */
export const shouldPersist = (query: Query) => query.meta?.persist !== false;

/**
 * Queries read network-first: the profile, because the session takes the user's role and
 * permissions from each profile fetch (a changed role must show after one reload). Its stored copy
 * is used only when the network is down.
 */
const NETWORK_FIRST_ROOTS = new Set(['profile']);
const isNetworkFirst = (query: Query) =>
  typeof query.queryKey[0] === 'string' && NETWORK_FIRST_ROOTS.has(query.queryKey[0]);

export interface QueryPersistenceOptions {
  db: AppDb;
  /** The signed-in user, read at each fetch; nothing is read or written while signed out. */
  currentUserId: () => number | string | null | undefined;
  appBuild?: string;
  maxAge?: number;
}

/**
 * The `persister` for the QueryClient's query defaults. It picks the stored cache of the signed-in
 * user and this build (the buster), restores a query that has no data yet from it, and stores each
 * fetched result; entries of another user or build, or older than `maxAge`, are dropped when met
 * and by `prune()`.
 */
export function createQueryPersistence({
  db,
  currentUserId,
  appBuild = APP_BUILD,
  maxAge = QUERY_CACHE_MAX_AGE_MS,
}: QueryPersistenceOptions) {
  const busterNow = () => {
    const userId = currentUserId();
    return userId === null || userId === undefined ? null : cacheBuster(appBuild, userId);
  };
  const storage = dexieQueryStorage(db, (buster) => buster === busterNow());
  let current: {
    buster: string;
    persister: ReturnType<typeof experimental_createQueryPersister<PersistedQuery>>;
  } | null = null;

  const persisterOf = (userId: number | string) => {
    const buster = cacheBuster(appBuild, userId);
    if (current?.buster !== buster) {
      current = {
        buster,
        persister: experimental_createQueryPersister<PersistedQuery>({
          storage,
          buster,
          maxAge,
          prefix: PREFIX,
          serialize: (persisted) => ({ ...persisted, state: storedState(persisted.state) }),
          deserialize: (stored) => stored,
        }),
      };
    }
    return current.persister;
  };

  type Persister = ReturnType<typeof persisterOf>;

  /**
   * Runs the real query function and stores its result; a 4xx (gone, forbidden) drops the stored
   * copy. When no response arrives and the query has data (restored or fetched before), that data
   * stays, with its age, instead of an error: the screen keeps showing it (saying it is saved) and
   * the query stays invalidated, so the next mount or reconnect fetches it again.
   */
  async function fetchAndStore<T, TQueryKey extends QueryKey>(
    persister: Persister,
    queryFn: QueryFunction<T, TQueryKey, never>,
    ctx: QueryFunctionContext<TQueryKey>,
    query: Query,
  ): Promise<T> {
    const kept = query.state;
    try {
      const data = await queryFn(ctx);
      savedQueries.delete(query);
      // After the query has taken the result, so its state (dataUpdatedAt) is the stored one.
      setTimeout(() => void persister.persistQuery(query).catch(() => undefined), 0);
      return data;
    } catch (error) {
      if (error instanceof ApiError && error.status >= 400 && error.status < 500)
        await Promise.resolve(storage.removeItem(`${PREFIX}-${query.queryHash}`)).catch(() => undefined);
      if (!isNetworkFailure(error) || kept.data === undefined) throw error;
      if (!savedQueries.has(query)) savedQueries.set(query, 'unanswered');
      keepAge(query, kept.dataUpdatedAt);
      return kept.data as T;
    }
  }

  /** After the query took data back as a result, it gets that data's own age, and stays stale. */
  const keepAge = (query: Query, dataUpdatedAt: number) =>
    setTimeout(() => query.setState({ dataUpdatedAt, isInvalidated: true }), 0);

  /** The stored result of a query with no data yet, with its original age; undefined when none. */
  async function restore<T>(persister: Persister, query: Query, revalidate: boolean): Promise<T | undefined> {
    const stored = await persister
      .retrieveQuery<T>(query.queryHash, (persisted) => {
        // Saved data is stale whatever the query's staleTime: it is revalidated now, and until a
        // fetch succeeds, the screen says it shows saved data.
        query.setState({ dataUpdatedAt: persisted.state.dataUpdatedAt, isInvalidated: true });
        if (revalidate) void query.fetch().catch(() => undefined);
      })
      .catch(() => undefined);
    if (stored !== undefined) savedQueries.set(query, 'restored');
    return stored;
  }

  /** The `persister` option (query defaults). */
  async function persisterFn<T, TQueryKey extends QueryKey>(
    queryFn: QueryFunction<T, TQueryKey, never>,
    ctx: QueryFunctionContext<TQueryKey>,
    query: Query,
  ): Promise<T> {
    const userId = currentUserId();
    if (userId === null || userId === undefined || !shouldPersist(query)) return queryFn(ctx);
    const persister = persisterOf(userId);
    if (!isNetworkFirst(query)) {
      // Cache first: what was seen before shows at once, then revalidates.
      const stored = query.state.data === undefined ? await restore<T>(persister, query, true) : undefined;
      return stored !== undefined ? stored : fetchAndStore(persister, queryFn, ctx, query);
    }
    // Network first: the stored copy only stands in while the network is down.
    try {
      return await fetchAndStore(persister, queryFn, ctx, query);
    } catch (error) {
      if (!isNetworkFailure(error) || query.state.data !== undefined) throw error;
      const stored = await restore<T>(persister, query, false);
      if (stored === undefined) throw error;
      return stored;
    }
  }

  /**
   * Stores a query's current answer as a fetch through `persisterFn` would (for a query fetched
   * while this persistence was still loading, src/app.tsx); nothing for a signed-out user or a
   * query that is not persisted.
   */
  async function store(query: Query): Promise<void> {
    const userId = currentUserId();
    if (userId === null || userId === undefined || !shouldPersist(query)) return;
    await persisterOf(userId).persistQuery(query);
  }

  /** Drops every stored query of another user or build, or older than `maxAge`. */
  async function prune(): Promise<void> {
    const buster = busterNow();
    const oldest = Date.now() - maxAge;
    await withOpenDb(db, () =>
      db.queries.filter((row) => row.buster !== buster || row.updatedAt < oldest).delete(),
    );
  }

  return { persisterFn, prune, storage, store };
}
