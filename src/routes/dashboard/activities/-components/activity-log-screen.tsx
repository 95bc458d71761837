import { useQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import type { Activity } from '../../../../../contract/activities';
import { css } from '../../../../../styled-system/css';
import { activityListQueryOptions, exportActivities } from '../../../../api/activities';
import { type DataColumn, dataColumnHelper } from '../../../../components/data-table';
import { ListTable, ListTabs, useRouteList } from '../../../../components/list-screen';
import { PageBody, PageHeader } from '../../../../components/page-header';
import { screenPermission } from '../../../../components/screens';
import { Avatar } from '../../../../components/ui/avatar';
import { formatDateTime } from '../../../../lib/format';
import { type ActivityTab, activityListParams } from './activity-search';

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
            <span className={css({ fontWeight: 'medium' })}>{user.name}</span>
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
  return (
    <PageBody>
      <PageHeader title="Activity Log" />
      <ListTabs label="User type" labels={TAB_LABELS} route={route}>
        <ActivityList />
      </ListTabs>
    </PageBody>
  );
}

function ActivityList() {
  const search = route.useSearch();
  const params = activityListParams(search);
  return (
    <ListTable
      label="Activity log"
      columns={columns}
      query={useQuery(activityListQueryOptions(params))}
      {...useRouteList(route)}
      searchLabel="Search activities"
      exportCsv={{
        download: (opts) => exportActivities(params, opts),
        permission: screenPermission('/dashboard/activities/'),
      }}
    />
  );
}
