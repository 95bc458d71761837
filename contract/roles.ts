import { MAX_ID } from './ids';
import { defineList } from './list';
import { permissionSchema } from './permissions';
import { z } from './zod';

export const roleMessages = {
  roleNameRequired: 'Role name is required',
  permissionsRequired: 'Permissions must be selected for a role',
} as const;

export const roleSchema = z.object({
  id: z.int(),
  name: z.string(),
  createdAt: z.string(),
  permissions: z.array(permissionSchema),
  permissionIds: z.array(z.int()),
  /** The built-in Super Admin role: it holds every permission and cannot be changed or deleted. */
  builtIn: z.boolean(),
  /** A role for partner staff: whoever is given it works at one partner, named when invited (issue 22). */
  partnerRole: z.boolean(),
  /** Staff members holding this role (a held role cannot be deleted). */
  staffCount: z.int(),
});
export type Role = z.infer<typeof roleSchema>;

/** GET /admin/user/get-roles (and /export). */
export const roleList = defineList({
  sortKeys: ['name', 'createdAt', 'staffCount'],
  defaultSort: { sortBy: 'name', sortOrder: 'asc' },
});
export const roleListQuerySchema = roleList.query;

export const roleDetailQuerySchema = z.object({
  roleId: z.coerce
    .number({ error: 'roleId must be a number' })
    .check(
      z.int(),
      z.positive({ error: 'roleId must be a number' }),
      z.maximum(MAX_ID, { error: 'roleId is out of range' }),
    ),
});

const roleName = z
  .string({ error: roleMessages.roleNameRequired })
  .check(
    z.trim(),
    z.minLength(1, { error: roleMessages.roleNameRequired, abort: true }),
    z.maxLength(60, { error: 'Role name must be at most 60 characters' }),
  );

const permissionIds = z
  .array(z.number({ error: 'Permission ids must be numbers' }).check(z.int(), z.positive()), {
    error: roleMessages.permissionsRequired,
  })
  .check(z.minLength(1, { error: roleMessages.permissionsRequired }), z.maxLength(200));

/** Whether the role is for partner staff (default: a club role). */
const partnerRole = z.optional(z.boolean({ error: 'partnerRole must be true or false' }));

export const createRoleBodySchema = z.object({ roleName, permissionIds, partnerRole });
export type CreateRoleBody = z.infer<typeof createRoleBodySchema>;

export const updateRoleBodySchema = z.object({
  roleId: z
    .number({ error: 'roleId must be a number' })
    .check(z.int(), z.positive(), z.maximum(MAX_ID, { error: 'roleId is out of range' })),
  roleName,
  permissionIds,
  partnerRole,
});
export type UpdateRoleBody = z.infer<typeof updateRoleBodySchema>;

/** Role id path parameter of DELETE /admin/user/delete-role/{roleId}. */
export const roleIdParamSchema = z.object({
  roleId: z.coerce
    .number({ error: 'roleId must be a number' })
    .check(
      z.int(),
      z.positive({ error: 'roleId must be a number' }),
      z.maximum(MAX_ID, { error: 'roleId is out of range' }),
    ),
});

/** Server answers of the role calls the SPA and e2e tests may rely on, word for word. */
export const roleServerMessages = {
  created: 'Role created successfully',
  updated: 'Role updated successfully',
  deleted: 'Role deleted successfully',
  notFound: 'Role not found',
  nameTaken: 'A role with this name already exists',
  builtInLocked: 'The built-in Super Admin role cannot be changed or deleted',
  cannotGrant: 'You cannot grant permissions you do not hold',
  /** Editing or deleting a role that holds a permission the actor lacks. */
  outranked: 'You cannot change a role that holds permissions you do not have',
  /** Turning a held role from a club role into a partner role, or back. */
  partnerRoleHeld: 'Staff members hold this role: reassign them before making it a club or partner role',
  /** 'Unknown permission ids: 98, 99' */
  unknownPermissionsPrefix: 'Unknown permission ids:',
} as const;

/** 'This role is still held by 3 staff members. Reassign them first.' */
export const roleStillHeldMessage = (n: number): string =>
  `This role is still held by ${n} staff ${n === 1 ? 'member' : 'members'}. Reassign them first.`;
