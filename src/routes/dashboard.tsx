import { createFileRoute, redirect } from '@tanstack/react-router';
import { isSignedIn } from '../machines/session.machine';
import { DashboardLayout } from './dashboard/-components/dashboard-layout';

export const Route = createFileRoute('/dashboard')({
  beforeLoad: ({ context }) => {
    if (!isSignedIn(context.session)) throw redirect({ to: '/' });
  },
  component: DashboardLayout,
});
