import { and, eq, ne, type SQL, sql } from 'drizzle-orm';
import {
  roleList as roleListDefinition,
  roleServerMessages,
  roleStillHeldMessage,
} from '../../contract/roles';
import type { DbOrTx } from '../db/client';
import { sqlState, UNIQUE_VIOLATION } from '../db/errors';
import { roles, users } from '../db/schema';
import { actions } from '../domain/events';
import {
  findRole,
  missingPermissions,
  permissionNamesOf,
  type RoleRow,
  roleColumns,
  staffCount,
  toRole,
} from '../domain/roles';
import { ApiError, fieldError } from '../errors';
import { callerChange } from '../http/change';
import type { RouteContext } from '../http/context';
import { roleCsvColumns } from '../http/csv-columns';
import { ok } from '../http/errors';
import { caseless, tableList } from '../http/list';
import { listRoutes, tableSource } from '../http/list-source';
import { routeSet } from '../http/route';
import type { AuthUser } from '../types';

type RoleSortKey = 'name' | 'createdAt' | 'staffCount';

const roleList = tableList<RoleSortKey>(roles, roleListDefinition, sql`${roles.name}`, {
  ...caseless(roles, ['name']),
  createdAt: roles.createdAt,
  staffCount,
});

const nameTaken = () => fieldError('roleName', roleServerMessages.nameTaken, 409);

async function assertNameFree(db: DbOrTx, name: string, exceptId?: number) {
  const [clash] = await db
    .select({ id: roles.id })
    .from(roles)
    .where(
      and(sql`lower(${roles.name}) = ${name.toLowerCase()}`, exceptId ? ne(roles.id, exceptId) : undefined),
    )
    .limit(1);
  if (clash) throw nameTaken();
}

/** Catalogue names of the requested ids; unknown ids are a 400, granting what one lacks a 403. */
function grantablePermissions(ids: number[], actor: AuthUser): string[] {
  const { names, unknown } = permissionNamesOf(ids);
  if (unknown.length) {
    throw fieldError('permissionIds', `${roleServerMessages.unknownPermissionsPrefix} ${unknown.join(', ')}`);
  }
  if (missingPermissions(names, actor.permissions).length)
    throw new ApiError(403, roleServerMessages.cannotGrant);
  return names;
}

/**
 * The roles partner staff see (decision 023): those they could give (every permission their own, never
 * the built-in role), for their invitation and staff edit forms. Club staff see every role.
 */
const rolesInScope = (actor: AuthUser, partnerScope: number | null): SQL | undefined =>
  partnerScope === null
    ? undefined
    : sql`(not ${roles.builtIn} and ${roles.permissions} <@ string_to_array(${actor.permissions.join(',')}, ','))`;

/** `rolesInScope` for one role row. */
const roleInScope = (actor: AuthUser, partnerScope: number | null, role: RoleRow): boolean =>
  partnerScope === null ||
  (!role.builtIn && missingPermissions(role.permissions, actor.permissions).length === 0);

/** Nobody edits or deletes a role holding a permission they lack (the built-in role holds all). */
function assertHoldsRole(actor: AuthUser, role: RoleRow) {
  if (role.builtIn ? !actor.superAdmin : missingPermissions(role.permissions, actor.permissions).length) {
    throw new ApiError(403, roleServerMessages.outranked);
  }
}

/** Two requests racing for one name: the unique index decides, the loser gets the same 409. */
async function uniqueName<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (sqlState(err) === UNIQUE_VIOLATION) throw nameTaken();
    throw err;
  }
}

/** /admin/user: roles with their permissions (docs/product.md#calls, 'Staff and roles'). */
export function roleRoutes(ctx: RouteContext) {
  const { db, guards } = ctx;
  const notFound = () => new ApiError(404, roleServerMessages.notFound);
  /** The roles a caller sees, for the list and its export. */
  const list = listRoutes(ctx, 'GET /admin/user/get-roles', {
    source: (_q, c) =>
      tableSource(db, roles, roleColumns, {
        spec: roleList,
        filters: [rolesInScope(c.get('user'), c.get('partnerScope'))],
        map: (rows) => rows.map(toRole),
      }),
    csv: { name: () => 'roles', columns: roleCsvColumns },
  });

  return routeSet(guards)
    .on('GET /admin/user/get-roles', list.page)
    .on('GET /admin/user/get-roles/export', list.export)
    .on('GET /admin/user/get-role-detail', async (c) => {
      const row = await findRole(db, c.req.valid('query').roleId);
      if (!row || !roleInScope(c.get('user'), c.get('partnerScope'), row)) throw notFound();
      return ok(c, toRole(row));
    })
    .on('POST /admin/user/create-role', async (c) => {
      const actor = c.get('user');
      const { roleName, permissionIds, partnerRole = false } = c.req.valid('json');
      const permissions = grantablePermissions(permissionIds, actor);
      const { now, record } = callerChange(c, ctx);
      await assertNameFree(db, roleName);
      const id = await uniqueName(() =>
        db.transaction(async (tx) => {
          const [created] = await tx
            .insert(roles)
            .values({ name: roleName, permissions, partnerRole, createdAt: now, updatedAt: now })
            .returning({ id: roles.id });
          await record(tx, {
            action: actions.createdRole(roleName),
            entity: 'role',
            entityId: created!.id,
            payload: { permissions, partnerRole },
          });
          return created!.id;
        }),
      );
      return ok(c, toRole((await findRole(db, id))!), roleServerMessages.created, 201);
    })
    .on('PATCH /admin/user/update-role', async (c) => {
      const actor = c.get('user');
      const { roleId, roleName, permissionIds, partnerRole } = c.req.valid('json');
      const existing = await findRole(db, roleId);
      if (!existing) throw notFound();
      if (existing.builtIn) throw new ApiError(409, roleServerMessages.builtInLocked);
      assertHoldsRole(actor, existing);
      const permissions = grantablePermissions(permissionIds, actor);
      const { now, record } = callerChange(c, ctx);
      await assertNameFree(db, roleName, roleId);
      await uniqueName(() =>
        db.transaction(async (tx) => {
          const before = await findRole(tx, roleId, true);
          if (!before) throw notFound();
          assertHoldsRole(actor, before);
          // Its holders were placed (or not) at a partner for it: they are reassigned first.
          const kindChanges = partnerRole !== undefined && partnerRole !== before.partnerRole;
          if (kindChanges && Number(before.staffCount) > 0) {
            throw fieldError('partnerRole', roleServerMessages.partnerRoleHeld, 409);
          }
          await tx
            .update(roles)
            .set({ name: roleName, permissions, ...(kindChanges ? { partnerRole } : {}), updatedAt: now })
            .where(eq(roles.id, roleId));
          await record(tx, {
            action: actions.updatedRole(roleName, before.name),
            entity: 'role',
            entityId: roleId,
            payload: {
              previousName: before.name,
              added: missingPermissions(permissions, before.permissions),
              removed: missingPermissions(before.permissions, permissions),
            },
          });
        }),
      );
      return ok(c, toRole((await findRole(db, roleId))!), roleServerMessages.updated);
    })
    .on('DELETE /admin/user/delete-role/{roleId}', async (c) => {
      const actor = c.get('user');
      const { roleId } = c.req.valid('param');
      const { commit } = callerChange(c, ctx);
      await commit(async (tx) => {
        // The row lock makes a concurrent invite or role change with this role wait for the outcome.
        const role = await findRole(tx, roleId, true);
        if (!role) throw notFound();
        if (role.builtIn) throw new ApiError(409, roleServerMessages.builtInLocked);
        assertHoldsRole(actor, role);
        if (role.staffCount > 0) throw new ApiError(409, roleStillHeldMessage(role.staffCount));
        // Deleted members keep their history in the event log, not a reference to a gone role.
        await tx.update(users).set({ roleId: null }).where(eq(users.roleId, roleId));
        await tx.delete(roles).where(eq(roles.id, roleId));
        return {
          action: actions.deletedRole(role.name),
          entity: 'role',
          entityId: roleId,
          payload: { permissions: role.permissions },
        };
      });
      return ok(c, null, roleServerMessages.deleted);
    }).router;
}
