import { CAMPAIGN_STATES } from './campaigns';
import { idField } from './ids';
import { pageNumberField, pageSizeField } from './list';
import { rewardCategorySchema, rewardTypeSchema } from './rewards';
import { z } from './zod';

/*
 * Four eyes, the rest of it (issue 35, docs/decisions/074-four-eyes-queue-and-expiry.md): a single
 * reward above the club's `singleRewardAbove` waits as a reward request instead of being issued; the
 * approvals queue lists what waits (campaigns and reward requests); a request not decided within
 * `approvalExpiryDays` expires.
 */

export const REWARD_REQUEST_STATES = ['awaiting_approval', 'approved', 'rejected', 'expired'] as const;

/** What the approvals queue filters on: waiting (the default), expired, decided (approved or rejected). */
export const APPROVAL_QUEUE_STATES = ['awaiting_approval', 'expired', 'decided'] as const;

export const approvalMessages = {
  waiting: 'Reward sent for approval: a second person must approve it before it is issued',
  approved: 'Reward approved and issued',
  rejected: 'Reward request rejected',
  notFound: 'Reward request not found',
  ownRequest: 'The maker of a request cannot approve or reject it: a second person must',
  notWaiting: (state: string) => `Only a request waiting for approval can be decided (this one is ${state})`,
  expired: (days: number) =>
    `This request was not decided within ${days} day${days === 1 ? '' : 's'} and has expired: nothing was issued`,
} as const;

const personSchema = z.nullable(z.object({ id: z.int(), name: z.string() }));

/** A single reward waiting for (or decided by) a second person. */
export const rewardRequestSchema = z.object({
  id: z.int(),
  state: z.enum(REWARD_REQUEST_STATES),
  partner: z.object({ id: z.int(), organizationName: z.string() }),
  customer: z.object({ id: z.int(), name: z.string() }),
  rewardType: rewardTypeSchema,
  rewardTypeCategory: rewardCategorySchema,
  issuedAmount: z.nullable(z.number()),
  percentageDiscount: z.nullable(z.number()),
  title: z.string(),
  description: z.string(),
  expiryDate: z.nullable(z.string()),
  promotionalImage: z.nullable(z.string()),
  byPoints: z.boolean(),
  /** Why it waits (the threshold it is above). */
  approvalReasons: z.array(z.string()),
  createdBy: personSchema,
  decidedBy: personSchema,
  rejectionReason: z.nullable(z.string()),
  /** The reward issued on approval. */
  rewardId: z.nullable(z.int()),
  createdAt: z.string(),
  /** When it expires if nobody decides (null once decided). */
  expiresAt: z.nullable(z.string()),
  decidedAt: z.nullable(z.string()),
});
export type RewardRequest = z.infer<typeof rewardRequestSchema>;

/** GET /partners/rewards/requests: a partner's reward requests, the newest first (partner staff: their own). */
export const rewardRequestListQuerySchema = z.object({
  partnerId: z.optional(idField('partnerId')),
  pageNumber: pageNumberField,
  pageSize: z._default(pageSizeField, 10),
});

export const rewardRequestIdParamSchema = z.object({ id: idField('id') });

export const rejectRequestBodySchema = z.strictObject({
  reason: z
    .string({ error: 'Give a reason' })
    .check(z.trim(), z.minLength(1, { error: 'Give a reason' }), z.maxLength(500)),
});

export const approvalQueueQuerySchema = z.object({
  pageNumber: pageNumberField,
  pageSize: z._default(pageSizeField, 20),
  state: z._default(
    z.enum(APPROVAL_QUEUE_STATES, { error: `state must be one of ${APPROVAL_QUEUE_STATES.join(', ')}` }),
    'awaiting_approval',
  ),
});

/** One entry of the approvals queue: a campaign or a single reward, with the figures to decide on. */
export const approvalItemSchema = z.object({
  kind: z.enum(['campaign', 'reward']),
  /** The campaign's id, or the reward request's. */
  id: z.int(),
  /** A reward request's state, or a campaign's. */
  state: z.enum([...new Set([...REWARD_REQUEST_STATES, ...CAMPAIGN_STATES])] as [string, ...string[]]),
  /** The campaign's name, or the reward's title. */
  name: z.string(),
  partner: z.object({ id: z.int(), organizationName: z.string() }),
  maker: personSchema,
  decidedBy: personSchema,
  rejectionReason: z.nullable(z.string()),
  rewardType: rewardTypeSchema,
  /** Naira each gift card is worth (null for a coupon). */
  issuedAmount: z.nullable(z.number()),
  percentageDiscount: z.nullable(z.number()),
  /** Customers to reward (1 for a single reward). */
  count: z.int(),
  /** Naira face value of it all (a coupon counts 0). */
  totalValue: z.number(),
  approvalReasons: z.array(z.string()),
  /** A single reward's customer. */
  customer: z.nullable(z.object({ id: z.int(), name: z.string() })),
  /** A campaign's preview as fixed on submit: who is skipped, by reason. */
  preview: z.nullable(
    z.object({
      count: z.int(),
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
      }),
    }),
  ),
  /** When it started waiting. */
  waitingSince: z.string(),
  expiresAt: z.nullable(z.string()),
  decidedAt: z.nullable(z.string()),
});
export type ApprovalItem = z.infer<typeof approvalItemSchema>;

/** What an issue answers: the reward (201), or the request waiting for approval (202). */
export const isRewardRequest = (answer: object): answer is RewardRequest =>
  'approvalReasons' in answer && 'state' in answer;
