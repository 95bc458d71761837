import { render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
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
});
