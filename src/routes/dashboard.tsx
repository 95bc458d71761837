import { createFileRoute, redirect } from '@tanstack/react-router';
import { RouteErrorState } from '../components/forbidden-state';
import { isSignedIn } from '../machines/session.machine';
import { DashboardLayout } from './dashboard/-components/dashboard-layout';

export const Route = createFileRoute('/dashboard')({
  beforeLoad: ({ context }) => {
    if (!isSignedIn(context.session)) throw redirect({ to: '/' });
  },
  component: DashboardLayout,
  // Screens without their own: e.g. 'Not available offline' with Retry (issue 17).
  errorComponent: RouteErrorState,
});
