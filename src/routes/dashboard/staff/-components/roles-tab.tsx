import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { useCallback, useMemo, useState } from 'react';
import type { Role } from '../../../../../contract/roles';
import { css, cx } from '../../../../../styled-system/css';
import { button } from '../../../../../styled-system/recipes';
import { deleteRole, exportRoles, roleKeys, roleListQueryOptions } from '../../../../api/roles';
import { ConfirmDeletion } from '../../../../components/confirm-dialog';
import { type DataColumn, DataTable, dataColumnHelper } from '../../../../components/data-table';
import { ExportButton } from '../../../../components/export-button';
import { ForbiddenState, isForbidden } from '../../../../components/forbidden-state';
import { Button } from '../../../../components/ui/button';
import { notify } from '../../../../components/ui/notify';
import { errorSentence } from '../../../../lib/error-message';
import { formatCount, formatDate } from '../../../../lib/format';
import { applyListChange, type ListChange } from '../../../../lib/list-search';
import { TEXTS } from '../../../../lib/texts';
import { useCan } from '../../../../lib/use-can';
import { BuiltInBadge } from './status-badge';

const route = getRouteApi('/dashboard/staff/');
const col = dataColumnHelper<Role>();

export const ROLE_DELETED = 'Role deleted successfully';

/** The Roles tab: roles with permission and staff counts; the built-in Super Admin has no actions. */
export function RolesTab() {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const goTo = useNavigate();
  const can = useCan();
  const queryClient = useQueryClient();
  const list = useQuery(roleListQueryOptions(search));
  const [toDelete, setToDelete] = useState<Role | null>(null);

  const remove = useMutation({
    mutationFn: (role: Role) => deleteRole(role.id),
    onSuccess: () => {
      notify.success(ROLE_DELETED);
      setToDelete(null);
      void queryClient.invalidateQueries({ queryKey: roleKeys.all });
      void navigate({ search: (prev) => ({ ...prev, activeTab: 'roles' as const }) });
    },
    onError: (error) => {
      notify.error(errorSentence(error));
      setToDelete(null);
    },
  });

  const canUpdate = can('roles.update');
  const canDelete = can('roles.delete');
  const columns = useMemo(
    () => roleColumns({ canUpdate, canDelete, onDelete: setToDelete }),
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
        label="Roles"
        columns={columns}
        records={list.data?.records}
        totalCount={list.data?.meta.totalCount}
        isPending={list.isPending}
        isFetching={list.isFetching}
        error={list.error}
        state={search}
        onChange={onChange}
        searchLabel="Search roles"
        getRowId={(role) => String(role.id)}
        toolbar={
          <>
            <ExportButton download={(opts) => exportRoles(search, opts)} permission="roles.view" />
            {can('roles.create') ? (
              <Button onClick={() => void goTo({ to: '/dashboard/roles/add' })}>Add Role</Button>
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
        {toDelete ? TEXTS.deleteConfirm(`the role ${toDelete.name}`) : null}
      </ConfirmDeletion>
    </>
  );
}

const actionLink = cx(button({ variant: 'ghost', size: 'sm' }), css({ color: 'brand.700' }));

function roleColumns({
  canUpdate,
  canDelete,
  onDelete,
}: {
  canUpdate: boolean;
  canDelete: boolean;
  onDelete: (role: Role) => void;
}): DataColumn<Role>[] {
  const columns: DataColumn<Role>[] = col.columns([
    col.accessor('name', {
      header: 'Name',
      enableSorting: true,
      cell: ({ row }) => (
        <span className={css({ fontWeight: 'medium', whiteSpace: 'nowrap' })}>
          {row.original.name}
          {row.original.builtIn ? <BuiltInBadge /> : null}
        </span>
      ),
    }),
    col.accessor((role) => role.permissionIds.length, {
      id: 'permissions',
      header: 'Permissions',
      cell: ({ getValue }) => formatCount(getValue()),
    }),
    col.accessor('staffCount', {
      header: 'Staff',
      enableSorting: true,
      cell: ({ getValue }) => formatCount(getValue()),
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
      cell: ({ row }) =>
        row.original.builtIn ? null : (
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
                to="/dashboard/roles/$roleId/edit"
                params={{ roleId: row.original.id }}
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
