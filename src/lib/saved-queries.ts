import type { Query } from '@tanstack/react-query';
import { ApiError } from './api-error';

/**
 * Which queries show saved data, kept apart from the query persister (query-persister.ts) so the
 * screens that read it (offline banner, cache-age notice) do not pull the persister and Dexie into
 * the initial JavaScript: the persister is loaded on demand (src/main.tsx).
 */

/** No response arrived (the client's ApiError with status 0). */
export const isNetworkFailure = (error: unknown) => error instanceof ApiError && error.status === 0;

/**
 * Queries showing saved data: 'restored' from IndexedDB, or 'unanswered' (a revalidation got no
 * response, so the data kept is what was there before). Cleared by the next successful fetch.
 */
export type SavedReason = 'restored' | 'unanswered';
export const savedQueries = new WeakMap<Query, SavedReason>();

/** Why this query shows saved data rather than a fresh answer; undefined when it does not. */
export const savedReason = (query: Query): SavedReason | undefined => savedQueries.get(query);

/** Whether this query shows data restored from IndexedDB (not yet replaced by a fetch). */
export const isRestoredFromStorage = (query: Query) => savedQueries.get(query) === 'restored';
