import { type Query, QueryClientContext } from '@tanstack/react-query';
import { useCallback, useContext, useSyncExternalStore } from 'react';
import { isNetworkFailure, savedReason } from './saved-queries';

/** online; offline (the browser says so); unreachable (online, but requests get no answer). */
export type NetworkStatus = 'online' | 'offline' | 'unreachable';

/** The browser's idea of the network, kept current by its online/offline events. */
export function subscribeOnline(onChange: () => void) {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
}
const browserOnline = () => navigator.onLine;

/** Whether the browser says it is online (money steps check this before sending anything). */
export const useOnline = () =>
  useSyncExternalStore(
    subscribeOnline,
    () => navigator.onLine !== false,
    () => true,
  );

/**
 * Whether a query of the screen (one with observers) got no answer at its latest attempt (an
 * error, or saved data kept). The next success clears it; queries no screen uses do not count.
 */
export const screenLacksNetwork = (queries: Query[]) =>
  queries.some(
    (query) =>
      query.getObserversCount() > 0 &&
      (savedReason(query) === 'unanswered' || isNetworkFailure(query.state.fetchFailureReason)),
  );

const noop = () => () => {};

/**
 * The network as the user meets it: `navigator.onLine` with its online/offline events, and the
 * failed fetches of the screen's queries (failing with no response means unreachable).
 */
export function useNetworkStatus(): NetworkStatus {
  const online = useSyncExternalStore(subscribeOnline, browserOnline, () => true);
  const client = useContext(QueryClientContext);
  const subscribe = useCallback(
    (onChange: () => void) => (client ? client.getQueryCache().subscribe(onChange) : noop()),
    [client],
  );
  const lacksNetwork = () => (client ? screenLacksNetwork(client.getQueryCache().getAll()) : false);
  const unreachable = useSyncExternalStore(subscribe, lacksNetwork, () => false);
  if (!online) return 'offline';
  return unreachable ? 'unreachable' : 'online';
}
