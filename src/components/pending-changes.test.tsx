import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ConflictDialog, changedFields } from './pending-changes';

const mine = { partnerId: 3, address: '30 Admiralty Way', minSpendToQualify: 12000, coverImage: 'iVBOR...' };
const theirs = { id: 3, address: '8 Adeola Odeku', minSpendToQualify: 10000, coverImage: '/api/v1/files/ab' };

describe('the 409 dialog', () => {
  it('lists the edited fields, the server value beside the user one (ids left out, images named)', () => {
    expect(changedFields(mine, theirs)).toEqual([
      { field: 'address', name: 'Address', mine: '30 Admiralty Way', theirs: '8 Adeola Odeku' },
      { field: 'minSpendToQualify', name: 'Minimum spend', mine: '12000', theirs: '10000' },
      { field: 'coverImage', name: 'Cover image', mine: 'an image', theirs: 'an image' },
    ]);
    expect(changedFields({ title: 'New' }, null)).toEqual([
      { field: 'title', name: 'Title', mine: 'New', theirs: '-' },
    ]);
  });

  it('says the record changed on the server and offers Keep mine and Use theirs', async () => {
    const user = userEvent.setup();
    const keep = vi.fn();
    const take = vi.fn();
    render(
      <ConflictDialog
        open
        label="Edit partner Eko Grill House"
        mine={mine}
        theirs={theirs}
        onKeepMine={keep}
        onUseTheirs={take}
      />,
    );
    const dialog = await screen.findByRole('dialog', { name: 'This record changed on the server' });
    expect(dialog).toHaveTextContent('Edit partner Eko Grill House: someone else changed this record');
    const row = within(dialog).getByRole('row', { name: /Address/ });
    expect(row).toHaveTextContent('8 Adeola Odeku');
    expect(row).toHaveTextContent('30 Admiralty Way');
    await user.click(within(dialog).getByRole('button', { name: 'Keep mine' }));
    expect(keep).toHaveBeenCalledTimes(1);
    await user.click(within(dialog).getByRole('button', { name: 'Use theirs' }));
    expect(take).toHaveBeenCalledTimes(1);
  });
});
