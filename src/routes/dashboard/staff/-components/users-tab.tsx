import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { useCallback, useMemo, useState } from 'react';
import type { StaffUser } from '../../../../../contract/staff';
import { css, cx } from '../../../../../styled-system/css';
import { button } from '../../../../../styled-system/recipes';
import { deleteStaff, exportStaff, staffKeys, staffListQueryOptions } from '../../../../api/staff';
import { statsKeys } from '../../../../api/stats';
import { ConfirmDeletion } from '../../../../components/confirm-dialog';
import { type DataColumn, DataTable, dataColumnHelper } from '../../../../components/data-table';
import { ExportButton } from '../../../../components/export-button';
import { ForbiddenState, isForbidden } from '../../../../components/forbidden-state';
import { Avatar } from '../../../../components/ui/avatar';
import { Button } from '../../../../components/ui/button';
import { notify } from '../../../../components/ui/notify';
import { errorSentence } from '../../../../lib/error-message';
import { formatDate, fullName } from '../../../../lib/format';
import { applyListChange, type ListChange } from '../../../../lib/list-search';
import { TEXTS } from '../../../../lib/texts';
import { useCan } from '../../../../lib/use-can';
import { StatusBadge } from './status-badge';

const route = getRouteApi('/dashboard/staff/');
const col = dataColumnHelper<StaffUser>();

export const STAFF_DELETED = 'Staff member deleted successfully';

/** The Users tab: the staff list with Add Staff, Edit and Delete as the user's permissions allow. */
export function UsersTab() {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const goTo = useNavigate();
  const can = useCan();
  const queryClient = useQueryClient();
  const list = useQuery(staffListQueryOptions(search));
  const [toDelete, setToDelete] = useState<StaffUser | null>(null);

  const remove = useMutation({
    mutationFn: (staff: StaffUser) => deleteStaff(staff.id),
    onSuccess: () => {
      notify.success(STAFF_DELETED);
      setToDelete(null);
      void queryClient.invalidateQueries({ queryKey: staffKeys.all });
      void queryClient.invalidateQueries({ queryKey: statsKeys.all });
      void navigate({ search: (prev) => ({ ...prev, activeTab: 'users' as const }) });
    },
    onError: (error) => {
      notify.error(errorSentence(error));
      setToDelete(null);
    },
  });

  const canUpdate = can('staff.update');
  const canDelete = can('staff.delete');
  const columns = useMemo(
    () => staffColumns({ canUpdate, canDelete, onDelete: setToDelete }),
    [canUpdate, canDelete],
  );
  const onChange = useCallback(
    (change: ListChange) => void navigate({ search: (prev) => applyListChange(prev, change) }),
    [navigate],
  );

  if (isForbidden(list.error)) return <ForbiddenState />;
  return (
    <>
      <DataTable
        label="Staff"
        columns={columns}
        records={list.data?.records}
        totalCount={list.data?.meta.totalCount}
        isPending={list.isPending}
        isFetching={list.isFetching}
        error={list.error}
        state={search}
        onChange={onChange}
        searchLabel="Search staff"
        getRowId={(staff) => String(staff.id)}
        toolbar={
          <>
            <ExportButton download={(opts) => exportStaff(search, opts)} permission="staff.view" />
            {can('staff.create') ? (
              <Button onClick={() => void goTo({ to: '/dashboard/staff/add' })}>Add Staff</Button>
            ) : null}
          </>
        }
      />
      <ConfirmDeletion
        open={toDelete !== null}
        onOpenChange={(open) => !open && setToDelete(null)}
        onConfirm={() => toDelete && remove.mutate(toDelete)}
        pending={remove.isPending}
      >
        {toDelete ? TEXTS.deleteConfirm(fullName(toDelete.firstName, toDelete.lastName)) : null}
      </ConfirmDeletion>
    </>
  );
}

const actionLink = cx(button({ variant: 'ghost', size: 'sm' }), css({ color: 'brand.700' }));

function staffColumns({
  canUpdate,
  canDelete,
  onDelete,
}: {
  canUpdate: boolean;
  canDelete: boolean;
  onDelete: (staff: StaffUser) => void;
}): DataColumn<StaffUser>[] {
  const columns: DataColumn<StaffUser>[] = col.columns([
    col.accessor('firstName', {
      header: 'Name',
      enableSorting: true,
      cell: ({ row }) => {
        const name = fullName(row.original.firstName, row.original.lastName);
        return (
          <span className={css({ display: 'inline-flex', alignItems: 'center', gap: '3' })}>
            <Avatar name={name} src={row.original.imageUrl} size="sm" />
            <span className={css({ fontWeight: 'medium', whiteSpace: 'nowrap' })}>{name}</span>
          </span>
        );
      },
    }),
    col.accessor('email', { header: 'Email', enableSorting: true }),
    col.accessor('phone', { header: 'Phone', cell: ({ getValue }) => getValue() || '-' }),
    col.accessor((staff) => staff.userRole?.name ?? '', {
      id: 'role',
      header: 'Role',
      enableSorting: true,
      cell: ({ getValue }) => <span className={css({ whiteSpace: 'nowrap' })}>{getValue() || '-'}</span>,
    }),
    col.display({
      id: 'status',
      header: 'Status',
      cell: ({ row }) => (
        <StatusBadge
          status={
            !row.original.hasPassword
              ? 'Invited'
              : row.original.accountStatus === 'BLOCKED'
                ? 'Blocked'
                : 'Active'
          }
        />
      ),
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
              to="/dashboard/staff/$staffId/edit"
              params={{ staffId: row.original.id }}
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
