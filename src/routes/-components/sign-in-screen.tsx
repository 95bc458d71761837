import { useRouteContext } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { AuthShell } from '../../components/auth-shell';
import { ForgotPasswordLink, SignInForm } from '../../components/sign-in-form';
import { earlySignIn } from '../../lib/early-sign-in';

export const SIGN_IN_HEADING = 'Welcome, enter details to continue';

export function SignInScreen() {
  const { session } = useRouteContext({ from: '__root__' });
  // Busy from the press until the screen is left: signed in, the dashboard is on its way (on a slow
  // link its files can take a while), and the button must not come back meanwhile.
  const submitting = useSelector(
    session,
    (s) => s.matches({ signedOut: 'loading' }) || s.matches('signedIn'),
  );
  // What was typed on the prerendered copy before the app was there (decision 061), if any.
  const [early] = useState(earlySignIn);
  return (
    <AuthShell heading={SIGN_IN_HEADING}>
      <SignInForm
        submitting={submitting}
        early={early}
        onSubmit={(credentials) => session.send({ type: 'session.signIn', credentials })}
        footer={<ForgotPasswordLink />}
      />
    </AuthShell>
  );
}
