import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, NETWORK_ERROR } from '../api/client';
import { OFFLINE_TEXT, OfflineBanner, UNREACHABLE_TEXT } from './offline-banner';

afterEach(() => vi.restoreAllMocks());

function goOffline(offline: boolean) {
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(!offline);
  act(() => {
    window.dispatchEvent(new Event(offline ? 'offline' : 'online'));
  });
}

const renderBanner = () =>
  render(
    <QueryClientProvider client={new QueryClient()}>
      <OfflineBanner />
    </QueryClientProvider>,
  );

describe('OfflineBanner', () => {
  it('shows while the browser is offline', () => {
    renderBanner();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    goOffline(true);
    expect(screen.getByRole('status')).toHaveTextContent(OFFLINE_TEXT);
    expect(OFFLINE_TEXT).toMatch(/^You are offline/);
    goOffline(false);
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('shows when the requests of the screen get no answer, until one succeeds', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    let answer: () => Promise<number> = () => Promise.reject(new ApiError(0, NETWORK_ERROR));
    function Screen() {
      useQuery({ queryKey: ['partners'], queryFn: () => answer() });
      return null;
    }
    render(
      <QueryClientProvider client={client}>
        <OfflineBanner />
        <Screen />
      </QueryClientProvider>,
    );
    expect(await screen.findByRole('status')).toHaveTextContent(UNREACHABLE_TEXT);

    // A server error is an answer: the network is there.
    answer = () => Promise.reject(new ApiError(500, 'Server error'));
    await act(() => client.refetchQueries());
    expect(screen.queryByRole('status')).not.toBeInTheDocument();

    answer = () => Promise.reject(new ApiError(0, NETWORK_ERROR));
    await act(() => client.refetchQueries());
    expect(screen.getByRole('status')).toHaveTextContent(UNREACHABLE_TEXT);
    answer = () => Promise.resolve(1);
    await act(() => client.refetchQueries());
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('does not count a failure of a query no screen uses', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <OfflineBanner />
      </QueryClientProvider>,
    );
    await act(() =>
      client
        .fetchQuery({ queryKey: ['left'], queryFn: () => Promise.reject(new ApiError(0, NETWORK_ERROR)) })
        .catch(() => undefined),
    );
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });
});
