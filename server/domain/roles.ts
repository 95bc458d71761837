import { PERMISSIONS, type Permission, permissionCatalogue } from '../../contract/permissions';
import type { Role } from '../../contract/roles';
import { permissionsOfRole } from './permissions';

const idByName = new Map<string, number>(PERMISSIONS.map((p) => [p.name, p.id]));
const nameById = new Map<number, string>(PERMISSIONS.map((p) => [p.id, p.name]));
const catalogueByName = new Map<string, Permission>(permissionCatalogue.map((p) => [p.name, p]));

/** Permission ids from a request → names; ids not in the catalogue are reported, duplicates dropped. */
export function permissionNamesOf(ids: readonly number[]): { names: string[]; unknown: number[] } {
  const names: string[] = [];
  const unknown: number[] = [];
  for (const id of new Set(ids)) {
    const name = nameById.get(id);
    if (name) names.push(name);
    else unknown.push(id);
  }
  // Catalogue order, so a role's permissions read the same however they were ticked.
  names.sort((a, b) => idByName.get(a)! - idByName.get(b)!);
  return { names, unknown };
}

/** The permissions a holder of `granted` has that `holder` lacks (empty: no escalation). */
export const missingPermissions = (granted: readonly string[], holder: readonly string[]): string[] => {
  const held = new Set(holder);
  return granted.filter((p) => !held.has(p));
};

export type RoleRow = {
  id: number;
  name: string;
  createdAt: Date;
  permissions: string[];
  builtIn: boolean;
  partnerRole: boolean;
  staffCount: number;
};

/** A role on the wire: the built-in role lists the whole catalogue. */
export function toRole(row: RoleRow): Role {
  const names = permissionsOfRole(row.builtIn ? { builtIn: true } : { permissions: row.permissions });
  const permissions = names.map((n) => catalogueByName.get(n)).filter((p): p is Permission => !!p);
  return {
    id: row.id,
    name: row.name,
    createdAt: row.createdAt.toISOString(),
    permissions,
    permissionIds: permissions.map((p) => p.id),
    builtIn: row.builtIn,
    partnerRole: row.partnerRole,
    staffCount: Number(row.staffCount),
  };
}
