/**
 * Toasts (docs/product.md#errors and #constants) without Ark UI's toast machine in the sign-in screen's JavaScript:
 * `notify` loads ./toast (the toaster and its <Toaster>) on the first toast, and the app loads it
 * once idle after its first render (src/main.tsx), so a toast seldom waits for it. A toast asked for
 * before the <Toaster> is mounted is shown when it mounts (zag's toast group reads the store's
 * visible toasts on mount).
 */
import { useSyncExternalStore } from 'react';

export type ToastModule = typeof import('./toast');

let toastModule: Promise<ToastModule> | undefined;
const listeners = new Set<() => void>();

/** Loads the toaster; from then on <LazyToaster> renders it. */
export function loadToaster(): Promise<ToastModule> {
  if (!toastModule) {
    toastModule = import('./toast');
    // A chunk that could not be fetched (offline before the service worker had it): the next toast
    // tries again instead of failing for good.
    toastModule.catch(() => {
      toastModule = undefined;
    });
    for (const listener of listeners) listener();
  }
  return toastModule;
}

/** How many times each toast was raised: its parity sets the 1 ms below. */
const raised = new Map<string, number>();

/**
 * A toast is named by its type and text, so the same message again while it shows is the same toast
 * (its time starts again), never a second copy: six wrong passwords show one 'Invalid email or
 * password', and the lock-out after them is not pushed out of the stack (issue 22). zag's toast
 * starts its time again only when its type or duration changes, and a toast already fading out
 * would take the repeat away with it (a second 'Saved on this device' 5 s after the first showed
 * nothing): each repeat's duration differs from the last by 1 ms, so every repeat restarts it.
 */
const show = (title: string, type: 'success' | 'error' | 'info') =>
  void loadToaster()
    .then(({ toaster, placeToasts, TOAST_MS }) => {
      placeToasts();
      const id = `${type}:${title}`;
      const times = (raised.get(id) ?? 0) + 1;
      raised.set(id, times);
      toaster.create({ id, title, type, duration: TOAST_MS + (times % 2) });
    })
    .catch(() => undefined);

export const notify = {
  success: (title: string) => show(title, 'success'),
  error: (title: string) => show(title, 'error'),
  info: (title: string) => show(title, 'info'),
};

/** Whether the toaster has been asked for (by a toast, or by the idle-time load). */
export function useToasterRequested(): boolean {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => toastModule !== undefined,
  );
}
