import { Outlet, useRouteContext } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { css } from '../../../../styled-system/css';
import { Sidebar } from '../../../components/sidebar';

export function DashboardLayout() {
  const { session } = useRouteContext({ from: '__root__' });
  const user = useSelector(session, (s) => s.context.session?.user ?? null);
  return (
    <div className={css({ minH: '100vh', display: 'flex', flexDirection: { base: 'column', md: 'row' } })}>
      <Sidebar user={user} onLogout={() => session.send({ type: 'session.logout' })} />
      <div className={css({ flex: '1', minW: '0', display: 'flex', flexDirection: 'column' })}>
        <main className={css({ flex: '1' })}>
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
    </div>
  );
}
