import { useRouteContext } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { css } from '../../styled-system/css';
import { SignInForm } from './sign-in-form';
import { Dialog } from './ui/dialog';

export const LOCKED_HEADING = 'Your session has ended';

/**
 * Issue 17: the session expired while changes were saved on this device. They are kept; the user
 * signs in again here, over the screen they were on. The same user goes on (the changes are sent);
 * another user signing in gets a clean device (the changes are discarded, and the screen says so).
 */
export function SessionLockDialog() {
  const { session } = useRouteContext({ from: '__root__' });
  const locked = useSelector(session, (s) => (s.matches('locked') ? s.context.locked : null));
  const submitting = useSelector(
    session,
    (s) => s.matches({ locked: 'loading' }) || s.matches({ locked: 'switching' }),
  );
  const queued = locked?.queued ?? 0;
  return (
    <Dialog open={locked !== null} onOpenChange={() => {}} title={LOCKED_HEADING} closable={false}>
      <p className={css({ fontSize: 'sm', color: 'fg.muted', mb: '4' })}>
        {queued === 1 ? '1 change is' : `${queued} changes are`} saved on this device and not sent yet. Sign
        in again as {locked?.user.email} to send {queued === 1 ? 'it' : 'them'}.
      </p>
      <SignInForm
        submitting={submitting}
        onSubmit={(credentials) => session.send({ type: 'session.signIn', credentials })}
      />
    </Dialog>
  );
}
