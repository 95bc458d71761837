import { useQuery } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import type { PointsEligibleUser } from '../../../../../contract/visits';
import { css } from '../../../../../styled-system/css';
import { pointsEligibleQueryOptions } from '../../../../api/visits';
import { type DataColumn, DataTable, dataColumnHelper } from '../../../../components/data-table';
import { Dialog } from '../../../../components/ui/dialog';
import { formatCount } from '../../../../lib/format';
import {
  applyListChange,
  DEFAULT_PAGE_SIZE,
  type ListChange,
  type ListState,
} from '../../../../lib/list-search';

export const POINTS_DIALOG_TITLE = 'Eligible Users For Reward By Accumulated Points';

const col = dataColumnHelper<PointsEligibleUser>();
const columns: DataColumn<PointsEligibleUser>[] = col.columns([
  col.accessor('id', { header: 'ID' }),
  col.accessor('name', {
    header: 'Name',
    cell: ({ getValue }) => <span className={css({ whiteSpace: 'nowrap' })}>{getValue()}</span>,
  }),
  col.accessor('email', { header: 'Email Address' }),
  col.accessor('totalUnclaimedPoints', {
    header: 'Total Unclaimed Points',
    meta: { align: 'end' },
    cell: ({ getValue }) => formatCount(getValue()),
  }),
]);

const initial: ListState = { page: 1, pageSize: DEFAULT_PAGE_SIZE, search: '' };

/** The modal of customers with unclaimed points at this partner (1 point per ₦100 spent). */
export function PointsEligibleDialog({
  partnerId,
  open,
  onOpenChange,
}: {
  partnerId: number;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={POINTS_DIALOG_TITLE}
      contentClassName={css({ md: { w: '48rem' } })}
    >
      <PointsTable partnerId={partnerId} />
    </Dialog>
  );
}

/** The modal's paging is its own (a modal is not a place in the URL); it starts over when reopened. */
function PointsTable({ partnerId }: { partnerId: number }) {
  const [state, setState] = useState<ListState>(initial);
  const list = useQuery(pointsEligibleQueryOptions({ ...state, partnerId }));
  const onChange = useCallback((change: ListChange) => setState((prev) => applyListChange(prev, change)), []);
  return (
    <DataTable
      label="Points-eligible users"
      columns={columns}
      records={list.data?.records}
      totalCount={list.data?.meta.totalCount}
      isPending={list.isPending}
      isFetching={list.isPlaceholderData}
      error={list.error}
      state={state}
      onChange={onChange}
      getRowId={(u) => String(u.id)}
    />
  );
}
