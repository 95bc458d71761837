import { useSyncExternalStore } from 'react';

/**
 * A newer deployed version waiting to take over (its service worker is installed and waiting).
 * The service worker registration (register-service-worker.ts) offers it; the update prompt shows
 * it; nothing switches until the user chooses to reload.
 */
type Activate = () => Promise<void>;

let pending: Activate | null = null;
const listeners = new Set<() => void>();
const changed = () => {
  for (const listener of listeners) listener();
};

export const appUpdate = {
  /** A new version is ready; `activate` makes it take over and reloads the page. */
  offer(activate: Activate) {
    pending = activate;
    changed();
  },
  /** Not now: the prompt goes until the next offer (the next check, or the next load). */
  dismiss() {
    pending = null;
    changed();
  },
  async reload() {
    const activate = pending;
    pending = null;
    changed();
    await activate?.();
  },
  available: () => pending !== null,
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

export const useUpdateAvailable = () =>
  useSyncExternalStore(appUpdate.subscribe, appUpdate.available, () => false);
