import { approvalMessages } from '../contract/approvals';
import { authMessages } from '../contract/auth';
import { campaignMessages } from '../contract/campaigns';
import { concurrencyMessages } from '../contract/concurrency';
import { customerLinkMessages } from '../contract/customer-links';
import { customerPrivacyMessages } from '../contract/customer-privacy';
import type { FieldError } from '../contract/envelope';
import type { ErrorCode } from '../contract/error-codes';
import { cursorMessages } from '../contract/list';
import { formatNaira } from '../contract/money';
import { partnerInactiveMessages, partnerServerMessages } from '../contract/partners';
import { rewardServerMessages as rmsg } from '../contract/rewards';
import { staffServerMessages } from '../contract/staff';
import { visitServerMessages } from '../contract/visits';
import { idempotencyMessages } from './domain/idempotency';
import { otpMessages } from './domain/otp';
import { humanDuration } from './domain/rate-limit';
import { INTERNAL_ERROR, ROUTE_NOT_FOUND, SERVICE_UNAVAILABLE } from './errors';
import { API_KEY_RATE_LIMITED, PARTNER_BLOCKED } from './http/access';
import { BODY_TOO_LARGE } from './http/route';
import { INVALID_JSON, VALIDATION_FAILED } from './http/validate';

/**
 * One example answer per catalogue code (contract/error-codes.ts), in the server's own words: the
 * reference shows it on every error answer that carries the code (server/openapi.ts). The type asks
 * for an example of every code, so a new code cannot go undocumented.
 */
export type ErrorExample = { message: string; errors?: FieldError[]; data?: unknown };

const onField = (fieldName: string, message: string): ErrorExample => ({
  message,
  errors: [{ fieldName, message }],
});

export const ERROR_EXAMPLES: Record<ErrorCode, ErrorExample> = {
  validation_failed: {
    message: VALIDATION_FAILED,
    errors: [{ fieldName: 'items.0.price', message: 'Too small: expected number to be >0' }],
  },
  invalid_json: { message: INVALID_JSON },
  bad_request: { message: 'Request failed' },
  invalid_cursor: onField('startingAfter', cursorMessages.unknown('startingAfter')),
  unauthenticated: { message: authMessages.unauthenticated },
  forbidden: { message: authMessages.forbidden },
  not_found: { message: partnerServerMessages.notFound },
  route_not_found: { message: ROUTE_NOT_FOUND },
  conflict: onField('email', staffServerMessages.emailTaken),
  version_conflict: {
    message: concurrencyMessages.recordChanged,
    data: { id: 12, updatedAt: '2026-03-01T10:00:00.000Z' },
  },
  idempotency_in_progress: { message: idempotencyMessages.inProgress },
  idempotency_key_reused: { message: idempotencyMessages.mismatch },
  payload_too_large: { message: `${BODY_TOO_LARGE} (at most 1 MiB)` },
  rate_limited: { message: `${API_KEY_RATE_LIMITED} Try again in ${humanDuration(12)}.` },
  service_unavailable: { message: SERVICE_UNAVAILABLE },
  internal_error: { message: INTERNAL_ERROR },
  partner_blocked: { message: partnerInactiveMessages.BLOCKED },
  customer_blocked: onField('userId', visitServerMessages.customerBlocked),
  customer_not_linked: { message: customerLinkMessages.notLinked },
  customer_erased: { message: customerPrivacyMessages.alreadyErased },
  redemption_in_flight: { message: customerPrivacyMessages.redemptionInFlight },
  no_points: onField('byPoints', rmsg.noPoints),
  reward_expired: { message: rmsg.expired },
  reward_already_redeemed: { message: rmsg.alreadyRedeemed },
  insufficient_balance: onField('amountToRedeem', rmsg.overBalance(formatNaira(1500))),
  not_a_giftcard: onField('code', rmsg.notGiftcard),
  not_a_coupon: onField('code', rmsg.notCoupon),
  not_a_redemption: { message: rmsg.notARedemption },
  reward_reversed: { message: rmsg.alreadyReversed },
  otp_invalid: onField('otp', otpMessages.wrong(3)),
  otp_expired: onField('otp', otpMessages.expired),
  otp_used: onField('otp', otpMessages.used),
  otp_missing: onField('otp', otpMessages.none),
  otp_locked: onField('otp', otpMessages.locked),
  otp_daily_cap: { message: otpMessages.dailyCap },
  link_daily_cap: { message: customerLinkMessages.dailyCap },
  otp_not_delivered: { message: otpMessages.notSent },
  maker_cannot_decide: { message: approvalMessages.ownRequest },
  not_awaiting_approval: { message: approvalMessages.notWaiting('approved') },
  approval_expired: { message: approvalMessages.expired(7) },
  campaign_not_draft: { message: campaignMessages.notDraft('running') },
  campaign_empty: { message: campaignMessages.empty },
  campaign_not_cancellable: { message: campaignMessages.notCancellable('done') },
};

/** Not a code of its own: a blocked partner's staff (403) read the guard's words. */
export const PARTNER_BLOCKED_403: ErrorExample = { message: PARTNER_BLOCKED };
