import { describe, expect, it } from 'vitest';
import { changedFields } from './changes';

const labels = { firstName: 'first name', lastName: 'last name', phone: 'phone', address: 'address' };

/** The fields an edit changes, named as the event log names them (docs/product.md#event-log). */
describe('changedFields', () => {
  const before = { firstName: 'Ada', lastName: 'Obi', phone: '0803000000', address: '1 Marina' };

  it('names each field sent with another value, in the order of the labels', () => {
    expect(changedFields(before, { phone: '0803111111', firstName: 'Adaeze' }, labels)).toEqual({
      changes: { firstName: 'Adaeze', phone: '0803111111' },
      changed: ['first name', 'phone'],
    });
  });

  it('a field not sent, or sent with the same value, is no change; a cleared one (null) is', () => {
    expect(changedFields(before, { firstName: 'Ada', lastName: undefined }, labels)).toEqual({
      changes: {},
      changed: [],
    });
    expect(changedFields(before, { address: null }, labels)).toEqual({
      changes: { address: null },
      changed: ['address'],
    });
    expect(changedFields({ ...before, address: null }, { address: null }, labels)).toEqual({
      changes: {},
      changed: [],
    });
  });
});
