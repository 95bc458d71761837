import { describe, expect, it } from 'vitest';
import { toProfileUpdate } from './profile-form';

describe('toProfileUpdate', () => {
  it('sends only the non-empty fields', () => {
    expect(toProfileUpdate({ firstName: ' Ada ', lastName: '', address: '  ' })).toEqual({
      firstName: 'Ada',
    });
    expect(toProfileUpdate({ firstName: '', lastName: 'Obi', address: 'Lagos' }, 'iVBORw0KGgo=')).toEqual({
      lastName: 'Obi',
      address: 'Lagos',
      profileImage: 'iVBORw0KGgo=',
    });
  });
});
