import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { useMemo } from 'react';
import { type StaffUser, staffChangeRefusal, staffParty } from '../../../../../contract/staff';
import { css } from '../../../../../styled-system/css';
import { deleteStaff, exportStaff, staffKeys, staffListQueryOptions } from '../../../../api/staff';
import { statsKeys } from '../../../../api/stats';
import { useConfirmedDeletion } from '../../../../components/confirmed-deletion';
import { type DataColumn, dataColumnHelper } from '../../../../components/data-table';
import {
  AddButton,
  ListTable,
  rowActionLink,
  useRouteList,
  withRowActions,
} from '../../../../components/list-screen';
import { Avatar } from '../../../../components/ui/avatar';
import { formatDate, fullName } from '../../../../lib/format';
import { TEXTS } from '../../../../lib/texts';
import { useCan, useStaffActor } from '../../../../lib/use-can';
import { StatusBadge } from './status-badge';

const route = getRouteApi('/dashboard/staff/');
const col = dataColumnHelper<StaffUser>();

export const STAFF_DELETED = 'Staff member deleted successfully';

/** The Users tab: the staff list with Add Staff, Edit and Delete as the user's permissions allow. */
export function UsersTab() {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const can = useCan();
  const list = useQuery(staffListQueryOptions(search));
  const deletion = useConfirmedDeletion({
    remove: (staff: StaffUser) => deleteStaff(staff.id),
    deleted: STAFF_DELETED,
    question: (staff) => TEXTS.deleteConfirm(fullName(staff.firstName, staff.lastName)),
    invalidate: [staffKeys.all, statsKeys.all],
    onDeleted: () => navigate({ search: (prev) => ({ ...prev, activeTab: 'users' as const }) }),
  });
  const canUpdate = can('staff.update');
  const canDelete = can('staff.delete');
  const actor = useStaffActor();
  const { ask } = deletion;
  const columns = useMemo(() => {
    // Only where the server's rules let it succeed (contract/staff.ts): not your own Delete, not a
    // member with permissions you lack, not a Super Admin unless you are one.
    const allowed = (staff: StaffUser, action: 'update' | 'delete') =>
      actor !== null && staffChangeRefusal(actor, staffParty(staff), action) === null;
    return withRowActions(staffColumns, {
      edit: canUpdate
        ? (staff) =>
            allowed(staff, 'update') ? (
              <Link
                to="/dashboard/staff/$staffId/edit"
                params={{ staffId: staff.id }}
                className={rowActionLink}
              >
                Edit
              </Link>
            ) : null
        : undefined,
      onDelete: canDelete ? ask : undefined,
      canDelete: (staff) => allowed(staff, 'delete'),
    });
  }, [canUpdate, canDelete, ask, actor]);

  return (
    <>
      <ListTable
        label="Staff"
        columns={columns}
        query={list}
        {...useRouteList(route)}
        searchLabel="Search staff"
        exportCsv={{ download: (opts) => exportStaff(search, opts), permission: 'staff.view' }}
        toolbar={
          <AddButton to="/dashboard/staff/add" permission="staff.create">
            Add Staff
          </AddButton>
        }
      />
      {deletion.dialog}
    </>
  );
}

const staffColumns: DataColumn<StaffUser>[] = col.columns([
  col.accessor('firstName', {
    header: 'Name',
    enableSorting: true,
    cell: ({ row }) => {
      const name = fullName(row.original.firstName, row.original.lastName);
      return (
        <span className={css({ display: 'inline-flex', alignItems: 'center', gap: '3' })}>
          <Avatar name={name} src={row.original.imageUrl} size="sm" />
          <span className={css({ fontWeight: 'medium' })}>{name}</span>
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
    cell: ({ getValue }) => getValue() || '-',
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
