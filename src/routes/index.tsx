import { createFileRoute, redirect } from '@tanstack/react-router';
import { isSignedIn } from '../machines/session.machine';
import { SignInScreen } from './-components/sign-in-screen';

export const Route = createFileRoute('/')({
  beforeLoad: ({ context }) => {
    // A user already present in the session goes straight to the dashboard.
    if (isSignedIn(context.session)) throw redirect({ to: '/dashboard' });
  },
  component: SignInScreen,
});
