import { createRootRouteWithContext, Outlet } from '@tanstack/react-router';
import { NotFoundRedirect } from '../components/not-found-redirect';
import { RouteProgress } from '../components/route-progress';
import { ScreenFrame } from '../components/screen-frame';
import type { RouterContext } from './-router-context';

export const Route = createRootRouteWithContext<RouterContext>()({
  component: RootLayout,
  notFoundComponent: NotFoundRedirect,
});

function RootLayout() {
  return (
    <>
      <RouteProgress />
      <ScreenFrame>
        <Outlet />
      </ScreenFrame>
    </>
  );
}
