import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { useMemo } from 'react';
import type { Role } from '../../../../../contract/roles';
import { css } from '../../../../../styled-system/css';
import { deleteRole, exportRoles, roleKeys, roleListQueryOptions } from '../../../../api/roles';
import { useConfirmedDeletion } from '../../../../components/confirmed-deletion';
import { type DataColumn, dataColumnHelper } from '../../../../components/data-table';
import {
  AddButton,
  ListTable,
  rowActionLink,
  useRouteList,
  withRowActions,
} from '../../../../components/list-screen';
import { formatCount, formatDate } from '../../../../lib/format';
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
  const can = useCan();
  const list = useQuery(roleListQueryOptions(search));
  const deletion = useConfirmedDeletion({
    remove: (role: Role) => deleteRole(role.id),
    deleted: ROLE_DELETED,
    question: (role) => TEXTS.deleteConfirm(`the role ${role.name}`),
    invalidate: [roleKeys.all],
    onDeleted: () => navigate({ search: (prev) => ({ ...prev, activeTab: 'roles' as const }) }),
  });
  const canUpdate = can('roles.update');
  const canDelete = can('roles.delete');
  const { ask } = deletion;
  const columns = useMemo(
    () =>
      withRowActions(roleColumns, {
        edit: canUpdate
          ? (role) => (
              <Link to="/dashboard/roles/$roleId/edit" params={{ roleId: role.id }} className={rowActionLink}>
                Edit
              </Link>
            )
          : undefined,
        onDelete: canDelete ? ask : undefined,
        hasActions: (role) => !role.builtIn,
      }),
    [canUpdate, canDelete, ask],
  );

  return (
    <>
      <ListTable
        label="Roles"
        columns={columns}
        query={list}
        {...useRouteList(route)}
        searchLabel="Search roles"
        exportCsv={{ download: (opts) => exportRoles(search, opts), permission: 'roles.view' }}
        toolbar={
          <AddButton to="/dashboard/roles/add" permission="roles.create">
            Add Role
          </AddButton>
        }
      />
      {deletion.dialog}
    </>
  );
}

const roleColumns: DataColumn<Role>[] = col.columns([
  col.accessor('name', {
    header: 'Name',
    enableSorting: true,
    cell: ({ row }) => (
      <span className={css({ fontWeight: 'medium' })}>
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
