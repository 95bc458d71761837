import { queryOptions } from '@tanstack/react-query';
import { type Permission, permissionSchema } from '../../contract/permissions';
import { type CreateRoleBody, roleList, roleSchema, type UpdateRoleBody } from '../../contract/roles';
import { z } from '../../contract/zod';
import { api } from './client';
import { listResource } from './list-resource';

const roles = listResource({
  key: ['roles'],
  list: roleList,
  path: '/admin/user/get-roles',
  item: roleSchema,
  detail: { path: '/admin/user/get-role-detail', idQuery: 'roleId' },
});

export const roleKeys = {
  ...roles.keys,
  permissions: () => ['authz'] as const,
};

export const roleListQueryOptions = roles.listQueryOptions;
/** Every role the list's search and sort match, as CSV. */
export const exportRoles = roles.exportCsv;
export const roleDetailQueryOptions = roles.detailQueryOptions;

export const fetchPermissions = (): Promise<Permission[]> => api().get('/authz', z.array(permissionSchema));

export const createRole = async (body: CreateRoleBody): Promise<string> =>
  (await api().send('POST', '/admin/user/create-role', z.unknown(), { body })).message;

export const updateRole = async (body: UpdateRoleBody): Promise<string> =>
  (await api().send('PATCH', '/admin/user/update-role', z.unknown(), { body })).message;

export const deleteRole = async (roleId: number): Promise<string> =>
  (await api().send('DELETE', `/admin/user/delete-role/${roleId}`, z.unknown())).message;

/** A role as the staff forms offer it: whether it is for partner staff, and what it holds. */
export type RoleChoice = { value: string; label: string; partnerRole: boolean; permissions: string[] };

/** Every role, by name, for the role selects of the staff forms (the largest page size). */
export const roleChoicesQueryOptions = () =>
  roles.choicesQueryOptions(
    { sortBy: 'name' },
    (role): RoleChoice => ({
      value: String(role.id),
      label: role.name,
      partnerRole: role.partnerRole,
      permissions: role.permissions.map((p) => p.name),
    }),
  );

export const permissionsQueryOptions = () =>
  queryOptions({ queryKey: roleKeys.permissions(), queryFn: fetchPermissions, staleTime: 5 * 60_000 });
