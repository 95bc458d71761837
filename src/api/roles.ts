import { queryOptions } from '@tanstack/react-query';
import type { Permission } from '../../contract/permissions';
import { type CreateRoleBody, roleList, roleSchema, type UpdateRoleBody } from '../../contract/roles';
import { apiData, apiMessage } from './call';
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

export const fetchPermissions = (): Promise<Permission[]> => apiData('GET /authz');

export const createRole = async (body: CreateRoleBody): Promise<string> =>
  apiMessage('POST /admin/user/create-role', { body });

export const updateRole = async (body: UpdateRoleBody): Promise<string> =>
  apiMessage('PATCH /admin/user/update-role', { body });

export const deleteRole = async (roleId: number): Promise<string> =>
  apiMessage('DELETE /admin/user/delete-role/{roleId}', { params: { roleId } });

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
