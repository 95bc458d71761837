import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { PermissionName } from '../../contract/permissions';
import { renderInApp } from '../../tests/setup/render-in-app';
import { setApiClient } from '../api/client';
import { Sidebar } from './sidebar';

const PARTNER_STAFF = [
  'dashboard.view',
  'visits.view',
  'visits.create',
  'rewards.view',
  'rewards.issue',
  'rewards.redeem',
] as const;

afterEach(() => setApiClient(null));

const user = (partnerId: number | null, permissions: readonly string[]) => ({
  id: 1,
  email: 'segun@ekogrill.ng',
  firstName: 'Segun',
  lastName: 'Adeyemi',
  userType: partnerId ? ('PARTNER' as const) : ('ADMIN' as const),
  partnerId,
  role: null,
  permissions: [...permissions],
});

describe('Sidebar (issue 16)', () => {
  it('offers partner staff only their partner, Redeem, Issue reward and Profile', async () => {
    await renderInApp(<Sidebar user={user(7, PARTNER_STAFF)} onLogout={() => {}} />, {
      permissions: [...PARTNER_STAFF],
      partnerId: 7,
    });
    const nav = (await screen.findAllByRole('navigation', { name: 'Main' }))[0]!;
    const links = within(nav).getAllByRole('link');
    expect(links.map((l) => l.textContent)).toEqual([
      'My Partner',
      'Redeem Reward',
      'Issue Reward',
      'Profile',
    ]);
    expect(links[0]).toHaveAttribute('href', '/dashboard/partners/7');
    expect(links[2]).toHaveAttribute('href', '/dashboard/partners/7?activeTab=eligible');
  });

  it('even partner staff holding every permission get no club entries', async () => {
    const all = ['staff.view', 'partners.view', 'clients.view', 'activities.view', ...PARTNER_STAFF];
    await renderInApp(<Sidebar user={user(7, all)} onLogout={() => {}} />, {
      permissions: [],
      partnerId: 7,
    });
    const nav = (await screen.findAllByRole('navigation', { name: 'Main' }))[0]!;
    for (const club of ['Dashboard', 'Staff & Role', 'Partner', 'Client', 'Activity Log'])
      expect(within(nav).queryByRole('link', { name: club })).toBeNull();
  });

  it('offers Club API keys to the Super Admin only, not to a role holding every permission', async () => {
    const all: PermissionName[] = ['dashboard.view', 'clients.view', 'integrations.manage'];
    const superAdmin = { ...user(null, all), role: { id: 1, name: 'Super Admin', builtIn: true } };
    const { unmount } = await renderInApp(<Sidebar user={superAdmin} onLogout={() => {}} />, {
      permissions: all,
    });
    const nav = (await screen.findAllByRole('navigation', { name: 'Main' }))[0]!;
    expect(within(nav).getByRole('link', { name: 'Club API keys' })).toHaveAttribute(
      'href',
      '/dashboard/club-keys',
    );
    unmount();
    const integrator = { ...user(null, all), role: { id: 2, name: 'Integrators', builtIn: false } };
    await renderInApp(<Sidebar user={integrator} onLogout={() => {}} />, { permissions: all });
    const other = (await screen.findAllByRole('navigation', { name: 'Main' }))[0]!;
    expect(within(other).getByRole('link', { name: 'Webhooks' })).toBeInTheDocument();
    expect(within(other).queryByRole('link', { name: 'Club API keys' })).toBeNull();
  });

  it('keeps the club menu for club staff', async () => {
    await renderInApp(
      <Sidebar user={user(null, ['dashboard.view', 'partners.view'])} onLogout={() => {}} />,
      {
        permissions: ['dashboard.view', 'partners.view'],
      },
    );
    const nav = (await screen.findAllByRole('navigation', { name: 'Main' }))[0]!;
    expect(
      within(nav)
        .getAllByRole('link')
        .map((l) => l.textContent),
    ).toEqual(['Dashboard', 'Partner']);
  });
});
