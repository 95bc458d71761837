import { useEffect, useState } from 'react';
import { loadToaster, type ToastModule, useToasterRequested } from './notify';

/**
 * The app's <Toaster>, rendered once the toaster has been asked for (see ./notify). Not React.lazy:
 * a chunk that cannot be fetched (offline before the service worker had it) must leave the screen
 * as it is, not throw into the route's error boundary; the next toast tries again.
 */
export function LazyToaster() {
  const requested = useToasterRequested();
  const [toastModule, setToastModule] = useState<ToastModule | null>(null);
  useEffect(() => {
    if (!requested || toastModule) return;
    let current = true;
    loadToaster()
      .then((loaded) => {
        if (current) setToastModule(loaded);
      })
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [requested, toastModule]);
  return toastModule ? <toastModule.AppToaster /> : null;
}
