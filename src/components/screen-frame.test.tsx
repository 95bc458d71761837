import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { appUpdate } from '../lib/app-update';
import { ScreenFrame } from './screen-frame';

afterEach(() => {
  vi.restoreAllMocks();
  act(() => appUpdate.dismiss());
});

function goOffline(offline: boolean) {
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(!offline);
  act(() => {
    window.dispatchEvent(new Event(offline ? 'offline' : 'online'));
  });
}

describe('ScreenFrame, around every screen (the first visit’s sign-in screen too)', () => {
  it('shows the offline banner above the screen without a router or a query client', () => {
    render(
      <ScreenFrame>
        <input aria-label="Email" />
      </ScreenFrame>,
    );
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    goOffline(true);
    const banner = screen.getByRole('status');
    expect(banner).toHaveTextContent(/^You are offline\./);
    // Above the screen: before it in the document.
    expect(banner.compareDocumentPosition(screen.getByLabelText('Email'))).toBe(
      Node.DOCUMENT_POSITION_FOLLOWING,
    );
    goOffline(false);
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('offers a deployed version there too', () => {
    render(
      <ScreenFrame>
        <input aria-label="Email" />
      </ScreenFrame>,
    );
    expect(screen.queryByText('A new version is available.')).not.toBeInTheDocument();
    act(() => appUpdate.offer(() => Promise.resolve()));
    expect(screen.getByText('A new version is available.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Reload' })).toBeInTheDocument();
  });
});
