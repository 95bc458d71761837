import { useQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { useCallback } from 'react';
import { type Reward, rewardSortKeys } from '../../../../../contract/rewards';
import { css } from '../../../../../styled-system/css';
import { partnerRewardsQueryOptions } from '../../../../api/rewards';
import { type DataColumn, DataTable, dataColumnHelper } from '../../../../components/data-table';
import { ForbiddenState, isForbidden } from '../../../../components/forbidden-state';
import { formatDate, formatNaira, fullName } from '../../../../lib/format';
import { applyListChange, type ListChange, withListSort } from '../../../../lib/list-search';

const route = getRouteApi('/dashboard/partners/$partnerId/');
const col = dataColumnHelper<Reward>();
const nowrap = css({ whiteSpace: 'nowrap' });

/** A dash for an empty figure (SPEC section 2: balance and percent discount). */
export const orDash = (value: number | null | undefined, format: (n: number) => string): string =>
  value === null || value === undefined ? '-' : format(value);

const CATEGORY_LABELS: Record<Reward['rewardTypeCategory'], string> = {
  GENERAL: 'General',
  DISCOUNTED_SUBSCRIPTION: 'Discounted Subscription',
};

const columns: DataColumn<Reward>[] = col.columns([
  col.accessor((r) => fullName(r.user.firstName, r.user.lastName), {
    id: 'userName',
    header: 'User',
    enableSorting: true,
    cell: ({ getValue }) => <span className={nowrap}>{getValue()}</span>,
  }),
  col.accessor('rewardType', { header: 'Reward Type', enableSorting: true }),
  col.accessor('balance', {
    header: 'Balance',
    enableSorting: true,
    meta: { align: 'end' },
    cell: ({ getValue }) => <span className={nowrap}>{orDash(getValue(), formatNaira)}</span>,
  }),
  col.accessor('percentageDiscount', {
    header: 'Percent Discount',
    meta: { align: 'end' },
    cell: ({ getValue }) => orDash(getValue(), (n) => `${n}%`),
  }),
  col.accessor('expiryDate', {
    header: 'Reward Expiration',
    enableSorting: true,
    cell: ({ getValue }) => <span className={nowrap}>{formatDate(getValue()) || '-'}</span>,
  }),
  col.accessor('rewardTypeCategory', {
    header: 'Reward Category',
    cell: ({ row }) => CATEGORY_LABELS[row.original.rewardTypeCategory],
  }),
  col.accessor('status', { header: 'Status', enableSorting: true }),
]);

/** The Rewards tab: the rewards this partner issued; paged. */
export function PartnerRewardsTab({ partnerId }: { partnerId: number }) {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const state = withListSort(search, rewardSortKeys, { sortBy: 'createdAt', sortOrder: 'desc' });
  const list = useQuery(partnerRewardsQueryOptions({ ...state, partnerId }));
  const onChange = useCallback(
    (change: ListChange) => void navigate({ search: (prev) => applyListChange(prev, change) }),
    [navigate],
  );
  if (isForbidden(list.error)) return <ForbiddenState />;
  return (
    <DataTable
      label="Rewards"
      columns={columns}
      records={list.data?.records}
      totalCount={list.data?.meta.totalCount}
      isPending={list.isPending}
      isFetching={list.isPlaceholderData}
      error={list.error}
      state={state}
      onChange={onChange}
      getRowId={(reward) => String(reward.id)}
    />
  );
}
