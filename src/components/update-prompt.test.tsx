import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { appUpdate } from '../lib/app-update';
import { UpdatePrompt } from './update-prompt';

describe('UpdatePrompt', () => {
  it('offers a deployed version and switches only when Reload is pressed', async () => {
    const user = userEvent.setup();
    render(
      <>
        <input aria-label="Partner name" />
        <UpdatePrompt />
      </>,
    );
    expect(screen.queryByText('A new version is available.')).not.toBeInTheDocument();

    await user.type(screen.getByLabelText('Partner name'), 'Mama');
    const activate = vi.fn(() => Promise.resolve());
    act(() => appUpdate.offer(activate));
    expect(screen.getByText('A new version is available.')).toBeInTheDocument();
    // Non-blocking: typing goes on, focus stays in the form, nothing switched yet.
    await user.type(screen.getByLabelText('Partner name'), ' Put');
    expect(screen.getByLabelText('Partner name')).toHaveValue('Mama Put');
    expect(screen.getByLabelText('Partner name')).toHaveFocus();
    expect(activate).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: 'Reload' }));
    expect(activate).toHaveBeenCalledOnce();
    expect(screen.queryByText('A new version is available.')).not.toBeInTheDocument();
  });

  it('Later puts the prompt away without switching', async () => {
    const user = userEvent.setup();
    render(<UpdatePrompt />);
    const activate = vi.fn(() => Promise.resolve());
    act(() => appUpdate.offer(activate));
    await user.click(screen.getByRole('button', { name: 'Later' }));
    expect(screen.queryByText('A new version is available.')).not.toBeInTheDocument();
    expect(activate).not.toHaveBeenCalled();
  });
});
