import { ApiError } from '../errors';
import type { AuthUser } from '../types';

/** The users row behind the caller, for "done by" columns: null when a partner API key calls. */
export const staffUserId = (user: AuthUser): number | null => (user.apiKey ? null : user.id);

export const PARTNER_NOT_FOUND = 'Partner not found';

/**
 * THE partner-scope rule (docs/product.md#decided-rules, issue 5): partner staff (users tied to a partner) see
 * and act only at their own partner; admins see every partner. Another partner's data does not exist
 * for them: 404, by id, by list filter and by export, never a 403 that would confirm it exists.
 *
 * `partnerScope(user)`: null for every partner, else the one partner id.
 */
export const partnerScope = (user: AuthUser): number | null => user.partnerId ?? null;

/** Whether the partner is inside the user's scope. */
export const inPartnerScope = (user: AuthUser, partnerId: number): boolean => {
  const scope = partnerScope(user);
  return scope === null || scope === partnerId;
};

/** 404 (with `message`) when the partner is outside the user's scope. */
export function assertPartnerScope(
  user: AuthUser,
  partnerId: number,
  message: string = PARTNER_NOT_FOUND,
): void {
  if (!inPartnerScope(user, partnerId)) throw new ApiError(404, message);
}

/**
 * The partner a scoped call works on: partner staff always their own (a different `requested` is
 * 404), admins the one they name or, with `required: false`, every partner (null).
 */
export function scopedPartnerId(user: AuthUser, requested: number | undefined): number | null {
  const scope = partnerScope(user);
  if (scope === null) return requested ?? null;
  if (requested !== undefined && requested !== scope) throw new ApiError(404, PARTNER_NOT_FOUND);
  return scope;
}
