import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { useCallback, useMemo, useState } from 'react';
import {
  type ExtendedService,
  extendedServiceServerMessages,
} from '../../../../../contract/extended-services';
import { css, cx } from '../../../../../styled-system/css';
import { button } from '../../../../../styled-system/recipes';
import {
  deleteExtendedService,
  exportExtendedServices,
  extendedServiceKeys,
  extendedServiceListQueryOptions,
} from '../../../../api/extended-services';
import { ConfirmDeletion } from '../../../../components/confirm-dialog';
import { type DataColumn, DataTable, dataColumnHelper } from '../../../../components/data-table';
import { ExportButton } from '../../../../components/export-button';
import { ForbiddenState, isForbidden } from '../../../../components/forbidden-state';
import { useQueuedOverlay } from '../../../../components/outbox-provider';
import { PageBody, PageHeader } from '../../../../components/page-header';
import { Button } from '../../../../components/ui/button';
import { notify } from '../../../../components/ui/notify';
import { errorSentence } from '../../../../lib/error-message';
import { formatDate, truncate } from '../../../../lib/format';
import { applyListChange, type ListChange } from '../../../../lib/list-search';
import { TEXTS } from '../../../../lib/texts';
import { useCan } from '../../../../lib/use-can';

const route = getRouteApi('/dashboard/extservices/');
const col = dataColumnHelper<ExtendedService>();

/** SPEC section 9: descriptions are cut at 60 characters in the table. */
export const DESCRIPTION_MAX = 60;
export const SERVICE_DELETED = extendedServiceServerMessages.deleted;

const actionLink = cx(button({ variant: 'ghost', size: 'sm' }), css({ color: 'brand.700' }));

function serviceColumns({
  canUpdate,
  canDelete,
  onDelete,
}: {
  canUpdate: boolean;
  canDelete: boolean;
  onDelete: (service: ExtendedService) => void;
}): DataColumn<ExtendedService>[] {
  const columns: DataColumn<ExtendedService>[] = col.columns([
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
  if (!canUpdate && !canDelete) return columns;
  return [
    ...columns,
    col.display({
      id: 'actions',
      header: 'Actions',
      meta: { align: 'end' },
      cell: ({ row }) => (
        <span
          className={css({
            display: 'inline-flex',
            gap: '1',
            justifyContent: 'flex-end',
            whiteSpace: 'nowrap',
          })}
        >
          {canUpdate ? (
            <Link
              to="/dashboard/extservices/$serviceId/edit"
              params={{ serviceId: row.original.id }}
              className={actionLink}
            >
              Edit
            </Link>
          ) : null}
          {canDelete ? (
            <Button
              variant="ghost"
              size="sm"
              onClick={() => onDelete(row.original)}
              className={css({ color: 'red.700' })}
            >
              Delete
            </Button>
          ) : null}
        </span>
      ),
    }),
  ];
}

/** /dashboard/extservices: title, description (60 characters), created, Edit, Delete; Add Service. */
export function ExtServicesScreen() {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const goTo = useNavigate();
  const can = useCan();
  const queryClient = useQueryClient();
  const list = useQuery({
    ...extendedServiceListQueryOptions(search),
    select: useQueuedOverlay('extended-service').select,
  });
  const [toDelete, setToDelete] = useState<ExtendedService | null>(null);

  const remove = useMutation({
    mutationFn: (service: ExtendedService) => deleteExtendedService(service.id),
    onSuccess: () => {
      notify.success(SERVICE_DELETED);
      setToDelete(null);
      void queryClient.invalidateQueries({ queryKey: extendedServiceKeys.all });
    },
    onError: (error) => {
      notify.error(errorSentence(error));
      setToDelete(null);
    },
  });
  const canUpdate = can('extended_services.update');
  const canDelete = can('extended_services.delete');
  const columns = useMemo(
    () => serviceColumns({ canUpdate, canDelete, onDelete: setToDelete }),
    [canUpdate, canDelete],
  );
  const onChange = useCallback(
    (change: ListChange) => void navigate({ search: (prev) => applyListChange(prev, change) }),
    [navigate],
  );

  return (
    <PageBody>
      <PageHeader
        title="Extended Services"
        actions={
          can('extended_services.create') ? (
            <Button onClick={() => void goTo({ to: '/dashboard/extservices/add' })}>Add Service</Button>
          ) : null
        }
      />
      {isForbidden(list.error) ? (
        <ForbiddenState />
      ) : (
        <DataTable
          label="Extended services"
          columns={columns}
          records={list.data?.records}
          totalCount={list.data?.meta.totalCount}
          isPending={list.isPending}
          isFetching={list.isFetching}
          error={list.error}
          state={search}
          onChange={onChange}
          searchLabel="Search services"
          getRowId={(s) => String(s.id)}
          toolbar={
            <ExportButton
              download={(opts) => exportExtendedServices(search, opts)}
              permission="extended_services.view"
            />
          }
        />
      )}
      <ConfirmDeletion
        open={toDelete !== null}
        onOpenChange={(open) => !open && setToDelete(null)}
        onConfirm={() => toDelete && remove.mutate(toDelete)}
        pending={remove.isPending}
      >
        {toDelete ? TEXTS.deleteConfirm(toDelete.title) : null}
      </ConfirmDeletion>
    </PageBody>
  );
}
