import { describe, expect, it } from 'vitest';
import type { Customer } from '../../contract/customers';
import type { ExtendedService } from '../../contract/extended-services';
import { customerFormOf, hasCustomerChanges, toCustomerUpdate } from './customer-form';
import {
  addExtendedServiceFormSchema,
  editExtendedServiceFormSchema,
  extendedServiceFormOf,
  hasExtendedServiceChanges,
  toExtendedServiceUpdate,
} from './extended-service-form';

const customer: Customer = {
  id: 42,
  firstName: 'Ngozi',
  lastName: 'Adeyemi',
  email: 'ngozi@example.ng',
  phone: null,
  address: null,
  imageUrl: null,
  accountStatus: 'ACTIVE',
  createdAt: '2026-02-01T00:00:00.000Z',
  updatedAt: '2026-02-01T00:00:00.000Z',
};

describe('client edit form', () => {
  it('sends only the non-empty fields that changed', () => {
    const values = customerFormOf(customer);
    expect(values).toEqual({ firstName: 'Ngozi', lastName: 'Adeyemi', address: '' });
    expect(toCustomerUpdate(values, customer)).toEqual({ customerId: 42 });
    expect(hasCustomerChanges(toCustomerUpdate(values, customer))).toBe(false);

    const body = toCustomerUpdate(
      { firstName: '', lastName: ' Adeyemi-Obi ', address: '3 Broad St' },
      customer,
    );
    expect(body).toEqual({ customerId: 42, lastName: 'Adeyemi-Obi', address: '3 Broad St' });
    expect(hasCustomerChanges(body)).toBe(true);
  });

  it('an address the user emptied is sent empty, which clears it (issue 22)', () => {
    const withAddress = { ...customer, address: '3 Broad St' };
    expect(toCustomerUpdate({ ...customerFormOf(withAddress), address: '  ' }, withAddress)).toEqual({
      customerId: 42,
      address: '',
    });
  });
});

const service: ExtendedService = {
  id: 9,
  title: 'Fiber installation',
  description: 'Free installation for members',
  createdAt: '2026-02-01T00:00:00.000Z',
  partnerCount: 3,
};

describe('extended service forms', () => {
  it('add requires a title and a description', () => {
    const issues =
      addExtendedServiceFormSchema.safeParse({ title: ' ', description: '' }).error?.issues ?? [];
    expect(Object.fromEntries(issues.map((i) => [String(i.path[0]), i.message]))).toEqual({
      title: 'Title is required',
      description: 'Description is required',
    });
  });

  it('edit has no required field and sends only what changed', () => {
    expect(editExtendedServiceFormSchema.safeParse({ title: '', description: '' }).success).toBe(true);
    const values = extendedServiceFormOf(service);
    expect(hasExtendedServiceChanges(toExtendedServiceUpdate(values, service))).toBe(false);
    expect(
      toExtendedServiceUpdate({ title: '', description: 'Installation within 48 hours' }, service),
    ).toEqual({
      extendedServiceId: 9,
      description: 'Installation within 48 hours',
    });
  });
});
