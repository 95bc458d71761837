import { describe, expect, it } from 'vitest';
import { TEXTS } from './texts';

describe('TEXTS, the catalogue of what the SPA shows', () => {
  it("keeps docs/product.md's sentences word for word", () => {
    expect(TEXTS.spec).toEqual({
      partnerAdded: 'Partner added successfully',
      recordUpdated: 'Record updated successfully',
      inviteSuccess: 'Update successful',
      deletePartner: 'Are you sure you want to delete this partner? This action cannot be undone.',
      deleteCustomer: 'Are you sure you want to delete this client?',
      noUserData: 'No user data found.',
      noVisitHistory: 'No visit history available.',
    });
    expect(TEXTS.errorFallback).toBe('An error occurred');
  });

  it('one deletion confirmation, naming what goes', () => {
    expect(TEXTS.deleteConfirm()).toBe(
      'Are you sure you want to delete this record? This action cannot be undone.',
    );
    expect(TEXTS.deleteConfirm('the role Cashier')).toBe(
      'Are you sure you want to delete the role Cashier? This action cannot be undone.',
    );
    // The partner's confirmation (docs/product.md#screens) is the same sentence.
    expect(TEXTS.deleteConfirm('this partner')).toBe(TEXTS.spec.deletePartner);
  });
});
