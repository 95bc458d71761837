import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import type { SessionUser } from '../../contract/auth';
import { css, cx } from '../../styled-system/css';
import { button } from '../../styled-system/recipes';
import { can } from '../lib/permissions';
import { BuildingIcon, GiftIcon, LayersIcon, LogoMark, LogoutIcon, MenuIcon, UserIcon } from './icons';
import { MENU, mayOpen } from './screens';
import { Drawer } from './ui/drawer';

const linkClass = css({
  display: 'flex',
  alignItems: 'center',
  gap: '3',
  px: '3',
  py: '2.5',
  borderRadius: 'md',
  fontSize: 'sm',
  fontWeight: 'medium',
  color: 'brand.100',
  transition: 'background 0.15s, color 0.15s',
  _hover: { bg: 'brand.800', color: 'white' },
  '&[data-status=active]': { bg: 'white', color: 'brand.800', boxShadow: 'card' },
  _focusVisible: { outline: '2px solid', outlineColor: 'brand.200', outlineOffset: '1px' },
});

export function Sidebar({ user, onLogout }: { user: SessionUser | null; onLogout: () => void }) {
  return (
    <>
      {/* md and up: the sidebar, always shown. */}
      <aside
        className={css({
          display: { base: 'none', md: 'flex' },
          position: 'sticky',
          top: '0',
          h: '100vh',
          w: 'sidebar',
          flexShrink: 0,
          flexDirection: 'column',
          gap: '8',
          bg: 'brand.900',
          color: 'white',
          px: '4',
          py: '5',
        })}
      >
        <Brand />
        <MenuLinks user={user} onLogout={onLogout} />
      </aside>
      {/* Small screens: a bar with a Menu button that opens the same menu as a drawer. */}
      <MobileMenuBar user={user} onLogout={onLogout} />
    </>
  );
}

function Brand() {
  return (
    <div className={css({ display: 'flex', alignItems: 'center', gap: '2', px: '2', color: 'white' })}>
      <LogoMark size={30} />
      <span className={css({ fontWeight: 'bold', fontSize: 'md', letterSpacing: 'tight' })}>Reward Club</span>
    </div>
  );
}

function MenuLinks({
  user,
  onLogout,
  onNavigate,
}: {
  user: SessionUser | null;
  onLogout: () => void;
  onNavigate?: () => void;
}) {
  return (
    <>
      <nav aria-label="Main" className={css({ flex: '1' })}>
        {user?.partnerId != null ? (
          <PartnerMenu user={user} partnerId={user.partnerId} onNavigate={onNavigate} />
        ) : (
          <ul className={css({ display: 'flex', flexDirection: 'column', gap: '1' })}>
            {/* The club menu: the screens' entries (screens.ts), those the user may open. */}
            {MENU.filter((entry) => mayOpen(user, entry.screen)).map(({ label, to, icon: Icon }) => (
              <li key={to}>
                <Link
                  to={to}
                  className={linkClass}
                  activeOptions={{ exact: to === '/dashboard' }}
                  onClick={onNavigate}
                >
                  <Icon size={18} />
                  {label}
                </Link>
              </li>
            ))}
          </ul>
        )}
      </nav>
      <button
        type="button"
        onClick={() => {
          onNavigate?.();
          onLogout();
        }}
        className={linkClass}
      >
        <LogoutIcon size={18} />
        Logout
      </button>
    </>
  );
}

/**
 * Partner staff's menu (issue 16): only what they can do at their own partner — its page (their
 * workspace), Redeem Reward, Issue Reward (the partner's Eligible users) and their Profile.
 */
function PartnerMenu({
  user,
  partnerId,
  onNavigate,
}: {
  user: SessionUser;
  partnerId: number;
  onNavigate?: (() => void) | undefined;
}) {
  return (
    <ul className={css({ display: 'flex', flexDirection: 'column', gap: '1' })}>
      <li>
        <Link
          to="/dashboard/partners/$partnerId"
          params={{ partnerId }}
          className={linkClass}
          activeOptions={{ includeSearch: false }}
          onClick={onNavigate}
        >
          <BuildingIcon size={18} />
          My Partner
        </Link>
      </li>
      {mayOpen(user, '/dashboard/redeem/') ? (
        <li>
          <Link to="/dashboard/redeem" className={linkClass} onClick={onNavigate}>
            <GiftIcon size={18} />
            Redeem Reward
          </Link>
        </li>
      ) : null}
      {can(user, 'rewards.issue') ? (
        <li>
          <Link
            to="/dashboard/partners/$partnerId"
            params={{ partnerId }}
            search={{ activeTab: 'eligible' }}
            className={linkClass}
            activeOptions={{ exact: true, includeSearch: true }}
            onClick={onNavigate}
          >
            <LayersIcon size={18} />
            Issue Reward
          </Link>
        </li>
      ) : null}
      <li>
        <Link to="/dashboard/profile" className={linkClass} onClick={onNavigate}>
          <UserIcon size={18} />
          Profile
        </Link>
      </li>
    </ul>
  );
}

function MobileMenuBar({ user, onLogout }: { user: SessionUser | null; onLogout: () => void }) {
  const [open, setOpen] = useState(false);
  return (
    <div
      className={css({
        display: { base: 'flex', md: 'none' },
        alignItems: 'center',
        justifyContent: 'space-between',
        gap: '3',
        bg: 'brand.900',
        color: 'white',
        px: '4',
        py: '3',
      })}
    >
      <Brand />
      <Drawer
        open={open}
        onOpenChange={setOpen}
        title={
          <>
            <LogoMark size={26} />
            Reward Club
          </>
        }
        trigger={
          <button
            type="button"
            aria-label="Open menu"
            className={cx(button({ variant: 'inverse' }), css({ px: '3', fontWeight: 'medium' }))}
          >
            <MenuIcon size={20} />
            Menu
          </button>
        }
      >
        <MenuLinks user={user} onLogout={onLogout} onNavigate={() => setOpen(false)} />
      </Drawer>
    </div>
  );
}
