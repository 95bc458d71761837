import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { RewardActivity } from '../../../contract/reward-activity';
import { ApiError } from '../../api/client';
import { ACTIVITY_EMPTY, OUTSTANDING_TITLE, RewardActivityPanel } from './reward-activity-panel';

const weeks = (busy: boolean) =>
  Array.from({ length: 12 }, (_, i) => ({
    weekStart: new Date(Date.UTC(2026, 7, 31 + i * 7)).toISOString().slice(0, 10),
    issuedCount: busy ? i + 1 : 0,
    issuedAmount: busy ? (i + 1) * 5_000 : 0,
    redeemedCount: busy && i % 2 === 0 ? 2 : 0,
    redeemedAmount: busy && i % 2 === 0 ? 1_500.5 : 0,
  }));

const activity = (busy: boolean): RewardActivity => ({
  timeZone: 'Africa/Lagos',
  weeks: weeks(busy),
  outstandingGiftcardBalance: 123_456.75,
  outstandingGiftcardCount: 7,
  asOf: '2026-11-22T09:00:00.000Z',
});

/** The panel over a real query whose function resolves, fails or never answers. */
function renderPanel(queryFn: () => Promise<RewardActivity>) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  function Screen() {
    const query = useQuery({ queryKey: ['activity'], queryFn });
    return <RewardActivityPanel query={query} />;
  }
  render(
    <QueryClientProvider client={client}>
      <Screen />
    </QueryClientProvider>,
  );
}

describe('RewardActivityPanel', () => {
  it('loading: a status, no figures yet', () => {
    renderPanel(() => new Promise(() => {}));
    expect(screen.getByRole('status')).toHaveTextContent('Loading charts…');
    expect(screen.queryByRole('group', { name: OUTSTANDING_TITLE })).not.toBeInTheDocument();
  });

  it('error: the server message in an alert', async () => {
    renderPanel(() => Promise.reject(new ApiError(500, 'Database unavailable', [])));
    expect(await screen.findByRole('alert')).toHaveTextContent('Error: Database unavailable');
  });

  it('empty: the balance and a sentence, no chart and no table', async () => {
    renderPanel(async () => activity(false));
    expect(await screen.findByText(ACTIVITY_EMPTY)).toBeInTheDocument();
    expect(screen.getByRole('group', { name: OUTSTANDING_TITLE })).toHaveTextContent('₦123,456.75');
    expect(screen.queryByRole('figure')).not.toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('data: two named, described figures and a table with every week for screen readers', async () => {
    renderPanel(async () => activity(true));
    const count = await screen.findByRole('figure', { name: 'Rewards issued and redeemed per week' });
    expect(count).toHaveAccessibleDescription(/^In the last 12 weeks, 78 rewards were issued \(₦390,000\.00/);
    expect(
      screen.getByRole('figure', { name: 'Gift-card value issued and redeemed per week (₦)' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('group', { name: 'Gift Cards With a Balance' })).toHaveTextContent('7');
    const table = screen.getByRole('table', { name: 'Rewards issued and redeemed per week, oldest first' });
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(13);
    expect(rows[1]).toHaveTextContent('Week of August 31, 2026');
    expect(
      within(rows[1]!)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['1', '₦5,000.00', '2', '₦1,500.50']);
    expect(within(rows[12]!).getByRole('rowheader')).toHaveTextContent('Week of November 16, 2026');
  });
});
