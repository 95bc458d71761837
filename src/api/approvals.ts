import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { APPROVAL_QUEUE_STATES, ApprovalItem } from '../../contract/approvals';
import type { ApprovalSettings, ApprovalSettingsBody } from '../../contract/campaigns';
import type { ListData } from '../../contract/envelope';
import type { PageSize } from '../../contract/list';
import { newIdempotencyKey } from '../lib/idempotency-key';
import { apiCall, apiData } from './call';

/**
 * Four eyes (issue 35, docs/decisions/074): the approvals queue (campaigns and single rewards waiting
 * for a second person), the decisions, and the club's thresholds and expiry days.
 */
export type ApprovalQueueState = (typeof APPROVAL_QUEUE_STATES)[number];
type ApprovalQuery = { state: ApprovalQueueState; page: number; pageSize: PageSize };

export const approvalKeys = {
  all: ['approvals'] as const,
  list: (q: ApprovalQuery) => [...approvalKeys.all, 'list', q] as const,
  settings: ['approval-settings'] as const,
};

const fetchApprovals = (q: ApprovalQuery): Promise<ListData<ApprovalItem>> =>
  apiData('GET /admin/approvals', { query: { state: q.state, pageNumber: q.page, pageSize: q.pageSize } });

export const approvalsQueryOptions = (q: ApprovalQuery) =>
  queryOptions({
    queryKey: approvalKeys.list(q),
    queryFn: () => fetchApprovals(q),
    placeholderData: keepPreviousData,
  });

/** Approves what waits: a campaign starts; a single reward is issued (once: the key guards a retry). */
export const approveItem = async (item: Pick<ApprovalItem, 'kind' | 'id'>): Promise<string> =>
  item.kind === 'campaign'
    ? (await apiCall('POST /admin/campaigns/{id}/approve', { params: { id: item.id } })).message
    : (
        await apiCall('POST /admin/approvals/rewards/{id}/approve', {
          params: { id: item.id },
          headers: { 'Idempotency-Key': newIdempotencyKey() },
        })
      ).message;

/** Rejects what waits, with the reason the maker reads. */
export const rejectItem = async (item: Pick<ApprovalItem, 'kind' | 'id'>, reason: string): Promise<string> =>
  item.kind === 'campaign'
    ? (await apiCall('POST /admin/campaigns/{id}/reject', { params: { id: item.id }, body: { reason } }))
        .message
    : (
        await apiCall('POST /admin/approvals/rewards/{id}/reject', {
          params: { id: item.id },
          body: { reason },
        })
      ).message;

const fetchApprovalSettings = (): Promise<ApprovalSettings> => apiData('GET /admin/settings/approvals');

export const approvalSettingsQueryOptions = () =>
  queryOptions({ queryKey: approvalKeys.settings, queryFn: fetchApprovalSettings });

export const saveApprovalSettings = (body: ApprovalSettingsBody) =>
  apiCall('PUT /admin/settings/approvals', { body });

/** A partner's single rewards that wait or waited for approval (the newest 10), for the maker to follow. */
export const rewardRequestsQueryOptions = (partnerId: number) =>
  queryOptions({
    queryKey: [...approvalKeys.all, 'requests', partnerId] as const,
    queryFn: () => apiData('GET /partners/rewards/requests', { query: { partnerId, pageSize: 10 } }),
  });
