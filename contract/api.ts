import { z } from 'zod';
import { activityListQuerySchema, activitySchema } from './activities';
import {
  API_KEY_PERMISSIONS,
  apiKeyParamSchema,
  apiKeySchema,
  createApiKeyBodySchema,
  createdApiKeySchema,
} from './api-keys';
import {
  approvalItemSchema,
  approvalQueueQuerySchema,
  rejectRequestBodySchema,
  rewardRequestIdParamSchema,
  rewardRequestListQuerySchema,
  rewardRequestSchema,
} from './approvals';
import {
  loginBodySchema,
  loginResponseSchema,
  passwordResetRequestBodySchema,
  refreshBodySchema,
  sessionUserSchema,
  tokenPairSchema,
  updatePasswordBodySchema,
} from './auth';
import {
  approvalSettingsBodySchema,
  approvalSettingsSchema,
  campaignIdParamSchema,
  campaignListQuerySchema,
  campaignPreviewSchema,
  campaignSchema,
  createCampaignBodySchema,
  PREVIEW_SKIPPED_SHOWN,
  rejectCampaignBodySchema,
} from './campaigns';
import { VERSION_HEADER } from './concurrency';
import {
  confirmCustomerLinkBodySchema,
  confirmedLinkSchema,
  createCustomerLinkBodySchema,
  customerLinkIdParamSchema,
  customerLinkParamsSchema,
  customerLinkRequestSchema,
  customerLinkSchema,
} from './customer-links';
import { customerDataExportSchema, erasedCustomerSchema } from './customer-privacy';
import {
  addCustomerBodySchema,
  CLUB_KEY_SCOPE_PERMISSIONS,
  CLUB_KEY_SCOPES,
  clubKeyParamSchema,
  clubKeySchema,
  createClubKeyBodySchema,
  createdClubKeySchema,
  customerRecordSchema,
  customerSyncResultSchema,
  DRY_RUN_REJECTS,
  externalIdParamSchema,
  IMPORT_FIELDS,
  importDryRunSchema,
  importIdParamSchema,
  importJobSchema,
  importQuerySchema,
  MAX_IMPORT_BYTES,
  restoredCustomerSchema,
  syncedCustomerSchema,
} from './customer-sync';
import {
  clientInfoQuerySchema,
  clientInternetInfoSchema,
  customerIdParamSchema,
  customerListQuerySchema,
  customerSchema,
  customerStatusBodySchema,
  updateCustomerBodySchema,
} from './customers';
import { cursorListSchema, fieldErrorSchema, listMetaSchema, listSchema } from './envelope';
import type { ErrorCode } from './error-codes';
import {
  createExtendedServiceBodySchema,
  extendedServiceIdParamSchema,
  extendedServiceListQuerySchema,
  extendedServiceSchema,
  updateExtendedServiceBodySchema,
} from './extended-services';
import {
  createPartnerBodySchema,
  partnerIdParamSchema,
  partnerIdQuerySchema,
  partnerListQuerySchema,
  partnerSchema,
  partnerStatsSchema,
  partnerStatusBodySchema,
  reviewRulesSchema,
  updatePartnerBodySchema,
} from './partners';
import { type PermissionName, permissionSchema } from './permissions';
import { changePasswordBodySchema, profileSchema, profileUpdateBodySchema } from './profile';
import {
  getRewardBodySchema,
  initiateRedemptionBodySchema,
  initiateRedemptionResponseSchema,
  ledgerEntrySchema,
  otpValidityBodySchema,
  otpValidityResponseSchema,
  redeemCouponBodySchema,
  redeemGiftcardBodySchema,
  redemptionCustomerSchema,
  redemptionCustomersQuerySchema,
  redemptionResultSchema,
  reversalResultSchema,
  reverseRedemptionBodySchema,
  rewardLedgerParamsSchema,
  rewardLedgerQuerySchema,
  rewardLedgerSchema,
} from './redemption';
import { rewardActivitySchema } from './reward-activity';
import {
  giftcardBalanceSchema,
  issueRewardBodySchema,
  partnerRewardsQuerySchema,
  partnerScopeQuerySchema,
  rewardCategorySchema,
  rewardSchema,
  rewardTypeSchema,
} from './rewards';
import {
  createRoleBodySchema,
  roleDetailQuerySchema,
  roleIdParamSchema,
  roleListQuerySchema,
  roleSchema,
  updateRoleBodySchema,
} from './roles';
import {
  inviteStaffBodySchema,
  staffDetailQuerySchema,
  staffIdParamSchema,
  staffListQuerySchema,
  staffUserSchema,
  updateStaffBodySchema,
} from './staff';
import { rewardStatsSchema, userStatsSchema } from './stats';
import {
  rejectVisitBodySchema,
  reviewRulesBodySchema,
  visitReviewIdParamSchema,
  visitReviewListQuerySchema,
} from './visit-reviews';
import {
  createVisitBodySchema,
  eligibleUserDetailQuerySchema,
  eligibleUserDetailSchema,
  eligibleUserIdParamSchema,
  eligibleUserSchema,
  eligibleUsersQuerySchema,
  pointsEligibleQuerySchema,
  pointsEligibleUserSchema,
  visitIdParamSchema,
  visitItemSchema,
  visitListQuerySchema,
  visitSchema,
} from './visits';
import {
  createdWebhookSchema,
  createWebhookBodySchema,
  MAX_PREVIOUS_WEBHOOK_SECRETS,
  updateWebhookBodySchema,
  WEBHOOK_SECRET_OVERLAP_TEXT,
  webhookDeliveryListQuerySchema,
  webhookDeliveryParamSchema,
  webhookDeliverySchema,
  webhookIdParamSchema,
  webhookListQuerySchema,
  webhookSchema,
} from './webhooks';

/**
 * THE registry of the API (everything under /api/v1): each endpoint's method, path, access, and the
 * contract schemas of its path parameters, query, body and response `data`. The OpenAPI document
 * (GET /api/v1/openapi.json, server/openapi.ts) is generated from it, and a test fails when a
 * mounted route is missing here, an entry names no mounted route, or a documented request schema is
 * not the very object the route validates with (server/openapi.test.ts).
 */

/** Who may call: anyone, any signed-in staff member, or a holder of any one of the permissions. */
export type ApiAccess = 'public' | 'authenticated' | readonly [PermissionName, ...PermissionName[]];

/**
 * Where a call works (docs/decisions/023-partner-tenant-scope.md): `club` refuses partner staff,
 * `partner` confines them to their own partner (another partner is 404), `self` is the caller's own
 * account, `public` needs no token. The guard of each route declares it; a test compares.
 */
export type ApiScope = 'club' | 'partner' | 'self' | 'public';

/**
 * The kinds of API key a call may be made with: a partner's key (a till, docs/decisions/028) or a
 * club integration key (the provider's subscriber system, docs/decisions/051).
 */
export type ApiKeyKind = 'partner' | 'club';

/**
 * Which kind of API key may call an endpoint, derived from its declaration alone (decision 056):
 * - a partner key (a till) calls partner-scoped routes that need only a sign-in or a permission a
 *   key may hold (API_KEY_PERMISSIONS);
 * - a club key (decision 051) calls the club-scoped routes that declare `clubKey` (the subscriber
 *   sync) whose access names a permission a club key's scope stands for (CLUB_KEY_SCOPE_PERMISSIONS);
 * nothing else. The guard (server/http/access.ts) enforces the same rule, the OpenAPI document's
 * `ApiKey` security is this, and server/openapi.test.ts compares the two.
 */
export function apiKeyKind(e: {
  access: ApiAccess;
  scope: ApiScope;
  clubKey?: boolean;
}): ApiKeyKind | undefined {
  if (e.access === 'public') return undefined;
  if (e.scope === 'club' && e.clubKey === true && e.access !== 'authenticated') {
    const clubPermissions: readonly string[] = Object.values(CLUB_KEY_SCOPE_PERMISSIONS).flat();
    return e.access.some((p) => clubPermissions.includes(p)) ? 'club' : undefined;
  }
  if (e.scope !== 'partner') return undefined;
  const keyPermissions: readonly string[] = API_KEY_PERMISSIONS;
  if (e.access === 'authenticated' || e.access.some((p) => keyPermissions.includes(p))) return 'partner';
  return undefined;
}

/** Request headers some calls read (validated by the server, documented here). */
export type ApiHeader = 'Idempotency-Key' | 'If-Match';

/** Error statuses an endpoint may answer beyond those derived from its shape (see server/openapi.ts). */
export type ApiErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 422 | 429 | 503;

export type ApiEndpoint = {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** OpenAPI form, relative to /api/v1: `/admin/partners/{partnerId}`. */
  path: string;
  tag: string;
  summary: string;
  description?: string;
  access: ApiAccess;
  scope: ApiScope;
  params?: z.core.$ZodObject;
  query?: z.core.$ZodObject;
  body?: z.core.$ZodType;
  headers?: readonly ApiHeader[];
  /** The `data` of the success envelope (null for calls that answer only a message). */
  data: z.core.$ZodType;
  /** The success status (200 unless given). */
  status?: 200 | 201;
  /**
   * A second success: 202, the request was taken but waits (a reward above the four-eyes threshold,
   * decision 074), answering this `data` instead. The client parses either.
   */
  accepted?: { data: z.core.$ZodType; description: string };
  errors?: readonly ApiErrorStatus[];
  /**
   * The catalogue codes (contract/error-codes.ts) this call answers beyond those its shape implies
   * (server/openapi.ts `errorCodesOf`): each adds its status to the documented errors, with an
   * example. A status in `errors` that no code names documents its generic code (409 `conflict`).
   */
  codes?: readonly ErrorCode[];
  /**
   * A route of the subscriber sync (decision 051): a club integration key (`rcc_`, X-Api-Key) may
   * call it when its scopes stand for a permission in `access` (contract/customer-sync.ts). Only
   * club-scoped routes may say so; `apiKeyKind` turns it into the `club` kind.
   */
  clubKey?: true;
  /** Hand-written examples (the rest are made from the schemas, server/api-examples.ts). */
  examples?: { body?: unknown; data?: unknown };
  /** A request body the handler streams itself (not JSON): its media types and description. */
  rawBody?: { contentTypes: readonly string[]; description: string };
  /** Not an envelope: the raw answer's media type and description (files, this document). */
  raw?: { contentType: string; description: string };
  /** The largest body the call takes, in bytes, when over the 1 MiB default (a base64 image). */
  bodyLimit?: number;
  /**
   * Every path parameter matches digits only, so another route's word in its place is that route
   * (`/admin/partners/stats` is not a partner id) and not a 400.
   */
  numericIds?: true;
  /** A malformed path parameter answers 404 like an unknown one (a file hash), not 400. */
  badParamsNotFound?: true;
  /** A success may queue a webhook message: the sender is woken after it (server/webhook-sender.ts). */
  webhookSource?: true;
  /**
   * Where the request names a customer (issue 28, decision 053): partner staff and partner keys pass
   * only for a customer linked to their partner; any other (unlinked, unknown, erased) is one 403
   * `customer_not_linked`. Club staff are not bound.
   */
  customer?: { in: 'param' | 'json' | 'query'; field: string };
};

/** Bodies carrying one base64 image (a 5 MiB image is ~7 MB of base64). */
export const IMAGE_BODY_LIMIT = 8 * 1024 * 1024;

/** `Idempotency-Key`: a repeat with the same key and body returns the first answer and changes nothing. */
export const idempotencyKeySchema = z
  .string()
  .regex(/^[\x21-\x7e]{1,200}$/)
  .meta({
    description:
      'Optional. 1 to 200 visible ASCII characters. A repeat with the same key within 24 hours returns the first answer (with `Idempotent-Replayed: true`) and changes nothing; the same key with another body is a 422. After 24 hours a key is forgotten: a repeat then runs as a new request.',
    example: '6f1c2b1e-3c1a-4d8e-9a7e-2f0b8f3c1d55',
  });

/** `If-Match`: the record version the client edited (its `updatedAt`, quoted); a stale one is a 409. */
export const versionHeaderSchema = z.string().meta({
  description:
    'Optional. The `updatedAt` of the record as the client last read it, in quotes. When the record has changed since, the answer is 409 with the current record in `data`.',
  example: '"2026-01-31T09:15:00.000Z"',
});

export const apiHeaderSchemas: Record<ApiHeader, z.ZodType> = {
  'Idempotency-Key': idempotencyKeySchema,
  [VERSION_HEADER]: versionHeaderSchema,
};

/** Named response schemas: the document lists them under components.schemas and refers to them. */
export const apiSchemas: Record<string, z.core.$ZodType> = {
  FieldError: fieldErrorSchema,
  ListMeta: listMetaSchema,
  SessionUser: sessionUserSchema,
  Profile: profileSchema,
  Permission: permissionSchema,
  StaffUser: staffUserSchema,
  Role: roleSchema,
  Activity: activitySchema,
  Partner: partnerSchema,
  PartnerStats: partnerStatsSchema,
  UserStats: userStatsSchema,
  RewardStats: rewardStatsSchema,
  ExtendedService: extendedServiceSchema,
  Visit: visitSchema,
  VisitItem: visitItemSchema,
  EligibleUser: eligibleUserSchema,
  EligibleUserDetail: eligibleUserDetailSchema,
  PointsEligibleUser: pointsEligibleUserSchema,
  Customer: customerSchema,
  ClientInternetInfo: clientInternetInfoSchema,
  Reward: rewardSchema,
  RewardLedger: rewardLedgerSchema,
  LedgerEntry: ledgerEntrySchema,
  GiftcardBalance: giftcardBalanceSchema,
  RedemptionCustomer: redemptionCustomerSchema,
  RedemptionResult: redemptionResultSchema,
  ReversalResult: reversalResultSchema,
  ApiKey: apiKeySchema,
  ClubKey: clubKeySchema,
  SyncedCustomer: syncedCustomerSchema,
  CustomerSyncResult: customerSyncResultSchema,
  ImportJob: importJobSchema,
  ImportDryRun: importDryRunSchema,
  Webhook: webhookSchema,
  CreatedWebhook: createdWebhookSchema,
  WebhookDelivery: webhookDeliverySchema,
  Campaign: campaignSchema,
  CampaignPreview: campaignPreviewSchema,
  ApprovalSettings: approvalSettingsSchema,
  RewardRequest: rewardRequestSchema,
  ApprovalItem: approvalItemSchema,
};

/** GET /files/{hash}: the SHA-256 of the bytes, hex (a malformed hash is a 404, like an unknown one). */
export const fileHashParamSchema = z.object({
  hash: z.string().regex(/^[0-9a-fA-F]{64}$/),
});

/** `environment`: the server's NODE_ENV ('development' when unset), so tools can refuse production. */
const healthSchema = z.object({ status: z.literal('ok'), environment: z.string() });
const noData = z.null();
const IDEMPOTENT: readonly ApiHeader[] = ['Idempotency-Key'];
/** Why a one-time code (a redemption or link code) cannot be used. */
const OTP_CODES = ['otp_invalid', 'otp_expired', 'otp_used', 'otp_missing', 'otp_locked'] as const;
/** What both redeem calls may refuse, beyond the reward's type. */
const REDEEM_CODES = [
  'partner_blocked',
  'customer_blocked',
  'reward_already_redeemed',
  'reward_expired',
  ...OTP_CODES,
  'rate_limited',
] as const;
const VERSIONED: readonly ApiHeader[] = ['Idempotency-Key', 'If-Match'];

/** The weekly stats' example: 12 Monday-to-Monday weeks (Lagos), oldest first, the last one partial. */
const WEEKLY_ACTIVITY_EXAMPLE = {
  timeZone: 'Africa/Lagos',
  weeks: [
    { weekStart: '2026-06-08', issuedCount: 3, issuedAmount: 15000, redeemedCount: 1, redeemedAmount: 2500 },
    { weekStart: '2026-06-15', issuedCount: 5, issuedAmount: 25000, redeemedCount: 2, redeemedAmount: 7500 },
    { weekStart: '2026-06-22', issuedCount: 0, issuedAmount: 0, redeemedCount: 1, redeemedAmount: 5000 },
    { weekStart: '2026-06-29', issuedCount: 4, issuedAmount: 20000, redeemedCount: 0, redeemedAmount: 0 },
    { weekStart: '2026-07-06', issuedCount: 6, issuedAmount: 30000, redeemedCount: 3, redeemedAmount: 12500 },
    { weekStart: '2026-07-13', issuedCount: 2, issuedAmount: 10000, redeemedCount: 2, redeemedAmount: 6000 },
    { weekStart: '2026-07-20', issuedCount: 7, issuedAmount: 35000, redeemedCount: 4, redeemedAmount: 15000 },
    { weekStart: '2026-07-27', issuedCount: 5, issuedAmount: 25000, redeemedCount: 3, redeemedAmount: 9000 },
    { weekStart: '2026-08-03', issuedCount: 4, issuedAmount: 20000, redeemedCount: 2, redeemedAmount: 8000 },
    { weekStart: '2026-08-10', issuedCount: 8, issuedAmount: 40000, redeemedCount: 5, redeemedAmount: 17500 },
    { weekStart: '2026-08-17', issuedCount: 6, issuedAmount: 30000, redeemedCount: 4, redeemedAmount: 14000 },
    { weekStart: '2026-08-24', issuedCount: 2, issuedAmount: 10000, redeemedCount: 1, redeemedAmount: 3000 },
  ],
  outstandingGiftcardBalance: 187500,
  outstandingGiftcardCount: 23,
  asOf: '2026-08-26T09:00:00.000Z',
};

/** The description of a list that pages by number and by cursor (decision 066). */
const CURSOR_PAGING =
  'Pages by number (`pageNumber`, `pageSize`: the console; `data.meta` holds the total) or by cursor (`limit`, `startingAfter` or `endingBefore`: a till; no total). A cursor is the `id` of a record of the page you hold; the next page is the records after it in the same sort, so records that arrive between calls never shift it: walk on with `startingAfter` = the last `id` while `data.hasMore` is true. Send the same filters and sort on every page. An id not in the list is a 400 `invalid_cursor`; both cursors, or a cursor with pageNumber/pageSize, a 400 `validation_failed`. Example: `?partnerId=12&limit=20` answers `{ "records": [20 records], "hasMore": true }`; `?partnerId=12&limit=20&startingAfter=3401` (3401: the last `id` of that page) the next 20; the last page says `"hasMore": false`.';

/**
 * A list's CSV export: the list's own query (paging ignored) and access; the answer is a CSV file
 * (UTF-8 with a byte order mark, formulas defused), not an envelope; errors are enveloped as usual.
 */
function csvExport<P extends string, Q extends z.core.$ZodObject>(
  path: P,
  tag: string,
  what: string,
  access: readonly [PermissionName, ...PermissionName[]],
  scope: ApiScope,
  query: Q,
  errors: readonly ApiErrorStatus[] = [],
) {
  return {
    method: 'get',
    path,
    tag,
    summary: `Export ${what} as CSV (every matching row)`,
    description:
      'Every row the same query of the list matches (search, filters and sort; pageNumber, pageSize, limit and the cursors are ignored), streamed as a CSV attachment. `X-Total-Count` gives the number of rows.',
    access,
    scope,
    query,
    data: noData,
    errors: [400, ...errors],
    raw: { contentType: 'text/csv', description: 'The CSV file (Content-Disposition: attachment)' },
  } satisfies ApiEndpoint;
}

const WEBHOOK_ACCESS = ['integrations.manage'] as const;
const CLUB_KEY_ACCESS = ['integrations.manage'] as const;
const CLUB_KEY_TEXT =
  'Club integration keys belong to the club, not a partner: a Super Admin manages them (anyone else is 403). Sent as `X-Api-Key`, a key reaches only the customer sync calls its scopes allow, never a partner route.';
const API_KEY_SCOPE = "Partner staff manage only their own partner's keys (another partner answers 404).";
const WEBHOOK_SCOPE =
  "Partner staff see and manage only their own partner's webhooks (a webhook of another partner, or a club-wide one, answers 404).";

const CAMPAIGN_MANAGE = ['campaigns.manage'] as const;
const CAMPAIGN_READ = ['campaigns.manage', 'rewards.approve'] as const;
/** One campaign as the console and a script read it (a drafted, submitted, approved one running). */
const CAMPAIGN_EXAMPLE = {
  id: 5,
  name: 'December thank-you',
  partner: { id: 12, organizationName: 'Mama Put Kitchen' },
  state: 'running',
  reward: {
    rewardType: 'GIFTCARD',
    rewardTypeCategory: 'GENERAL',
    issuedAmount: 2500,
    percentageDiscount: null,
    title: 'Thank you',
    description: 'A gift card for a year with us',
    expiryDate: '2026-12-31T22:59:59.999Z',
    promotionalImage: null,
  },
  segment: { kind: 'filter', status: 'ACTIVE', visitedFrom: '2026-11-01', visitedTo: '2026-11-30' },
  total: 1200,
  issued: 640,
  skipped: 13,
  totalValue: 2967500,
  createdBy: { id: 3, name: 'Mira Okon' },
  approvedBy: { id: 4, name: 'Ade Bello' },
  rejectedBy: null,
  rejectionReason: null,
  error: null,
  createdAt: '2026-11-28T09:00:00.000Z',
  submittedAt: '2026-11-28T09:05:00.000Z',
  decidedAt: '2026-11-28T10:10:00.000Z',
  finishedAt: null,
};
const CAMPAIGN_SCOPE =
  "Partner staff see and act on their own partner's campaigns only (another partner's answers 404).";

const endpointList = [
  // Auth
  {
    method: 'post',
    path: '/admin/auth/login',
    tag: 'Auth',
    summary: 'Sign in',
    description:
      'Email and password of a staff member. Answers an access token (JWT, 15 minutes), a refresh token and the user. Five failures per account in 15 minutes answer 429 with Retry-After.',
    access: 'public',
    scope: 'public',
    body: loginBodySchema,
    data: loginResponseSchema,
    errors: [401, 403, 429],
  },
  {
    method: 'post',
    path: '/auth/refresh-token',
    tag: 'Auth',
    summary: 'Exchange a refresh token for a new token pair',
    description:
      'Refresh tokens rotate on every use; a reused (already rotated) token revokes its whole session.',
    access: 'public',
    scope: 'public',
    body: refreshBodySchema,
    data: tokenPairSchema,
    errors: [401],
  },
  {
    method: 'post',
    path: '/auth/logout',
    tag: 'Auth',
    summary: 'Sign out (revokes the session of the access token)',
    access: 'authenticated',
    scope: 'self',
    data: noData,
  },
  {
    method: 'post',
    path: '/auth/password-reset-request',
    tag: 'Auth',
    summary: 'Mail a password reset code',
    description: 'Answers the same whether or not the email belongs to a staff member.',
    access: 'public',
    scope: 'public',
    body: passwordResetRequestBodySchema,
    data: noData,
    codes: ['rate_limited'],
  },
  {
    method: 'patch',
    path: '/auth/update-password',
    tag: 'Auth',
    summary: 'Set a new password with a mailed reset code',
    access: 'public',
    scope: 'public',
    body: updatePasswordBodySchema,
    data: noData,
    codes: ['rate_limited'],
  },
  // System
  {
    method: 'get',
    path: '/health',
    tag: 'System',
    summary: 'Health check (the database answers too)',
    access: 'public',
    scope: 'public',
    data: healthSchema,
    errors: [503],
  },
  {
    method: 'get',
    path: '/authz',
    tag: 'System',
    summary: 'The permission catalogue',
    access: 'authenticated',
    scope: 'self',
    data: z.array(permissionSchema),
  },
  {
    method: 'get',
    path: '/openapi.json',
    tag: 'System',
    summary: 'This API reference as an OpenAPI 3.1 document',
    access: 'public',
    scope: 'public',
    data: noData,
    raw: { contentType: 'application/json', description: 'The OpenAPI 3.1 document (not enveloped)' },
  },
  {
    method: 'get',
    path: '/files/{hash}',
    badParamsNotFound: true,
    tag: 'System',
    summary: 'An uploaded image by its SHA-256 content hash',
    access: 'public',
    scope: 'public',
    params: fileHashParamSchema,
    data: noData,
    errors: [404],
    raw: { contentType: 'image/*', description: 'The image bytes (PNG, JPEG or WebP), cached for a year' },
  },
  // Profile
  {
    method: 'get',
    path: '/user/profile',
    tag: 'Profile',
    summary: 'The signed-in user',
    access: 'authenticated',
    scope: 'self',
    data: profileSchema,
  },
  {
    method: 'patch',
    path: '/user/profile',
    bodyLimit: IMAGE_BODY_LIMIT,
    tag: 'Profile',
    summary: 'Update the signed-in user',
    access: 'authenticated',
    scope: 'self',
    body: profileUpdateBodySchema,
    headers: VERSIONED,
    data: profileSchema,
    errors: [409, 422],
  },
  {
    method: 'patch',
    path: '/user/profile/update-password',
    tag: 'Profile',
    summary: 'Change the password',
    access: 'authenticated',
    scope: 'self',
    body: changePasswordBodySchema,
    data: noData,
    codes: ['rate_limited'],
  },
  // Staff
  {
    method: 'get',
    path: '/admin/user/stats',
    tag: 'Dashboard',
    summary: 'Club totals: partners, clients, staff',
    access: ['dashboard.view'],
    scope: 'club',
    data: userStatsSchema,
  },
  {
    method: 'get',
    path: '/admin/partners/stats/reward',
    tag: 'Dashboard',
    summary: 'Club-wide reward figures (partner staff: their partner)',
    access: ['dashboard.view'],
    scope: 'partner',
    data: rewardStatsSchema,
  },
  {
    method: 'get',
    path: '/admin/partners/stats/reward/weekly',
    tag: 'Dashboard',
    summary:
      'Rewards issued and redeemed per week for the last 12 ISO weeks (Lagos time) and the outstanding gift-card balance (partner staff: their partner)',
    access: ['dashboard.view'],
    scope: 'partner',
    data: rewardActivitySchema,
    examples: { data: WEEKLY_ACTIVITY_EXAMPLE },
  },
  {
    method: 'get',
    path: '/admin/user/admin-users',
    tag: 'Staff',
    summary: 'Staff members (a page)',
    access: ['staff.view'],
    scope: 'partner',
    query: staffListQuerySchema,
    data: listSchema(staffUserSchema),
  },
  {
    method: 'get',
    path: '/admin/admin-users',
    tag: 'Staff',
    summary: 'Staff members (a page; the same as /admin/user/admin-users)',
    access: ['staff.view'],
    scope: 'partner',
    query: staffListQuerySchema,
    data: listSchema(staffUserSchema),
  },
  {
    method: 'get',
    path: '/admin/user/admin-detail',
    tag: 'Staff',
    summary: 'One staff member',
    access: ['staff.view'],
    scope: 'partner',
    query: staffDetailQuerySchema,
    data: staffUserSchema,
    errors: [404],
  },
  {
    method: 'post',
    path: '/admin/user/new-admin-user',
    tag: 'Staff',
    summary: 'Invite a staff member (mails a code to set a password)',
    access: ['staff.create'],
    scope: 'partner',
    body: inviteStaffBodySchema,
    data: staffUserSchema,
    status: 201,
    errors: [409],
  },
  {
    method: 'patch',
    path: '/admin/user/update-admin-user',
    tag: 'Staff',
    summary: 'Update a staff member',
    description:
      "Only the fields sent change. `password` sets another member's password; on one's own record it is refused whole (400 on password): one's own password changes with PATCH /user/profile/update-password, which asks for the current one.",
    access: ['staff.update'],
    scope: 'partner',
    body: updateStaffBodySchema,
    data: staffUserSchema,
    errors: [404, 409],
  },
  {
    method: 'delete',
    path: '/admin/user/delete-admin-user/{staffId}',
    tag: 'Staff',
    summary: 'Delete a staff member',
    access: ['staff.delete'],
    scope: 'partner',
    params: staffIdParamSchema,
    data: noData,
    errors: [409],
  },
  // Roles
  {
    method: 'get',
    path: '/admin/user/get-roles',
    tag: 'Roles',
    summary: 'Roles (a page)',
    access: ['roles.view'],
    scope: 'partner',
    query: roleListQuerySchema,
    data: listSchema(roleSchema),
  },
  {
    method: 'get',
    path: '/admin/user/get-role-detail',
    tag: 'Roles',
    summary: 'One role with its permissions',
    access: ['roles.view'],
    scope: 'partner',
    query: roleDetailQuerySchema,
    data: roleSchema,
    errors: [404],
  },
  {
    method: 'post',
    path: '/admin/user/create-role',
    tag: 'Roles',
    summary: 'Create a role',
    description: 'A role may only grant permissions its creator holds (else 403).',
    access: ['roles.create'],
    scope: 'club',
    body: createRoleBodySchema,
    data: roleSchema,
    status: 201,
    errors: [409],
  },
  {
    method: 'patch',
    path: '/admin/user/update-role',
    tag: 'Roles',
    summary: 'Rename a role or change its permissions',
    access: ['roles.update'],
    scope: 'club',
    body: updateRoleBodySchema,
    data: roleSchema,
    errors: [404, 409],
  },
  {
    method: 'delete',
    path: '/admin/user/delete-role/{roleId}',
    tag: 'Roles',
    summary: 'Delete a role no staff member holds',
    access: ['roles.delete'],
    scope: 'club',
    params: roleIdParamSchema,
    data: noData,
    errors: [409],
  },
  // Activities
  {
    method: 'get',
    path: '/admin/user/activities',
    tag: 'Activities',
    summary: 'The activity log (a page)',
    access: ['activities.view'],
    scope: 'partner',
    description: CURSOR_PAGING,
    query: activityListQuerySchema,
    data: cursorListSchema(activitySchema),
    codes: ['invalid_cursor'],
  },
  // Partners
  {
    method: 'get',
    path: '/admin/partners',
    tag: 'Partners',
    summary: 'Partners (a page)',
    access: ['partners.view'],
    scope: 'club',
    query: partnerListQuerySchema,
    data: listSchema(partnerSchema),
  },
  {
    method: 'get',
    path: '/admin/partners/stats',
    tag: 'Partners',
    summary: 'Partner counts by status',
    access: ['partners.view'],
    scope: 'club',
    data: partnerStatsSchema,
  },
  {
    method: 'get',
    path: '/admin/partners/stats/partner',
    tag: 'Partners',
    summary: "One partner's reward analytics",
    access: ['partners.view'],
    scope: 'partner',
    query: partnerIdQuerySchema,
    data: rewardStatsSchema,
    errors: [404],
  },
  {
    method: 'get',
    path: '/admin/partners/stats/partner/weekly',
    tag: 'Partners',
    summary:
      "One partner's rewards issued and redeemed per week (last 12 weeks) and outstanding gift-card balance",
    access: ['partners.view'],
    scope: 'partner',
    query: partnerIdQuerySchema,
    data: rewardActivitySchema,
    examples: { data: WEEKLY_ACTIVITY_EXAMPLE },
    errors: [404],
  },
  {
    method: 'get',
    path: '/admin/partners/{partnerId}',
    numericIds: true,
    tag: 'Partners',
    summary: 'One partner',
    access: ['partners.view'],
    scope: 'partner',
    params: partnerIdParamSchema,
    data: partnerSchema,
  },
  {
    method: 'post',
    path: '/admin/partners/invite',
    bodyLimit: IMAGE_BODY_LIMIT,
    tag: 'Partners',
    summary: 'Add a partner (with an optional cover image, base64)',
    access: ['partners.create'],
    scope: 'club',
    body: createPartnerBodySchema,
    data: partnerSchema,
    status: 201,
    errors: [409],
  },
  {
    method: 'patch',
    path: '/admin/partners/update-record',
    bodyLimit: IMAGE_BODY_LIMIT,
    tag: 'Partners',
    summary: 'Update a partner',
    access: ['partners.update'],
    scope: 'club',
    body: updatePartnerBodySchema,
    headers: VERSIONED,
    data: partnerSchema,
    errors: [404, 409, 422],
  },
  {
    method: 'patch',
    path: '/admin/partners/update-status',
    webhookSource: true,
    tag: 'Partners',
    summary: 'Block or unblock a partner',
    access: ['partners.update'],
    scope: 'club',
    body: partnerStatusBodySchema,
    data: partnerSchema,
    errors: [404],
  },
  {
    method: 'delete',
    path: '/admin/partners/{partnerId}',
    numericIds: true,
    tag: 'Partners',
    summary: 'Delete a partner (hidden from lists, history kept)',
    access: ['partners.delete'],
    scope: 'club',
    params: partnerIdParamSchema,
    data: noData,
  },
  // Extended services
  {
    method: 'get',
    path: '/admin/partners/extended-services',
    tag: 'Extended services',
    summary: 'Extended services (a page)',
    access: ['extended_services.view'],
    scope: 'club',
    query: extendedServiceListQuerySchema,
    data: listSchema(extendedServiceSchema),
  },
  {
    method: 'get',
    path: '/admin/partners/extended-services/{extendedServiceId}',
    numericIds: true,
    tag: 'Extended services',
    summary: 'One extended service',
    access: ['extended_services.view'],
    scope: 'club',
    params: extendedServiceIdParamSchema,
    data: extendedServiceSchema,
  },
  {
    method: 'post',
    path: '/admin/partners/extended-services',
    tag: 'Extended services',
    summary: 'Create an extended service',
    access: ['extended_services.create'],
    scope: 'club',
    body: createExtendedServiceBodySchema,
    headers: IDEMPOTENT,
    data: extendedServiceSchema,
    status: 201,
    errors: [409, 422],
  },
  {
    method: 'patch',
    path: '/admin/partners/extended-services',
    tag: 'Extended services',
    summary: 'Update an extended service',
    access: ['extended_services.update'],
    scope: 'club',
    body: updateExtendedServiceBodySchema,
    headers: VERSIONED,
    data: extendedServiceSchema,
    errors: [404, 409, 422],
  },
  {
    method: 'delete',
    path: '/admin/partners/extended-services/{extendedServiceId}',
    numericIds: true,
    tag: 'Extended services',
    summary: 'Delete an extended service',
    access: ['extended_services.delete'],
    scope: 'club',
    params: extendedServiceIdParamSchema,
    data: noData,
  },
  // Visits and eligibility
  {
    method: 'get',
    path: '/admin/partners/visits',
    tag: 'Visits',
    summary: "A partner's visits (a page)",
    access: ['visits.view'],
    scope: 'partner',
    description: `Newest visit first unless sorted otherwise. ${CURSOR_PAGING}`,
    query: visitListQuerySchema,
    data: cursorListSchema(visitSchema),
    errors: [404],
    codes: ['invalid_cursor'],
  },
  {
    method: 'get',
    path: '/admin/partners/visits/{visitId}',
    numericIds: true,
    tag: 'Visits',
    summary: 'One visit',
    access: ['visits.view'],
    scope: 'partner',
    params: visitIdParamSchema,
    data: visitSchema,
  },
  {
    method: 'get',
    path: '/admin/partners/visits/reward-eligible-users',
    tag: 'Visits',
    summary: 'Customers eligible for a reward at a partner (30-day spend)',
    access: ['visits.view'],
    scope: 'partner',
    query: eligibleUsersQuerySchema,
    data: listSchema(eligibleUserSchema),
    errors: [404],
  },
  {
    method: 'get',
    path: '/admin/partners/visits/reward-eligible-users/{userId}',
    customer: { in: 'param', field: 'userId' },
    numericIds: true,
    tag: 'Visits',
    summary: "One customer's eligibility at a partner",
    access: ['visits.view'],
    scope: 'partner',
    params: eligibleUserIdParamSchema,
    query: eligibleUserDetailQuerySchema,
    data: eligibleUserDetailSchema,
  },
  {
    method: 'get',
    path: '/admin/partners/visits/eligible-users-bypoints',
    tag: 'Visits',
    summary: 'Customers with points at a partner',
    access: ['visits.view'],
    scope: 'partner',
    query: pointsEligibleQuerySchema,
    data: listSchema(pointsEligibleUserSchema),
    errors: [404],
  },
  {
    method: 'get',
    path: '/partners/visits/customers',
    tag: 'Visits',
    summary: 'Find the customer a visit is for (at most 10, email masked)',
    description:
      'Customers who visited or hold a reward at the partner, by name or email; and any customer of the club whose email is exactly `search` (a first visit: the customer says their address at the till; decision 049).',
    access: ['visits.create'],
    scope: 'partner',
    query: redemptionCustomersQuerySchema,
    data: z.array(redemptionCustomerSchema),
    errors: [404],
  },
  {
    method: 'post',
    path: '/user/visits',
    customer: { in: 'json', field: 'customerId' },
    bodyLimit: IMAGE_BODY_LIMIT,
    webhookSource: true,
    tag: 'Visits',
    summary: 'Record a visit (items, attendant, receipt image)',
    description:
      "What a till calls after a sale (docs/integrations.md). Send an `Idempotency-Key`: a retry after a lost answer returns the first visit instead of recording a second one. Queues a `visit.recorded` webhook. The partner's review rules (and a receipt image sent before with any visit) may flag it: `data.review.state` is then `waiting` and `data.review.flags` says why; it counts towards eligibility and points only once the club approves it (`visit.reviewed`).",
    access: ['visits.create'],
    scope: 'partner',
    body: createVisitBodySchema,
    headers: IDEMPOTENT,
    examples: {
      body: {
        partnerId: 12,
        customerId: 348,
        attendantName: 'Bisi',
        visitDate: '2026-03-01T13:45:00.000Z',
        items: [
          { name: 'Jollof rice', quantity: 2, price: 2500 },
          { name: 'Zobo', quantity: 1, price: 700 },
        ],
      },
    },
    data: visitSchema,
    status: 201,
    errors: [404],
    codes: ['partner_blocked', 'customer_blocked'],
  },
  // Visit review (issue 35, docs/decisions/075-visit-review.md)
  {
    method: 'get',
    path: '/admin/visit-reviews',
    tag: 'Visit review',
    summary: 'Flagged visits in one review state (default: waiting), oldest first',
    description:
      "The club's review queue: visits a partner's rules flagged (`review.flags`: `amount_above`, `receipt_reused`, `receipt_missing`, `too_many_visits`), `state=waiting` (the default), `approved` or `rejected`, optionally of one partner. A waiting or rejected visit does not count towards eligibility or points.",
    access: ['visits.review'],
    scope: 'club',
    query: visitReviewListQuerySchema,
    data: listSchema(visitSchema),
    errors: [404],
  },
  {
    method: 'post',
    path: '/admin/visit-reviews/{visitId}/approve',
    numericIds: true,
    webhookSource: true,
    tag: 'Visit review',
    summary: 'Approve a visit waiting for review: it counts towards eligibility and points',
    description:
      "Only a visit waiting for review (another state is a 409, nothing changes). Records an event and sends `visit.reviewed` to the partner's endpoints.",
    access: ['visits.review'],
    scope: 'club',
    params: visitReviewIdParamSchema,
    data: visitSchema,
    errors: [409],
  },
  {
    method: 'post',
    path: '/admin/visit-reviews/{visitId}/reject',
    numericIds: true,
    webhookSource: true,
    tag: 'Visit review',
    summary: 'Reject a visit waiting for review, with a reason: it never counts',
    description:
      'Only a visit waiting for review (another state is a 409, nothing changes). The partner sees the reason on the visit. Records an event and sends `visit.reviewed`.',
    access: ['visits.review'],
    scope: 'club',
    params: visitReviewIdParamSchema,
    body: rejectVisitBodySchema,
    examples: { body: { reason: 'The same receipt as visit 480' } },
    data: visitSchema,
    errors: [409],
  },
  {
    method: 'patch',
    path: '/admin/partners/{partnerId}/review-rules',
    numericIds: true,
    tag: 'Visit review',
    summary: "Set a partner's visit review rules (only the fields sent change; null turns a rule off)",
    description:
      'A visit recorded at the partner waits for review when its total is above `amountAbove` naira, when it has no receipt image and `requireReceipt` is true, or when it is more than `maxVisitsPerDay` visits of its customer at the partner in one Lagos day. A receipt image sent before (the same bytes, with any visit) always waits. Applies to visits recorded from now on.',
    access: ['visits.review'],
    scope: 'club',
    params: partnerIdParamSchema,
    body: reviewRulesBodySchema,
    examples: { body: { amountAbove: 50000, requireReceipt: true, maxVisitsPerDay: 3 } },
    data: reviewRulesSchema,
    errors: [404],
  },
  // Customers
  {
    method: 'get',
    path: '/admin/user/customers',
    tag: 'Clients',
    summary: 'Clients (a page)',
    access: ['clients.view'],
    scope: 'partner',
    query: customerListQuerySchema,
    data: listSchema(customerSchema),
  },
  {
    method: 'get',
    path: '/admin/user/customers/{customerId}',
    customer: { in: 'param', field: 'customerId' },
    numericIds: true,
    tag: 'Clients',
    summary: 'One client',
    access: ['clients.view'],
    scope: 'partner',
    params: customerIdParamSchema,
    data: customerSchema,
  },
  {
    method: 'patch',
    path: '/admin/user/customers',
    tag: 'Clients',
    summary: 'Update a client',
    access: ['clients.update'],
    scope: 'club',
    body: updateCustomerBodySchema,
    headers: VERSIONED,
    data: customerSchema,
    errors: [404, 409, 422],
  },
  {
    method: 'patch',
    path: '/admin/user/customers/status',
    webhookSource: true,
    tag: 'Clients',
    summary: 'Block or unblock a client',
    access: ['clients.update'],
    scope: 'club',
    body: customerStatusBodySchema,
    data: customerSchema,
    errors: [404],
  },
  {
    method: 'delete',
    path: '/admin/user/customers/{customerId}',
    numericIds: true,
    tag: 'Clients',
    summary: 'Delete a client (hidden from lists, history kept)',
    access: ['clients.delete'],
    scope: 'club',
    params: customerIdParamSchema,
    data: noData,
  },
  // Consent links (issue 28, docs/decisions/053-customer-links.md)
  {
    method: 'post',
    path: '/partners/customer-links',
    tag: 'Customer links',
    summary: 'Ask a customer for a link: they are mailed a one-time code',
    description:
      "A partner acts for a customer (visits, rewards, redemption, lookups) only once the customer is linked. Give the customer's whole email address or the member number they tell you (`RC-000123`); the customer is mailed a 6-digit code valid 5 minutes. The answer is the same whether or not such a customer exists: then POST the code the customer tells you to `/partners/customer-links/{linkId}/confirm`. Club staff name the partner with `partnerId`.",
    access: ['visits.create', 'rewards.issue', 'rewards.redeem'],
    scope: 'partner',
    body: createCustomerLinkBodySchema,
    examples: { body: { email: 'ada.obi@mail.ng' } },
    data: customerLinkRequestSchema,
    status: 201,
    errors: [404],
    codes: ['partner_blocked', 'rate_limited', 'link_daily_cap'],
  },
  {
    method: 'post',
    path: '/partners/customer-links/{linkId}/confirm',
    numericIds: true,
    webhookSource: true,
    tag: 'Customer links',
    summary: 'Confirm a link with the code the customer gives',
    description:
      'At most 5 wrong codes per request (then ask again), and the per-staff and per-address limits of the redemption codes. Answers the linked customer (name, masked email).',
    access: ['visits.create', 'rewards.issue', 'rewards.redeem'],
    scope: 'partner',
    params: customerLinkIdParamSchema,
    body: confirmCustomerLinkBodySchema,
    data: confirmedLinkSchema,
    errors: [404],
    codes: ['partner_blocked', 'otp_invalid', 'otp_expired', 'otp_used', 'otp_locked', 'rate_limited'],
  },
  {
    method: 'get',
    path: '/admin/user/customers/{customerId}/links',
    numericIds: true,
    tag: 'Clients',
    summary: "A client's partner links",
    access: ['clients.view'],
    scope: 'club',
    params: customerIdParamSchema,
    data: z.array(customerLinkSchema),
    errors: [404],
  },
  {
    method: 'delete',
    path: '/admin/user/customers/{customerId}/links/{linkId}',
    numericIds: true,
    webhookSource: true,
    tag: 'Clients',
    summary: "Remove a client's link to a partner (queues customer.unlinked)",
    access: ['clients.update'],
    scope: 'club',
    params: customerLinkParamsSchema,
    data: noData,
    errors: [404],
  },
  {
    method: 'get',
    path: '/user/internet/client_info',
    tag: 'Clients',
    summary: "A client's fiber account (plan, speed, fee, renewal)",
    access: ['clients.view'],
    scope: 'club',
    query: clientInfoQuerySchema,
    data: clientInternetInfoSchema,
    errors: [404],
  },
  // Rewards
  {
    method: 'get',
    path: '/admin/partners/rewards',
    customer: { in: 'query', field: 'userId' },
    tag: 'Rewards',
    summary: "A partner's rewards (a page)",
    access: ['rewards.view', 'rewards.redeem'],
    scope: 'partner',
    description: `Newest reward first unless sorted otherwise. ${CURSOR_PAGING}`,
    query: partnerRewardsQuerySchema,
    data: cursorListSchema(rewardSchema),
    errors: [404],
    codes: ['invalid_cursor'],
  },
  {
    method: 'get',
    path: '/partners/reward-types',
    tag: 'Rewards',
    summary: 'Reward types',
    access: 'authenticated',
    scope: 'partner',
    data: z.array(rewardTypeSchema),
  },
  {
    method: 'get',
    path: '/partners/reward-type-categories',
    tag: 'Rewards',
    summary: 'Reward categories',
    access: 'authenticated',
    scope: 'partner',
    data: z.array(rewardCategorySchema),
  },
  {
    method: 'get',
    path: '/partners/stats/reward',
    tag: 'Rewards',
    summary: 'Reward figures of one partner or the club',
    access: ['rewards.view'],
    scope: 'partner',
    query: partnerScopeQuerySchema,
    data: rewardStatsSchema,
    errors: [404],
  },
  {
    method: 'get',
    path: '/partners/rewards/redeemed-giftcard-balance',
    tag: 'Rewards',
    summary: 'Gift-card money redeemed and outstanding',
    access: ['rewards.view'],
    scope: 'partner',
    query: partnerScopeQuerySchema,
    data: giftcardBalanceSchema,
    errors: [404],
  },
  {
    method: 'get',
    path: '/partners/rewards/customers',
    tag: 'Redemption',
    summary: 'Find a customer holding a reward at a partner (at most 10, email masked)',
    access: ['rewards.view', 'rewards.redeem'],
    scope: 'partner',
    query: redemptionCustomersQuerySchema,
    data: z.array(redemptionCustomerSchema),
    errors: [404],
  },
  {
    method: 'get',
    path: '/partners/rewards/{rewardId}/ledger',
    tag: 'Rewards',
    summary: "A reward's money ledger (issue, redemptions, reversals)",
    description:
      'The reward now and its ledger entries, oldest first. Without a query, every entry (`hasMore` false). By cursor: `limit` (1 to 100, default 10), `startingAfter` (an entry `id`: the entries after it) or `endingBefore` (the entries before it); `hasMore` says more follow (or precede). An id not of this reward is a 400 `invalid_cursor`.',
    access: ['rewards.view', 'rewards.redeem', 'rewards.reverse'],
    scope: 'partner',
    params: rewardLedgerParamsSchema,
    query: rewardLedgerQuerySchema,
    data: rewardLedgerSchema,
    codes: ['invalid_cursor'],
  },
  {
    method: 'post',
    path: '/partners/rewards/get-reward',
    customer: { in: 'json', field: 'userId' },
    tag: 'Redemption',
    summary: "Look up a customer's reward by code",
    access: ['rewards.view', 'rewards.redeem'],
    scope: 'partner',
    body: getRewardBodySchema,
    data: rewardSchema,
    errors: [404],
  },
  {
    method: 'post',
    path: '/partners/rewards/issue-reward',
    customer: { in: 'json', field: 'issuedTo' },
    bodyLimit: IMAGE_BODY_LIMIT,
    webhookSource: true,
    tag: 'Rewards',
    summary: 'Issue a gift card or coupon to an eligible customer',
    access: ['rewards.issue'],
    scope: 'partner',
    description:
      "A gift card above the club's `singleRewardAbove` (PUT /admin/settings/approvals) is not issued: the answer is a 202 with the reward request (`data.state` `awaiting_approval`), a second person holding `rewards.approve` approves it (then it is issued, once) or rejects it, and every approver is mailed a link to the Approvals screen. Read its state at GET /partners/rewards/requests/{id}. Under the threshold, and for coupons (no face value in naira), the reward is issued at once (201). A retry with the same `Idempotency-Key` answers the first answer, 201 or 202, and issues or asks nothing more.",
    body: issueRewardBodySchema,
    headers: IDEMPOTENT,
    data: rewardSchema,
    status: 201,
    accepted: {
      data: rewardRequestSchema,
      description:
        'Waits for approval: above the four-eyes threshold nothing is issued yet; `data` is the reward request (`state` `awaiting_approval`).',
    },
    errors: [404],
    codes: ['partner_blocked', 'customer_blocked', 'no_points', 'conflict'],
  },
  {
    method: 'post',
    path: '/partners/rewards/initiate-reward-redemption-auth',
    customer: { in: 'json', field: 'userId' },
    tag: 'Redemption',
    summary: 'Mail the customer a 6-digit redemption code (valid 5 minutes)',
    description:
      "A new code replaces the reward's earlier one. At most 10 codes per reward in 24 hours (RateLimit member `otp-reward-day`, then 429 `otp_daily_cap`), and 30 per caller and 60 per client address in 15 minutes. A retry with the same `Idempotency-Key` (within 24 hours) returns the first answer and sends no new code; when the first code could not be mailed (503 `otp_not_delivered`) the key is forgotten, so the retry sends one.",
    access: ['rewards.redeem'],
    scope: 'partner',
    body: initiateRedemptionBodySchema,
    headers: IDEMPOTENT,
    data: initiateRedemptionResponseSchema,
    errors: [404],
    codes: [
      'partner_blocked',
      'customer_blocked',
      'reward_already_redeemed',
      'reward_expired',
      'rate_limited',
      'otp_daily_cap',
      'otp_not_delivered',
    ],
  },
  {
    method: 'post',
    path: '/partners/rewards/redemption-auth-otp-validity-check',
    customer: { in: 'json', field: 'userId' },
    tag: 'Redemption',
    summary: 'Check a redemption code without using it',
    access: ['rewards.redeem'],
    scope: 'partner',
    body: otpValidityBodySchema,
    data: otpValidityResponseSchema,
    errors: [404],
    codes: [...OTP_CODES, 'rate_limited'],
  },
  {
    method: 'post',
    path: '/partners/rewards/redeem-giftcard',
    customer: { in: 'json', field: 'userId' },
    webhookSource: true,
    tag: 'Redemption',
    summary: 'Redeem an amount from a gift card (uses the code)',
    access: ['rewards.redeem'],
    scope: 'partner',
    body: redeemGiftcardBodySchema,
    headers: IDEMPOTENT,
    data: redemptionResultSchema,
    errors: [404],
    codes: [...REDEEM_CODES, 'not_a_giftcard', 'insufficient_balance'],
  },
  {
    method: 'post',
    path: '/partners/rewards/redeem-coupon',
    customer: { in: 'json', field: 'userId' },
    webhookSource: true,
    tag: 'Redemption',
    summary: 'Redeem a coupon (uses the code)',
    access: ['rewards.redeem'],
    scope: 'partner',
    body: redeemCouponBodySchema,
    headers: IDEMPOTENT,
    data: redemptionResultSchema,
    errors: [404],
    codes: [...REDEEM_CODES, 'not_a_coupon'],
  },
  {
    method: 'post',
    path: '/partners/rewards/reverse-redemption',
    webhookSource: true,
    tag: 'Redemption',
    summary: 'Reverse a redemption (the money goes back on the gift card)',
    access: ['rewards.reverse'],
    scope: 'partner',
    body: reverseRedemptionBodySchema,
    headers: IDEMPOTENT,
    data: reversalResultSchema,
    errors: [404],
    codes: ['not_a_redemption', 'reward_reversed'],
  },
  // Campaigns and four eyes (issue 35, docs/decisions/070-campaigns-and-four-eyes.md)
  {
    method: 'get',
    path: '/admin/campaigns',
    tag: 'Campaigns',
    summary: 'Campaigns, newest first, with their state, counts, maker and approver',
    description: `${CAMPAIGN_SCOPE} \`state=awaiting_approval\` is the approvals queue.`,
    access: CAMPAIGN_READ,
    scope: 'partner',
    query: campaignListQuerySchema,
    data: listSchema(campaignSchema),
    examples: { data: { records: [CAMPAIGN_EXAMPLE], meta: { totalCount: 1, pageNumber: 1, pageSize: 10 } } },
    errors: [404],
  },
  {
    method: 'post',
    path: '/admin/campaigns',
    tag: 'Campaigns',
    summary: 'Save a campaign as a draft (one reward template and a segment of customers)',
    description: `${CAMPAIGN_SCOPE} The segment: \`eligible\` (the partner's eligible customers today, by the eligibility rule), \`filter\` (\`status\`, and visits at the partner between \`visitedFrom\` and \`visitedTo\`, Lagos days; without a period, the customers linked to the partner) or \`list\` (\`customerIds\`, \`emails\`, \`externalIds\`: at most 100,000 together). Only customers linked to the partner (consent) receive the reward; the others are skipped with their reason. Nothing is issued until it is submitted.`,
    access: CAMPAIGN_MANAGE,
    scope: 'partner',
    body: createCampaignBodySchema,
    bodyLimit: IMAGE_BODY_LIMIT,
    examples: {
      data: {
        ...CAMPAIGN_EXAMPLE,
        state: 'draft',
        total: null,
        issued: 0,
        skipped: 0,
        totalValue: null,
        approvedBy: null,
        submittedAt: null,
        decidedAt: null,
      },
      body: {
        name: 'December thank-you',
        partnerId: 12,
        reward: {
          rewardType: 'GIFTCARD',
          issuedAmount: 2500,
          title: 'Thank you',
          description: 'A gift card for a year with us',
          expiryDate: '2026-12-31',
        },
        segment: { kind: 'filter', status: 'ACTIVE', visitedFrom: '2026-11-01', visitedTo: '2026-11-30' },
      },
    },
    data: campaignSchema,
    status: 201,
    errors: [404],
  },
  {
    method: 'get',
    path: '/admin/campaigns/{id}',
    numericIds: true,
    tag: 'Campaigns',
    summary: 'A campaign: its state and counts (issued, skipped, total)',
    description: `${CAMPAIGN_SCOPE} Poll it while the campaign runs: \`issued + skipped\` reaches \`total\` when it is done.`,
    access: CAMPAIGN_READ,
    scope: 'partner',
    params: campaignIdParamSchema,
    data: campaignSchema,
    examples: { data: CAMPAIGN_EXAMPLE },
  },
  {
    method: 'get',
    path: '/admin/campaigns/{id}/preview',
    numericIds: true,
    tag: 'Campaigns',
    summary: 'Who the campaign would reward now, the total face value, and who is skipped and why',
    description: `${CAMPAIGN_SCOPE} \`count\` customers would receive the reward; \`totalValue\` is count × the gift card's amount in naira (a coupon counts 0). \`skipped\` counts the others by reason (\`not_found\`: a list entry naming nobody; \`erased\`; \`blocked\`; \`not_linked\`: no confirmed link to the partner; \`already_rewarded\`: holds this campaign's reward) and names the first ${PREVIEW_SKIPPED_SHOWN}. \`needsApproval\` says whether submitting would wait for a second person.`,
    access: CAMPAIGN_READ,
    scope: 'partner',
    params: campaignIdParamSchema,
    data: campaignPreviewSchema,
  },
  {
    method: 'post',
    path: '/admin/campaigns/{id}/submit',
    numericIds: true,
    webhookSource: true,
    tag: 'Campaigns',
    summary: 'Submit a draft: it starts, or waits for approval (`data.state` says which)',
    description: `${CAMPAIGN_SCOPE} The segment is fixed now (the figures of the preview). Above the club's thresholds (PUT /admin/settings/approvals) \`data.state\` is \`awaiting_approval\`: a second person holding \`rewards.approve\` approves or rejects it. Otherwise \`running\`: a background job issues one ordinary reward per customer (each with its ledger entry, event and \`reward.issued\` message), exactly once even across a server restart, then sends \`campaign.completed\`. Only a draft is submitted: a second submit is a 409 and issues nothing. A segment with nobody to reward is a 409.`,
    access: CAMPAIGN_MANAGE,
    scope: 'partner',
    params: campaignIdParamSchema,
    data: campaignSchema,
    examples: { data: CAMPAIGN_EXAMPLE },
    codes: ['campaign_not_draft', 'campaign_empty'],
  },
  {
    method: 'post',
    path: '/admin/campaigns/{id}/approve',
    numericIds: true,
    tag: 'Campaigns',
    summary: 'Approve a campaign waiting for approval (a second person): it starts',
    description:
      "Club staff holding `rewards.approve`, never the maker (403 `maker_cannot_decide`). Only a campaign waiting for approval: approving twice is a 409 `not_awaiting_approval` and issues nothing more; one not decided within the club's `approvalExpiryDays` is a 409 `approval_expired`.",
    access: ['rewards.approve'],
    scope: 'club',
    params: campaignIdParamSchema,
    data: campaignSchema,
    examples: { data: CAMPAIGN_EXAMPLE },
    codes: ['maker_cannot_decide', 'not_awaiting_approval', 'approval_expired'],
  },
  {
    method: 'post',
    path: '/admin/campaigns/{id}/reject',
    numericIds: true,
    tag: 'Campaigns',
    summary: 'Reject a campaign waiting for approval, with a reason',
    description:
      'Club staff holding `rewards.approve`, never the maker (403 `maker_cannot_decide`). The maker sees the reason on the campaign.',
    access: ['rewards.approve'],
    scope: 'club',
    params: campaignIdParamSchema,
    body: rejectCampaignBodySchema,
    data: campaignSchema,
    examples: {
      body: { reason: 'Too generous for a coupon this size' },
      data: {
        ...CAMPAIGN_EXAMPLE,
        state: 'rejected',
        issued: 0,
        approvedBy: null,
        rejectedBy: { id: 4, name: 'Ade Bello' },
        rejectionReason: 'Too generous for a coupon this size',
      },
    },
    codes: ['maker_cannot_decide', 'not_awaiting_approval', 'approval_expired'],
  },
  {
    method: 'post',
    path: '/admin/campaigns/{id}/cancel',
    numericIds: true,
    webhookSource: true,
    tag: 'Campaigns',
    summary: 'Cancel a campaign (a draft, one waiting, or one running: it stops after the batch in flight)',
    description: `${CAMPAIGN_SCOPE} Rewards already issued stay. Sends \`campaign.completed\` with state \`cancelled\`. A finished campaign is a 409.`,
    access: CAMPAIGN_MANAGE,
    scope: 'partner',
    params: campaignIdParamSchema,
    data: campaignSchema,
    examples: { data: CAMPAIGN_EXAMPLE },
    codes: ['campaign_not_cancellable'],
  },
  {
    method: 'get',
    path: '/admin/settings/approvals',
    tag: 'Campaigns',
    summary: 'The four-eyes thresholds (naira; null: none) and the days a request waits before it expires',
    access: ['campaigns.manage', 'rewards.approve'],
    scope: 'club',
    data: approvalSettingsSchema,
  },
  {
    method: 'put',
    path: '/admin/settings/approvals',
    tag: 'Campaigns',
    summary: 'Set the four-eyes thresholds (Super Admin only)',
    description:
      'Naira. A campaign whose total face value is above `campaignTotalAbove`, or whose reward is above `singleRewardAbove`, waits on submit for a second person holding `rewards.approve`; so does a single gift card above `singleRewardAbove` (POST /partners/rewards/issue-reward answers 202). null: no threshold. A request not decided within `approvalExpiryDays` (1 to 365; absent: unchanged, 7 until set) expires and issues nothing. Only a Super Admin (anyone else is 403).',
    access: ['rewards.approve'],
    scope: 'club',
    body: approvalSettingsBodySchema,
    examples: {
      body: { campaignTotalAbove: 500000, singleRewardAbove: 50000, approvalExpiryDays: 7 },
      data: { campaignTotalAbove: 500000, singleRewardAbove: 50000, approvalExpiryDays: 7 },
    },
    data: approvalSettingsSchema,
  },
  // The approvals queue (issue 35, docs/decisions/074-four-eyes-queue-and-expiry.md)
  {
    method: 'get',
    path: '/admin/approvals',
    tag: 'Approvals',
    summary: 'What waits for a second person: campaigns and single rewards, with the maker and the figures',
    description:
      "`state=awaiting_approval` (the default) lists what waits, the oldest first (the next to expire), each with its maker, the figures (`count` customers, `totalValue` naira), why it waits, and for a campaign the preview fixed on submit (who is skipped, by reason); `expired` what was not decided within the club's `approvalExpiryDays`; `decided` what was approved or rejected, the newest first. Every read first expires what is overdue. Campaigns are decided at POST /admin/campaigns/{id}/approve and /reject, single rewards at POST /admin/approvals/rewards/{id}/approve and /reject.",
    access: ['rewards.approve'],
    scope: 'club',
    query: approvalQueueQuerySchema,
    data: listSchema(approvalItemSchema),
  },
  {
    method: 'get',
    path: '/partners/rewards/requests',
    tag: 'Approvals',
    summary: "A partner's single rewards that waited or wait for approval, the newest first",
    description:
      "Admins name the partner with `partnerId` (or see every partner's); partner staff and keys see their own partner's only. Each with its state (`awaiting_approval`, `approved`, `rejected` with `rejectionReason`, `expired`).",
    access: ['rewards.issue', 'rewards.view', 'rewards.approve'],
    scope: 'partner',
    query: rewardRequestListQuerySchema,
    data: listSchema(rewardRequestSchema),
    errors: [404],
  },
  {
    method: 'get',
    path: '/partners/rewards/requests/{id}',
    numericIds: true,
    tag: 'Approvals',
    summary: 'A single reward waiting for approval (or decided): its state and, when rejected, the reason',
    description:
      "What the maker reads after POST /partners/rewards/issue-reward answered 202: `state` is `awaiting_approval`, `approved` (`rewardId` is the reward issued), `rejected` (`rejectionReason`) or `expired`. Partner staff and keys read their own partner's requests only (another partner's answers 404).",
    access: ['rewards.issue', 'rewards.approve'],
    scope: 'partner',
    params: rewardRequestIdParamSchema,
    data: rewardRequestSchema,
    errors: [404],
  },
  {
    method: 'post',
    path: '/admin/approvals/rewards/{id}/approve',
    numericIds: true,
    webhookSource: true,
    tag: 'Approvals',
    summary: 'Approve a single reward waiting for approval: it is issued, once',
    description:
      "Club staff holding `rewards.approve`, never the maker (403 `maker_cannot_decide`). The reward is issued now, as POST /partners/rewards/issue-reward would (ledger, event, `reward.issued`), issued by the maker and approved by the caller. Approving twice is a 409 `not_awaiting_approval` and issues nothing more; a retry with the same `Idempotency-Key` (a lost answer) answers the first answer. A request not decided within the club's `approvalExpiryDays` is a 409 `approval_expired`.",
    access: ['rewards.approve'],
    scope: 'club',
    params: rewardRequestIdParamSchema,
    headers: IDEMPOTENT,
    data: rewardRequestSchema,
    errors: [404],
    codes: [
      'maker_cannot_decide',
      'not_awaiting_approval',
      'approval_expired',
      'partner_blocked',
      'customer_blocked',
      'no_points',
    ],
  },
  {
    method: 'post',
    path: '/admin/approvals/rewards/{id}/reject',
    numericIds: true,
    tag: 'Approvals',
    summary: 'Reject a single reward waiting for approval, with a reason: nothing is issued',
    description:
      'Club staff holding `rewards.approve`, never the maker (403 `maker_cannot_decide`). The maker reads the reason at GET /partners/rewards/requests/{id}.',
    access: ['rewards.approve'],
    scope: 'club',
    params: rewardRequestIdParamSchema,
    body: rejectRequestBodySchema,
    examples: { body: { reason: 'Too generous for one customer' } },
    data: rewardRequestSchema,
    errors: [404],
    codes: ['maker_cannot_decide', 'not_awaiting_approval', 'approval_expired'],
  },
  // CSV exports (issue 9, decision 017): every row the list's query matches, streamed.
  csvExport(
    '/admin/user/admin-users/export',
    'Staff',
    'staff members',
    ['staff.view'],
    'partner',
    staffListQuerySchema,
  ),
  csvExport(
    '/admin/admin-users/export',
    'Staff',
    'staff members (second path)',
    ['staff.view'],
    'partner',
    staffListQuerySchema,
  ),
  // Partner API keys (docs/decisions/028-partner-api-keys.md)
  {
    method: 'get',
    path: '/admin/partners/{partnerId}/api-keys',
    numericIds: true,
    tag: 'Integrations',
    summary: "A partner's active API keys (never their secrets)",
    description: API_KEY_SCOPE,
    access: WEBHOOK_ACCESS,
    scope: 'partner',
    params: partnerIdParamSchema,
    data: z.array(apiKeySchema),
    errors: [404],
  },
  {
    method: 'post',
    path: '/admin/partners/{partnerId}/api-keys',
    numericIds: true,
    tag: 'Integrations',
    summary: 'Create an API key for a till or booking system',
    description: `Answers the key (\`rck_<prefix>_<secret>\`) **once**: only its prefix and a hash of its secret are kept. Send it as \`X-Api-Key\`: the call then acts as this partner with the chosen permissions only (those a key may hold: ${API_KEY_PERMISSIONS.join(', ')}; never one its maker lacks, 403), on partner routes only, at most 600 calls a minute (RateLimit headers on every call, 429 with Retry-After over it). ${API_KEY_SCOPE}`,
    access: WEBHOOK_ACCESS,
    scope: 'partner',
    params: partnerIdParamSchema,
    body: createApiKeyBodySchema,
    data: createdApiKeySchema,
    status: 201,
    errors: [403, 404, 409],
  },
  {
    method: 'delete',
    path: '/admin/partners/{partnerId}/api-keys/{keyId}',
    webhookSource: true,
    numericIds: true,
    tag: 'Integrations',
    summary: 'Revoke an API key (refused at once: 401)',
    description: API_KEY_SCOPE,
    access: WEBHOOK_ACCESS,
    scope: 'partner',
    params: apiKeyParamSchema,
    data: noData,
    errors: [404],
  },
  // Club integration keys and the subscriber sync (issue 27, docs/decisions/051)
  {
    method: 'get',
    path: '/admin/api-keys',
    tag: 'Customer sync',
    summary: "The club's integration keys: the active ones, then the revoked ones (never their secrets)",
    description: CLUB_KEY_TEXT,
    access: CLUB_KEY_ACCESS,
    scope: 'club',
    data: z.array(clubKeySchema),
  },
  {
    method: 'post',
    path: '/admin/api-keys',
    tag: 'Customer sync',
    summary: "Create a club integration key for the provider's subscriber system",
    description: `Answers the key (\`rcc_<prefix>_<secret>\`) **once**: only its prefix and a hash of its secret are kept. Scopes: ${CLUB_KEY_SCOPES.join(', ')}. ${CLUB_KEY_TEXT}`,
    access: CLUB_KEY_ACCESS,
    scope: 'club',
    body: createClubKeyBodySchema,
    data: createdClubKeySchema,
    status: 201,
    errors: [409],
  },
  {
    method: 'delete',
    path: '/admin/api-keys/{id}',
    webhookSource: true,
    numericIds: true,
    tag: 'Customer sync',
    summary: 'Revoke a club integration key (refused at once: 401)',
    description: CLUB_KEY_TEXT,
    access: CLUB_KEY_ACCESS,
    scope: 'club',
    params: clubKeyParamSchema,
    data: noData,
  },
  {
    method: 'put',
    path: '/admin/customers/external/{externalId}',
    clubKey: true,
    tag: 'Customer sync',
    summary: 'Create or update one customer by its subscriber number',
    description:
      'The record replaces what is kept (a field left out is cleared; `status` defaults to ACTIVE: send BLOCKED when the subscription is cancelled). `data.result` says `created`, `updated` or `unchanged`: sending the same body twice changes nothing. An email that belongs to another customer is a 409, never a merge. Each change is an event in the activity log and a webhook (`customer.created`, `customer.updated`, `customer.blocked`) to club-wide endpoints. Callable with a club key holding `customers.write` (X-Api-Key).',
    access: ['customers.create'],
    scope: 'club',
    params: externalIdParamSchema,
    body: customerRecordSchema,
    examples: {
      body: {
        firstName: 'Adaeze',
        lastName: 'Okonkwo',
        email: 'adaeze.okonkwo@mail.ng',
        phone: '08031234567',
        address: '12 Awolowo Road, Ikoyi, Lagos',
        status: 'BLOCKED',
        internetAccountNumber: 'FBR-000123',
      },
    },
    data: customerSyncResultSchema,
    errors: [409],
    webhookSource: true,
  },
  {
    method: 'get',
    path: '/admin/customers/external/{externalId}',
    clubKey: true,
    tag: 'Customer sync',
    summary: 'One customer by its subscriber number',
    description: 'Callable with a club key holding `customers.read` (X-Api-Key).',
    access: ['clients.view'],
    scope: 'club',
    params: externalIdParamSchema,
    data: syncedCustomerSchema,
  },
  {
    method: 'post',
    path: '/admin/user/customers',
    tag: 'Clients',
    summary: 'Add a customer (by hand, with its subscriber number)',
    description:
      'The same rules as the sync: the external id must be new (409 if a customer has it), the email must not belong to another customer (409).',
    access: ['customers.create'],
    scope: 'club',
    body: addCustomerBodySchema,
    examples: {
      body: {
        externalId: 'SUB-104233',
        firstName: 'Adaeze',
        lastName: 'Okonkwo',
        email: 'adaeze.okonkwo@mail.ng',
        phone: '08031234567',
        address: '12 Awolowo Road, Ikoyi, Lagos',
        status: 'ACTIVE',
        internetAccountNumber: 'FBR-000123',
      },
    },
    data: customerSyncResultSchema,
    status: 201,
    errors: [409],
    webhookSource: true,
  },
  {
    method: 'post',
    path: '/admin/user/customers/{customerId}/restore',
    numericIds: true,
    tag: 'Clients',
    summary: "Restore a deleted customer, or free an erased customer's external id",
    description:
      'A sync never brings back a deleted customer nor re-creates an erased one under the same external id (the PUT is a 409, an import row is rejected with the reason). This is the explicit step: a deleted customer comes back as it was (`restored`); an erased customer stays erased and its tombstone gives up its external id (`released`), so the next sync of that external id creates a new customer. Anything else is a 409.',
    access: ['clients.update', 'customers.create'],
    scope: 'club',
    params: customerIdParamSchema,
    data: restoredCustomerSchema,
    errors: [404, 409],
  },
  // The customer's rights (issue 28, docs/decisions/054-customer-erasure.md)
  {
    method: 'get',
    path: '/admin/user/customers/{customerId}/data-export',
    numericIds: true,
    tag: 'Clients',
    summary: 'Export everything the club holds about a customer, as one JSON file',
    description:
      "The customer's right of access: their profile, partner links, visits with items, rewards, the ledger of those rewards and the activity-log events naming them, each oldest first, streamed as one JSON attachment. Club admins only (partner staff, partner keys and club keys are refused). Records an event. An erased customer is a 409 (`customer_erased`): nothing of the person is left to export.",
    access: ['customers.privacy'],
    scope: 'club',
    params: customerIdParamSchema,
    data: customerDataExportSchema,
    raw: {
      contentType: 'application/json',
      description: 'The JSON file (Content-Disposition: attachment; not enveloped), streamed',
    },
    examples: {
      data: {
        format: 'reward-club.customer-data-export',
        version: 1,
        exportedAt: '2026-03-02T09:00:00.000Z',
        profile: {
          id: 348,
          externalId: 'SUB-000348',
          firstName: 'Ada',
          lastName: 'Obi',
          email: 'ada.obi@mail.ng',
          phone: '08031234567',
          address: '12 Allen Avenue, Ikeja, Lagos',
          imageUrl: null,
          accountStatus: 'ACTIVE',
          internetAccountNumber: 'FBR-1029384',
          fiberPlan: 'Fiber Home 50',
          fiberSpeedMbps: 50,
          fiberMonthlyFee: 25000,
          fiberStatus: 'ACTIVE',
          fiberRenewalDate: '2026-04-01T00:00:00.000Z',
          createdAt: '2026-01-05T08:00:00.000Z',
          updatedAt: '2026-02-10T08:00:00.000Z',
          deletedAt: null,
        },
        links: [
          {
            id: 77,
            partnerId: 12,
            partnerName: 'Mama Put Kitchen',
            state: 'CONFIRMED',
            createdAt: '2026-03-01T13:40:00.000Z',
            confirmedAt: '2026-03-01T13:41:00.000Z',
          },
        ],
        visits: [
          {
            id: 901,
            partnerId: 12,
            partnerName: 'Mama Put Kitchen',
            attendantName: 'Bisi',
            visitDate: '2026-03-01T13:45:00.000Z',
            totalAmount: 5700,
            receiptImage: null,
            createdAt: '2026-03-01T13:46:00.000Z',
            items: [
              { name: 'Jollof rice', quantity: 2, price: 2500 },
              { name: 'Zobo', quantity: 1, price: 700 },
            ],
          },
        ],
        rewards: [
          {
            id: 55,
            partnerId: 12,
            partnerName: 'Mama Put Kitchen',
            rewardType: 'GIFTCARD',
            rewardTypeCategory: 'GENERAL',
            code: 'GC-7Q4K-9XMB',
            title: 'Welcome gift card',
            description: 'For your first visits',
            expiryDate: '2026-06-01T00:00:00.000Z',
            issuedAmount: 5000,
            percentageDiscount: null,
            balance: 3000,
            status: 'Active',
            pointsClaimed: 0,
            createdAt: '2026-03-01T14:00:00.000Z',
            redeemedAt: null,
          },
        ],
        ledger: [
          {
            id: 310,
            rewardId: 55,
            kind: 'ISSUE',
            amount: 5000,
            reason: null,
            reversesId: null,
            at: '2026-03-01T14:00:00.000Z',
          },
          {
            id: 311,
            rewardId: 55,
            kind: 'REDEEM',
            amount: -2000,
            reason: null,
            reversesId: null,
            at: '2026-03-02T08:30:00.000Z',
          },
        ],
        events: [
          {
            id: 5012,
            at: '2026-03-01T13:46:00.000Z',
            actorType: 'PARTNER',
            actorName: 'Bisi Adeyemi',
            actorOrganization: 'Mama Put Kitchen',
            action: 'Recorded a visit for Ada Obi at Mama Put Kitchen',
            entity: 'visit',
            entityId: '901',
            payload: { partnerId: 12, customerId: 348, totalAmount: 5700, items: 2 },
            ipAddress: null,
            ipLocation: null,
            userAgent: null,
          },
        ],
      },
    },
    errors: [404, 409],
    codes: ['customer_erased'],
  },
  {
    method: 'post',
    path: '/admin/user/customers/{customerId}/erase',
    numericIds: true,
    webhookSource: true,
    tag: 'Clients',
    summary: "Erase a customer's personal data; the books keep their amounts",
    description:
      'The customer\'s right to erasure. Names, contact details, address, image, internet account number and partner links go; the record stays as a tombstone ("Erased Customer", no contact) so visits, rewards and ledger amounts, and every total made of them, stay the same. Activity-log events naming the customer keep a pseudonymous reference (`erased customer #348`). The subscriber number stays so a sync cannot bring the customer back until `POST .../restore` frees it. Queues `customer.erased` to each partner that held a link and club-wide. Refused with 409 `redemption_in_flight` while a redemption code of theirs is still valid, and 409 `customer_erased` when already erased.',
    access: ['customers.privacy'],
    scope: 'club',
    params: customerIdParamSchema,
    data: erasedCustomerSchema,
    examples: {
      data: {
        customerId: 348,
        erasedAt: '2026-03-02T09:05:00.000Z',
        linksRemoved: 1,
        eventsPseudonymised: 6,
        kept: { visits: 1, rewards: 1, ledgerEntries: 2 },
      },
    },
    errors: [404, 409],
    codes: ['customer_erased', 'redemption_in_flight'],
  },
  {
    method: 'post',
    path: '/admin/customers/imports',
    clubKey: true,
    tag: 'Customer sync',
    summary: 'Import customers from a CSV or NDJSON file (an import job)',
    description: `The body is the file, streamed (never held whole): \`text/csv\` with a header row (\`externalId\` first, then any of ${IMPORT_FIELDS.slice(1).join(', ')} in any order; UTF-8, a BOM and Windows line endings are fine) or \`application/x-ndjson\` (one JSON object per line with those fields). The answer is the job once every row is staged; it is applied in the background (GET .../imports/{id} for progress). A row that cannot be applied is rejected with its reason (GET .../imports/{id}/rejects); the others are applied once each, even across a server restart. Re-sending the same file changes nothing. Headers are matched by name; \`mapping\` (a JSON object, e.g. \`{"Subscriber No":"externalId","Notes":"ignore"}\`) names what other columns hold. \`POST .../imports/dry-run\` with the same file says what this would do first. The activity log records each import (who, file name, counts) when it finishes. Callable with a club key holding \`customers.write\`. A 503 if the upload was taken for a cut-off one (no sign of life for a minute) before the whole file was in: nothing of it is applied; send it again.`,
    access: ['customers.import'],
    scope: 'club',
    query: importQuerySchema,
    rawBody: {
      contentTypes: ['text/csv', 'application/x-ndjson'],
      description: 'The file: a CSV with a header row, or NDJSON.',
    },
    data: importJobSchema,
    status: 201,
    errors: [413, 503],
    bodyLimit: MAX_IMPORT_BYTES,
  },
  {
    method: 'post',
    path: '/admin/customers/imports/dry-run',
    clubKey: true,
    tag: 'Customer sync',
    summary: 'What importing a file would do, without applying anything (a dry run)',
    description: `The same body and query as \`POST /admin/customers/imports\` (the file streamed as \`text/csv\` or \`application/x-ndjson\`, \`fileName\`, \`unknownColumns\`, \`mapping\`), read and checked the same way, in the same bounded memory; a file the import refuses (not CSV, required columns missing) is the same 400. Each row is then decided by the import's own rules against the customers as they are now, in file order (a row counts what the rows before it would have done), and nothing is written: no customer, no job, no activity-log event. The answer: the rows read, how many would be created, updated, unchanged and rejected, and the first ${DRY_RUN_REJECTS} rejected rows with their row number (the header is row 1) and reason. The real import may differ if customers change in between. A 503 if the dry run was interrupted before every row was decided (its staged rows taken away as an abandoned upload's): run it again. docs/decisions/062-import-dry-run.md.`,
    access: ['customers.import'],
    scope: 'club',
    query: importQuerySchema,
    rawBody: {
      contentTypes: ['text/csv', 'application/x-ndjson'],
      description: 'The file: a CSV with a header row, or NDJSON.',
    },
    data: importDryRunSchema,
    errors: [413, 503],
    bodyLimit: MAX_IMPORT_BYTES,
    examples: {
      data: {
        fileName: 'subscribers-2026-11-28.csv',
        format: 'csv',
        rowsRead: 4,
        created: 1,
        updated: 1,
        unchanged: 1,
        rejected: 1,
        rejects: [{ row: 5, externalId: 'SUB-1004', reason: 'email: pls provide a valid email' }],
      },
    },
  },
  {
    method: 'get',
    path: '/admin/customers/imports/{id}',
    numericIds: true,
    clubKey: true,
    tag: 'Customer sync',
    summary: "An import job's state and counts",
    access: ['customers.import'],
    scope: 'club',
    params: importIdParamSchema,
    data: importJobSchema,
  },
  {
    method: 'get',
    path: '/admin/customers/imports/{id}/rejects',
    numericIds: true,
    clubKey: true,
    tag: 'Customer sync',
    summary: 'The rejected rows of an import, as CSV (row number, reason, the row as sent)',
    access: ['customers.import'],
    scope: 'club',
    params: importIdParamSchema,
    data: noData,
    raw: { contentType: 'text/csv', description: 'The rejected rows (Content-Disposition: attachment)' },
  },
  // Webhooks (Standard Webhooks; the messages are listed under `webhooks` in this document)
  {
    method: 'get',
    path: '/admin/webhooks',
    tag: 'Webhooks',
    summary: 'List webhook endpoints',
    description: WEBHOOK_SCOPE,
    access: WEBHOOK_ACCESS,
    scope: 'partner',
    query: webhookListQuerySchema,
    data: listSchema(webhookSchema),
    errors: [404],
  },
  {
    method: 'post',
    path: '/admin/webhooks',
    tag: 'Webhooks',
    summary: 'Subscribe a URL to events',
    description: `Answers the endpoint and its signing secret (\`whsec_...\`) **once**: store it to verify deliveries (docs/integrations.md). Partner staff always subscribe their own partner's events (\`partnerId\` is theirs whatever is sent; another one is a 404); club staff may leave \`partnerId\` out to receive every partner's. \`customer.created\` and \`customer.updated\` reach club-wide endpoints only: a partner's endpoint subscribed to them is refused (400 on \`events\`; the same on PATCH). A URL naming a private, loopback or link-local address is refused (checked again at every delivery, after DNS).`,
    access: WEBHOOK_ACCESS,
    scope: 'partner',
    body: createWebhookBodySchema,
    data: createdWebhookSchema,
    status: 201,
    errors: [404],
  },
  {
    method: 'get',
    path: '/admin/webhooks/{webhookId}',
    numericIds: true,
    tag: 'Webhooks',
    summary: 'A webhook endpoint (without its secret)',
    description: WEBHOOK_SCOPE,
    access: WEBHOOK_ACCESS,
    scope: 'partner',
    params: webhookIdParamSchema,
    data: webhookSchema,
  },
  {
    method: 'patch',
    path: '/admin/webhooks/{webhookId}',
    numericIds: true,
    tag: 'Webhooks',
    summary: 'Change a webhook endpoint, or enable it again',
    description: `${WEBHOOK_SCOPE} Only the fields sent change. An endpoint is disabled after a delivery failed for about a day; \`enabled: true\` turns it back on (then replay what failed); \`enabled: false\` turns it off and sends \`webhook.disabled\` to the partner's other endpoints and the club-wide ones. \`secret\` is refused (400 on \`secret\`): rotate it with POST /admin/webhooks/{webhookId}/rotate-secret.`,
    access: WEBHOOK_ACCESS,
    scope: 'partner',
    params: webhookIdParamSchema,
    body: updateWebhookBodySchema,
    data: webhookSchema,
  },
  {
    method: 'post',
    path: '/admin/webhooks/{webhookId}/rotate-secret',
    numericIds: true,
    tag: 'Webhooks',
    summary: 'Rotate the signing secret (the new one answered once)',
    description: `${WEBHOOK_SCOPE} Answers the endpoint with its new secret in \`data.secret\` **once**, as at creation: store it. For the next ${WEBHOOK_SECRET_OVERLAP_TEXT} (until \`previousSecretExpiresAt\`) every delivery carries a signature with the old secret and one with the new in \`webhook-signature\` (\`v1,<old> v1,<new>\`), so a receiver verifies with either while it switches; after that only the new one signs. A second rotation within the overlap keeps the older secret signing too (at most ${MAX_PREVIOUS_WEBHOOK_SECRETS} old ones), so a lost answer never locks a receiver out.`,
    access: WEBHOOK_ACCESS,
    scope: 'partner',
    params: webhookIdParamSchema,
    data: createdWebhookSchema,
  },
  {
    method: 'delete',
    path: '/admin/webhooks/{webhookId}',
    numericIds: true,
    tag: 'Webhooks',
    summary: 'Delete a webhook endpoint and its delivery log',
    access: WEBHOOK_ACCESS,
    scope: 'partner',
    params: webhookIdParamSchema,
    data: noData,
  },
  {
    method: 'get',
    path: '/admin/webhooks/{webhookId}/deliveries',
    numericIds: true,
    tag: 'Webhooks',
    summary: 'The delivery log: each message with every attempt',
    description:
      "Newest first. Each attempt has its time, the receiver's status code (null when none came), duration and when the next retry is due. Retries back off 5 s, 5 min, 30 min, 2 h, 5 h, 8 h, 8 h (8 attempts over about a day); then the delivery fails and the endpoint is disabled.",
    access: WEBHOOK_ACCESS,
    scope: 'partner',
    params: webhookIdParamSchema,
    query: webhookDeliveryListQuerySchema,
    data: listSchema(webhookDeliverySchema),
  },
  {
    method: 'post',
    path: '/admin/webhooks/{webhookId}/deliveries/{deliveryId}/replay',
    numericIds: true,
    tag: 'Webhooks',
    summary: 'Send a delivery again (same webhook-id)',
    description:
      'Queues the message again at once with its original `webhook-id` (a receiver that already handled it deduplicates it). A disabled endpoint answers 409: enable it first.',
    access: WEBHOOK_ACCESS,
    scope: 'partner',
    params: webhookDeliveryParamSchema,
    data: webhookDeliverySchema,
    errors: [409],
  },
  csvExport('/admin/user/get-roles/export', 'Roles', 'roles', ['roles.view'], 'club', roleListQuerySchema),
  csvExport(
    '/admin/user/activities/export',
    'Activity log',
    'the activity log',
    ['activities.view'],
    'partner',
    activityListQuerySchema,
  ),
  csvExport(
    '/admin/partners/export',
    'Partners',
    'partners',
    ['partners.view'],
    'club',
    partnerListQuerySchema,
  ),
  csvExport(
    '/admin/partners/extended-services/export',
    'Extended services',
    'extended services',
    ['extended_services.view'],
    'club',
    extendedServiceListQuerySchema,
  ),
  csvExport(
    '/admin/partners/visits/export',
    'Visits',
    "a partner's visits",
    ['visits.view'],
    'partner',
    visitListQuerySchema,
    [404],
  ),
  csvExport(
    '/admin/partners/visits/reward-eligible-users/export',
    'Visits',
    'reward-eligible users on a date',
    ['visits.view'],
    'partner',
    eligibleUsersQuerySchema,
    [404],
  ),
  csvExport(
    '/admin/partners/visits/eligible-users-bypoints/export',
    'Visits',
    'users eligible by accumulated points',
    ['visits.view'],
    'partner',
    pointsEligibleQuerySchema,
    [404],
  ),
  {
    ...csvExport(
      '/admin/partners/rewards/export',
      'Rewards',
      "a partner's rewards",
      ['rewards.view', 'rewards.redeem'],
      'partner',
      partnerRewardsQuerySchema,
      [404],
    ),
    customer: { in: 'query', field: 'userId' },
  },
  csvExport(
    '/admin/user/customers/export',
    'Customers',
    'customers',
    ['clients.view'],
    'partner',
    customerListQuerySchema,
  ),
  csvExport(
    '/admin/visit-reviews/export',
    'Visit review',
    'flagged visits in one review state',
    ['visits.review'],
    'club',
    visitReviewListQuerySchema,
    [404],
  ),
] as const satisfies readonly ApiEndpoint[];

/** Every endpoint of the API, in the order the server mounts them. */
export const apiEndpoints: readonly ApiEndpoint[] = endpointList;

/** One endpoint with its own literal types (path, schemas), as the server's handlers see it. */
export type ApiRoute = (typeof endpointList)[number];

/** Every endpoint by how a route module names it: `POST /admin/auth/login` (the OpenAPI path). */
type ApiRouteMap = { [R in ApiRoute as `${Uppercase<R['method']>} ${R['path']}`]: R };

/** How a route module names the endpoint it serves. */
export type ApiRouteKey = keyof ApiRouteMap;

/** The endpoint a key names, with its literal types. */
export type ApiRouteAt<K extends ApiRouteKey> = ApiRouteMap[K];

/** The endpoint a key names (the same object the OpenAPI document is built from). */
export function apiRoute<K extends ApiRouteKey>(key: K): ApiRouteAt<K> {
  const found = apiEndpoints.find((e) => `${e.method.toUpperCase()} ${e.path}` === key);
  if (!found) throw new Error(`No endpoint ${key} in contract/api.ts`);
  return found as ApiRouteAt<K>;
}

/**
 * The schema a success answer's `data` is parsed with: the endpoint's `data`, or, for one that may
 * also answer 202 (`accepted`, decision 074), either of the two.
 */
export function successDataOf(e: ApiEndpoint): z.core.$ZodType {
  return e.accepted ? z.union([e.data, e.accepted.data]) : e.data;
}
