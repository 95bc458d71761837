import { idField } from './ids';
import { accountStatusSchema, defineList } from './list';
import { z } from './zod';

export const customerMessages = {
  deleteConfirm: 'Are you sure you want to delete this client?',
  updated: 'Record updated successfully',
} as const;

export const customerSchema = z.object({
  id: z.int(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  phone: z.nullable(z.string()),
  address: z.nullable(z.string()),
  imageUrl: z.nullable(z.string()),
  accountStatus: accountStatusSchema,
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Only on an erased customer's tombstone (decision 054): when their personal data was erased. */
  erasedAt: z.optional(z.string()),
});
export type Customer = z.infer<typeof customerSchema>;

/** GET /admin/user/customers (and /export): customers of one account status. */
export const customerList = defineList({
  sortKeys: ['firstName', 'lastName', 'email', 'createdAt'],
  defaultSort: { sortBy: 'createdAt', sortOrder: 'desc' },
  filters: { status: z._default(accountStatusSchema, 'ACTIVE') },
});
export const customerListQuerySchema = customerList.query;

const optionalText = (max: number) =>
  z
    .string()
    .check(
      z.trim(),
      z.minLength(1, { error: 'Cannot be empty' }),
      z.maxLength(max, { error: `Must be at most ${max} characters` }),
    );

/**
 * PATCH /admin/user/customers: firstName, lastName, address optional; only the fields sent change.
 * An empty address clears it (issue 22); names cannot be emptied.
 */
export const updateCustomerBodySchema = z.object({
  customerId: idField('customerId'),
  firstName: z.optional(optionalText(100)),
  lastName: z.optional(optionalText(100)),
  address: z.optional(
    z.string().check(z.trim(), z.maxLength(300, { error: 'Must be at most 300 characters' })),
  ),
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
/**
 * The plan's details are null for a customer the subscriber sync brought in before the plan is
 * known (issue 27); `accountNumber` is the internet account number the sync sends.
 */
export const clientInternetInfoSchema = z.object({
  customerId: z.int(),
  accountNumber: z.nullable(z.string()),
  plan: z.nullable(z.string()),
  speedMbps: z.nullable(z.int()),
  monthlyFee: z.nullable(z.number()),
  status: z.enum(['ACTIVE', 'SUSPENDED', 'CANCELLED']),
  renewalDate: z.nullable(z.string()),
});
export type ClientInternetInfo = z.infer<typeof clientInternetInfoSchema>;

/** Server answers of the customer calls, word for word. */
export const customerServerMessages = {
  notFound: 'Customer not found',
  blocked: 'Client blocked successfully',
  unblocked: 'Client unblocked successfully',
  deleted: 'Client deleted successfully',
} as const;
