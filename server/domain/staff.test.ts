import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_PERMISSION_NAMES } from '../../contract/permissions';
import { createPartner, createRole, createUser, openTestDatabase } from '../../tests/setup/server';
import type { Database, Db } from '../db/client';
import { passwordResetCodes } from '../db/schema';
import type { AuthUser } from '../types';
import { findRole } from './roles';
import { activeSuperAdmins, grantableRole, lockSuperAdminRole, placement, voidCodes } from './staff';
import { findStaffByEmail, findStaffById } from './users';

/** The staff rules on a database of their own (docs/product.md#partner-scope, issues 16, 22 and 28). */
let database: Database;
let db: Db;
let superRoleId: number;
let lockedBeforeFirstAdmin: number | undefined | 'threw';
beforeAll(async () => {
  database = await openTestDatabase();
  db = database.db;
  // A new database has no built-in role until the seed or ADMIN_EMAIL makes the first admin.
  lockedBeforeFirstAdmin = await db.transaction((tx) => lockSuperAdminRole(tx)).catch(() => 'threw' as const);
  superRoleId = (await createRole(db, 'Super Admin', ALL_PERMISSION_NAMES, true)).id;
});
afterAll(() => database.close());

const deleted = new Date('2026-03-01T12:00:00.000Z');

async function outcome(call: () => Promise<unknown>) {
  try {
    return { passed: await call() };
  } catch (err) {
    const e = err as { status: number; message: string; errors: unknown };
    return { status: e.status, message: e.message, errors: e.errors };
  }
}

const actor = (o: Partial<AuthUser>): AuthUser => ({
  id: 1,
  email: 'actor@rewardclub.test',
  firstName: 'Ada',
  lastName: 'Obi',
  imageUrl: null,
  userType: 'ADMIN',
  partnerId: null,
  organizationName: null,
  role: null,
  superAdmin: false,
  permissions: [],
  sessionId: 'fam-1',
  ...o,
});

describe('the last active Super Admin', () => {
  it('counts active, live club members holding the built-in role; partner staff never count', async () => {
    const before = await db.transaction((tx) => activeSuperAdmins(tx));
    const partner = await createPartner(db);
    const custom = await createRole(db, 'Everything but built-in', ALL_PERMISSION_NAMES);
    await createUser(db, { roleId: superRoleId });
    await createUser(db, { roleId: superRoleId, accountStatus: 'BLOCKED' });
    await createUser(db, { roleId: superRoleId, deletedAt: deleted });
    await createUser(db, { roleId: superRoleId, userType: 'PARTNER', partnerId: partner.id });
    await createUser(db, { roleId: custom.id });
    await createUser(db, { roleId: null });
    expect(await db.transaction((tx) => activeSuperAdmins(tx))).toBe(before + 1);
    await createUser(db, { roleId: superRoleId });
    expect(await db.transaction((tx) => activeSuperAdmins(tx))).toBe(before + 2);
    expect(await db.transaction((tx) => lockSuperAdminRole(tx))).toBe(superRoleId);
  });

  it('before the first admin there is no built-in role to lock, and that is no error', () => {
    expect(lockedBeforeFirstAdmin).toBeUndefined();
  });
});

describe('the role a member is given', () => {
  it('must exist (400 on roleId) and hold only permissions the actor holds (403)', async () => {
    const cashier = await createRole(db, 'Cashier', ['rewards.redeem', 'rewards.view'], false, true);
    const viewer = await createRole(db, 'Viewer', ['staff.view']);
    const manager = actor({ permissions: ['rewards.redeem', 'rewards.view', 'staff.view', 'staff.create'] });
    expect(await outcome(() => grantableRole(db, cashier.id, manager))).toMatchObject({
      passed: { id: cashier.id, name: 'Cashier' },
    });
    expect(await outcome(() => grantableRole(db, 2_000_000, manager))).toEqual({
      status: 400,
      message: 'Role not found',
      errors: [{ fieldName: 'roleId', message: 'Role not found' }],
    });
    const cannot = {
      status: 403,
      message: 'You cannot give a role with permissions you do not hold',
      errors: [],
    };
    expect(
      await outcome(() => grantableRole(db, cashier.id, actor({ permissions: ['rewards.view'] }))),
    ).toEqual(cannot);
    // The built-in role grants the whole catalogue: only one who holds all of it gives it.
    expect(await outcome(() => grantableRole(db, superRoleId, manager))).toEqual(cannot);
    expect(
      await outcome(() => grantableRole(db, superRoleId, actor({ permissions: [...ALL_PERMISSION_NAMES] }))),
    ).toMatchObject({ passed: { id: superRoleId } });
    // Partner staff give partner roles only, whatever they hold (issue 28).
    const partnerManager = { ...manager, partnerId: 12, userType: 'PARTNER' as const };
    expect(await outcome(() => grantableRole(db, cashier.id, partnerManager))).toMatchObject({
      passed: { id: cashier.id },
    });
    expect(await outcome(() => grantableRole(db, viewer.id, partnerManager))).toEqual({
      status: 403,
      message: 'Partner staff can give partner roles only',
      errors: [],
    });
  });

  it('a role counts its live staff only; an unknown role is none', async () => {
    const role = await createRole(db, 'Counted', ['staff.view']);
    await createUser(db, { roleId: role.id });
    await createUser(db, { roleId: role.id });
    await createUser(db, { roleId: role.id, deletedAt: deleted });
    expect(await findRole(db, role.id)).toMatchObject({ id: role.id, name: 'Counted', staffCount: 2 });
    expect(await db.transaction((tx) => findRole(tx, role.id, true))).toMatchObject({ staffCount: 2 });
    expect(await findRole(db, 2_000_000)).toBeUndefined();
  });
});

describe('where a member works (issue 22)', () => {
  it('partner staff place at their own partner whatever was sent; others the partner asked for, else the current one', async () => {
    const own = await createPartner(db, { organizationName: 'Mama Put' });
    const other = await createPartner(db, { organizationName: 'Suya Spot' });
    const place = (o: Parameters<typeof placement>[1]) => outcome(() => placement(db, o));
    expect(await place({ scope: own.id, requested: other.id, current: null, partnerRole: true })).toEqual({
      passed: { partnerId: own.id, organizationName: 'Mama Put' },
    });
    expect(await place({ scope: null, requested: other.id, current: own.id, partnerRole: true })).toEqual({
      passed: { partnerId: other.id, organizationName: 'Suya Spot' },
    });
    expect(await place({ scope: null, requested: undefined, current: own.id, partnerRole: true })).toEqual({
      passed: { partnerId: own.id, organizationName: 'Mama Put' },
    });
    // Sent as null: moved to the club.
    expect(await place({ scope: null, requested: null, current: own.id, partnerRole: false })).toEqual({
      passed: { partnerId: null, organizationName: null },
    });
  });

  it('a partner role needs a partner; a partner newly named must exist and be live', async () => {
    const gone = await createPartner(db, { organizationName: 'Closed Shop', deletedAt: deleted });
    const place = (o: Parameters<typeof placement>[1]) => outcome(() => placement(db, o));
    expect(await place({ scope: null, requested: undefined, current: null, partnerRole: true })).toEqual({
      status: 400,
      message: 'Choose the partner this staff member works at',
      errors: [{ fieldName: 'partnerId', message: 'Choose the partner this staff member works at' }],
    });
    const notFound = {
      status: 400,
      message: 'Partner not found',
      errors: [{ fieldName: 'partnerId', message: 'Partner not found' }],
    };
    expect(await place({ scope: null, requested: 2_000_000, current: null, partnerRole: true })).toEqual(
      notFound,
    );
    expect(await place({ scope: null, requested: gone.id, current: null, partnerRole: true })).toEqual(
      notFound,
    );
    // A member already at a partner since deleted stays there when an edit names no other.
    expect(await place({ scope: null, requested: undefined, current: gone.id, partnerRole: true })).toEqual({
      passed: { partnerId: gone.id, organizationName: 'Closed Shop' },
    });
    expect(await place({ scope: null, requested: gone.id, current: gone.id, partnerRole: true })).toEqual({
      passed: { partnerId: gone.id, organizationName: 'Closed Shop' },
    });
  });
});

describe('finding a staff member', () => {
  it('by email whatever its case and spaces, or by id, with role and partner; never a deleted one', async () => {
    const partner = await createPartner(db, { organizationName: 'Mama Put', accountStatus: 'BLOCKED' });
    const role = await createRole(db, 'Till', ['rewards.redeem'], false, true);
    const member = await createUser(db, {
      email: 'Bola.Ade@Shop.ng',
      roleId: role.id,
      userType: 'PARTNER',
      partnerId: partner.id,
      accountStatus: 'BLOCKED',
    });
    const expected = {
      id: member.id,
      email: 'Bola.Ade@Shop.ng',
      userType: 'PARTNER',
      partnerId: partner.id,
      organizationName: 'Mama Put',
      partnerStatus: 'BLOCKED',
      partnerDeletedAt: null,
      accountStatus: 'BLOCKED',
      roleId: role.id,
      roleName: 'Till',
      rolePermissions: ['rewards.redeem'],
      roleBuiltIn: false,
      rolePartnerRole: true,
    };
    expect(await findStaffByEmail(db, '  bola.ade@SHOP.NG ')).toMatchObject(expected);
    expect(await findStaffById(db, member.id)).toMatchObject(expected);
    const noRole = await createUser(db, { email: 'norole@rewardclub.test' });
    expect(await findStaffByEmail(db, 'norole@rewardclub.test')).toMatchObject({
      id: noRole.id,
      partnerId: null,
      organizationName: null,
      roleId: null,
      roleName: null,
    });
    const gone = await createUser(db, { email: 'gone@rewardclub.test', deletedAt: deleted });
    expect(await findStaffByEmail(db, 'gone@rewardclub.test')).toBeUndefined();
    expect(await findStaffById(db, gone.id)).toBeUndefined();
    expect(await findStaffByEmail(db, 'nobody@rewardclub.test')).toBeUndefined();
  });
});

describe("a member's codes", () => {
  it('unused set-password and reset codes stop working; used ones and other members’ stay as they were', async () => {
    const member = await createUser(db, { password: null });
    const other = await createUser(db, { password: null });
    const usedAt = new Date('2026-03-02T08:00:00.000Z');
    const now = new Date('2026-03-02T09:00:00.000Z');
    const expiresAt = new Date('2026-03-05T09:00:00.000Z');
    await db.insert(passwordResetCodes).values([
      { userId: member.id, codeHash: 'h-invite', purpose: 'INVITE', expiresAt },
      { userId: member.id, codeHash: 'h-reset', purpose: 'RESET', expiresAt },
      { userId: member.id, codeHash: 'h-used', purpose: 'RESET', expiresAt, usedAt },
      { userId: other.id, codeHash: 'h-other', purpose: 'RESET', expiresAt },
    ]);
    await voidCodes(db, member.id, now);
    const rows = await db
      .select({ codeHash: passwordResetCodes.codeHash, usedAt: passwordResetCodes.usedAt })
      .from(passwordResetCodes)
      .where(eq(passwordResetCodes.expiresAt, expiresAt));
    const byHash = Object.fromEntries(rows.map((r) => [r.codeHash, r.usedAt?.toISOString() ?? null]));
    expect(byHash).toEqual({
      'h-invite': now.toISOString(),
      'h-reset': now.toISOString(),
      'h-used': usedAt.toISOString(),
      'h-other': null,
    });
  });
});
