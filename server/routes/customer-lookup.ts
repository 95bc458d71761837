import { and, asc, isNull, type SQL, sql } from 'drizzle-orm';
import { REDEMPTION_CUSTOMERS_LIMIT, type RedemptionCustomer } from '../../contract/redemption';
import { rewardServerMessages } from '../../contract/rewards';
import type { DbOrTx } from '../db/client';
import { customers } from '../db/schema';
import { maskEmail } from '../domain/otp';
import { findLivePartner } from '../domain/partners';
import { PARTNER_NOT_FOUND, scopedPartnerId } from '../domain/scope';
import { ApiError, fieldError } from '../errors';
import { escapeLike } from '../http/list';
import type { AuthUser } from '../types';

/**
 * The 'find customer' of the guided redemption and of the visit form (decisions 023 and 049): the
 * partner the search is for (partner staff: their own; admins name it, 400 without; 404 unless
 * live), then at most 10 live customers matching, by name, their address masked.
 */
export async function lookupPartner(db: DbOrTx, user: AuthUser, partnerId: number | undefined) {
  const scope = scopedPartnerId(user, partnerId);
  if (scope === null) throw fieldError('partnerId', rewardServerMessages.partnerRequired);
  if (!(await findLivePartner(db, scope))) throw new ApiError(404, PARTNER_NOT_FOUND);
  return scope;
}

export async function findCustomers(db: DbOrTx, match: SQL | undefined): Promise<RedemptionCustomer[]> {
  const found = await db
    .select({
      id: customers.id,
      firstName: customers.firstName,
      lastName: customers.lastName,
      email: customers.email,
    })
    .from(customers)
    .where(and(isNull(customers.deletedAt), isNull(customers.erasedAt), match))
    .orderBy(asc(customers.firstName), asc(customers.lastName), asc(customers.id))
    .limit(REDEMPTION_CUSTOMERS_LIMIT);
  return found.map((x) => ({ ...x, email: maskEmail(x.email) }));
}

/** `text` (no wildcards: `%` and `_` are text) as an ILIKE pattern anywhere in a value. */
export const containing = (text: string) => `%${escapeLike(text)}%`;

/** The customer's full name or address contains `text`. */
export const nameOrEmailContains = (text: string) =>
  sql`(${customers.firstName} || ' ' || ${customers.lastName} ilike ${containing(text)} or ${customers.email} ilike ${containing(text)})`;
