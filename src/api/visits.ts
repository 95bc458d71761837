import { queryOptions } from '@tanstack/react-query';
import type { RedemptionCustomer } from '../../contract/redemption';
import {
  type CreateVisitBody,
  type EligibleUserDetail,
  eligibleList,
  eligibleUserSchema,
  pointsEligibleList,
  pointsEligibleUserSchema,
  type Visit,
  visitList,
  visitSchema,
} from '../../contract/visits';
import { apiData } from './call';
import { listResource } from './list-resource';

/** A partner's visits. */
const visits = listResource({
  key: ['visits'],
  list: visitList,
  path: '/admin/partners/visits',
  item: visitSchema,
  detail: { path: '/admin/partners/visits/{visitId}' },
});

/** The partner's reward-eligible customers on a date. */
const eligible = listResource({
  key: [...visits.keys.all, 'eligible'],
  list: eligibleList,
  path: '/admin/partners/visits/reward-eligible-users',
  item: eligibleUserSchema,
});

/** Customers with unclaimed points at the partner, most points first. */
const pointsEligible = listResource({
  key: [...visits.keys.all, 'points'],
  list: pointsEligibleList,
  path: '/admin/partners/visits/eligible-users-bypoints',
  item: pointsEligibleUserSchema,
});

export const visitKeys = {
  ...visits.keys,
  eligible: () => eligible.keys.all,
  eligibleList: eligible.keys.list,
  eligibleUser: (userId: number, partnerId: number, date: string) =>
    [...visitKeys.eligible(), 'user', userId, { partnerId, date }] as const,
  points: pointsEligible.keys.list,
};

export const partnerVisitsQueryOptions = visits.listQueryOptions;
/** A partner's visits (search, sort) as CSV. */
export const exportPartnerVisits = visits.exportCsv;
export const visitDetailQueryOptions = visits.detailQueryOptions;

export const eligibleUsersQueryOptions = eligible.listQueryOptions;
/** The partner's reward-eligible customers on the list's date, as CSV. */
export const exportEligibleUsers = eligible.exportCsv;

export const pointsEligibleQueryOptions = pointsEligible.listQueryOptions;
/** Customers with unclaimed points at the partner, as CSV. */
export const exportPointsEligibleUsers = pointsEligible.exportCsv;

/** POST /user/visits: a partner records a customer's visit (the server computes the total). */
export const recordVisit = (body: CreateVisitBody): Promise<Visit> => apiData('POST /user/visits', { body });

/**
 * GET /partners/visits/customers: the visit form's 'find customer': the partner's own customers by
 * part of a name or email, any customer of the club by the whole email (a first visit; decision 049).
 */
export const findVisitCustomers = (query: {
  partnerId: number;
  search: string;
}): Promise<RedemptionCustomer[]> => apiData('GET /partners/visits/customers', { query });

export const fetchEligibleUser = (
  userId: number,
  partnerId: number,
  date: string,
): Promise<EligibleUserDetail> =>
  apiData('GET /admin/partners/visits/reward-eligible-users/{userId}', {
    params: { userId },
    query: { partnerId, date },
  });

export const eligibleUserDetailQueryOptions = (userId: number, partnerId: number, date: string) =>
  queryOptions({
    queryKey: visitKeys.eligibleUser(userId, partnerId, date),
    queryFn: () => fetchEligibleUser(userId, partnerId, date),
  });
