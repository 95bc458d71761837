/**
 * THE error catalogue (issue 31, docs/decisions/063-error-catalogue.md): every `code` an error
 * envelope may carry, once. A client branches on `code`, never on `message` (for people, may be
 * reworded). Each code names one distinct refusal, the statuses it comes with (the first is the one
 * an endpoint's `codes` declaration in contract/api.ts means) and what a client does about it. The
 * OpenAPI document lists, on every error answer of every operation, the codes it carries (derived
 * from the endpoint's shape plus its `codes`), with an example of each (server/error-examples.ts),
 * and the reference page lists this table.
 *
 * To add a code: add an entry here (snake_case, the refusal in a few words), an example message in
 * server/error-examples.ts (the type asks for one), throw it from the domain (`new ApiError(status,
 * message, errors, headers, 'the_code')` or `fieldError(field, message, status, 'the_code')`), and
 * name it in the `codes` of every endpoint that can answer it. server/routes/error-catalogue.test.ts
 * provokes each POS refusal and checks both.
 */
type CatalogueEntry = {
  statuses: readonly [number, ...number[]];
  /** What happened, for the reference. */
  meaning: string;
  /** What a client does about it. */
  action: string;
};

export const ERROR_CATALOGUE = {
  // Any call
  validation_failed: {
    statuses: [400],
    meaning: 'A field is missing or invalid; `errors` names each (`fieldName` is a dotted path).',
    action: 'Fix the fields named in `errors`; nothing was changed.',
  },
  invalid_json: {
    statuses: [400],
    meaning: 'The body is not JSON (or not sent as `application/json`).',
    action: 'Send a JSON body.',
  },
  bad_request: {
    statuses: [400],
    meaning: 'A request the server cannot read otherwise.',
    action: 'Fix the request.',
  },
  unauthenticated: {
    statuses: [401],
    meaning: 'No token or key, or an invalid, expired or revoked one.',
    action: 'Refresh the token (POST /auth/refresh-token) or check the key, then retry once.',
  },
  forbidden: {
    statuses: [403],
    meaning:
      "The caller's role or key lacks the permission the call names (`x-permissions`), or the call is club-wide.",
    action: 'Do not retry; ask for the permission.',
  },
  not_found: {
    statuses: [404],
    meaning: "No such record, or one outside the caller's partner.",
    action: 'Check the id.',
  },
  route_not_found: {
    statuses: [404],
    meaning: 'No such call (method and path).',
    action: 'Check the path against the reference.',
  },
  conflict: {
    statuses: [409],
    meaning:
      'The request conflicts with the current state in a way no more precise code names (a duplicate name or email, a record still in use).',
    action: 'Read `message`, change the request.',
  },
  version_conflict: {
    statuses: [409],
    meaning: 'A stale `If-Match`: the record changed since it was read; `data` holds the current record.',
    action: 'Merge with `data` and send again with its `updatedAt`.',
  },
  idempotency_in_progress: {
    statuses: [409],
    meaning: 'The first request with this `Idempotency-Key` is still running.',
    action: 'Retry the same request with the same key shortly.',
  },
  idempotency_key_reused: {
    statuses: [422],
    meaning: 'This `Idempotency-Key` was used (within 24 hours) with another request.',
    action: 'Use a new key for a new request.',
  },
  payload_too_large: {
    statuses: [413],
    meaning: 'The body is over its limit (1 MiB, or 8 MiB with a base64 image).',
    action: 'Send less.',
  },
  rate_limited: {
    statuses: [429],
    meaning:
      'A limit of the caller was reached: calls per API key, sign-in failures, codes sent or wrong codes tried per caller or address.',
    action:
      'Wait `Retry-After` seconds; the `RateLimit` field shows the tightest limit before it is reached.',
  },
  service_unavailable: {
    statuses: [503],
    meaning: 'The database cannot be reached; nothing was changed.',
    action: 'Retry after `Retry-After` seconds.',
  },
  invalid_cursor: {
    statuses: [400],
    meaning:
      "`startingAfter` or `endingBefore` names no record of this list: unknown, removed, another partner's, or no longer matching the list's filters.",
    action: 'Start again from the first page (leave the cursor out), with the same filters and sort.',
  },
  internal_error: {
    statuses: [500],
    meaning: 'A bug.',
    action: 'Retry later, report it with the `X-Request-Id`.',
  },
  // Who may act
  partner_blocked: {
    statuses: [409, 403],
    meaning:
      'The partner is blocked or deleted: it records, issues and redeems nothing (409); its staff and keys read only (403).',
    action: 'Do not retry; the club must unblock the partner.',
  },
  customer_blocked: {
    statuses: [400],
    meaning: 'The customer is blocked by the club.',
    action: 'Do not retry for this customer.',
  },
  customer_not_linked: {
    statuses: [403],
    meaning: "The customer is not linked to the caller's partner (unlinked, unknown or erased alike).",
    action: 'Ask the customer to confirm a link (POST /partners/customer-links).',
  },
  customer_erased: {
    statuses: [409],
    meaning: "The customer's personal data was erased (club admins; partners get `customer_not_linked`).",
    action: 'Do not retry; an admin may restore a new record for the subscriber number.',
  },
  redemption_in_flight: {
    statuses: [409],
    meaning: 'An erasure waits: a redemption code of the customer is still valid.',
    action: 'Retry once the code is used or has expired (at most 5 minutes).',
  },
  // Rewards
  no_points: {
    statuses: [409],
    meaning: 'A reward by points, but the customer has no unclaimed points at this partner.',
    action: 'Issue it without `byPoints`, or after more visits.',
  },
  reward_expired: {
    statuses: [409],
    meaning: 'The reward is past its expiry date.',
    action: 'Do not retry.',
  },
  reward_already_redeemed: {
    statuses: [409],
    meaning: 'The coupon was used, or the gift card has nothing left.',
    action: 'Do not retry.',
  },
  insufficient_balance: {
    statuses: [409],
    meaning: 'The amount is more than the gift card balance (the code is kept for a corrected amount).',
    action: 'Redeem at most the balance the message names (GET the reward for it).',
  },
  not_a_giftcard: {
    statuses: [400],
    meaning: 'A gift card redemption for a reward that is a coupon.',
    action: 'Use POST /partners/rewards/redeem-coupon.',
  },
  not_a_coupon: {
    statuses: [400],
    meaning: 'A coupon redemption for a reward that is a gift card.',
    action: 'Use POST /partners/rewards/redeem-giftcard with an amount.',
  },
  not_a_redemption: {
    statuses: [409],
    meaning: 'The ledger entry to reverse is not a redemption (an issue or a reversal).',
    action: 'Name the ledger entry of the redemption.',
  },
  reward_reversed: {
    statuses: [409],
    meaning: 'This redemption was already reversed.',
    action: 'Do not retry: the money is back.',
  },
  // Campaigns and four eyes (issue 35, decisions 070 and 074)
  maker_cannot_decide: {
    statuses: [403],
    meaning: 'The caller made this campaign or reward request: a second person approves or rejects it.',
    action: 'Ask another holder of `rewards.approve`.',
  },
  not_awaiting_approval: {
    statuses: [409],
    meaning:
      'The campaign or reward request is not waiting for approval: already approved, rejected or cancelled (approving twice issues nothing more).',
    action: 'Do not retry; read it again for its state.',
  },
  approval_expired: {
    statuses: [409],
    meaning:
      "The request was not decided within the club's `approvalExpiryDays`: it expired and nothing was issued.",
    action: 'The maker asks again (a new campaign or issue).',
  },
  campaign_not_draft: {
    statuses: [409],
    meaning: 'Only a draft is submitted; this campaign was submitted already.',
    action: 'Do not retry; read the campaign for its state.',
  },
  campaign_empty: {
    statuses: [409],
    meaning: "Nobody in the campaign's segment can receive the reward (see the preview's skip reasons).",
    action: 'Change the segment.',
  },
  campaign_not_cancellable: {
    statuses: [409],
    meaning: 'The campaign has ended (done, cancelled, rejected, failed or expired).',
    action: 'Do not retry.',
  },
  // One-time codes: a redemption code, or a customer link code (the same five tries, five minutes)
  otp_invalid: {
    statuses: [400],
    meaning: 'The code is not correct; `message` says how many tries are left (5 per code).',
    action: 'Ask the customer again.',
  },
  otp_expired: {
    statuses: [400],
    meaning: 'The code is older than 5 minutes.',
    action: 'Send a new code.',
  },
  otp_used: {
    statuses: [400],
    meaning: 'The code was already used.',
    action: 'Send a new code.',
  },
  otp_missing: {
    statuses: [400],
    meaning: 'No code was sent for this reward (or the last one could not be delivered).',
    action: 'Send a code first.',
  },
  otp_locked: {
    statuses: [429],
    meaning: 'The code took its 5 wrong tries and is dead.',
    action:
      'Send a new code (POST /partners/rewards/initiate-reward-redemption-auth); `Retry-After` says when one may be sent.',
  },
  otp_daily_cap: {
    statuses: [429],
    meaning: 'The 10 codes a reward may be sent in 24 hours were sent.',
    action: 'Wait `Retry-After` seconds (the oldest of the 10 leaves the 24 hours).',
  },
  link_daily_cap: {
    statuses: [429],
    meaning: 'The 10 link codes a customer may be sent by one partner in 24 hours were sent.',
    action: 'Wait `Retry-After` seconds.',
  },
  otp_not_delivered: {
    statuses: [503],
    meaning: 'The code could not be mailed; it was withdrawn and nothing was changed.',
    action: 'Send a code again.',
  },
} as const satisfies Record<string, CatalogueEntry>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;
export const ERROR_CODES = Object.keys(ERROR_CATALOGUE) as [ErrorCode, ...ErrorCode[]];

/** The status a code means when an endpoint's `codes` name it (its first). */
export const statusOfCode = (code: ErrorCode): number => ERROR_CATALOGUE[code].statuses[0];
