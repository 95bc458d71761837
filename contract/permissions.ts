import { z } from './zod';

/**
 * The permission catalogue: fixed in code, `group.action`, with stable numeric ids
 * (roles are saved with permission ids). Served by GET /authz; the server enforces it,
 * the SPA hides what the signed-in user lacks. Never renumber an entry; append new ones.
 */
export const PERMISSIONS = [
  { id: 1, name: 'dashboard.view' },
  { id: 2, name: 'staff.view' },
  { id: 3, name: 'staff.create' },
  { id: 4, name: 'staff.update' },
  { id: 5, name: 'staff.delete' },
  { id: 6, name: 'roles.view' },
  { id: 7, name: 'roles.create' },
  { id: 8, name: 'roles.update' },
  { id: 9, name: 'roles.delete' },
  { id: 10, name: 'partners.view' },
  { id: 11, name: 'partners.create' },
  { id: 12, name: 'partners.update' },
  { id: 13, name: 'partners.delete' },
  { id: 14, name: 'clients.view' },
  { id: 15, name: 'clients.update' },
  { id: 16, name: 'clients.delete' },
  { id: 17, name: 'extended_services.view' },
  { id: 18, name: 'extended_services.create' },
  { id: 19, name: 'extended_services.update' },
  { id: 20, name: 'extended_services.delete' },
  { id: 21, name: 'visits.view' },
  { id: 22, name: 'visits.create' },
  { id: 23, name: 'rewards.view' },
  { id: 24, name: 'rewards.issue' },
  { id: 25, name: 'rewards.redeem' },
  { id: 26, name: 'rewards.reverse' },
  { id: 27, name: 'activities.view' },
  { id: 28, name: 'integrations.manage' },
] as const;

export type PermissionName = (typeof PERMISSIONS)[number]['name'];

export const permissionSchema = z.object({ id: z.int(), name: z.string(), group: z.string() });
export type Permission = z.infer<typeof permissionSchema>;

export const permissionGroup = (name: string): string => name.slice(0, name.indexOf('.'));

export const permissionCatalogue: Permission[] = PERMISSIONS.map((p) => ({
  id: p.id,
  name: p.name,
  group: permissionGroup(p.name),
}));

export const ALL_PERMISSION_NAMES: PermissionName[] = PERMISSIONS.map((p) => p.name);

export const SUPER_ADMIN_ROLE = 'Super Admin';
