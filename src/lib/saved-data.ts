import { type Query, QueryClientContext } from '@tanstack/react-query';
import { useCallback, useContext, useSyncExternalStore } from 'react';
import { isNetworkFailure, savedReason } from './saved-queries';

/**
 * Whether a query shows saved data rather than a fresh answer: restored from IndexedDB, or kept
 * because its revalidation got no answer (persisted queries), or kept while its refetch waits for
 * the network or failed for lack of it (any query).
 */
export function showsSavedData(query: Query): boolean {
  const { state } = query;
  if (state.data === undefined) return false;
  if (savedReason(query)) return true;
  if (state.fetchStatus === 'paused') return true;
  return isNetworkFailure(state.fetchFailureReason);
}

/** When the oldest saved data on screen (queries with observers) was fetched; null when all is fresh. */
export function savedDataSince(queries: Query[]): number | null {
  let oldest: number | null = null;
  for (const query of queries) {
    if (query.getObserversCount() === 0 || !showsSavedData(query)) continue;
    const at = query.state.dataUpdatedAt;
    if (oldest === null || at < oldest) oldest = at;
  }
  return oldest;
}

const noop = () => () => {};

/** `savedDataSince` over the app's query cache, live; null outside a QueryClientProvider. */
export function useSavedDataSince(): number | null {
  const client = useContext(QueryClientContext);
  const subscribe = useCallback(
    (onChange: () => void) => (client ? client.getQueryCache().subscribe(onChange) : noop()),
    [client],
  );
  const snapshot = () => (client ? savedDataSince(client.getQueryCache().getAll()) : null);
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}
