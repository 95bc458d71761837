import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ImageMagnifier } from './image-magnifier';

describe('image magnifier', () => {
  it('opens the image full screen at 75% of the viewport and closes with Escape', async () => {
    const user = userEvent.setup();
    render(<ImageMagnifier src="/api/v1/files/receipt" alt="Receipt image" />);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Enlarge receipt image' }));
    const dialog = await screen.findByRole('dialog', { name: 'Receipt image' });
    const big = dialog.querySelector('img');
    expect(big).toHaveAttribute('src', '/api/v1/files/receipt');
    expect(big?.className).toMatch(/w_75vw/);
    expect(big?.className).toMatch(/h_75vh/);

    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('closes with its close control', async () => {
    const user = userEvent.setup();
    render(<ImageMagnifier src="/r.png" alt="Receipt image" />);
    await user.click(screen.getByRole('button', { name: 'Enlarge receipt image' }));
    await screen.findByRole('dialog', { name: 'Receipt image' });
    await user.click(screen.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });
});
