import { useQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { useCallback } from 'react';
import type { Activity } from '../../../../../contract/activities';
import { css } from '../../../../../styled-system/css';
import { activityListQueryOptions, exportActivities } from '../../../../api/activities';
import { type DataColumn, DataTable, dataColumnHelper } from '../../../../components/data-table';
import { ExportButton } from '../../../../components/export-button';
import { ForbiddenState, isForbidden } from '../../../../components/forbidden-state';
import { PageBody, PageHeader } from '../../../../components/page-header';
import { Avatar } from '../../../../components/ui/avatar';
import { Tabs } from '../../../../components/ui/tabs';
import { formatDateTime } from '../../../../lib/format';
import { applyListChange, applyTabChange, type ListChange } from '../../../../lib/list-search';
import { type ActivityTab, userTypeOf } from './activity-search';

const route = getRouteApi('/dashboard/activities/');
const col = dataColumnHelper<Activity>();

const columns: DataColumn<Activity>[] = col.columns([
  col.accessor((a) => a.user.name, {
    id: 'name',
    header: 'User',
    enableSorting: true,
    cell: ({ row }) => {
      const { user } = row.original;
      return (
        <span className={css({ display: 'inline-flex', alignItems: 'center', gap: '3' })}>
          <Avatar name={user.name} src={user.imageUrl} size="sm" />
          <span className={css({ display: 'flex', flexDirection: 'column' })}>
            <span className={css({ fontWeight: 'medium', whiteSpace: 'nowrap' })}>{user.name}</span>
            {user.organizationName ? (
              <span className={css({ fontSize: 'xs', color: 'fg.muted' })}>{user.organizationName}</span>
            ) : null}
          </span>
        </span>
      );
    },
  }),
  col.accessor('action', { header: 'Action', enableSorting: true }),
  col.accessor('ipLocation', { header: 'IP Location', cell: ({ getValue }) => getValue() || '-' }),
  col.accessor('ipAddress', {
    header: 'IP Address',
    cell: ({ getValue }) => (
      <span className={css({ fontFamily: 'mono', fontSize: 'xs' })}>{getValue() || '-'}</span>
    ),
  }),
  col.accessor('createdAt', {
    header: 'Created',
    enableSorting: true,
    cell: ({ getValue }) => (
      <span className={css({ whiteSpace: 'nowrap' })}>{formatDateTime(getValue())}</span>
    ),
  }),
]);

const TAB_LABELS: Record<ActivityTab, string> = { partner: 'Partner', customer: 'Customer', admin: 'Admin' };

/** /dashboard/activities: the activity log, by user type, searchable, paged, sortable by created. */
export function ActivityLogScreen() {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const onChange = useCallback(
    (change: ListChange) => void navigate({ search: (prev) => applyListChange(prev, change) }),
    [navigate],
  );

  return (
    <PageBody>
      <PageHeader title="Activity Log" />
      <Tabs
        label="User type"
        value={search.activeTab}
        onValueChange={(activeTab) =>
          void navigate({ search: (prev) => applyTabChange(prev, activeTab, { keepSearchAndSort: true }) })
        }
        items={(Object.keys(TAB_LABELS) as ActivityTab[]).map((tab) => ({
          value: tab,
          label: TAB_LABELS[tab],
          content: <ActivityList onChange={onChange} />,
        }))}
      />
    </PageBody>
  );
}

function ActivityList({ onChange }: { onChange: (change: ListChange) => void }) {
  const search = route.useSearch();
  const params = { ...search, userType: userTypeOf(search.activeTab) };
  const list = useQuery(activityListQueryOptions(params));
  if (isForbidden(list.error)) return <ForbiddenState />;
  return (
    <DataTable
      label="Activity log"
      columns={columns}
      records={list.data?.records}
      totalCount={list.data?.meta.totalCount}
      isPending={list.isPending}
      isFetching={list.isFetching}
      error={list.error}
      state={search}
      onChange={onChange}
      searchLabel="Search activities"
      getRowId={(a) => String(a.id)}
      toolbar={
        <ExportButton download={(opts) => exportActivities(params, opts)} permission="activities.view" />
      }
    />
  );
}
