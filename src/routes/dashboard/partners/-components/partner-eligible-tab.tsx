import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { useCallback, useMemo, useState } from 'react';
import { type EligibleUser, eligibleSortKeys } from '../../../../../contract/visits';
import { css } from '../../../../../styled-system/css';
import { eligibleUsersQueryOptions } from '../../../../api/visits';
import { type DataColumn, DataTable, dataColumnHelper } from '../../../../components/data-table';
import { ForbiddenState, isForbidden } from '../../../../components/forbidden-state';
import { Button } from '../../../../components/ui/button';
import { TextField } from '../../../../components/ui/field';
import { formatNaira, fullName, todayIso } from '../../../../lib/format';
import { applyListChange, type ListChange, withListSort } from '../../../../lib/list-search';
import { tableLink } from './partner-visits-tab';
import { PointsEligibleDialog } from './points-eligible-dialog';

const route = getRouteApi('/dashboard/partners/$partnerId/');
const col = dataColumnHelper<EligibleUser>();
const nowrap = css({ whiteSpace: 'nowrap' });

function eligibleColumns(partnerId: number, date: string): DataColumn<EligibleUser>[] {
  return col.columns([
    col.accessor((u) => fullName(u.user.firstName, u.user.lastName), {
      id: 'userName',
      header: 'User',
      enableSorting: true,
      cell: ({ getValue }) => <span className={nowrap}>{getValue()}</span>,
    }),
    col.accessor('isEligible', { header: 'Eligible', cell: ({ getValue }) => (getValue() ? 'Yes' : 'No') }),
    col.accessor('rewardType', { header: 'Reward Type', cell: ({ getValue }) => getValue() ?? '-' }),
    col.accessor('totalSpent', {
      header: 'Total Spent',
      enableSorting: true,
      meta: { align: 'end' },
      cell: ({ getValue }) => <span className={nowrap}>{formatNaira(getValue())}</span>,
    }),
    col.display({
      id: 'actions',
      header: 'Details',
      meta: { align: 'end' },
      cell: ({ row }) => (
        <Link
          to="/dashboard/eligibility/user/$userId"
          params={{ userId: row.original.user.id }}
          search={{ partnerId, date }}
          className={tableLink}
        >
          View
        </Link>
      ),
    }),
  ]);
}

/**
 * The Eligible users tab: a date (today unless the URL names one), each customer's spend at this
 * partner in the 30 days up to it, Yes/No, and the 'By Points Accumulated' modal.
 */
export function PartnerEligibleTab({ partnerId }: { partnerId: number }) {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const [pointsOpen, setPointsOpen] = useState(false);
  const date = search.date ?? todayIso();
  const state = withListSort(search, eligibleSortKeys, { sortBy: 'totalSpent', sortOrder: 'desc' });
  const list = useQuery(eligibleUsersQueryOptions({ ...state, partnerId, date }));
  const columns = useMemo(() => eligibleColumns(partnerId, date), [partnerId, date]);
  const onChange = useCallback(
    (change: ListChange) => void navigate({ search: (prev) => applyListChange(prev, change) }),
    [navigate],
  );
  if (isForbidden(list.error)) return <ForbiddenState />;
  return (
    <>
      <DataTable
        label="Eligible users"
        columns={columns}
        records={list.data?.records}
        totalCount={list.data?.meta.totalCount}
        isPending={list.isPending}
        isFetching={list.isPlaceholderData}
        error={list.error}
        state={state}
        onChange={onChange}
        getRowId={(u) => String(u.user.id)}
        toolbar={
          <div className={css({ display: 'flex', alignItems: 'flex-end', gap: '3', flexWrap: 'wrap' })}>
            <div className={css({ w: '12rem' })}>
              <TextField
                label="Date"
                type="date"
                value={date}
                onChange={(e) => {
                  const next = e.target.value;
                  void navigate({
                    search: (prev) => ({
                      ...prev,
                      date: next && next !== todayIso() ? next : undefined,
                      page: 1,
                    }),
                  });
                }}
              />
            </div>
            <Button variant="outline" onClick={() => setPointsOpen(true)}>
              By Points Accumulated
            </Button>
          </div>
        }
      />
      <PointsEligibleDialog partnerId={partnerId} open={pointsOpen} onOpenChange={setPointsOpen} />
    </>
  );
}
