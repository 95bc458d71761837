import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { useMemo } from 'react';
import {
  type ExtendedService,
  extendedServiceServerMessages,
} from '../../../../../contract/extended-services';
import { css } from '../../../../../styled-system/css';
import {
  deleteExtendedService,
  exportExtendedServices,
  extendedServiceKeys,
  extendedServiceListQueryOptions,
} from '../../../../api/extended-services';
import { useConfirmedDeletion } from '../../../../components/confirmed-deletion';
import { type DataColumn, dataColumnHelper } from '../../../../components/data-table';
import {
  AddButton,
  ListTable,
  rowActionLink,
  useRouteList,
  withRowActions,
} from '../../../../components/list-screen';
import { useQueuedOverlay } from '../../../../components/outbox-provider';
import { PageBody, PageHeader } from '../../../../components/page-header';
import { screenPermission } from '../../../../components/screens';
import { formatDate, truncate } from '../../../../lib/format';
import { TEXTS } from '../../../../lib/texts';
import { useCan } from '../../../../lib/use-can';

const route = getRouteApi('/dashboard/extservices/');
const col = dataColumnHelper<ExtendedService>();

/** docs/product.md#constants: descriptions are cut at 60 characters in the table. */
export const DESCRIPTION_MAX = 60;
export const SERVICE_DELETED = extendedServiceServerMessages.deleted;

const serviceColumns: DataColumn<ExtendedService>[] = col.columns([
  col.accessor('title', {
    header: 'Title',
    enableSorting: true,
    cell: ({ getValue }) => <span className={css({ fontWeight: 'medium' })}>{getValue()}</span>,
  }),
  col.accessor('description', {
    header: 'Description',
    cell: ({ getValue }) => <span title={getValue()}>{truncate(getValue(), DESCRIPTION_MAX)}</span>,
  }),
  col.accessor('createdAt', {
    header: 'Created',
    enableSorting: true,
    cell: ({ getValue }) => <span className={css({ whiteSpace: 'nowrap' })}>{formatDate(getValue())}</span>,
  }),
]);

/** /dashboard/extservices: title, description (60 characters), created, Edit, Delete; Add Service. */
export function ExtendedServicesScreen() {
  const search = route.useSearch();
  const can = useCan();
  const list = useQuery({
    ...extendedServiceListQueryOptions(search),
    select: useQueuedOverlay('extended-service').select,
  });
  const deletion = useConfirmedDeletion({
    remove: (service: ExtendedService) => deleteExtendedService(service.id),
    deleted: SERVICE_DELETED,
    question: (service) => TEXTS.deleteConfirm(service.title),
    invalidate: [extendedServiceKeys.all],
  });
  const canUpdate = can('extended_services.update');
  const canDelete = can('extended_services.delete');
  const { ask } = deletion;
  const columns = useMemo(
    () =>
      withRowActions(serviceColumns, {
        edit: canUpdate
          ? (service) => (
              <Link
                to="/dashboard/extservices/$serviceId/edit"
                params={{ serviceId: service.id }}
                className={rowActionLink}
              >
                Edit
              </Link>
            )
          : undefined,
        onDelete: canDelete ? ask : undefined,
      }),
    [canUpdate, canDelete, ask],
  );

  return (
    <PageBody>
      <PageHeader
        title="Extended Services"
        actions={
          <AddButton to="/dashboard/extservices/add" permission="extended_services.create">
            Add Service
          </AddButton>
        }
      />
      <ListTable
        label="Extended services"
        columns={columns}
        query={list}
        {...useRouteList(route)}
        searchLabel="Search services"
        exportCsv={{
          download: (opts) => exportExtendedServices(search, opts),
          permission: screenPermission('/dashboard/extservices/'),
        }}
      />
      {deletion.dialog}
    </PageBody>
  );
}
