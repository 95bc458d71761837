import { z } from 'zod';
import { idField } from './ids';
import { accountStatusSchema, listQuerySchema } from './list';

export const customerMessages = {
  deleteConfirm: 'Are you sure you want to delete this client?',
  updated: 'Record updated successfully',
} as const;

export const customerSchema = z.object({
  id: z.number().int(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  address: z.string().nullable(),
  imageUrl: z.string().nullable(),
  accountStatus: accountStatusSchema,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Customer = z.infer<typeof customerSchema>;

export const customerSortKeys = ['firstName', 'lastName', 'email', 'createdAt'] as const;
export const customerListQuerySchema = listQuerySchema.extend({
  status: accountStatusSchema.default('ACTIVE'),
  sortBy: z.enum(customerSortKeys).optional(),
});
export type CustomerListQuery = z.infer<typeof customerListQuerySchema>;

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .min(1, { error: 'Cannot be empty' })
    .max(max, { error: `Must be at most ${max} characters` });

/** PATCH /admin/user/customers: firstName, lastName, address optional; only the fields sent change. */
export const updateCustomerBodySchema = z.object({
  customerId: idField('customerId'),
  firstName: optionalText(100).optional(),
  lastName: optionalText(100).optional(),
  address: optionalText(300).optional(),
});
export type UpdateCustomerBody = z.infer<typeof updateCustomerBodySchema>;

/** PATCH /admin/user/customers/status: block or unblock. */
export const customerStatusBodySchema = z.object({
  customerId: idField('customerId'),
  accountStatus: accountStatusSchema,
});

export const customerIdParamSchema = z.object({ customerId: idField('customerId') });

/** GET user/internet/client_info?client_id=: the customer's fiber account. */
export const clientInfoQuerySchema = z.object({ client_id: idField('client_id') });
export const clientInternetInfoSchema = z.object({
  customerId: z.number().int(),
  plan: z.string(),
  speedMbps: z.number().int(),
  monthlyFee: z.number(),
  status: z.enum(['ACTIVE', 'SUSPENDED', 'CANCELLED']),
  renewalDate: z.string(),
});
export type ClientInternetInfo = z.infer<typeof clientInternetInfoSchema>;

/** Server answers of the client calls, word for word. */
export const customerServerMessages = {
  notFound: 'Customer not found',
  blocked: 'Client blocked successfully',
  unblocked: 'Client unblocked successfully',
  deleted: 'Client deleted successfully',
} as const;
