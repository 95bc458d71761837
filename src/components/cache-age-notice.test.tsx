import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, NETWORK_ERROR } from '../api/client';
import { AppDb } from '../db/app-db';
import { createQueryPersistence } from '../lib/query-persister';
import { ageInWords } from './cache-age-notice';
import { PageHeader } from './page-header';

const db = new AppDb('reward-club-admin-cache-age-test');

afterEach(async () => {
  vi.useRealTimers();
  await db.delete();
  await db.open();
});

const MINUTE = 60_000;

describe('ageInWords', () => {
  it('says how old saved data is', () => {
    const now = Date.parse('2026-11-22T12:00:00Z');
    expect(ageInWords(now - 20_000, now)).toBe('less than a minute ago');
    expect(ageInWords(now - MINUTE, now)).toBe('1 minute ago');
    expect(ageInWords(now - 5 * MINUTE - 30_000, now)).toBe('5 minutes ago');
    expect(ageInWords(now - 3 * 60 * MINUTE, now)).toBe('3 hours ago');
    expect(ageInWords(now - 2 * 24 * 60 * MINUTE, now)).toBe('2 days ago');
  });
});

const PARTNERS = ['partners', 'list'] as const;

function clientFor() {
  const persistence = createQueryPersistence({ db, currentUserId: () => 1, appBuild: 'test' });
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, networkMode: 'offlineFirst', persister: persistence.persisterFn },
    },
  });
}

function PartnersScreen({ queryFn }: { queryFn: () => Promise<string[]> }) {
  const list = useQuery({ queryKey: PARTNERS, queryFn });
  return (
    <>
      <PageHeader title="Partners" />
      <ul>
        {list.data?.map((name) => (
          <li key={name}>{name}</li>
        ))}
      </ul>
    </>
  );
}

describe('CacheAgeNotice in the page header', () => {
  it('shows how old restored data is, and goes once fresh data arrives', async () => {
    // Five minutes ago the list was fetched and stored.
    const seen = clientFor();
    await seen.fetchQuery({
      queryKey: PARTNERS,
      queryFn: () => Promise.resolve(['Mama Put']),
    });
    await vi.waitFor(async () => expect(await db.queries.count()).toBe(1));
    seen.clear();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 5 * MINUTE + 10_000);

    // Now, with the network dead, the screen opens from IndexedDB.
    let answer: ((names: string[]) => void) | null = null;
    const queryFn = vi
      .fn<() => Promise<string[]>>()
      .mockImplementationOnce(() => Promise.reject(new ApiError(0, NETWORK_ERROR)))
      .mockImplementation(() => new Promise((resolve) => (answer = resolve)));
    const client = clientFor();
    render(
      <QueryClientProvider client={client}>
        <PartnersScreen queryFn={queryFn} />
      </QueryClientProvider>,
    );
    expect(await screen.findByText('Mama Put')).toBeInTheDocument();
    expect(await screen.findByText('Showing saved data from 5 minutes ago')).toBeInTheDocument();

    // The network is back: the refetch answers and the notice goes.
    void client.refetchQueries({ queryKey: PARTNERS });
    await vi.waitFor(() => expect(answer).not.toBeNull());
    answer!(['Mama Put', 'Buka']);
    expect(await screen.findByText('Buka')).toBeInTheDocument();
    expect(screen.queryByText(/Showing saved data/)).not.toBeInTheDocument();
  });

  it('shows nothing for fresh data, nor outside a query client', async () => {
    const client = clientFor();
    render(
      <QueryClientProvider client={client}>
        <PartnersScreen queryFn={() => Promise.resolve(['Fresh'])} />
      </QueryClientProvider>,
    );
    expect(await screen.findByText('Fresh')).toBeInTheDocument();
    expect(screen.queryByText(/Showing saved data/)).not.toBeInTheDocument();

    render(<PageHeader title="No client" />);
    expect(screen.getByRole('heading', { name: 'No client' })).toBeInTheDocument();
  });
});
