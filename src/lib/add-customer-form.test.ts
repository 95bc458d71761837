import { describe, expect, it } from 'vitest';
import { addCustomerBodySchema } from '../../contract/customer-sync';
import { z } from '../../contract/zod';
import { addCustomerFormSchema, emptyAddCustomerForm, toAddCustomerBody } from './add-customer-form';

/** The first message per field of the form's rules for these values. */
const errorsOf = (values: Partial<typeof emptyAddCustomerForm>) => {
  const issues = addCustomerFormSchema.safeParse({ ...emptyAddCustomerForm, ...values }).error?.issues ?? [];
  const byField: Record<string, string> = {};
  for (const issue of issues) byField[String(issue.path[0])] ??= issue.message;
  return byField;
};

const filled = {
  externalId: 'SUB-104233',
  firstName: 'Chiamaka',
  lastName: 'Nwosu',
  email: 'chiamaka.nwosu@mail.ng',
};

describe('Add customer form rules (issue 27: the sync rules)', () => {
  it('asks for the external id, both names and an email; the rest may stay empty', () => {
    const errors = errorsOf({});
    expect(Object.keys(errors).sort()).toEqual(['email', 'externalId', 'firstName', 'lastName']);
    expect(errors.firstName).toBe('First name is required');
    expect(errors.lastName).toBe('Last name is required');
    expect(errors.email).toBe('required');
    expect(errors.externalId).toMatch(/^externalId must be 1 to 64 characters/);
    expect(errorsOf(filled)).toEqual({});
  });

  it('refuses a bad email and a phone outside 7 to 11 digits, with the staff phone messages', () => {
    expect(errorsOf({ ...filled, email: 'chiamaka@' }).email).toBe('pls provide a valid email');
    expect(errorsOf({ ...filled, phone: '080 12' }).phone).toBe('Phone number cannot be less than 7 digits');
    expect(errorsOf({ ...filled, phone: '080312345678' }).phone).toBe(
      'Phone number should not exceed 11 digits',
    );
    expect(errorsOf({ ...filled, phone: '0803 12x 4567' }).phone).toBe(
      'Phone number may contain only digits, spaces, dashes, brackets and a leading +234',
    );
    expect(errorsOf({ ...filled, phone: '+234 (803) 123-4567' })).toEqual({});
  });

  it('takes the external id as the subscriber system writes it, without surrounding spaces', () => {
    expect(errorsOf({ ...filled, externalId: '  ACC/2026:77.b_1  ' })).toEqual({});
    expect(errorsOf({ ...filled, externalId: 'SUB 104233' }).externalId).toMatch(/^externalId must be/);
    expect(errorsOf({ ...filled, externalId: 'x'.repeat(65) }).externalId).toMatch(/^externalId must be/);
  });

  it('sends trimmed text, the phone in its national form and no empty optional field', () => {
    const body = toAddCustomerBody({
      ...emptyAddCustomerForm,
      externalId: ' SUB-104233 ',
      firstName: ' Chiamaka ',
      lastName: 'Nwosu ',
      email: ' chiamaka.nwosu@mail.ng',
      phone: '+234 (803) 123-4567',
      address: '  ',
      status: 'BLOCKED',
      internetAccountNumber: ' FBR-000123 ',
    });
    expect(body).toEqual({
      externalId: 'SUB-104233',
      firstName: 'Chiamaka',
      lastName: 'Nwosu',
      email: 'chiamaka.nwosu@mail.ng',
      phone: '08031234567',
      status: 'BLOCKED',
      internetAccountNumber: 'FBR-000123',
    });
    // What the form sends is what the server's own schema accepts, unchanged.
    const parsed = z.safeParse(addCustomerBodySchema, body);
    expect(parsed.success).toBe(true);
    expect(parsed.data).toEqual(body);
    expect(toAddCustomerBody({ ...emptyAddCustomerForm, ...filled })).toEqual({
      ...filled,
      status: 'ACTIVE',
    });
  });
});
