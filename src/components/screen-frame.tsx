import type { ReactNode } from 'react';
import { OfflineBanner } from './offline-banner';
import { LazyToaster } from './ui/lazy-toaster';
import { UpdatePrompt } from './update-prompt';

/**
 * What every screen has around it: the offline banner above, the toasts and the update prompt over
 * it. One frame for the router's screens (src/routes/__root.tsx) and the first visit's sign-in screen,
 * which renders before the router has loaded (src/main.tsx, decisions 061 and 072): a person on a dead
 * link sees the same banner there. Needs no router and no query client.
 */
export function ScreenFrame({ children }: { children: ReactNode }) {
  return (
    <>
      <OfflineBanner />
      {children}
      <LazyToaster />
      <UpdatePrompt />
    </>
  );
}
