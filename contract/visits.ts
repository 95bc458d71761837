import { dateField, idField } from './ids';
import { imageBase64Text } from './images';
import { defineList } from './list';
import { z } from './zod';

export const visitItemSchema = z.object({
  id: z.int(),
  name: z.string(),
  quantity: z.int(),
  price: z.number(),
});

export const visitUserSchema = z.object({
  id: z.int(),
  firstName: z.string(),
  lastName: z.string(),
});

/*
 * Visit review (issue 35, docs/decisions/075-visit-review.md): a visit a partner's rules flag waits
 * for a club admin's decision and counts towards eligibility and points only once approved.
 */
export const VISIT_REVIEW_STATES = ['approved', 'waiting', 'rejected'] as const;
export type VisitReviewState = (typeof VISIT_REVIEW_STATES)[number];
export const VISIT_REVIEW_FLAGS = [
  'amount_above',
  'receipt_reused',
  'receipt_missing',
  'too_many_visits',
] as const;
export type VisitReviewFlag = (typeof VISIT_REVIEW_FLAGS)[number];

/** Why a visit waits, as the console and the API's descriptions say it. */
export const visitReviewFlagLabels: Record<VisitReviewFlag, string> = {
  amount_above: "Amount above the partner's review threshold",
  receipt_reused: 'Receipt image already sent with an earlier visit',
  receipt_missing: 'No receipt, and the partner requires one',
  too_many_visits: "More visits by this customer at this partner that day than the partner's limit",
};

/** A visit's review state as the console shows it. */
export const visitReviewStateLabels: Record<VisitReviewState, string> = {
  approved: 'Counted',
  waiting: 'Waiting for review',
  rejected: 'Rejected',
};

export const visitReviewSchema = z.object({
  /** approved: counts (never flagged, or approved); waiting: flagged, not counted yet; rejected: never counts. */
  state: z.enum(VISIT_REVIEW_STATES),
  /** Why it was flagged when recorded (empty: it was not). */
  flags: z.array(z.enum(VISIT_REVIEW_FLAGS)),
  /** The reviewer's reason of a rejection. */
  reason: z.nullable(z.string()),
  reviewedBy: z.nullable(z.object({ id: z.int(), name: z.string() })),
  reviewedAt: z.nullable(z.string()),
});

export const visitSchema = z.object({
  id: z.int(),
  user: visitUserSchema,
  attendantName: z.string(),
  visitDate: z.string(),
  totalAmount: z.number(),
  partner: z.object({ id: z.int(), organizationName: z.string() }),
  /** Receipt image URL, or null. */
  imageUrl: z.nullable(z.string()),
  visitItems: z.array(visitItemSchema),
  /** Whether it counts towards eligibility and points (visit review). */
  review: visitReviewSchema,
});
export type Visit = z.infer<typeof visitSchema>;

/** GET admin/partners/visits?partnerId=… (paged, sortable; and /export). */
export const visitList = defineList({
  sortKeys: ['visitDate', 'totalAmount', 'userName', 'attendantName'],
  defaultSort: { sortBy: 'visitDate', sortOrder: 'desc' },
  filters: { partnerId: idField('partnerId') },
  cursor: true,
});
export const visitListQuerySchema = visitList.query;

export const visitIdParamSchema = z.object({ visitId: idField('visitId') });

/** One item of a visit as a till or the console sends it. */
export const visitItemBodySchema = z.object({
  name: z
    .string({ error: 'Item name is required' })
    .check(
      z.trim(),
      z.minLength(1, { error: 'Item name is required' }),
      z.maxLength(120, { error: 'Item name must be at most 120 characters' }),
    ),
  quantity: z
    .number({ error: 'Quantity must be a number' })
    .check(
      z.int({ error: 'Quantity must be a whole number' }),
      z.minimum(1, { error: 'Quantity must be at least 1' }),
      z.maximum(10_000, { error: 'Quantity is too large' }),
    ),
  // z.number() refuses Infinity and NaN ('Price must be a number').
  price: z.number({ error: 'Price must be a number' }).check(
    z.positive({ error: 'Price must be a positive number' }),
    z.maximum(100_000_000, { error: 'Price is too large' }),
    z.refine((n) => Math.round(n * 100) === n * 100, { error: 'Price can have at most 2 decimals' }),
  ),
});

/** POST user/visits: the total is computed from the items. */
export const createVisitBodySchema = z.object({
  partnerId: idField('partnerId'),
  customerId: idField('customerId'),
  attendantName: z
    .string({ error: 'Attendant name is required' })
    .check(z.trim(), z.minLength(1, { error: 'Attendant name is required' }), z.maxLength(120)),
  visitDate: z.iso.datetime({ offset: true, error: 'visitDate must be a date and time (ISO 8601)' }),
  items: z
    .array(visitItemBodySchema, { error: 'At least one item is required' })
    .check(z.minLength(1, { error: 'At least one item is required' }), z.maxLength(200)),
  /** base64 receipt image without prefix (PNG, JPEG or WebP, at most 5 MiB decoded). */
  receiptImage: z.optional(imageBase64Text()),
});
export type CreateVisitBody = z.infer<typeof createVisitBodySchema>;

/** Eligibility at a partner on a date: spend in the 30 days up to it against minSpendToQualify. */
export const eligibleUserSchema = z.object({
  user: visitUserSchema,
  totalSpent: z.number(),
  isEligible: z.boolean(),
  /** The reward the customer qualifies for (GIFTCARD), or null when not eligible. */
  rewardType: z.nullable(z.enum(['GIFTCARD', 'COUPON'])),
  /** Why, e.g. 'Spent ₦12,500 of ₦10,000'. */
  message: z.string(),
});
export type EligibleUser = z.infer<typeof eligibleUserSchema>;

export const eligibleUserDetailSchema = z.extend(eligibleUserSchema, {
  /** The visits inside the 30-day window, newest first (those waiting for review or rejected too). */
  visitHistory: z.array(visitSchema),
  /** The visits of the window that are not counted in totalSpent: waiting for review, or rejected. */
  notCounted: z.object({
    waiting: z.int(),
    waitingAmount: z.number(),
    rejected: z.int(),
    rejectedAmount: z.number(),
  }),
});
export type EligibleUserDetail = z.infer<typeof eligibleUserDetailSchema>;

/** GET admin/partners/visits/reward-eligible-users?partnerId=&date=YYYY-MM-DD (default today). */
export const eligibleList = defineList({
  sortKeys: ['userName', 'totalSpent'],
  defaultSort: { sortBy: 'userName', sortOrder: 'asc' },
  filters: { partnerId: idField('partnerId'), date: z.optional(dateField('date')) },
});
export const eligibleUsersQuerySchema = eligibleList.query;
/** GET admin/partners/visits/reward-eligible-users/{userId}?partnerId=&date= */
export const eligibleUserDetailQuerySchema = z.object({
  partnerId: idField('partnerId'),
  date: z.optional(dateField('date')),
});
export const eligibleUserIdParamSchema = z.object({ userId: idField('userId') });

/** 1 point per ₦100 spent at a partner; a reward issued by points claims them. */
export const pointsEligibleUserSchema = z.object({
  id: z.int(),
  name: z.string(),
  email: z.string(),
  totalUnclaimedPoints: z.int(),
});
export type PointsEligibleUser = z.infer<typeof pointsEligibleUserSchema>;
/** GET admin/partners/visits/eligible-users-bypoints?partnerId= (paged), most unclaimed points first. */
export const pointsEligibleList = defineList({
  sortKeys: ['points'],
  defaultSort: { sortBy: 'points', sortOrder: 'desc' },
  filters: { partnerId: idField('partnerId') },
});
export const pointsEligibleQuerySchema = pointsEligibleList.query;

/** Server answers of the visit and eligibility calls, word for word. */
export const visitServerMessages = {
  recorded: 'Visit recorded successfully',
  notFound: 'Visit not found',
  partnerNotFound: 'Partner not found',
  partnerBlocked: 'This partner is blocked: it cannot issue, redeem or record visits.',
  customerNotFound: 'Customer not found',
  customerBlocked: 'Customer is blocked',
  futureDate: 'Visit date cannot be in the future',
  totalTooLarge: 'The total of the items is too large',
  noVisits: 'No visits by this customer at this partner in the 30 days up to this date',
} as const;
