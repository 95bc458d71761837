import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { CAMPAIGN_STATES, type Campaign } from '../../../../../contract/campaigns';
import { css } from '../../../../../styled-system/css';
import { campaignListQueryOptions } from '../../../../api/campaigns';
import { type DataColumn, dataColumnHelper } from '../../../../components/data-table';
import { AddButton, ListTable, useRouteList } from '../../../../components/list-screen';
import { PageBody, PageHeader } from '../../../../components/page-header';
import { SelectField } from '../../../../components/ui/select';
import { tableLink } from '../../../../components/ui/text-link';
import { formatCount, formatDateTime } from '../../../../lib/format';
import { TEXTS } from '../../../../lib/texts';
import { CampaignStateBadge } from './campaign-parts';

const route = getRouteApi('/dashboard/campaigns/');

const muted = css({ display: 'block', fontSize: 'xs', color: 'fg.muted' });
const nowrap = css({ whiteSpace: 'nowrap' });

/** 'issued 3 · skipped 1 · of 4' ('of –' while a draft: its segment is fixed on submit). */
export const countsText = (c: Pick<Campaign, 'issued' | 'skipped' | 'total'>) =>
  `${formatCount(c.issued)} issued · ${formatCount(c.skipped)} skipped · ${c.total === null ? '–' : formatCount(c.total)} in all`;

const col = dataColumnHelper<Campaign>();
const columns: DataColumn<Campaign>[] = col.columns([
  col.accessor('name', {
    header: 'Campaign',
    cell: ({ row: { original: c } }) => (
      <Link to="/dashboard/campaigns/$campaignId" params={{ campaignId: c.id }} className={tableLink}>
        {c.name}
      </Link>
    ),
  }),
  col.accessor((c) => c.partner.organizationName, { id: 'partner', header: 'Partner' }),
  col.display({
    id: 'state',
    header: 'State',
    cell: ({ row: { original: c } }) => (
      <>
        <CampaignStateBadge state={c.state} />
        {c.state === 'rejected' && c.rejectionReason ? (
          <span className={muted}>Reason: {c.rejectionReason}</span>
        ) : null}
      </>
    ),
  }),
  col.display({ id: 'counts', header: 'Customers', cell: ({ row: { original: c } }) => countsText(c) }),
  col.accessor((c) => c.createdBy?.name ?? '–', { id: 'maker', header: 'Made by' }),
  col.display({
    id: 'approver',
    header: 'Approved by',
    cell: ({ row: { original: c } }) =>
      c.approvedBy ? c.approvedBy.name : c.rejectedBy ? `Rejected by ${c.rejectedBy.name}` : '–',
  }),
  col.accessor('createdAt', {
    header: 'Created',
    cell: ({ getValue }) => <span className={nowrap}>{formatDateTime(getValue())}</span>,
  }),
]);

/** /dashboard/campaigns: every campaign, newest first, with its state, counts, maker and approver. */
export function CampaignsScreen() {
  const search = route.useSearch();
  const list = useQuery(campaignListQueryOptions(search.page, search.pageSize, search.state));
  return (
    <PageBody>
      <PageHeader
        title="Campaigns"
        subtitle="One reward for a whole segment of a partner's customers, issued in the background."
        actions={
          <AddButton to="/dashboard/campaigns/new" permission="campaigns.manage">
            New campaign
          </AddButton>
        }
      />
      <StateFilter />
      <ListTable label="Campaigns" columns={columns} query={list} {...useRouteList(route)} />
    </PageBody>
  );
}

/** The list of one state ('Waiting for approval', 'Running'...) or of all; back to page 1 on a change. */
function StateFilter() {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  return (
    <div className={css({ mb: '4', w: { base: 'full', sm: '20rem' } })}>
      <SelectField
        label="State"
        options={[
          { value: '', label: 'All states' },
          ...CAMPAIGN_STATES.map((state) => ({ value: state, label: TEXTS.campaign.states[state] })),
        ]}
        value={search.state ?? ''}
        onChange={(e) =>
          void navigate({
            search: (prev) => ({
              ...prev,
              page: 1,
              state: CAMPAIGN_STATES.find((state) => state === e.target.value),
            }),
          })
        }
      />
    </div>
  );
}
