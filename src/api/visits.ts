import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { listSchema } from '../../contract/envelope';
import { type RedemptionCustomer, redemptionCustomerSchema } from '../../contract/redemption';
import {
  type CreateVisitBody,
  type EligibleUserDetail,
  eligibleList,
  eligibleUserDetailSchema,
  eligibleUserSchema,
  pointsEligibleUserSchema,
  type Visit,
  visitList,
  visitSchema,
} from '../../contract/visits';
import { z } from '../../contract/zod';
import { type ListState, toListQuery } from '../lib/list-search';
import { api } from './client';
import { type DownloadOptions, downloadCsv } from './export';

export const visitListSchema = listSchema(visitSchema);
export type VisitList = z.infer<typeof visitListSchema>;
export const eligibleUserListSchema = listSchema(eligibleUserSchema);
export type EligibleUserList = z.infer<typeof eligibleUserListSchema>;
export const pointsEligibleListSchema = listSchema(pointsEligibleUserSchema);
export type PointsEligibleList = z.infer<typeof pointsEligibleListSchema>;

export interface PartnerListParams extends ListState {
  partnerId: number;
}
export interface EligibleListParams extends PartnerListParams {
  /** YYYY-MM-DD */
  date: string;
}

const visitQuery = ({ partnerId, ...state }: PartnerListParams) => ({
  ...toListQuery(state, visitList.sortKeys),
  partnerId,
});
const eligibleQuery = ({ partnerId, date, ...state }: EligibleListParams) => ({
  ...toListQuery(state, eligibleList.sortKeys),
  partnerId,
  date,
});
const pointsQuery = ({ partnerId, ...state }: PartnerListParams) => ({
  ...toListQuery(state, []),
  partnerId,
});

export const visitKeys = {
  all: ['visits'] as const,
  lists: () => [...visitKeys.all, 'list'] as const,
  list: (params: PartnerListParams) => [...visitKeys.lists(), visitQuery(params)] as const,
  detail: (id: number) => [...visitKeys.all, 'detail', id] as const,
  eligible: () => [...visitKeys.all, 'eligible'] as const,
  eligibleList: (params: EligibleListParams) => [...visitKeys.eligible(), eligibleQuery(params)] as const,
  eligibleUser: (userId: number, partnerId: number, date: string) =>
    [...visitKeys.eligible(), 'user', userId, { partnerId, date }] as const,
  points: (params: PartnerListParams) => [...visitKeys.all, 'points', pointsQuery(params)] as const,
};

export const fetchPartnerVisits = (params: PartnerListParams): Promise<VisitList> =>
  api().get('/admin/partners/visits', visitListSchema, { query: visitQuery(params) });

/** A partner's visits (search, sort) as CSV. */
export const exportPartnerVisits = (params: PartnerListParams, opts?: DownloadOptions) =>
  downloadCsv('/admin/partners/visits/export', visitQuery(params), opts);

/** The partner's reward-eligible customers on the list's date, as CSV. */
export const exportEligibleUsers = (params: EligibleListParams, opts?: DownloadOptions) =>
  downloadCsv('/admin/partners/visits/reward-eligible-users/export', eligibleQuery(params), opts);

/** Customers with unclaimed points at the partner, as CSV. */
export const exportPointsEligibleUsers = (params: PartnerListParams, opts?: DownloadOptions) =>
  downloadCsv('/admin/partners/visits/eligible-users-bypoints/export', pointsQuery(params), opts);

/** POST /user/visits: a partner records a customer's visit (the server computes the total). */
export const recordVisit = (body: CreateVisitBody): Promise<Visit> =>
  api().post('/user/visits', visitSchema, { body });

/**
 * GET /partners/visits/customers: the visit form's 'find customer': the partner's own customers by
 * part of a name or email, any customer of the club by the whole email (a first visit; decision 049).
 */
export const findVisitCustomers = (query: {
  partnerId: number;
  search: string;
}): Promise<RedemptionCustomer[]> =>
  api().get('/partners/visits/customers', z.array(redemptionCustomerSchema), { query });

export const fetchVisit = (visitId: number): Promise<Visit> =>
  api().get(`/admin/partners/visits/${visitId}`, visitSchema);

export const fetchEligibleUsers = (params: EligibleListParams): Promise<EligibleUserList> =>
  api().get('/admin/partners/visits/reward-eligible-users', eligibleUserListSchema, {
    query: eligibleQuery(params),
  });

export const fetchEligibleUser = (
  userId: number,
  partnerId: number,
  date: string,
): Promise<EligibleUserDetail> =>
  api().get(`/admin/partners/visits/reward-eligible-users/${userId}`, eligibleUserDetailSchema, {
    query: { partnerId, date },
  });

export const fetchPointsEligibleUsers = (params: PartnerListParams): Promise<PointsEligibleList> =>
  api().get('/admin/partners/visits/eligible-users-bypoints', pointsEligibleListSchema, {
    query: pointsQuery(params),
  });

export const partnerVisitsQueryOptions = (params: PartnerListParams) =>
  queryOptions({
    queryKey: visitKeys.list(params),
    queryFn: () => fetchPartnerVisits(params),
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });

export const visitDetailQueryOptions = (visitId: number) =>
  queryOptions({ queryKey: visitKeys.detail(visitId), queryFn: () => fetchVisit(visitId) });

export const eligibleUsersQueryOptions = (params: EligibleListParams) =>
  queryOptions({
    queryKey: visitKeys.eligibleList(params),
    queryFn: () => fetchEligibleUsers(params),
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });

export const eligibleUserDetailQueryOptions = (userId: number, partnerId: number, date: string) =>
  queryOptions({
    queryKey: visitKeys.eligibleUser(userId, partnerId, date),
    queryFn: () => fetchEligibleUser(userId, partnerId, date),
  });

export const pointsEligibleQueryOptions = (params: PartnerListParams) =>
  queryOptions({
    queryKey: visitKeys.points(params),
    queryFn: () => fetchPointsEligibleUsers(params),
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
