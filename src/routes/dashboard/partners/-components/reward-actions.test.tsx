import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import {
  createMemoryHistory,
  createRootRouteWithContext,
  createRoute,
  createRouter,
  Outlet,
  RouterProvider,
} from '@tanstack/react-router';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { PermissionName } from '../../../../../contract/permissions';
import type { Reward } from '../../../../../contract/rewards';
import type { EligibleUser, PointsEligibleUser } from '../../../../../contract/visits';
import { envelope, fakeApi, listEnvelope, signedInActor } from '../../../../../tests/setup/render-in-app';
import { setApiClient } from '../../../../api/client';
import type { RouterContext } from '../../../-router-context';
import { PartnerEligibleTab } from './partner-eligible-tab';
import { PartnerRewardsTab } from './partner-rewards-tab';
import { partnerDetailSearchSchema } from './partner-search';
import { POINTS_DIALOG_TITLE } from './points-eligible-dialog';
import { ISSUE_DIALOG_TITLE } from './reward-actions';

const PARTNER_ID = 3;

const eligible: EligibleUser[] = [
  {
    user: { id: 42, firstName: 'Ngozi', lastName: 'Eze' },
    totalSpent: 12500,
    isEligible: true,
    rewardType: 'GIFTCARD',
    message: 'Spent ₦12,500.00 of ₦10,000.00',
  },
  {
    user: { id: 43, firstName: 'Tunde', lastName: 'Bello' },
    totalSpent: 4000,
    isEligible: false,
    rewardType: null,
    message: 'Spent ₦4,000.00 of ₦10,000.00',
  },
];
const points: PointsEligibleUser[] = [
  { id: 44, name: 'Chidi Okeke', email: 'chidi@mail.ng', totalUnclaimedPoints: 150 },
];

const reward = (id: number, rewardType: Reward['rewardType'], status: Reward['status']): Reward => ({
  id,
  user: { id: 42, firstName: 'Ngozi', lastName: 'Eze' },
  partner: { id: PARTNER_ID, organizationName: 'Mama Put Kitchen' },
  rewardType,
  rewardTypeCategory: 'GENERAL',
  code: `${rewardType === 'GIFTCARD' ? 'GC' : 'CP'}-${id}`,
  title: 'Welcome gift',
  description: 'Thanks',
  promotionalImage: null,
  expiryDate: null,
  issuedAmount: rewardType === 'GIFTCARD' ? 5000 : null,
  percentageDiscount: rewardType === 'COUPON' ? 10 : null,
  balance: rewardType === 'GIFTCARD' ? 5000 : null,
  status,
  issuedTo: 42,
  createdAt: '2026-03-01T10:00:00.000Z',
});
const rewards = [
  reward(11, 'GIFTCARD', 'Active'),
  reward(12, 'COUPON', 'Redeemed'),
  reward(13, 'COUPON', 'Expired'),
];

/** The fake server: the lists these tabs read, and a record of every call made. */
const fakeServer = () =>
  fakeApi((_method, path) => {
    if (path.endsWith('/reward-eligible-users')) return listEnvelope(eligible);
    if (path.endsWith('/eligible-users-bypoints')) return listEnvelope(points);
    if (path.endsWith('/admin/partners/rewards')) return listEnvelope(rewards);
    if (path.endsWith('/reward-types')) return envelope(['GIFTCARD', 'COUPON']);
    if (path.endsWith('/reward-type-categories')) return envelope(['GENERAL']);
    return undefined;
  });

async function renderTab(tab: 'eligible' | 'rewards', permissions: PermissionName[]) {
  const calls = fakeServer();
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const actor = signedInActor({ permissions });
  const root = createRootRouteWithContext<RouterContext>()({ component: Outlet });
  const partner = createRoute({ getParentRoute: () => root, path: 'dashboard/partners/$partnerId' });
  const detail = createRoute({
    getParentRoute: () => partner,
    path: '/',
    validateSearch: partnerDetailSearchSchema,
    component: () =>
      tab === 'eligible' ? (
        <PartnerEligibleTab partnerId={PARTNER_ID} />
      ) : (
        <PartnerRewardsTab partnerId={PARTNER_ID} />
      ),
  });
  const destination = (path: string, text: string) =>
    createRoute({ getParentRoute: () => root, path, component: () => <p>{text}</p> });
  const router = createRouter({
    routeTree: root.addChildren([
      partner.addChildren([detail]),
      destination('/dashboard/eligibility', 'Eligibility screen'),
      destination('/dashboard/rewards', 'Rewards screen'),
      destination('/dashboard/eligibility/user/$userId', 'Eligible user'),
    ]),
    history: createMemoryHistory({ initialEntries: [`/dashboard/partners/${PARTNER_ID}?activeTab=${tab}`] }),
    context: { queryClient, session: actor },
  });
  await router.load();
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { router, calls };
}

afterEach(() => setApiClient(null));

describe('Eligible users tab: Issue Reward', () => {
  it('offers Issue Reward on eligible rows only, with rewards.issue', async () => {
    await renderTab('eligible', ['visits.view', 'rewards.issue']);
    const table = await screen.findByRole('table', { name: 'Eligible users' });
    const ngozi = (await within(table).findByText('Ngozi Eze')).closest('tr') as HTMLElement;
    const tunde = within(table).getByText('Tunde Bello').closest('tr') as HTMLElement;
    expect(within(ngozi).getByRole('button', { name: 'Issue Reward to Ngozi Eze' })).toBeInTheDocument();
    expect(within(tunde).queryByRole('button', { name: /Issue Reward/ })).toBeNull();
  });

  it('has no Issue Reward without rewards.issue, in the tab or the points modal', async () => {
    const user = userEvent.setup();
    await renderTab('eligible', ['visits.view']);
    const table = await screen.findByRole('table', { name: 'Eligible users' });
    await within(table).findByText('Ngozi Eze');
    expect(screen.queryByRole('button', { name: /Issue Reward/ })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'By Points Accumulated' }));
    const dialog = await screen.findByRole('dialog', { name: POINTS_DIALOG_TITLE });
    await within(dialog).findByText('Chidi Okeke');
    expect(within(dialog).queryByRole('button', { name: /Issue Reward/ })).toBeNull();
  });

  it('opens the Issue Reward form for that customer in the dialog', async () => {
    const user = userEvent.setup();
    await renderTab('eligible', ['visits.view', 'rewards.issue']);
    await user.click(await screen.findByRole('button', { name: 'Issue Reward to Ngozi Eze' }));
    const dialog = await screen.findByRole('dialog', { name: ISSUE_DIALOG_TITLE });
    expect(within(dialog).getByText('Ngozi Eze')).toBeInTheDocument();
    expect(within(dialog).getByRole('form', { name: 'Issue reward' })).toBeInTheDocument();
    // The category choices come from the server's list.
    await waitFor(() =>
      expect(
        within(within(dialog).getByLabelText('Reward category (optional)'))
          .getAllByRole('option')
          .map((o) => (o as HTMLOptionElement).value),
      ).toEqual(['', 'GENERAL']),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: ISSUE_DIALOG_TITLE })).toBeNull());
  });

  it('the points modal gives way to the Issue Reward form for a points customer', async () => {
    const user = userEvent.setup();
    await renderTab('eligible', ['visits.view', 'rewards.issue']);
    await user.click(await screen.findByRole('button', { name: 'By Points Accumulated' }));
    const points = await screen.findByRole('dialog', { name: POINTS_DIALOG_TITLE });
    await user.click(await within(points).findByRole('button', { name: 'Issue Reward to Chidi Okeke' }));
    const dialog = await screen.findByRole('dialog', { name: ISSUE_DIALOG_TITLE });
    expect(within(dialog).getByText(/claiming their unclaimed points/)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: POINTS_DIALOG_TITLE })).toBeNull());
  });
});

describe('Rewards tab: Redeem', () => {
  it('offers Redeem on Active rewards only, with rewards.redeem', async () => {
    await renderTab('rewards', ['rewards.view', 'rewards.redeem']);
    const table = await screen.findByRole('table', { name: 'Rewards' });
    await within(table).findAllByText('Ngozi Eze');
    expect(
      within(table)
        .getAllByRole('button', { name: /^Redeem/ })
        .map((b) => b.getAttribute('aria-label')),
    ).toEqual(['Redeem GC-11']);
  });

  it('has no Redeem without rewards.redeem', async () => {
    await renderTab('rewards', ['rewards.view']);
    const table = await screen.findByRole('table', { name: 'Rewards' });
    await within(table).findAllByText('Ngozi Eze');
    expect(within(table).queryByRole('button', { name: /^Redeem/ })).toBeNull();
  });

  it('offline, Redeem says the network is needed and sends nothing', async () => {
    const user = userEvent.setup();
    const { calls } = await renderTab('rewards', ['rewards.view', 'rewards.redeem']);
    await screen.findByRole('button', { name: 'Redeem GC-11' });
    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => false });
    try {
      const before = calls.length;
      await user.click(screen.getByRole('button', { name: 'Redeem GC-11' }));
      const dialog = await screen.findByRole('dialog', { name: 'Redeem gift card' });
      expect(within(dialog).getByRole('alert')).toHaveTextContent(/needs a network connection/);
      expect(calls.slice(before).filter((c) => c.startsWith('POST'))).toEqual([]);
    } finally {
      // The own property goes; the prototype's getter (online) answers again.
      delete (navigator as { onLine?: boolean }).onLine;
    }
  });
});
