import { describe, expect, it } from 'vitest';
import { toProfileUpdate } from './profile-form';

describe('toProfileUpdate', () => {
  it('sends only the non-empty fields', () => {
    expect(toProfileUpdate({ firstName: ' Ada ', lastName: '', address: '  ' }, { address: null })).toEqual({
      firstName: 'Ada',
    });
    expect(
      toProfileUpdate(
        { firstName: '', lastName: 'Obi', address: 'Lagos' },
        { address: null },
        'iVBORw0KGgo=',
      ),
    ).toEqual({
      lastName: 'Obi',
      address: 'Lagos',
      profileImage: 'iVBORw0KGgo=',
    });
  });

  it('an address the user emptied is sent empty, so it is cleared (issue 22)', () => {
    expect(
      toProfileUpdate({ firstName: '', lastName: '', address: ' ' }, { address: '1 Marina, Lagos' }),
    ).toEqual({ address: '' });
  });
});
