import { useRouteContext } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { AuthShell } from '../../components/auth-shell';
import { ForgotPasswordLink, SignInForm } from '../../components/sign-in-form';

export const SIGN_IN_HEADING = 'Welcome, enter details to continue';

export function SignInScreen() {
  const { session } = useRouteContext({ from: '__root__' });
  const submitting = useSelector(session, (s) => s.matches({ signedOut: 'loading' }));
  return (
    <AuthShell heading={SIGN_IN_HEADING}>
      <SignInForm
        submitting={submitting}
        onSubmit={(credentials) => session.send({ type: 'session.signIn', credentials })}
        footer={<ForgotPasswordLink />}
      />
    </AuthShell>
  );
}
