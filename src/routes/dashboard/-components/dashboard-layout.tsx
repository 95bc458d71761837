import { Outlet, useRouteContext } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { css } from '../../../../styled-system/css';
import { OutboxProvider } from '../../../components/outbox-provider';
import {
  OutboxConflictDialog,
  PendingChangesBar,
  SignOutGuard,
  useSignOut,
} from '../../../components/pending-changes';
import { SessionLockDialog } from '../../../components/session-lock-dialog';
import { Sidebar } from '../../../components/sidebar';

export function DashboardLayout() {
  const { session } = useRouteContext({ from: '__root__' });
  const userId = useSelector(session, (s) => s.context.session?.user.id ?? null);
  // Signing out: the screen goes to / at once; nothing of the user is shown meanwhile.
  if (userId === null) return null;
  // The outbox of the signed-in user: changes saved on this device, sent when the network returns.
  return (
    <OutboxProvider key={userId} userId={userId}>
      <SignOutGuard signOut={() => session.send({ type: 'session.logout' })}>
        <DashboardFrame />
      </SignOutGuard>
    </OutboxProvider>
  );
}

function DashboardFrame() {
  const { session } = useRouteContext({ from: '__root__' });
  const user = useSelector(session, (s) => s.context.session?.user ?? null);
  const signOut = useSignOut(() => session.send({ type: 'session.logout' }));
  return (
    <div className={css({ minH: '100vh', display: 'flex', flexDirection: { base: 'column', md: 'row' } })}>
      <Sidebar user={user} onLogout={signOut} />
      <div className={css({ flex: '1', minW: '0', display: 'flex', flexDirection: 'column' })}>
        <PendingChangesBar />
        {/* At least a screen tall: the footer starts below the fold, so content arriving after the
            first paint never pushes a visible footer down (a layout shift, issue 7). */}
        <main className={css({ flex: '1', minH: '100vh' })}>
          <Outlet />
        </main>
        <footer
          className={css({
            px: { base: '4', md: '8' },
            py: '4',
            fontSize: 'xs',
            color: 'fg.muted',
            borderTopWidth: '1px',
            borderColor: 'border.default',
          })}
        >
          © {new Date().getFullYear()} Reward Club. All rights reserved.
        </footer>
      </div>
      <OutboxConflictDialog />
      <SessionLockDialog />
    </div>
  );
}
