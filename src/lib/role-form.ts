import type { Permission } from '../../contract/permissions';
import { roleMessages } from '../../contract/roles';
import { z } from '../../contract/zod';

/** Role forms (SPEC section 5): a name and at least one permission. */
export const roleFormSchema = z.object({
  roleName: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, { error: roleMessages.roleNameRequired }),
      z.maxLength(60, { error: 'Role name must be at most 60 characters' }),
    ),
  permissionIds: z.array(z.number()).check(z.minLength(1, { error: roleMessages.permissionsRequired })),
  partnerRole: z.boolean(),
});
/** `partnerRole`: a role for partner staff, whose holders are placed at a partner (issue 22). */
export type RoleForm = { roleName: string; permissionIds: number[]; partnerRole: boolean };

export const PARTNER_ROLE_LABEL = 'For partner staff (each holder works at one partner)';

/** 'extended_services' → 'extended services' (SPEC section 2: lower case, underscores as spaces). */
export const groupLabel = (group: string): string => group.toLowerCase().replace(/_/g, ' ');

/** 'extended_services.view' → 'view' */
export const actionOf = (name: string): string => name.slice(name.indexOf('.') + 1);

export interface PermissionGroup {
  group: string;
  label: string;
  permissions: { id: number; action: string }[];
}

/** The catalogue grouped by group, in catalogue order. */
export function groupPermissions(permissions: readonly Permission[]): PermissionGroup[] {
  const groups = new Map<string, PermissionGroup>();
  for (const p of permissions) {
    let entry = groups.get(p.group);
    if (!entry) {
      entry = { group: p.group, label: groupLabel(p.group), permissions: [] };
      groups.set(p.group, entry);
    }
    entry.permissions.push({ id: p.id, action: actionOf(p.name) });
  }
  return [...groups.values()];
}

/** Ticks or unticks every permission of a group, keeping the others. */
export function toggleGroup(selected: readonly number[], group: PermissionGroup, on: boolean): number[] {
  const ids = group.permissions.map((p) => p.id);
  const rest = selected.filter((id) => !ids.includes(id));
  return on ? [...rest, ...ids].sort((a, b) => a - b) : rest;
}

export const toggleOne = (selected: readonly number[], id: number, on: boolean): number[] =>
  on ? [...new Set([...selected, id])].sort((a, b) => a - b) : selected.filter((x) => x !== id);
