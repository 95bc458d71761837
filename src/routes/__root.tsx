import { createRootRouteWithContext, Outlet } from '@tanstack/react-router';
import { NotFoundRedirect } from '../components/not-found-redirect';
import { AppToaster } from '../components/ui/toast';
import type { RouterContext } from '../lib/router-context';

export const Route = createRootRouteWithContext<RouterContext>()({
  component: RootLayout,
  notFoundComponent: NotFoundRedirect,
});

function RootLayout() {
  return (
    <>
      <Outlet />
      <AppToaster />
    </>
  );
}
