import { createFileRoute, Link, redirect, useRouteContext } from '@tanstack/react-router';
import { forgotPasswordLinkClass } from '../components/sign-in-form';
import { isSignedIn } from '../machines/session.machine';
import { SignInScreen } from './-components/sign-in-screen';

export const Route = createFileRoute('/')({
  beforeLoad: ({ context }) => {
    // A user already present in the session goes straight to the dashboard.
    if (isSignedIn(context.session)) throw redirect({ to: '/dashboard' });
  },
  component: SignInRoute,
});

function SignInRoute() {
  const { session } = useRouteContext({ from: '__root__' });
  return (
    <SignInScreen
      session={session}
      footer={
        <Link to="/forgot-password" className={forgotPasswordLinkClass}>
          Forgot password?
        </Link>
      }
    />
  );
}
