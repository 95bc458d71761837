import { render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { LazyToaster } from './lazy-toaster';
import { notify } from './notify';

describe('notify and LazyToaster', () => {
  it('renders nothing until a toast is asked for, then loads the toaster and shows it', async () => {
    const { container } = render(<LazyToaster />);
    expect(container).toBeEmptyDOMElement();
    notify.success('Partner saved');
    notify.error('Could not save the partner');
    expect(await screen.findByText('Partner saved')).toBeInTheDocument();
    expect(await screen.findByText('Could not save the partner')).toBeInTheDocument();
  });

  it('merges repeated identical toasts, so a lock-out after five refusals is not hidden (issue 22)', async () => {
    render(<LazyToaster />);
    for (let i = 0; i < 6; i++) notify.error('Invalid email or password');
    notify.error('Too many failed sign-in attempts. Try again in 15 minutes.');
    expect(
      await screen.findByText('Too many failed sign-in attempts. Try again in 15 minutes.'),
    ).toBeVisible();
    expect(screen.getAllByText('Invalid email or password')).toHaveLength(1);
    // The same words as another type are another toast.
    notify.info('Invalid email or password');
    await waitFor(() => expect(screen.getAllByText('Invalid email or password')).toHaveLength(2));
  });

  it('the same toast again while the first fades out restarts its 5 s: the repeat is never lost', async () => {
    // The earlier tests' toasts fill the stack (5 at most): cleared first.
    (await import('./toast')).toaster.remove();
    // zag's toast times itself with requestAnimationFrame and performance.now: both are the test's.
    vi.useFakeTimers({
      toFake: [
        'setTimeout',
        'clearTimeout',
        'requestAnimationFrame',
        'cancelAnimationFrame',
        'performance',
        'Date',
      ],
    });
    try {
      render(<LazyToaster />);
      const text = 'Saved on this device; it will be sent when you are back online.';
      notify.info(text);
      await vi.advanceTimersByTimeAsync(100);
      expect(screen.getByText(text)).toBeInTheDocument();
      // 5 s (docs/product.md#constants) and a little: the first is fading out when the repeat comes.
      await vi.advanceTimersByTimeAsync(5_050);
      notify.info(text);
      await vi.advanceTimersByTimeAsync(1_000);
      expect(screen.getAllByText(text)).toHaveLength(1);
      // 5 s from the repeat, and its fade: gone.
      await vi.advanceTimersByTimeAsync(4_500);
      expect(screen.queryByText(text)).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });
});
