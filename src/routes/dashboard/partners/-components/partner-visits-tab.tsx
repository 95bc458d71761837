import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { useState } from 'react';
import { type Visit, visitList } from '../../../../../contract/visits';
import { css } from '../../../../../styled-system/css';
import { exportPartnerVisits, partnerVisitsQueryOptions } from '../../../../api/visits';
import { type DataColumn, dataColumnHelper } from '../../../../components/data-table';
import { DetailCard } from '../../../../components/detail-list';
import { ExportButton } from '../../../../components/export-button';
import { ListTable, useListChange } from '../../../../components/list-screen';
import { Button } from '../../../../components/ui/button';
import { tableLink } from '../../../../components/ui/text-link';
import { ReviewStateBadge } from '../../../../components/visit-parts';
import { formatDate, formatNaira, fullName } from '../../../../lib/format';
import { withListSort } from '../../../../lib/list-search';
import { useCan } from '../../../../lib/use-can';
import { RecordVisitForm } from './record-visit-form';

const route = getRouteApi('/dashboard/partners/$partnerId/');
const col = dataColumnHelper<Visit>();

const nowrap = css({ whiteSpace: 'nowrap' });

const columns: DataColumn<Visit>[] = col.columns([
  col.accessor((v) => fullName(v.user.firstName, v.user.lastName), {
    id: 'userName',
    header: 'User',
    enableSorting: true,
    cell: ({ getValue }) => <span className={nowrap}>{getValue()}</span>,
  }),
  col.accessor('attendantName', { id: 'attendantName', header: 'Location', enableSorting: true }),
  col.accessor('visitDate', {
    header: 'Visit Date',
    enableSorting: true,
    cell: ({ getValue }) => <span className={nowrap}>{formatDate(getValue())}</span>,
  }),
  col.accessor('totalAmount', {
    header: 'Total Amount',
    enableSorting: true,
    meta: { align: 'end' },
    cell: ({ getValue }) => <span className={nowrap}>{formatNaira(getValue())}</span>,
  }),
  col.display({
    id: 'review',
    header: 'Review',
    cell: ({ row: { original: v } }) => (
      <span title={v.review.reason ?? undefined}>
        <ReviewStateBadge review={v.review} />
        {v.review.reason ? (
          <span className={css({ display: 'block', fontSize: 'xs', color: 'fg.muted' })}>
            {v.review.reason}
          </span>
        ) : null}
      </span>
    ),
  }),
  col.display({
    id: 'actions',
    header: 'Details',
    meta: { align: 'end', sticky: true },
    cell: ({ row }) => (
      <Link to="/dashboard/visits/$visitId" params={{ visitId: row.original.id }} className={tableLink}>
        View
      </Link>
    ),
  }),
]);

/**
 * The Visits tab: user, Location (attendant), visit date, total amount, link; paged, sortable. With
 * visits.create, 'Record visit' opens the visit form above the list (not while the partner is blocked).
 */
export function PartnerVisitsTab({ partnerId, blocked = false }: { partnerId: number; blocked?: boolean }) {
  const can = useCan();
  const [recording, setRecording] = useState(false);
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const state = withListSort(search, visitList);
  const list = useQuery(partnerVisitsQueryOptions({ ...state, partnerId }));
  const onChange = useListChange(navigate);
  return (
    <>
      {recording ? (
        <div className={css({ mb: '6' })}>
          <DetailCard label="Record a visit">
            <RecordVisitForm partnerId={partnerId} onDone={() => setRecording(false)} />
          </DetailCard>
        </div>
      ) : null}
      <ListTable
        label="Visits"
        columns={columns}
        query={list}
        state={state}
        onChange={onChange}
        toolbar={
          <>
            {can('visits.create') && !blocked && !recording ? (
              <Button onClick={() => setRecording(true)}>Record visit</Button>
            ) : null}
            <ExportButton
              download={(opts) => exportPartnerVisits({ ...state, partnerId }, opts)}
              permission="visits.view"
            />
          </>
        }
      />
    </>
  );
}
