import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import {
  createMemoryHistory,
  createRootRouteWithContext,
  createRoute,
  createRouter,
  Outlet,
  RouterProvider,
} from '@tanstack/react-router';
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { LoginResponse } from '../../../../contract/auth';
import type { Profile } from '../../../../contract/profile';
import type { RewardStats, UserStats } from '../../../../contract/stats';
import { createApiClient, setApiClient } from '../../../api/client';
import { profileKeys } from '../../../api/profile';
import { statsKeys } from '../../../api/stats';
import { Sidebar } from '../../../components/sidebar';
import { sessionMachine } from '../../../machines/session.machine';
import type { RouterContext } from '../../-router-context';
import { DashboardHome, PLACEHOLDER_NAME } from './dashboard-home';

const session: LoginResponse = {
  accessToken: 'a',
  refreshToken: 'r',
  user: {
    id: 1,
    email: 'admin@rewardclub.ng',
    firstName: 'Ada',
    lastName: 'Obi',
    userType: 'ADMIN',
    partnerId: null,
    role: null,
    permissions: ['dashboard.view', 'partners.view', 'activities.view'],
  },
};
const profile: Profile = {
  id: 1,
  email: 'admin@rewardclub.ng',
  firstName: 'Adaeze',
  lastName: 'Okafor',
  phone: null,
  address: null,
  profileImage: null,
  imageUrl: null,
  userType: 'ADMIN',
  role: null,
  permissions: [],
  createdAt: '2026-01-01T00:00:00.000Z',
};
const userStats: UserStats = { totalPartners: 25, totalClients: 1200, totalStaff: 9 };
const rewardStats: RewardStats = {
  totalIssuedGiftcardsCount: 96,
  totalIssuedGiftcardsAmount: 2464000,
  totalRedeemedIssuedGiftcards: 1189600.5,
  totalIssuedCouponsCount: 84,
  totalRedeemedCouponsCount: 22,
  averageCouponDiscount: 17.68,
  couponRedemptionRate: 26.19,
  totalIssuedDiscountedSubscriptions: 60,
  averageDiscountedSubscriptionPercentage: 32.5,
  totalRedeemedDiscountedSubscriptions: 12,
  discountedSubscriptionRedemptionRate: 20,
};

/** Renders a screen inside a real router (memory history) with a seeded query cache. */
async function renderInRouter(ui: () => React.ReactNode, seed: (client: QueryClient) => void = () => {}) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  seed(queryClient);
  const actor = createActor(
    sessionMachine.provide({
      actors: { fetchProfile: fromPromise<Profile, void>(() => new Promise(() => {})) },
    }),
    { input: { restored: session } },
  ).start();
  const root = createRootRouteWithContext<RouterContext>()({ component: Outlet });
  const home = createRoute({ getParentRoute: () => root, path: '/dashboard', component: ui });
  const profileRoute = createRoute({ getParentRoute: () => root, path: '/dashboard/profile' });
  const router = createRouter({
    routeTree: root.addChildren([home, profileRoute]),
    history: createMemoryHistory({ initialEntries: ['/dashboard'] }),
    context: { queryClient, session: actor },
  });
  await router.load();
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { router, actor, queryClient };
}

describe('DashboardHome', () => {
  it('shows the logo spinner and the placeholder name while data loads', async () => {
    // Nothing seeded, and a network that never answers: the queries stay pending.
    const tokens = { accessToken: async () => 'a', rejected: async () => null };
    setApiClient(createApiClient({ tokens, fetch: () => new Promise<Response>(() => {}) }));
    try {
      await renderInRouter(DashboardHome);
      expect(await screen.findByRole('heading', { name: PLACEHOLDER_NAME })).toBeInTheDocument();
      expect(screen.getByRole('status', { name: 'Loading dashboard' })).toBeInTheDocument();
      expect(screen.queryByRole('group', { name: 'Total Partners' })).not.toBeInTheDocument();
    } finally {
      setApiClient(null);
    }
  });

  it('shows the Users and Reward cards in product.md order with formatted values', async () => {
    await renderInRouter(DashboardHome, (client) => {
      client.setQueryData(profileKeys.detail(), profile);
      client.setQueryData(statsKeys.users(), userStats);
      client.setQueryData(statsKeys.reward(), rewardStats);
    });
    expect(await screen.findByRole('heading', { name: 'Adaeze Okafor' })).toBeInTheDocument();
    expect(screen.getByText('Welcome back to the Reward Club Admin')).toBeInTheDocument();

    const users = screen.getByRole('region', { name: 'Users' });
    expect(
      within(users)
        .getAllByRole('group')
        .map((g) => g.getAttribute('aria-label')),
    ).toEqual(['Total Partners', 'Total Clients', 'Total Staff']);
    expect(screen.getByRole('group', { name: 'Total Clients' })).toHaveTextContent('1,200');

    const reward = screen.getByRole('region', { name: 'Reward' });
    expect(
      within(reward)
        .getAllByRole('group')
        .map((g) => g.getAttribute('aria-label')),
    ).toEqual([
      'Total Giftcards Issued',
      'Total Giftcards Amount',
      'Total Redeemed Giftcards',
      'Total Coupons Issued',
      'Total Coupons Redeemed',
      'Average Coupon Discount (%)',
      'Coupon Redemption Rate',
      'Discounted Subscriptions Issued',
      'Avg Discounted Subscription (%)',
      'Discounted Subscriptions Redeemed',
      'Discounted Subscription Redemption Rate',
    ]);
    expect(screen.getByRole('group', { name: 'Total Giftcards Amount' })).toHaveTextContent('₦2,464,000.00');
    expect(screen.getByRole('group', { name: 'Total Redeemed Giftcards' })).toHaveTextContent(
      '₦1,189,600.50',
    );
    expect(screen.getByRole('group', { name: 'Average Coupon Discount (%)' })).toHaveTextContent('17.68%');
    expect(screen.getByRole('group', { name: 'Discounted Subscription Redemption Rate' })).toHaveTextContent(
      '20.00%',
    );
  });
});

describe('Sidebar', () => {
  it('hides the entries the user may not view and keeps Logout', async () => {
    await renderInRouter(() => <Sidebar user={session.user} onLogout={() => {}} />);
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual(['Dashboard', 'Partner', 'Activity Log']);
    expect(screen.getByRole('button', { name: 'Logout' })).toBeInTheDocument();
  });

  it('shows the whole menu in product.md order to a user with every view permission', async () => {
    const all = ['dashboard', 'staff', 'partners', 'clients', 'extended_services', 'activities'].map(
      (g) => `${g}.view`,
    );
    await renderInRouter(() => <Sidebar user={{ ...session.user, permissions: all }} onLogout={() => {}} />);
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual(['Dashboard', 'Staff & Role', 'Partner', 'Client', 'Extended Services', 'Activity Log']);
  });

  it('adds Redeem Reward after Partner for a user who may redeem', async () => {
    const permissions = ['dashboard.view', 'partners.view', 'clients.view', 'rewards.redeem'];
    await renderInRouter(() => <Sidebar user={{ ...session.user, permissions }} onLogout={() => {}} />);
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual(['Dashboard', 'Partner', 'Redeem Reward', 'Client']);
    expect(within(nav).getByRole('link', { name: 'Redeem Reward' })).toHaveAttribute(
      'href',
      '/dashboard/redeem',
    );
  });

  it('shows Redeem Reward alone to partner staff who may only redeem', async () => {
    await renderInRouter(() => (
      <Sidebar user={{ ...session.user, permissions: ['rewards.redeem'] }} onLogout={() => {}} />
    ));
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual(['Redeem Reward']);
  });
});
