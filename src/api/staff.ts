import { type InviteStaffBody, staffList, staffUserSchema, type UpdateStaffBody } from '../../contract/staff';
import { apiMessage } from './call';
import { listResource } from './list-resource';

const staff = listResource({
  key: ['staff'],
  list: staffList,
  path: '/admin/user/admin-users',
  item: staffUserSchema,
  detail: { path: '/admin/user/admin-detail', idQuery: 'userId' },
});

export const staffKeys = staff.keys;
export const staffListQueryOptions = staff.listQueryOptions;
/** Every staff member the list's search and sort match, as CSV. */
export const exportStaff = staff.exportCsv;
export const staffDetailQueryOptions = staff.detailQueryOptions;

/** An invitation: the member gets a set-password code by mail. Resolves with the server message. */
export const inviteStaff = async (body: InviteStaffBody): Promise<string> =>
  apiMessage('POST /admin/user/new-admin-user', { body });

export const updateStaff = async (body: UpdateStaffBody): Promise<string> =>
  apiMessage('PATCH /admin/user/update-admin-user', { body });

export const deleteStaff = async (staffId: number): Promise<string> =>
  apiMessage('DELETE /admin/user/delete-admin-user/{staffId}', { params: { staffId } });
