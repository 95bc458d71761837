import {
  dependentsOf,
  needsOf,
  type Permission,
  permissionGroup,
  unmetNeeds,
} from '../../contract/permissions';
import { roleMessages } from '../../contract/roles';
import { z } from '../../contract/zod';

/** Role forms (docs/product.md#validation): a name and at least one permission. */
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

/** 'extended_services' → 'extended services' (docs/product.md#screens: lower case, underscores as spaces). */
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

/** 'staff.create' → 'staff create' (how the role form names a permission in its notes). */
export const permissionLabel = (name: string): string =>
  `${groupLabel(permissionGroup(name))} ${actionOf(name)}`;

const listed = (labels: string[]): string =>
  labels.length <= 1 ? (labels[0] ?? '') : `${labels.slice(0, -1).join(', ')} and ${labels.at(-1)}`;

/**
 * Ticks (`on`) or unticks `ids`, keeping the role free of dead ends (contract/permissions.ts
 * `PERMISSION_NEEDS`): ticking one ticks what it needs; unticking one unticks what needs it. The
 * note says what else changed and why, or is null when nothing else did.
 */
export function togglePermissions(
  catalogue: readonly Permission[],
  selected: readonly number[],
  ids: readonly number[],
  on: boolean,
): { ids: number[]; note: string | null } {
  const nameOf = new Map(catalogue.map((p) => [p.id, p.name]));
  const idOf = new Map(catalogue.map((p) => [p.name, p.id]));
  const names = ids.map((id) => nameOf.get(id)).filter((n): n is string => n !== undefined);
  const sorted = (set: Set<number>) => [...set].sort((a, b) => a - b);
  const next = new Set(selected);
  const extra: string[] = [];
  const related = (name: string) => (on ? needsOf(name) : dependentsOf(name));
  for (const id of ids) on ? next.add(id) : next.delete(id);
  for (const name of names) {
    for (const other of related(name)) {
      const id = idOf.get(other);
      if (id === undefined || ids.includes(id) || next.has(id) === on) continue;
      on ? next.add(id) : next.delete(id);
      extra.push(other);
    }
  }
  if (extra.length === 0) return { ids: sorted(next), note: null };
  const what = listed(names.map(permissionLabel));
  const others = listed(extra.map(permissionLabel));
  return {
    ids: sorted(next),
    note: on
      ? `Also ticked ${others}: ${what} ${names.length === 1 ? 'needs' : 'need'} ${extra.length === 1 ? 'it' : 'them'}.`
      : `Also unticked ${others}: ${extra.length === 1 ? 'it needs' : 'they need'} ${what}.`,
  };
}

/** A saved role's permissions that lack what they need ('staff create needs roles view'), or null. */
export function unmetNeedsNote(catalogue: readonly Permission[], selected: readonly number[]): string | null {
  const held = catalogue.filter((p) => selected.includes(p.id)).map((p) => p.name);
  const unmet = unmetNeeds(held);
  if (unmet.length === 0) return null;
  return `${unmet
    .map(
      ({ permission, missing }) =>
        `${permissionLabel(permission)} needs ${listed(missing.map(permissionLabel))}`,
    )
    .join('; ')}. Without ${unmet.length === 1 ? 'it' : 'them'}, its buttons stay hidden.`;
}
