import { dateField, idField } from './ids';
import { accountStatusSchema, pageNumberField, pageSizeField } from './list';
import { moneyAmount, rewardCategorySchema, rewardTemplateFields, rewardTypeSchema } from './rewards';
import { emailField } from './validation';
import { z } from './zod';

/*
 * Campaigns (issue 35, docs/decisions/070-campaigns-and-four-eyes.md): one reward template issued to
 * a segment of a partner's customers by a background job, exactly once per customer; above the
 * club's thresholds a second person approves it first (four eyes).
 */

/** Days a request waits for approval before it expires, unless the Super Admin sets another number. */
export const DEFAULT_APPROVAL_EXPIRY_DAYS = 7;
export const MAX_APPROVAL_EXPIRY_DAYS = 365;

/** At most this many entries in an uploaded list (ids, emails and external ids together). */
export const MAX_CAMPAIGN_LIST = 100_000;
/** The preview names at most this many skipped customers (the counts cover them all). */
export const PREVIEW_SKIPPED_SHOWN = 100;

export const campaignMessages = {
  created: 'Campaign saved as a draft',
  notFound: 'Campaign not found',
  listEmpty: 'Give at least one customer id, email or external id',
  listTooLong: `A list holds at most ${MAX_CAMPAIGN_LIST} entries`,
  listOnly: 'customerIds, emails and externalIds are for a list segment only',
  filterOnly: 'status, visitedFrom and visitedTo are for a filter segment only',
  period: 'visitedFrom must be on or before visitedTo',
  amountRequired: 'A gift card campaign needs issuedAmount',
  discountRequired: 'A coupon campaign needs percentageDiscount',
  notDraft: (state: string) => `Only a draft can be submitted (this campaign is ${state})`,
  notWaiting: (state: string) => `Only a campaign waiting for approval can be decided (this one is ${state})`,
  notCancellable: (state: string) => `This campaign is ${state}: it cannot be cancelled`,
  ownCampaign: 'The maker of a campaign cannot approve or reject it: a second person must',
  empty: 'No customer of this segment can receive the reward: nothing to issue',
  started: 'Campaign started',
  waiting: 'Campaign waits for approval by a second person',
  approved: 'Campaign approved and started',
  rejected: 'Campaign rejected',
  cancelled: 'Campaign cancelled',
  reasonRequired: 'Give a reason',
  approvalsSaved: 'Approval thresholds saved',
  superAdminOnly: 'Only a Super Admin sets the approval thresholds',
} as const;

/** Why a customer of a segment is not rewarded. */
export const SKIP_REASONS = ['not_found', 'erased', 'blocked', 'not_linked', 'already_rewarded'] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

export const CAMPAIGN_STATES = [
  'draft',
  'awaiting_approval',
  'running',
  'done',
  'cancelled',
  'rejected',
  'failed',
  /** Waited for approval longer than the club's approvalExpiryDays: nothing was issued. */
  'expired',
] as const;

const listEntries = <T extends z.core.$ZodType>(item: T) =>
  z.optional(z.array(item).check(z.maxLength(MAX_CAMPAIGN_LIST, { error: campaignMessages.listTooLong })));

export const campaignSegmentSchema = z
  .strictObject({
    kind: z.enum(['eligible', 'filter', 'list'], { error: "kind must be 'eligible', 'filter' or 'list'" }),
    customerIds: listEntries(idField('customerIds')),
    emails: listEntries(emailField),
    externalIds: listEntries(z.string().check(z.trim(), z.minLength(1), z.maxLength(64))),
    status: z.optional(accountStatusSchema),
    visitedFrom: z.optional(dateField('visitedFrom')),
    visitedTo: z.optional(dateField('visitedTo')),
  })
  .check(
    z.refine(
      (s) =>
        s.kind !== 'list' ||
        (s.customerIds?.length ?? 0) + (s.emails?.length ?? 0) + (s.externalIds?.length ?? 0) > 0,
      { error: campaignMessages.listEmpty, path: ['customerIds'] },
    ),
    z.refine(
      (s) =>
        (s.customerIds?.length ?? 0) + (s.emails?.length ?? 0) + (s.externalIds?.length ?? 0) <=
        MAX_CAMPAIGN_LIST,
      { error: campaignMessages.listTooLong, path: ['customerIds'] },
    ),
    z.refine(
      (s) =>
        s.kind === 'list' ||
        (s.customerIds === undefined && s.emails === undefined && s.externalIds === undefined),
      { error: campaignMessages.listOnly, path: ['kind'] },
    ),
    z.refine(
      (s) =>
        s.kind === 'filter' ||
        (s.status === undefined && s.visitedFrom === undefined && s.visitedTo === undefined),
      { error: campaignMessages.filterOnly, path: ['kind'] },
    ),
    z.refine((s) => !s.visitedFrom || !s.visitedTo || s.visitedFrom <= s.visitedTo, {
      error: campaignMessages.period,
      path: ['visitedTo'],
    }),
  );
export type CampaignSegment = z.infer<typeof campaignSegmentSchema>;

export const campaignRewardSchema = z
  .strictObject({
    ...rewardTemplateFields,
    // The template's image is optional (one reward's is required).
    promotionalImage: z.optional(rewardTemplateFields.promotionalImage),
  })
  .check(
    z.refine((r) => r.rewardType !== 'GIFTCARD' || r.issuedAmount !== undefined, {
      error: campaignMessages.amountRequired,
      path: ['issuedAmount'],
    }),
    z.refine((r) => r.rewardType !== 'COUPON' || r.percentageDiscount !== undefined, {
      error: campaignMessages.discountRequired,
      path: ['percentageDiscount'],
    }),
  );

/** POST /admin/campaigns: a draft. */
export const createCampaignBodySchema = z.strictObject({
  name: z
    .string({ error: 'name is required' })
    .check(z.trim(), z.minLength(1, { error: 'name is required' }), z.maxLength(120)),
  partnerId: idField('partnerId'),
  reward: campaignRewardSchema,
  segment: campaignSegmentSchema,
});

export const campaignIdParamSchema = z.object({ id: idField('id') });

export const rejectCampaignBodySchema = z.strictObject({
  reason: z
    .string({ error: campaignMessages.reasonRequired })
    .check(z.trim(), z.minLength(1, { error: campaignMessages.reasonRequired }), z.maxLength(500)),
});

export const campaignListQuerySchema = z.object({
  pageNumber: pageNumberField,
  pageSize: z._default(pageSizeField, 10),
  partnerId: z.optional(idField('partnerId')),
  state: z.optional(z.enum(CAMPAIGN_STATES, { error: `state must be one of ${CAMPAIGN_STATES.join(', ')}` })),
});

const personSchema = z.nullable(z.object({ id: z.int(), name: z.string() }));

export const campaignSchema = z.object({
  id: z.int(),
  name: z.string(),
  partner: z.object({ id: z.int(), organizationName: z.string() }),
  state: z.enum(CAMPAIGN_STATES),
  reward: z.object({
    rewardType: rewardTypeSchema,
    rewardTypeCategory: rewardCategorySchema,
    issuedAmount: z.nullable(z.number()),
    percentageDiscount: z.nullable(z.number()),
    title: z.string(),
    description: z.string(),
    expiryDate: z.nullable(z.string()),
    promotionalImage: z.nullable(z.string()),
  }),
  segment: campaignSegmentSchema,
  /** Customers the run rewards or skips (fixed on submit; null while a draft). */
  total: z.nullable(z.int()),
  issued: z.int(),
  skipped: z.int(),
  /** Naira: the gift cards' face value of the customers to reward (fixed on submit; coupons count 0). */
  totalValue: z.nullable(z.number()),
  createdBy: personSchema,
  approvedBy: personSchema,
  rejectedBy: personSchema,
  rejectionReason: z.nullable(z.string()),
  error: z.nullable(z.string()),
  createdAt: z.string(),
  submittedAt: z.nullable(z.string()),
  decidedAt: z.nullable(z.string()),
  finishedAt: z.nullable(z.string()),
});
export type Campaign = z.infer<typeof campaignSchema>;

export const skippedCustomerSchema = z.object({
  /** null for a list entry that names nobody (`ref` says what was sent). */
  customerId: z.nullable(z.int()),
  ref: z.nullable(z.string()),
  reason: z.enum(SKIP_REASONS),
});

export const campaignPreviewSchema = z.object({
  /** Customers who would receive the reward. */
  count: z.int(),
  /** Naira: count × the gift card's amount (a coupon has no face value: 0). */
  totalValue: z.number(),
  skipped: z.object({
    count: z.int(),
    byReason: z.object({
      not_found: z.int(),
      erased: z.int(),
      blocked: z.int(),
      not_linked: z.int(),
      already_rewarded: z.int(),
    }),
    /** The first PREVIEW_SKIPPED_SHOWN skipped, by customer id (unknown list entries last). */
    customers: z.array(skippedCustomerSchema),
  }),
  /** Whether submitting it now would wait for a second person's approval, and why. */
  needsApproval: z.boolean(),
  approvalReasons: z.array(z.string()),
});
export type CampaignPreview = z.infer<typeof campaignPreviewSchema>;

const thresholdFields = {
  campaignTotalAbove: z.nullable(
    moneyAmount('campaignTotalAbove must be a number', 'campaignTotalAbove must be positive'),
  ),
  singleRewardAbove: z.nullable(
    moneyAmount('singleRewardAbove must be a number', 'singleRewardAbove must be positive'),
  ),
};

const expiryDaysField = z.number({ error: 'approvalExpiryDays must be a whole number of days' }).check(
  z.int({ error: 'approvalExpiryDays must be a whole number of days' }),
  z.minimum(1, { error: `approvalExpiryDays must be between 1 and ${MAX_APPROVAL_EXPIRY_DAYS}` }),
  z.maximum(MAX_APPROVAL_EXPIRY_DAYS, {
    error: `approvalExpiryDays must be between 1 and ${MAX_APPROVAL_EXPIRY_DAYS}`,
  }),
);

/**
 * PUT /admin/settings/approvals: the thresholds in naira (null: no threshold) and the days a request
 * waits before it expires (absent: unchanged; decision 074).
 */
export const approvalSettingsBodySchema = z.strictObject({
  ...thresholdFields,
  approvalExpiryDays: z.optional(expiryDaysField),
});
export type ApprovalSettingsBody = z.infer<typeof approvalSettingsBodySchema>;

/** GET and PUT /admin/settings/approvals answer every setting. */
export const approvalSettingsSchema = z.object({
  ...thresholdFields,
  approvalExpiryDays: expiryDaysField,
});
export type ApprovalSettings = z.infer<typeof approvalSettingsSchema>;
