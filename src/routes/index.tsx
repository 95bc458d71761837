import { createFileRoute, Link, redirect, useRouteContext } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { forgotPasswordLinkClass } from '../components/sign-in-form';
import { isSignedIn, signInBusy } from '../machines/session.machine';
import { SignInScreen } from './-components/sign-in-screen';

export const Route = createFileRoute('/')({
  // The sign-in screen is not split off into a chunk of its own: a sign-out must reach it with no
  // network (offline, before the service worker holds the app), and a chunk that cannot be fetched
  // makes the router reload the page, an error page offline. Its code is the boot's anyway
  // (src/main.tsx shows it without the router on a first visit); the route adds a few lines.
  codeSplitGroupings: [['errorComponent', 'notFoundComponent', 'pendingComponent']],
  beforeLoad: ({ context }) => {
    // A user already present in the session goes straight to the dashboard.
    if (isSignedIn(context.session)) throw redirect({ to: '/dashboard' });
  },
  component: SignInRoute,
});

function SignInRoute() {
  const { session } = useRouteContext({ from: '__root__' });
  const submitting = useSelector(session, signInBusy);
  return (
    <SignInScreen
      submitting={submitting}
      onSubmit={(credentials) => session.send({ type: 'session.signIn', credentials })}
      footer={
        <Link to="/forgot-password" className={forgotPasswordLinkClass}>
          Forgot password?
        </Link>
      }
    />
  );
}
