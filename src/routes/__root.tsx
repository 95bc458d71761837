import { createRootRouteWithContext, Outlet } from '@tanstack/react-router';
import { NotFoundRedirect } from '../components/not-found-redirect';
import { OfflineBanner } from '../components/offline-banner';
import { RouteProgress } from '../components/route-progress';
import { LazyToaster } from '../components/ui/lazy-toaster';
import { UpdatePrompt } from '../components/update-prompt';
import type { RouterContext } from './-router-context';

export const Route = createRootRouteWithContext<RouterContext>()({
  component: RootLayout,
  notFoundComponent: NotFoundRedirect,
});

function RootLayout() {
  return (
    <>
      <RouteProgress />
      <OfflineBanner />
      <Outlet />
      <LazyToaster />
      <UpdatePrompt />
    </>
  );
}
