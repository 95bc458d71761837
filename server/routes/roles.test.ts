import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ListData } from '../../contract/envelope';
import { permissionCatalogue } from '../../contract/permissions';
import { type Role, roleSchema, roleServerMessages, roleStillHeldMessage } from '../../contract/roles';
import { createRole, createSuperAdmin, createUser, setupTestServer, signIn } from '../../tests/setup/server';
import { events, roles, users } from '../db/schema';

const t = setupTestServer();
let token: string;
let superAdminRoleId: number;

const idOf = (name: string) => permissionCatalogue.find((p) => p.name === name)!.id;
const create = (json: unknown, as = token) =>
  t.request<Role>('POST', '/admin/user/create-role', { json, token: as });
const update = (json: unknown, as = token) =>
  t.request<Role>('PATCH', '/admin/user/update-role', { json, token: as });
const remove = (id: unknown, as = token) =>
  t.request('DELETE', `/admin/user/delete-role/${id}`, { token: as });
const list = (query = '') => t.request<ListData<Role>>('GET', `/admin/user/get-roles${query}`, { token });
const lastEvent = async () => (await t.db.select().from(events).orderBy(events.id)).at(-1)!;

beforeAll(async () => {
  const admin = await createSuperAdmin(t.db);
  token = (await signIn(t, admin.email, admin.password)).accessToken;
  superAdminRoleId = admin.roleId!;
});

describe('POST /admin/user/create-role', () => {
  it('creates a role with its permissions, answers 201 with the role, and logs it', async () => {
    const res = await create({
      roleName: '  Support  ',
      permissionIds: [idOf('clients.view'), idOf('dashboard.view'), idOf('clients.view')],
    });
    expect(res.status).toBe(201);
    expect(res.body.message).toBe(roleServerMessages.created);
    const role = roleSchema.parse(res.body.data);
    expect(role).toMatchObject({ name: 'Support', builtIn: false, staffCount: 0 });
    // Catalogue order, duplicates dropped.
    expect(role.permissionIds).toEqual([idOf('dashboard.view'), idOf('clients.view')]);
    expect(role.permissions).toEqual([
      { id: idOf('dashboard.view'), name: 'dashboard.view', group: 'dashboard' },
      { id: idOf('clients.view'), name: 'clients.view', group: 'clients' },
    ]);
    expect(await lastEvent()).toMatchObject({
      action: 'Created role Support',
      actorName: 'Ada Root',
      actorType: 'ADMIN',
      entity: 'role',
      entityId: String(role.id),
    });
  });

  it.each([
    [{}, 'roleName', 'Role name is required'],
    [{ roleName: '   ', permissionIds: [1] }, 'roleName', 'Role name is required'],
    [{ roleName: 'X', permissionIds: [] }, 'permissionIds', 'Permissions must be selected for a role'],
    [{ roleName: 'X' }, 'permissionIds', 'Permissions must be selected for a role'],
    [{ roleName: 'X', permissionIds: ['a'] }, 'permissionIds.0', 'Permission ids must be numbers'],
    [{ roleName: 'X'.repeat(61), permissionIds: [1] }, 'roleName', 'Role name must be at most 60 characters'],
  ])('validates %j', async (json, fieldName, message) => {
    const res = await create(json);
    expect(res.status).toBe(400);
    expect(res.body.errors).toContainEqual({ fieldName, message });
  });

  it('rejects unknown permission ids per field', async () => {
    const res = await create({ roleName: 'Ghost', permissionIds: [1, 999, 1000] });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      { fieldName: 'permissionIds', message: 'Unknown permission ids: 999, 1000' },
    ]);
  });

  it('refuses a duplicate name whatever its case: 409', async () => {
    await create({ roleName: 'Auditor', permissionIds: [1] });
    for (const roleName of ['auditor', 'AUDITOR ', 'super admin']) {
      const res = await create({ roleName, permissionIds: [1] });
      expect(res.status, roleName).toBe(409);
      expect(res.body.message).toBe(roleServerMessages.nameTaken);
      expect(res.body.errors).toEqual([{ fieldName: 'roleName', message: roleServerMessages.nameTaken }]);
    }
  });

  it('two concurrent creates of one name: one 201, one 409', async () => {
    const results = await Promise.all([
      create({ roleName: 'Racer', permissionIds: [1] }),
      create({ roleName: 'racer', permissionIds: [1] }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
  });

  it('nobody grants permissions they do not hold: 403', async () => {
    const limited = await createRole(t.db, 'Role maker', ['roles.create', 'roles.view']);
    const maker = await createUser(t.db, { roleId: limited.id });
    const makerToken = (await signIn(t, maker.email, maker.password)).accessToken;
    const res = await create({ roleName: 'Escalation', permissionIds: [idOf('staff.delete')] }, makerToken);
    expect(res.status).toBe(403);
    expect(res.body.message).toBe(roleServerMessages.cannotGrant);
    const fine = await create(
      { roleName: 'Viewer of roles', permissionIds: [idOf('roles.view')] },
      makerToken,
    );
    expect(fine.status).toBe(201);
  });
});

describe('GET /admin/user/get-roles and get-role-detail', () => {
  it('lists roles with staff counts; the built-in role lists the whole catalogue', async () => {
    const res = await list('?pageSize=100');
    expect(res.status).toBe(200);
    const records = res.body.data!.records.map((r) => roleSchema.parse(r));
    const superAdmin = records.find((r) => r.builtIn)!;
    expect(superAdmin.name).toBe('Super Admin');
    expect(superAdmin.permissionIds).toEqual(permissionCatalogue.map((p) => p.id));
    expect(superAdmin.staffCount).toBe(1);
    expect(res.body.data!.meta).toEqual({ totalCount: records.length, pageNumber: 1, pageSize: 100 });
    // Default order: by name.
    const names = records.map((r) => r.name.toLowerCase());
    expect(names).toEqual([...names].sort());
  });

  it('searches, sorts by staffCount and createdAt, pages', async () => {
    const searched = await list('?searchText=supp');
    expect(searched.body.data!.records.map((r) => r.name)).toEqual(['Support']);
    await createUser(t.db, { roleId: superAdminRoleId });
    const byCount = await list('?sortBy=staffCount&sortOrder=desc&pageSize=10');
    expect(byCount.body.data!.records[0]).toMatchObject({ name: 'Super Admin', staffCount: 2 });
    const counts = byCount.body.data!.records.map((r) => r.staffCount);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    const page2 = await list('?sortBy=name&pageSize=10&pageNumber=2');
    expect(page2.body.data!.meta).toMatchObject({ pageNumber: 2, pageSize: 10 });
    const all = (await list('?sortBy=name&pageSize=100')).body.data!;
    expect(page2.body.data!.records.map((r) => r.id)).toEqual(all.records.slice(10, 20).map((r) => r.id));
    const byDate = await list('?sortBy=createdAt&sortOrder=asc&pageSize=100');
    const dates = byDate.body.data!.records.map((r) => r.createdAt);
    expect(dates).toEqual([...dates].sort());
    const bad = await list('?sortBy=permissions');
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]!.fieldName).toBe('sortBy');
  });

  it('answers the detail, 404 for an unknown role, 400 for a bad id', async () => {
    const detail = await t.request<Role>('GET', `/admin/user/get-role-detail?roleId=${superAdminRoleId}`, {
      token,
    });
    expect(detail.status).toBe(200);
    expect(detail.body.data!.name).toBe('Super Admin');
    const unknown = await t.request('GET', '/admin/user/get-role-detail?roleId=999999', { token });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe(roleServerMessages.notFound);
    for (const q of ['', '?roleId=abc', '?roleId=-1', '?roleId=1.5']) {
      const bad = await t.request('GET', `/admin/user/get-role-detail${q}`, { token });
      expect(bad.status, q).toBe(400);
      expect(bad.body.errors[0]!.fieldName).toBe('roleId');
    }
  });
});

describe('PATCH /admin/user/update-role', () => {
  it('renames and changes permissions; logs it; the holders get the change on their next request', async () => {
    const role = (await create({ roleName: 'Helpdesk', permissionIds: [idOf('dashboard.view')] })).body.data!;
    const member = await createUser(t.db, { roleId: role.id });
    const memberToken = (await signIn(t, member.email, member.password)).accessToken;
    expect((await t.request('GET', '/admin/user/get-roles', { token: memberToken })).status).toBe(403);
    const res = await update({
      roleId: role.id,
      roleName: 'Customer Care',
      permissionIds: [idOf('dashboard.view'), idOf('roles.view')],
    });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe(roleServerMessages.updated);
    expect(res.body.data).toMatchObject({ id: role.id, name: 'Customer Care', staffCount: 1 });
    expect(res.body.data!.permissionIds).toEqual([idOf('dashboard.view'), idOf('roles.view')]);
    expect((await lastEvent()).action).toBe('Updated role Customer Care (renamed from Helpdesk)');
    expect((await lastEvent()).payload).toEqual({
      previousName: 'Helpdesk',
      added: ['roles.view'],
      removed: [],
    });
    expect((await t.request('GET', '/admin/user/get-roles', { token: memberToken })).status).toBe(200);
  });

  it('keeps its own name in another case; refuses another role’s name (409)', async () => {
    const role = (await create({ roleName: 'Finance', permissionIds: [1] })).body.data!;
    const same = await update({ roleId: role.id, roleName: 'FINANCE', permissionIds: [1] });
    expect(same.status).toBe(200);
    expect(same.body.data!.name).toBe('FINANCE');
    const clash = await update({ roleId: role.id, roleName: 'support', permissionIds: [1] });
    expect(clash.status).toBe(409);
    expect(clash.body.message).toBe(roleServerMessages.nameTaken);
  });

  it('404 for an unknown role; 400 for unknown permissions and bad bodies', async () => {
    const unknown = await update({ roleId: 999999, roleName: 'X', permissionIds: [1] });
    expect(unknown.status).toBe(404);
    const role = (await create({ roleName: 'Temp', permissionIds: [1] })).body.data!;
    const badPerm = await update({ roleId: role.id, roleName: 'Temp', permissionIds: [77] });
    expect(badPerm.status).toBe(400);
    expect(badPerm.body.errors).toEqual([
      { fieldName: 'permissionIds', message: 'Unknown permission ids: 77' },
    ]);
    const noId = await update({ roleName: 'Temp', permissionIds: [1] });
    expect(noId.status).toBe(400);
    expect(noId.body.errors).toEqual([{ fieldName: 'roleId', message: 'roleId must be a number' }]);
  });

  it('the built-in Super Admin role cannot be changed: 409', async () => {
    const res = await update({ roleId: superAdminRoleId, roleName: 'Super Admin', permissionIds: [1] });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(roleServerMessages.builtInLocked);
  });
});

describe('DELETE /admin/user/delete-role/{roleId}', () => {
  it('deletes an unused role and logs it', async () => {
    const role = (await create({ roleName: 'Short-lived', permissionIds: [1] })).body.data!;
    const res = await remove(role.id);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe(roleServerMessages.deleted);
    expect(await t.db.select().from(roles).where(eq(roles.id, role.id))).toEqual([]);
    expect((await lastEvent()).action).toBe('Deleted role Short-lived');
    expect((await remove(role.id)).status).toBe(404);
  });

  it('refuses while staff hold it (409 with the count); deleted members do not count', async () => {
    const role = (await create({ roleName: 'Held', permissionIds: [1] })).body.data!;
    const a = await createUser(t.db, { roleId: role.id });
    await createUser(t.db, { roleId: role.id });
    await createUser(t.db, { roleId: role.id, deletedAt: new Date() });
    const res = await remove(role.id);
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(roleStillHeldMessage(2));
    expect(res.body.message).toBe('This role is still held by 2 staff members. Reassign them first.');
    await t.db.update(users).set({ deletedAt: new Date() }).where(eq(users.id, a.id));
    expect((await remove(role.id)).body.message).toBe(
      'This role is still held by 1 staff member. Reassign them first.',
    );
  });

  it('the built-in role cannot be deleted (409); bad ids are 400', async () => {
    const res = await remove(superAdminRoleId);
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(roleServerMessages.builtInLocked);
    for (const id of ['abc', '0', '-3', '1e3x']) {
      const bad = await remove(id);
      expect(bad.status, id).toBe(400);
      expect(bad.body.errors[0]!.fieldName).toBe('roleId');
    }
  });
});
