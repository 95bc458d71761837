import { Link } from '@tanstack/react-router';
import { type ComponentType, useState } from 'react';
import type { SessionUser } from '../../contract/auth';
import type { PermissionName } from '../../contract/permissions';
import { css } from '../../styled-system/css';
import { can } from '../lib/permissions';
import {
  ActivityIcon,
  BuildingIcon,
  GiftIcon,
  HomeIcon,
  LayersIcon,
  LogoMark,
  LogoutIcon,
  UserIcon,
  UsersIcon,
} from './icons';

interface MenuEntry {
  label: string;
  to:
    | '/dashboard'
    | '/dashboard/staff'
    | '/dashboard/partners'
    | '/dashboard/redeem'
    | '/dashboard/clients'
    | '/dashboard/extservices'
    | '/dashboard/activities';
  permission: PermissionName;
  icon: ComponentType<{ size?: number }>;
}

/**
 * SPEC section 2: the sidebar menu, in order; entries the user may not use are hidden. 'Redeem
 * Reward' (rewards.redeem) sits right after Partner: partner staff, who redeem at the counter, find
 * it next to their partner, and the SPEC order of the other entries is unchanged.
 */
export const MENU: MenuEntry[] = [
  { label: 'Dashboard', to: '/dashboard', permission: 'dashboard.view', icon: HomeIcon },
  { label: 'Staff & Role', to: '/dashboard/staff', permission: 'staff.view', icon: UsersIcon },
  { label: 'Partner', to: '/dashboard/partners', permission: 'partners.view', icon: BuildingIcon },
  { label: 'Redeem Reward', to: '/dashboard/redeem', permission: 'rewards.redeem', icon: GiftIcon },
  { label: 'Client', to: '/dashboard/clients', permission: 'clients.view', icon: UserIcon },
  {
    label: 'Extended Services',
    to: '/dashboard/extservices',
    permission: 'extended_services.view',
    icon: LayersIcon,
  },
  { label: 'Activity Log', to: '/dashboard/activities', permission: 'activities.view', icon: ActivityIcon },
];

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

const collapsible = css({
  display: { base: 'none', md: 'flex' },
  flexDirection: 'column',
  flex: '1',
  gap: '4',
  '&[data-open]': { display: 'flex' },
});

export function Sidebar({ user, onLogout }: { user: SessionUser | null; onLogout: () => void }) {
  // Small screens fold the menu behind a toggle; from md up it is always shown.
  const [open, setOpen] = useState(false);
  return (
    <aside
      className={css({
        position: { base: 'static', md: 'sticky' },
        top: '0',
        h: { base: 'auto', md: '100vh' },
        w: { base: 'full', md: 'sidebar' },
        flexShrink: 0,
        display: 'flex',
        flexDirection: 'column',
        bg: 'brand.900',
        color: 'white',
        px: '4',
        py: '5',
      })}
    >
      <div
        className={css({
          display: 'flex',
          alignItems: 'center',
          gap: '2',
          px: '2',
          mb: { base: '0', md: '8' },
          color: 'white',
        })}
      >
        <LogoMark size={30} />
        <span className={css({ flex: '1', fontWeight: 'bold', fontSize: 'md', letterSpacing: 'tight' })}>
          Reward Club
        </span>
        <button
          type="button"
          aria-expanded={open}
          aria-controls="sidebar-menu"
          onClick={() => setOpen((v) => !v)}
          className={css({
            display: { base: 'inline-flex', md: 'none' },
            px: '3',
            py: '1.5',
            borderRadius: 'md',
            fontSize: 'sm',
            borderWidth: '1px',
            borderColor: 'brand.600',
            cursor: 'pointer',
          })}
        >
          Navigation
        </button>
      </div>
      <div id="sidebar-menu" data-open={open || undefined} className={collapsible}>
        <nav aria-label="Main" className={css({ flex: '1', mt: { base: '4', md: '0' } })}>
          <ul className={css({ display: 'flex', flexDirection: 'column', gap: '1' })}>
            {MENU.filter((entry) => can(user, entry.permission)).map(({ label, to, icon: Icon }) => (
              <li key={to}>
                <Link
                  to={to}
                  className={linkClass}
                  activeOptions={{ exact: to === '/dashboard' }}
                  onClick={() => setOpen(false)}
                >
                  <Icon size={18} />
                  {label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <button type="button" onClick={onLogout} className={linkClass}>
          <LogoutIcon size={18} />
          Logout
        </button>
      </div>
    </aside>
  );
}
