import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { Dialog } from './dialog';

function Harness({ closable }: { closable?: boolean }) {
  const [open, setOpen] = useState(true);
  return (
    <Dialog
      open={open}
      onOpenChange={setOpen}
      title="Confirm Deletion"
      {...(closable === undefined ? {} : { closable })}
    >
      <p>Are you sure?</p>
    </Dialog>
  );
}

describe('Dialog', () => {
  it('is named by its title and closes with its close control', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    const dialog = await screen.findByRole('dialog', { name: 'Confirm Deletion' });
    expect(dialog).toHaveTextContent('Are you sure?');
    await user.click(screen.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('can hide the close control', async () => {
    render(<Harness closable={false} />);
    await screen.findByRole('dialog', { name: 'Confirm Deletion' });
    expect(screen.queryByRole('button', { name: 'Close' })).not.toBeInTheDocument();
  });
});
