import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import type { Partner } from '../../../../../contract/partners';
import { css } from '../../../../../styled-system/css';
import { exportPartners, partnerListQueryOptions, partnerStatsQueryOptions } from '../../../../api/partners';
import { type DataColumn, dataColumnHelper } from '../../../../components/data-table';
import { AddButton, ListTable, ListTabs, useRouteList } from '../../../../components/list-screen';
import { useQueuedOverlay } from '../../../../components/outbox-provider';
import { PageBody, PageHeader } from '../../../../components/page-header';
import { PendingBadge } from '../../../../components/pending-mark';
import { screenPermission } from '../../../../components/screens';
import { StatCard } from '../../../../components/stat-card';
import { tableLink } from '../../../../components/ui/text-link';
import { formatCount, formatDate, fullName, truncate } from '../../../../lib/format';
import { type PartnerTab, statusOfTab } from './partner-search';

const route = getRouteApi('/dashboard/partners/');
const col = dataColumnHelper<Partner>();

/** docs/product.md#constants: the extended services text of a row is cut at 30 characters. */
export const SERVICES_TEXT_MAX = 30;

export const servicesText = (partner: Pick<Partner, 'partnerExtendedServices'>): string =>
  partner.partnerExtendedServices.map((s) => s.title).join(', ');

/** The services cell: cut at 30 characters with an ellipsis, the full text in the title. */
export function ServicesCell({ partner }: { partner: Pick<Partner, 'partnerExtendedServices'> }) {
  const text = servicesText(partner);
  if (!text) return <span>-</span>;
  return (
    <span title={text} className={css({ whiteSpace: 'nowrap' })}>
      {truncate(text, SERVICES_TEXT_MAX)}
    </span>
  );
}

const nowrap = css({ whiteSpace: 'nowrap' });

export const partnerColumns: DataColumn<Partner>[] = col.columns([
  col.accessor('organizationName', {
    header: 'Organization',
    enableSorting: true,
    cell: ({ row }) => (
      <>
        <Link
          to="/dashboard/partners/$partnerId"
          params={{ partnerId: row.original.id }}
          className={tableLink}
        >
          {row.original.organizationName}
        </Link>
        <PendingBadge entity="partner" entityId={row.original.id} />
      </>
    ),
  }),
  col.accessor('firstName', {
    header: 'Name',
    enableSorting: true,
    cell: ({ row }) => fullName(row.original.firstName, row.original.lastName),
  }),
  col.accessor('email', { header: 'Email', enableSorting: true }),
  col.display({
    id: 'services',
    header: 'Extended Services',
    cell: ({ row }) => <ServicesCell partner={row.original} />,
  }),
  col.accessor('createdAt', {
    header: 'Created',
    enableSorting: true,
    cell: ({ getValue }) => <span className={nowrap}>{formatDate(getValue())}</span>,
  }),
]);

const TAB_LABELS: Record<PartnerTab, string> = { active: 'Active Partners', blocked: 'Blocked Partners' };

/** /dashboard/partners: stats header, Active/Blocked tabs in the URL, Add Partner. */
export function PartnersScreen() {
  return (
    <PageBody>
      <PageHeader
        title="Partners / Manage Partners"
        actions={
          <AddButton to="/dashboard/partners/add" permission="partners.create">
            Add Partner
          </AddButton>
        }
      />
      <PartnerStatsHeader />
      <ListTabs label="Partner status" labels={TAB_LABELS} route={route}>
        <PartnerList />
      </ListTabs>
    </PageBody>
  );
}

/** What the header's figures count (issue 32 item 6). */
export const PARTNER_STATS_COUNT = 'Total is active and blocked partners; deleted partners are not counted.';

function PartnerStatsHeader() {
  const stats = useQuery(partnerStatsQueryOptions());
  const value = (n: number | undefined) => (n === undefined ? '…' : formatCount(n));
  return (
    <section
      aria-label="Partner statistics"
      className={css({
        display: 'grid',
        gridTemplateColumns: { base: '1fr', sm: 'repeat(3, minmax(0, 1fr))' },
        gap: '4',
        mb: '6',
      })}
    >
      <StatCard title="Total Partners" value={value(stats.data?.totalPartners)} />
      <StatCard title="Active Partners" value={value(stats.data?.activePartners)} />
      <StatCard title="Blocked Partners" value={value(stats.data?.blockedPartners)} />
      <p className={css({ gridColumn: '1 / -1', fontSize: 'sm', color: 'fg.muted' })}>
        {PARTNER_STATS_COUNT}
      </p>
    </section>
  );
}

function PartnerList() {
  const search = route.useSearch();
  const params = { ...search, status: statusOfTab(search.activeTab) };
  const overlay = useQueuedOverlay('partner');
  return (
    <ListTable
      label="Partners"
      columns={partnerColumns}
      query={useQuery({ ...partnerListQueryOptions(params), select: overlay.select })}
      {...useRouteList(route)}
      searchLabel="Search partners"
      exportCsv={{
        download: (opts) => exportPartners(params, opts),
        permission: screenPermission('/dashboard/partners/'),
      }}
    />
  );
}
