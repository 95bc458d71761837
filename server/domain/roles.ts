import { eq, sql } from 'drizzle-orm';
import { PERMISSIONS, type Permission, permissionCatalogue } from '../../contract/permissions';
import type { Role } from '../../contract/roles';
import type { DbOrTx } from '../db/client';
import { roles } from '../db/schema';
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

/**
 * Live staff holding a role (deleted members do not count). Spelled out: in a select list drizzle
 * leaves column names unqualified, which inside this subquery would bind to `users`.
 */
export const staffCount = sql<number>`(select count(*) from users u where u.role_id = "roles"."id" and u.deleted_at is null)::int`;

/** The columns of a role with the number of live staff holding it. */
export const roleColumns = {
  id: roles.id,
  name: roles.name,
  createdAt: roles.createdAt,
  permissions: roles.permissions,
  builtIn: roles.builtIn,
  partnerRole: roles.partnerRole,
  staffCount,
};

/** A role by id (locked for the rest of the transaction with `lock`). */
export async function findRole(db: DbOrTx, id: number, lock = false): Promise<RoleRow | undefined> {
  const query = db.select(roleColumns).from(roles).where(eq(roles.id, id)).limit(1);
  const [row] = lock ? await query.for('update', { of: roles }) : await query;
  return row;
}

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
