import { useSelector } from '@xstate/react';
import { type ReactNode, useState } from 'react';
import { AuthShell } from '../../components/auth-shell';
import { SignInForm } from '../../components/sign-in-form';
import { earlySignIn } from '../../lib/early-sign-in';
import type { SessionActor } from '../../machines/session.machine';

export const SIGN_IN_HEADING = 'Welcome, enter details to continue';

/**
 * The sign-in screen. It needs no router (decision 061): the route '/' renders it with the router's
 * forgot-password link, and the prerendered first visit renders it before the router has loaded.
 */
export function SignInScreen({ session, footer }: { session: SessionActor; footer: ReactNode }) {
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
        footer={footer}
      />
    </AuthShell>
  );
}
