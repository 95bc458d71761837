import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { listSchema } from '../../contract/envelope';
import {
  type InviteStaffBody,
  type StaffUser,
  staffList,
  staffUserSchema,
  type UpdateStaffBody,
} from '../../contract/staff';
import { z } from '../../contract/zod';
import { type ListState, toListQuery } from '../lib/list-search';
import { api } from './client';
import { type DownloadOptions, downloadCsv } from './export';

export const staffListSchema = listSchema(staffUserSchema);
export type StaffList = z.infer<typeof staffListSchema>;

export const staffKeys = {
  all: ['staff'] as const,
  lists: () => [...staffKeys.all, 'list'] as const,
  list: (state: ListState) => [...staffKeys.lists(), toListQuery(state, staffList.sortKeys)] as const,
  details: () => [...staffKeys.all, 'detail'] as const,
  detail: (id: number) => [...staffKeys.details(), id] as const,
};

export const fetchStaffList = (state: ListState): Promise<StaffList> =>
  api().get('/admin/user/admin-users', staffListSchema, { query: toListQuery(state, staffList.sortKeys) });

/** Every staff member the list's search and sort match, as CSV. */
export const exportStaff = (state: ListState, opts?: DownloadOptions) =>
  downloadCsv('/admin/user/admin-users/export', toListQuery(state, staffList.sortKeys), opts);

export const fetchStaffMember = (id: number): Promise<StaffUser> =>
  api().get('/admin/user/admin-detail', staffUserSchema, { query: { userId: id } });

/** An invitation: the member gets a set-password code by mail. Resolves with the server message. */
export const inviteStaff = async (body: InviteStaffBody): Promise<string> =>
  (await api().send('POST', '/admin/user/new-admin-user', z.unknown(), { body })).message;

export const updateStaff = async (body: UpdateStaffBody): Promise<string> =>
  (await api().send('PATCH', '/admin/user/update-admin-user', z.unknown(), { body })).message;

export const deleteStaff = async (staffId: number): Promise<string> =>
  (await api().send('DELETE', `/admin/user/delete-admin-user/${staffId}`, z.unknown())).message;

export const staffListQueryOptions = (state: ListState) =>
  queryOptions({
    queryKey: staffKeys.list(state),
    queryFn: () => fetchStaffList(state),
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });

export const staffDetailQueryOptions = (id: number) =>
  queryOptions({ queryKey: staffKeys.detail(id), queryFn: () => fetchStaffMember(id) });
