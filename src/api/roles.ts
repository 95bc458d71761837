import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { listSchema } from '../../contract/envelope';
import { type Permission, permissionSchema } from '../../contract/permissions';
import {
  type CreateRoleBody,
  type Role,
  roleList,
  roleSchema,
  type UpdateRoleBody,
} from '../../contract/roles';
import { z } from '../../contract/zod';
import { type ListState, toListQuery } from '../lib/list-search';
import { api } from './client';
import { type DownloadOptions, downloadCsv } from './export';

export const roleListSchema = listSchema(roleSchema);
export type RoleList = z.infer<typeof roleListSchema>;

export const roleKeys = {
  all: ['roles'] as const,
  lists: () => [...roleKeys.all, 'list'] as const,
  list: (state: ListState) => [...roleKeys.lists(), toListQuery(state, roleList.sortKeys)] as const,
  choices: () => [...roleKeys.all, 'choices'] as const,
  details: () => [...roleKeys.all, 'detail'] as const,
  detail: (id: number) => [...roleKeys.details(), id] as const,
  permissions: () => ['authz'] as const,
};

export const fetchRoles = (state: ListState): Promise<RoleList> =>
  api().get('/admin/user/get-roles', roleListSchema, { query: toListQuery(state, roleList.sortKeys) });

/** Every role the list's search and sort match, as CSV. */
export const exportRoles = (state: ListState, opts?: DownloadOptions) =>
  downloadCsv('/admin/user/get-roles/export', toListQuery(state, roleList.sortKeys), opts);

export const fetchRole = (roleId: number): Promise<Role> =>
  api().get('/admin/user/get-role-detail', roleSchema, { query: { roleId } });

export const fetchPermissions = (): Promise<Permission[]> => api().get('/authz', z.array(permissionSchema));

export const createRole = async (body: CreateRoleBody): Promise<string> =>
  (await api().send('POST', '/admin/user/create-role', z.unknown(), { body })).message;

export const updateRole = async (body: UpdateRoleBody): Promise<string> =>
  (await api().send('PATCH', '/admin/user/update-role', z.unknown(), { body })).message;

export const deleteRole = async (roleId: number): Promise<string> =>
  (await api().send('DELETE', `/admin/user/delete-role/${roleId}`, z.unknown())).message;

export const roleListQueryOptions = (state: ListState) =>
  queryOptions({
    queryKey: roleKeys.list(state),
    queryFn: () => fetchRoles(state),
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });

/** A role as the staff forms offer it: whether it is for partner staff, and what it holds. */
export type RoleChoice = { value: string; label: string; partnerRole: boolean; permissions: string[] };

/** Every role, by name, for the role selects of the staff forms (the largest page size). */
export const roleChoicesQueryOptions = () =>
  queryOptions({
    queryKey: roleKeys.choices(),
    queryFn: () =>
      fetchRoles({ page: 1, pageSize: 100, search: '', sortBy: 'name', sortOrder: 'asc' }).then((list) =>
        list.records.map(
          (role): RoleChoice => ({
            value: String(role.id),
            label: role.name,
            partnerRole: role.partnerRole,
            permissions: role.permissions.map((p) => p.name),
          }),
        ),
      ),
    staleTime: 30_000,
  });

export const roleDetailQueryOptions = (roleId: number) =>
  queryOptions({ queryKey: roleKeys.detail(roleId), queryFn: () => fetchRole(roleId) });

export const permissionsQueryOptions = () =>
  queryOptions({ queryKey: roleKeys.permissions(), queryFn: fetchPermissions, staleTime: 5 * 60_000 });
