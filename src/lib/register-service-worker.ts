import { Workbox } from 'workbox-window';
import { appUpdate } from './app-update';

/** How often an open console asks the server for a newer service worker (besides each load). */
const UPDATE_CHECK_MS = 60 * 60 * 1000;

/**
 * Registers the service worker vite-plugin-pwa builds (decision 008), with workbox-window rather
 * than the plugin's register module, whose prompt mode reloads every open tab once any one of them
 * accepts the update: here a tab only reloads itself when its user pressed Reload; a tab switched
 * by another one is offered the reload instead. Only boot (src/main.tsx) calls this; the service
 * worker exists in builds, not under `npm run dev`.
 */
export function registerServiceWorker(): void {
  if (import.meta.env.DEV || !('serviceWorker' in navigator)) return;
  const wb = new Workbox(`${import.meta.env.BASE_URL}sw.js`, { scope: import.meta.env.BASE_URL });
  let accepted = false;
  let controlled = navigator.serviceWorker.controller !== null;

  // A newer version is installed and waits: offer it; it takes over only when accepted.
  wb.addEventListener('waiting', () =>
    appUpdate.offer(async () => {
      accepted = true;
      wb.messageSkipWaiting();
    }),
  );
  wb.addEventListener('controlling', () => {
    if (accepted) window.location.reload();
    // The first install claiming this page changes nothing (same build); a switch made from
    // another tab does, so this tab offers the reload instead of doing it.
    else if (controlled) appUpdate.offer(async () => window.location.reload());
    controlled = true;
  });

  void wb
    .register()
    .then((registration) => {
      if (!registration) return;
      setInterval(() => {
        if (navigator.onLine) void registration.update().catch(() => undefined);
      }, UPDATE_CHECK_MS);
    })
    .catch(() => undefined);
}
