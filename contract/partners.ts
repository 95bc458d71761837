import { base64ImageField, idField, MAX_ID } from './ids';
import { accountStatusSchema, defineList } from './list';
import { emailField, phoneField } from './validation';
import { z } from './zod';

export const partnerMessages = {
  firstNameRequired: 'First name is required',
  lastNameRequired: 'Last name is required',
  organizationRequired: 'Organization name is required',
  addressRequired: 'Address is required',
  coverImageRequired: 'Cover image is required',
  coverImageNotImage: 'Cover image must be an image file',
  phoneRequired: 'Phone number is required',
  minSpendRequired: 'Minimum spend to qualify is required',
  minSpendNumber: 'Minimum spend to qualify must be a number',
  minSpendTooLow: 'Minimum spend to qualify must be at least ₦2,000',
  servicesRequired: 'You must select at least one extended service',
  deleteConfirm: 'Are you sure you want to delete this partner? This action cannot be undone.',
  added: 'Partner added successfully',
} as const;

/** docs/product.md#constants: default 10000, input minimum 2000. */
export const MIN_SPEND_DEFAULT = 10_000;
export const MIN_SPEND_MINIMUM = 2_000;

/**
 * A partner's visit review rules (issue 35, decision 075): a visit above `amountAbove` naira, without
 * a receipt when `requireReceipt`, or past `maxVisitsPerDay` visits of its customer at the partner in
 * one Lagos day, waits for review (null: no such rule). A receipt sent before always waits.
 */
export const reviewRulesSchema = z.object({
  amountAbove: z.nullable(z.number()),
  requireReceipt: z.boolean(),
  maxVisitsPerDay: z.nullable(z.int()),
});
export type ReviewRules = z.infer<typeof reviewRulesSchema>;

export const partnerSchema = z.object({
  id: z.int(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  phone: z.string(),
  organizationName: z.string(),
  address: z.string(),
  /** URL of the stored cover image (/api/v1/files/{hash}), or null. */
  coverImage: z.nullable(z.string()),
  minSpendToQualify: z.number(),
  accountStatus: accountStatusSchema,
  extendedServiceIds: z.array(z.int()),
  partnerExtendedServices: z.array(z.object({ id: z.int(), title: z.string() })),
  reviewRules: reviewRulesSchema,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Partner = z.infer<typeof partnerSchema>;

export const partnerStatsSchema = z.object({
  totalPartners: z.int(),
  activePartners: z.int(),
  blockedPartners: z.int(),
});
export type PartnerStats = z.infer<typeof partnerStatsSchema>;

/** GET /admin/partners (and /export): partners of one account status. */
export const partnerList = defineList({
  sortKeys: ['organizationName', 'firstName', 'lastName', 'email', 'createdAt'],
  defaultSort: { sortBy: 'createdAt', sortOrder: 'desc' },
  filters: { status: z._default(accountStatusSchema, 'ACTIVE') },
});
export const partnerListQuerySchema = partnerList.query;

const requiredText = (message: string, max = 200) =>
  z
    .string({ error: message })
    .check(
      z.trim(),
      z.minLength(1, { error: message }),
      z.maxLength(max, { error: `Must be at most ${max} characters` }),
    );

/** A finite number (z.number() refuses Infinity and NaN with its own message). */
const minSpend = z
  .number({ error: partnerMessages.minSpendNumber })
  .check(
    z.minimum(MIN_SPEND_MINIMUM, { error: partnerMessages.minSpendTooLow }),
    z.maximum(1_000_000_000, { error: 'Minimum spend to qualify is too large' }),
  );

const serviceIds = z
  .array(
    z
      .number({ error: 'Extended service ids must be whole numbers' })
      .check(z.int(), z.positive(), z.maximum(MAX_ID, { error: 'Extended service id is out of range' })),
    {
      error: partnerMessages.servicesRequired,
    },
  )
  .check(z.minLength(1, { error: partnerMessages.servicesRequired }), z.maxLength(100));

/** POST /admin/partners/invite: creates the partner and mails its contact an invitation. */
export const createPartnerBodySchema = z.object({
  firstName: requiredText(partnerMessages.firstNameRequired, 100),
  lastName: requiredText(partnerMessages.lastNameRequired, 100),
  email: emailField,
  phone: z.pipe(
    z
      .string({ error: partnerMessages.phoneRequired })
      .check(z.minLength(1, { error: partnerMessages.phoneRequired, abort: true })),
    phoneField,
  ),
  organizationName: requiredText(partnerMessages.organizationRequired),
  address: requiredText(partnerMessages.addressRequired, 300),
  coverImage: base64ImageField(partnerMessages.coverImageRequired),
  minSpendToQualify: z.pipe(z.number({ error: partnerMessages.minSpendRequired }), minSpend),
  extendedServiceIds: serviceIds,
});
export type CreatePartnerBody = z.infer<typeof createPartnerBodySchema>;

/** PATCH /admin/partners/update-record: all optional; only the fields sent change. */
export const updatePartnerBodySchema = z.object({
  partnerId: idField('partnerId'),
  firstName: z.optional(requiredText(partnerMessages.firstNameRequired, 100)),
  lastName: z.optional(requiredText(partnerMessages.lastNameRequired, 100)),
  organizationName: z.optional(requiredText(partnerMessages.organizationRequired)),
  address: z.optional(requiredText(partnerMessages.addressRequired, 300)),
  phone: z.optional(phoneField),
  coverImage: z.optional(base64ImageField(partnerMessages.coverImageRequired)),
  minSpendToQualify: z.optional(minSpend),
  extendedServiceIds: z.optional(serviceIds),
});
export type UpdatePartnerBody = z.infer<typeof updatePartnerBodySchema>;

/** PATCH /admin/partners/update-status: block or unblock. */
export const partnerStatusBodySchema = z.object({
  partnerId: idField('partnerId'),
  accountStatus: accountStatusSchema,
});

export const partnerIdParamSchema = z.object({ partnerId: idField('partnerId') });
export const partnerIdQuerySchema = z.object({ partnerId: idField('partnerId') });

export const PARTNER_WELCOME_MAIL_SUBJECT = 'Welcome to the Reward Club partner network';

/** Server answers of the partner calls the SPA and e2e tests may rely on, word for word. */
export const partnerServerMessages = {
  notFound: 'Partner not found',
  emailTaken: 'A partner with this email already exists',
  unknownServicesPrefix: 'Unknown extended services:',
  updated: 'Record updated successfully',
  blocked: 'Partner blocked successfully',
  unblocked: 'Partner unblocked successfully',
  deleted: 'Partner deleted successfully',
  otherPartner: 'You can only see your own partner',
} as const;

/**
 * Why a partner issues, redeems and records nothing (409, issue 16): the answer's message, and the
 * profile's `partner.inactiveReason` that partner staff see when signed in.
 */
export const partnerInactiveMessages = {
  BLOCKED: 'This partner is blocked: it cannot issue, redeem or record visits.',
  DELETED: 'This partner was deleted: it cannot issue, redeem or record visits.',
} as const;
