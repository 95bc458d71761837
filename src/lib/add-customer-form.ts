import { type AddCustomerBody, addCustomerBodySchema, externalIdField } from '../../contract/customer-sync';
import { normalisePhone, optionalPhoneField } from '../../contract/validation';
import { z } from '../../contract/zod';

/**
 * Add customer (issue 27): one customer by hand, under the very rules of the subscriber sync (the
 * contract's `addCustomerBodySchema`): the external id (the subscriber or account number, required
 * and new), names, email, a phone normalised like the staff phone, address, status and the internet
 * account number. The values are the text as typed.
 */
export interface AddCustomerFormValues {
  externalId: string;
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  address: string;
  status: 'ACTIVE' | 'BLOCKED';
  internetAccountNumber: string;
}

export const emptyAddCustomerForm: AddCustomerFormValues = {
  externalId: '',
  firstName: '',
  lastName: '',
  email: '',
  phone: '',
  address: '',
  status: 'ACTIVE',
  internetAccountNumber: '',
};

const body = addCustomerBodySchema.shape;
/** A field that may be left out or null in the call, as the text the form holds (its string rule). */
const asText = <S>(field: { def: { innerType: { def: { innerType: S } } } }): S =>
  field.def.innerType.def.innerType;

/**
 * The form's rules: the contract's fields, each over the text as typed. The external id is taken
 * without the spaces a paste brings around it; an empty phone is no phone.
 */
export const addCustomerFormSchema = z.object({
  externalId: z.pipe(z.string().check(z.trim()), externalIdField),
  firstName: body.firstName,
  lastName: body.lastName,
  email: body.email,
  phone: optionalPhoneField,
  address: asText(body.address),
  status: z.enum(['ACTIVE', 'BLOCKED']),
  internetAccountNumber: asText(body.internetAccountNumber),
});

/** The call's body: trimmed text, the phone in its one form, empty optional fields left out. */
export function toAddCustomerBody(values: AddCustomerFormValues): AddCustomerBody {
  const optional = (text: string) => {
    const value = text.trim();
    return value === '' ? undefined : value;
  };
  const phone = optional(values.phone);
  const address = optional(values.address);
  const accountNumber = optional(values.internetAccountNumber);
  return {
    externalId: values.externalId.trim(),
    firstName: values.firstName.trim(),
    lastName: values.lastName.trim(),
    email: values.email.trim(),
    status: values.status,
    ...(phone === undefined ? {} : { phone: normalisePhone(phone) }),
    ...(address === undefined ? {} : { address }),
    ...(accountNumber === undefined ? {} : { internetAccountNumber: accountNumber }),
  };
}
