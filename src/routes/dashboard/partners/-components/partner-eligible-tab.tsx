import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { useCallback, useMemo, useState } from 'react';
import { type EligibleUser, eligibleList } from '../../../../../contract/visits';
import { css } from '../../../../../styled-system/css';
import { eligibleUsersQueryOptions, exportEligibleUsers } from '../../../../api/visits';
import { type DataColumn, dataColumnHelper } from '../../../../components/data-table';
import { ExportButton } from '../../../../components/export-button';
import { ListTable, useListChange } from '../../../../components/list-screen';
import { Button } from '../../../../components/ui/button';
import { TextField } from '../../../../components/ui/field';
import { tableLink } from '../../../../components/ui/text-link';
import { formatNaira, fullName, todayIso } from '../../../../lib/format';
import { withListSort } from '../../../../lib/list-search';
import { useCan } from '../../../../lib/use-can';
import { PointsEligibleDialog } from './points-eligible-dialog';
import { IssueRewardButton, IssueRewardDialog, type IssueTarget } from './reward-actions';

const route = getRouteApi('/dashboard/partners/$partnerId/');
const col = dataColumnHelper<EligibleUser>();
const nowrap = css({ whiteSpace: 'nowrap' });

function eligibleColumns(
  partnerId: number,
  date: string,
  onIssue: ((user: EligibleUser) => void) | null,
): DataColumn<EligibleUser>[] {
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
    ...(onIssue
      ? [
          col.display({
            id: 'issue',
            header: 'Reward',
            meta: { align: 'end', sticky: true },
            // Only an eligible customer can be issued a reward from this list (docs/product.md#screens).
            cell: ({ row }) =>
              row.original.isEligible ? (
                <IssueRewardButton
                  name={fullName(row.original.user.firstName, row.original.user.lastName)}
                  onClick={() => onIssue(row.original)}
                />
              ) : null,
          }),
        ]
      : []),
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
 * partner in the 30 days up to it, Yes/No, and the 'By Points Accumulated' modal. With rewards.issue,
 * each eligible row (and each row of the points modal) has an 'Issue Reward' action.
 */
export function PartnerEligibleTab({ partnerId }: { partnerId: number }) {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const can = useCan();
  const canIssue = can('rewards.issue');
  const [pointsOpen, setPointsOpen] = useState(false);
  const [issueTarget, setIssueTarget] = useState<IssueTarget | null>(null);
  const closeIssue = useCallback(() => setIssueTarget(null), []);
  const date = search.date ?? todayIso();
  // The screen leads with the biggest spenders; the API's own default (no sortBy) is by name.
  const state = withListSort(search, eligibleList, { sortBy: 'totalSpent', sortOrder: 'desc' });
  const list = useQuery(eligibleUsersQueryOptions({ ...state, partnerId, date }));
  const columns = useMemo(
    () =>
      eligibleColumns(
        partnerId,
        date,
        canIssue
          ? (u) =>
              setIssueTarget({
                partnerId,
                issuedTo: u.user.id,
                name: fullName(u.user.firstName, u.user.lastName),
              })
          : null,
      ),
    [partnerId, date, canIssue],
  );
  const onChange = useListChange(navigate);
  return (
    <>
      <ListTable
        label="Eligible users"
        columns={columns}
        query={list}
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
            <ExportButton
              download={(opts) => exportEligibleUsers({ ...state, partnerId, date }, opts)}
              permission="visits.view"
            />
          </div>
        }
      />
      <PointsEligibleDialog
        partnerId={partnerId}
        open={pointsOpen}
        onOpenChange={setPointsOpen}
        onIssue={
          canIssue
            ? (u) => {
                // One dialog at a time: the points modal gives way to the Issue Reward form.
                setPointsOpen(false);
                setIssueTarget({ partnerId, issuedTo: u.id, name: u.name, byPoints: true });
              }
            : undefined
        }
      />
      <IssueRewardDialog target={issueTarget} onClose={closeIssue} />
    </>
  );
}
