import { useQuery } from '@tanstack/react-query';
import { useCallback, useMemo, useRef, useState } from 'react';
import type { PointsEligibleUser } from '../../../../../contract/visits';
import { css } from '../../../../../styled-system/css';
import { exportPointsEligibleUsers, pointsEligibleQueryOptions } from '../../../../api/visits';
import { type DataColumn, dataColumnHelper } from '../../../../components/data-table';
import { ListTable } from '../../../../components/list-screen';
import { Dialog } from '../../../../components/ui/dialog';
import { formatCount } from '../../../../lib/format';
import {
  applyListChange,
  DEFAULT_PAGE_SIZE,
  type ListChange,
  type ListState,
} from '../../../../lib/list-search';
import { IssueRewardButton } from './reward-actions';

export const POINTS_DIALOG_TITLE = 'Eligible Users For Reward By Accumulated Points';

const col = dataColumnHelper<PointsEligibleUser>();
const baseColumns: DataColumn<PointsEligibleUser>[] = col.columns([
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

const columnsWithIssue = (onIssue: (user: PointsEligibleUser) => void): DataColumn<PointsEligibleUser>[] => [
  ...baseColumns,
  col.display({
    id: 'issue',
    header: 'Reward',
    meta: { align: 'end' },
    cell: ({ row }) => <IssueRewardButton name={row.original.name} onClick={() => onIssue(row.original)} />,
  }),
];

const initial: ListState = { page: 1, pageSize: DEFAULT_PAGE_SIZE, search: '' };

/** The modal of customers with unclaimed points at this partner (1 point per ₦100 spent). */
export function PointsEligibleDialog({
  partnerId,
  open,
  onOpenChange,
  onIssue,
}: {
  partnerId: number;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** With rewards.issue: each row gets 'Issue Reward' (byPoints: true). */
  onIssue?: (user: PointsEligibleUser) => void;
}) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={POINTS_DIALOG_TITLE}
      // Wider for its table, never wider than the window (at 768 px the Reward column shows).
      contentClassName={css({ md: { w: '48rem', maxW: 'full' } })}
    >
      <PointsTable partnerId={partnerId} onIssue={onIssue} />
    </Dialog>
  );
}

/** The modal's paging is its own (a modal is not a place in the URL); it starts over when reopened. */
function PointsTable({
  partnerId,
  onIssue,
}: {
  partnerId: number;
  onIssue?: (user: PointsEligibleUser) => void;
}) {
  // The handler only changes with the permission; keep the columns as stable as that.
  const hasIssue = onIssue !== undefined;
  const issueRef = useRef(onIssue);
  issueRef.current = onIssue;
  const columns = useMemo(
    () => (hasIssue ? columnsWithIssue((u) => issueRef.current?.(u)) : baseColumns),
    [hasIssue],
  );
  const [state, setState] = useState<ListState>(initial);
  const list = useQuery(pointsEligibleQueryOptions({ ...state, partnerId }));
  const onChange = useCallback((change: ListChange) => setState((prev) => applyListChange(prev, change)), []);
  return (
    <ListTable
      label="Points-eligible users"
      columns={columns}
      query={list}
      state={state}
      onChange={onChange}
      exportCsv={{
        download: (opts) => exportPointsEligibleUsers({ ...state, partnerId }, opts),
        permission: 'visits.view',
      }}
    />
  );
}
