import type { Customer, UpdateCustomerBody } from '../../contract/customers';
import { z } from '../../contract/zod';

/** Customer edit (docs/product.md#validation, 'Client edit'): first name, last name and address, all optional. */
export interface CustomerFormValues {
  firstName: string;
  lastName: string;
  address: string;
}

export const customerFormSchema = z.object({
  firstName: z.string().check(z.maxLength(100, { error: 'Must be at most 100 characters' })),
  lastName: z.string().check(z.maxLength(100, { error: 'Must be at most 100 characters' })),
  address: z.string().check(z.maxLength(300, { error: 'Must be at most 300 characters' })),
});

export const customerFormOf = (customer: Customer): CustomerFormValues => ({
  firstName: customer.firstName,
  lastName: customer.lastName,
  address: customer.address ?? '',
});

/**
 * customerId plus only the fields that differ from the record: names when non-empty, the address
 * also when emptied (an empty address clears it; issue 22).
 */
export function toCustomerUpdate(values: CustomerFormValues, customer: Customer): UpdateCustomerBody {
  const update: UpdateCustomerBody = { customerId: customer.id };
  for (const key of ['firstName', 'lastName', 'address'] as const) {
    const value = values[key].trim();
    if ((value || key === 'address') && value !== (customer[key] ?? '')) update[key] = value;
  }
  return update;
}

export const hasCustomerChanges = (update: UpdateCustomerBody): boolean => Object.keys(update).length > 1;
