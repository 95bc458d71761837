import { z } from 'zod';
import { dateField, idField } from './ids';
import { listQuerySchema } from './list';

export const visitItemSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  quantity: z.number().int(),
  price: z.number(),
});

export const visitUserSchema = z.object({
  id: z.number().int(),
  firstName: z.string(),
  lastName: z.string(),
});

export const visitSchema = z.object({
  id: z.number().int(),
  user: visitUserSchema,
  attendantName: z.string(),
  visitDate: z.string(),
  totalAmount: z.number(),
  partner: z.object({ id: z.number().int(), organizationName: z.string() }),
  /** Receipt image URL, or null. */
  imageUrl: z.string().nullable(),
  visitItems: z.array(visitItemSchema),
});
export type Visit = z.infer<typeof visitSchema>;

export const visitSortKeys = ['visitDate', 'totalAmount', 'userName', 'attendantName'] as const;
/** GET admin/partners/visits?partnerId=… (paged, sortable). */
export const visitListQuerySchema = listQuerySchema.extend({
  partnerId: idField('partnerId'),
  sortBy: z.enum(visitSortKeys).optional(),
});

export const visitIdParamSchema = z.object({ visitId: idField('visitId') });

const item = z.object({
  name: z
    .string({ error: 'Item name is required' })
    .trim()
    .min(1, { error: 'Item name is required' })
    .max(120, { error: 'Item name must be at most 120 characters' }),
  quantity: z
    .number({ error: 'Quantity must be a number' })
    .int({ error: 'Quantity must be a whole number' })
    .min(1, { error: 'Quantity must be at least 1' })
    .max(10_000, { error: 'Quantity is too large' }),
  price: z
    .number({ error: 'Price must be a number' })
    .finite({ error: 'Price must be a number' })
    .positive({ error: 'Price must be a positive number' })
    .max(100_000_000, { error: 'Price is too large' })
    .refine((n) => Math.round(n * 100) === n * 100, { error: 'Price can have at most 2 decimals' }),
});

/** POST user/visits: the total is computed from the items. */
export const createVisitBodySchema = z.object({
  partnerId: idField('partnerId'),
  customerId: idField('customerId'),
  attendantName: z
    .string({ error: 'Attendant name is required' })
    .trim()
    .min(1, { error: 'Attendant name is required' })
    .max(120),
  visitDate: z.iso.datetime({ offset: true, error: 'visitDate must be a date and time (ISO 8601)' }),
  items: z
    .array(item, { error: 'At least one item is required' })
    .min(1, { error: 'At least one item is required' })
    .max(200),
  /** base64 receipt image without prefix (PNG, JPEG or WebP, at most 5 MiB decoded). */
  receiptImage: z.string().max(7_000_000, { error: 'Image must be at most 5 MiB' }).optional(),
});
export type CreateVisitBody = z.infer<typeof createVisitBodySchema>;

/** Eligibility at a partner on a date: spend in the 30 days up to it against minSpendToQualify. */
export const eligibleUserSchema = z.object({
  user: visitUserSchema,
  totalSpent: z.number(),
  isEligible: z.boolean(),
  /** The reward the customer qualifies for (GIFTCARD), or null when not eligible. */
  rewardType: z.enum(['GIFTCARD', 'COUPON']).nullable(),
  /** Why, e.g. 'Spent ₦12,500 of ₦10,000'. */
  message: z.string(),
});
export type EligibleUser = z.infer<typeof eligibleUserSchema>;

export const eligibleUserDetailSchema = eligibleUserSchema.extend({
  /** The visits inside the 30-day window, newest first. */
  visitHistory: z.array(visitSchema),
});
export type EligibleUserDetail = z.infer<typeof eligibleUserDetailSchema>;

export const eligibleSortKeys = ['userName', 'totalSpent'] as const;
/** GET admin/partners/visits/reward-eligible-users?partnerId=&date=YYYY-MM-DD (default today). */
export const eligibleUsersQuerySchema = listQuerySchema.extend({
  partnerId: idField('partnerId'),
  date: dateField('date').optional(),
  sortBy: z.enum(eligibleSortKeys).optional(),
});
/** GET admin/partners/visits/reward-eligible-users/{userId}?partnerId=&date= */
export const eligibleUserDetailQuerySchema = z.object({
  partnerId: idField('partnerId'),
  date: dateField('date').optional(),
});
export const eligibleUserIdParamSchema = z.object({ userId: idField('userId') });

/** 1 point per ₦100 spent at a partner; a reward issued by points claims them. */
export const pointsEligibleUserSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  totalUnclaimedPoints: z.number().int(),
});
export type PointsEligibleUser = z.infer<typeof pointsEligibleUserSchema>;
/** GET admin/partners/visits/eligible-users-bypoints?partnerId= (paged). */
export const pointsEligibleQuerySchema = listQuerySchema.extend({ partnerId: idField('partnerId') });

/** Server answers of the visit and eligibility calls, word for word. */
export const visitServerMessages = {
  recorded: 'Visit recorded successfully',
  notFound: 'Visit not found',
  partnerNotFound: 'Partner not found',
  partnerBlocked: 'Partner is blocked',
  customerNotFound: 'Customer not found',
  customerBlocked: 'Customer is blocked',
  futureDate: 'Visit date cannot be in the future',
  totalTooLarge: 'The total of the items is too large',
  noVisits: 'No visits by this customer at this partner in the 30 days up to this date',
} as const;
