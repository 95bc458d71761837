import { type ReactNode, useState } from 'react';
import type { LoginBody } from '../../../contract/auth';
import { AuthShell } from '../../components/auth-shell';
import { SignInForm } from '../../components/sign-in-form';
import { earlySignIn } from '../../lib/early-sign-in';

export const SIGN_IN_HEADING = 'Welcome, enter details to continue';

/**
 * The sign-in screen. It needs no router (decision 061) and no session machine (decision 072): the
 * route '/' renders it with the router's forgot-password link and the session's busy state, and the
 * prerendered first visit renders it before the router and the session have loaded (src/main.tsx).
 */
export function SignInScreen({
  submitting,
  onSubmit,
  footer,
}: {
  /** Busy from the press until the screen is left (`signInBusy` of the session machine). */
  submitting: boolean;
  onSubmit: (credentials: LoginBody) => void;
  footer: ReactNode;
}) {
  // What was typed on the prerendered copy before the app was there (decision 061), if any.
  const [early] = useState(earlySignIn);
  return (
    <AuthShell heading={SIGN_IN_HEADING}>
      <SignInForm submitting={submitting} early={early} onSubmit={onSubmit} footer={footer} />
    </AuthShell>
  );
}
