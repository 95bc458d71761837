import { useRouteContext } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { AuthShell } from '../../components/auth-shell';
import { ForgotPasswordLink, SignInForm } from './sign-in-form';

export function SignInScreen() {
  const { session } = useRouteContext({ from: '__root__' });
  const submitting = useSelector(session, (s) => s.matches({ signedOut: 'loading' }));
  return (
    <AuthShell heading="Welcome, enter details to continue">
      <SignInForm
        submitting={submitting}
        onSubmit={(credentials) => session.send({ type: 'session.signIn', credentials })}
        footer={<ForgotPasswordLink />}
      />
    </AuthShell>
  );
}
