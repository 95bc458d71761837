import { describe, expect, it } from 'vitest';
import { PERMISSIONS } from '../../contract/permissions';
import { refusal } from '../../tests/setup/refusal';
import type { AuthUser } from '../types';
import { assertOutranks, isActiveSuperAdmin, mapConstraintErrors } from './staff';
import { fullName, permissionsOf, type StaffRow, toProfile, toSessionUser, toStaffUser } from './users';

const created = new Date('2026-03-02T09:00:00.000Z');
const updated = new Date('2026-03-05T10:30:00.000Z');

const staffRow = (o: Partial<StaffRow> = {}): StaffRow => ({
  id: 9,
  email: 'bola@shop.ng',
  passwordHash: '$argon2id$v=19$m=256,t=1,p=1$c2FsdA$aGFzaA',
  firstName: 'Bola',
  lastName: 'Ade',
  phone: '08031234567',
  address: '2 Allen Avenue',
  imageUrl: '/api/v1/files/abc',
  userType: 'PARTNER',
  partnerId: 12,
  organizationName: 'Mama Put',
  partnerStatus: 'ACTIVE',
  partnerDeletedAt: null,
  accountStatus: 'ACTIVE',
  createdAt: created,
  updatedAt: updated,
  roleId: 4,
  roleName: 'Cashier',
  rolePermissions: ['rewards.redeem', 'reports.export', 'dashboard.view'],
  roleBuiltIn: false,
  rolePartnerRole: true,
  ...o,
});

const clubAdmin = staffRow({
  id: 1,
  userType: 'ADMIN',
  partnerId: null,
  organizationName: null,
  partnerStatus: null,
  roleId: 1,
  roleName: 'Super Admin',
  rolePermissions: [],
  roleBuiltIn: true,
  rolePartnerRole: false,
});

describe('what a staff member holds', () => {
  it('the catalogue names of their role; every permission for the Super Admin; nothing without a role', () => {
    expect(permissionsOf(staffRow())).toEqual(['rewards.redeem', 'dashboard.view']);
    expect(permissionsOf(clubAdmin)).toHaveLength(PERMISSIONS.length);
    expect(permissionsOf(staffRow({ roleId: null, roleName: null, rolePermissions: null }))).toEqual([]);
    // A role row whose permissions are missing holds none.
    expect(permissionsOf(staffRow({ rolePermissions: null }))).toEqual([]);
  });
});

describe('a staff member as the session, the profile and the staff list show them', () => {
  it('the session: who, where, the role (builtIn says the Super Admin) and the permissions', () => {
    expect(toSessionUser(staffRow())).toEqual({
      id: 9,
      email: 'bola@shop.ng',
      firstName: 'Bola',
      lastName: 'Ade',
      userType: 'PARTNER',
      partnerId: 12,
      role: { id: 4, name: 'Cashier', builtIn: false },
      permissions: ['rewards.redeem', 'dashboard.view'],
    });
    expect(toSessionUser(clubAdmin).role).toEqual({ id: 1, name: 'Super Admin', builtIn: true });
    expect(toSessionUser(staffRow({ roleId: null, roleName: null })).role).toBeNull();
    expect(toSessionUser(staffRow({ roleName: null })).role).toBeNull();
  });

  it('the profile, with the partner and why it cannot transact (issue 16)', () => {
    expect(toProfile(staffRow())).toEqual({
      id: 9,
      email: 'bola@shop.ng',
      firstName: 'Bola',
      lastName: 'Ade',
      phone: '08031234567',
      address: '2 Allen Avenue',
      profileImage: '/api/v1/files/abc',
      imageUrl: '/api/v1/files/abc',
      userType: 'PARTNER',
      role: { id: 4, name: 'Cashier', builtIn: false },
      permissions: ['rewards.redeem', 'dashboard.view'],
      partner: {
        id: 12,
        organizationName: 'Mama Put',
        status: 'ACTIVE',
        canTransact: true,
        inactiveReason: null,
      },
      createdAt: '2026-03-02T09:00:00.000Z',
      updatedAt: '2026-03-05T10:30:00.000Z',
    });
    expect(toProfile(staffRow({ partnerStatus: 'BLOCKED' })).partner).toEqual({
      id: 12,
      organizationName: 'Mama Put',
      status: 'BLOCKED',
      canTransact: false,
      inactiveReason: 'This partner is blocked: it cannot issue, redeem or record visits.',
    });
    // Deleted wins over blocked.
    expect(toProfile(staffRow({ partnerStatus: 'BLOCKED', partnerDeletedAt: updated })).partner).toEqual({
      id: 12,
      organizationName: 'Mama Put',
      status: 'DELETED',
      canTransact: false,
      inactiveReason: 'This partner was deleted: it cannot issue, redeem or record visits.',
    });
    expect(toProfile(staffRow({ partnerStatus: null, organizationName: null })).partner).toEqual({
      id: 12,
      organizationName: '',
      status: 'ACTIVE',
      canTransact: true,
      inactiveReason: null,
    });
    expect(toProfile(clubAdmin).partner).toBeNull();
    expect(toProfile(clubAdmin).role).toEqual({ id: 1, name: 'Super Admin', builtIn: true });
  });

  it('the staff list: the role with what it grants, whether a password is set, never the hash', () => {
    const member = toStaffUser(staffRow());
    expect(member).toEqual({
      id: 9,
      firstName: 'Bola',
      lastName: 'Ade',
      email: 'bola@shop.ng',
      phone: '08031234567',
      userRole: { id: 4, name: 'Cashier', builtIn: false, permissions: ['rewards.redeem', 'dashboard.view'] },
      imageUrl: '/api/v1/files/abc',
      userType: 'PARTNER',
      partnerId: 12,
      organizationName: 'Mama Put',
      accountStatus: 'ACTIVE',
      hasPassword: true,
      createdAt: '2026-03-02T09:00:00.000Z',
    });
    expect(JSON.stringify(member)).not.toContain('argon2');
    expect(toStaffUser(staffRow({ passwordHash: null, accountStatus: 'BLOCKED' }))).toMatchObject({
      hasPassword: false,
      accountStatus: 'BLOCKED',
    });
    expect(toStaffUser(clubAdmin).userRole).toMatchObject({ name: 'Super Admin', builtIn: true });
    expect(toStaffUser(staffRow({ roleId: null, roleName: null })).userRole).toBeNull();
  });

  it('a full name is first and last name, without spaces left over', () => {
    expect(fullName({ firstName: 'Bola', lastName: 'Ade' })).toBe('Bola Ade');
    expect(fullName({ firstName: 'Bola', lastName: '' })).toBe('Bola');
    expect(fullName({ firstName: '', lastName: 'Ade' })).toBe('Ade');
  });
});

const actorOf = (row: StaffRow): AuthUser => ({
  id: row.id,
  email: row.email,
  firstName: row.firstName,
  lastName: row.lastName,
  imageUrl: null,
  userType: row.userType,
  partnerId: row.partnerId,
  organizationName: row.organizationName,
  role: { id: row.roleId!, name: row.roleName! },
  superAdmin: row.roleBuiltIn === true,
  permissions: permissionsOf(row),
  sessionId: 'fam-1',
});

describe('the staff rules (docs/product.md#partner-scope: nobody manages a user holding permissions they lack)', () => {
  it('the active Super Admins who count are club members holding the built-in role', () => {
    expect(isActiveSuperAdmin(clubAdmin)).toBe(true);
    expect(isActiveSuperAdmin({ ...clubAdmin, accountStatus: 'BLOCKED' })).toBe(false);
    expect(isActiveSuperAdmin({ ...clubAdmin, partnerId: 12 })).toBe(false);
    expect(isActiveSuperAdmin({ ...clubAdmin, roleBuiltIn: false })).toBe(false);
    expect(isActiveSuperAdmin({ ...clubAdmin, roleBuiltIn: null })).toBe(false);
  });

  it('a member holding permissions the actor lacks is refused (403); a Super Admin only by a Super Admin', () => {
    const manager = staffRow({
      id: 2,
      userType: 'ADMIN',
      partnerId: null,
      roleId: 5,
      roleName: 'Manager',
      rolePermissions: PERMISSIONS.map((p) => p.name),
    });
    expect(refusal(() => assertOutranks(actorOf(manager), staffRow(), 'update'))).toBeNull();
    expect(refusal(() => assertOutranks(actorOf(staffRow()), manager, 'delete'))).toEqual({
      status: 403,
      message: 'You cannot change a staff member who holds permissions you do not have',
    });
    // Every permission, yet not the built-in role: a Super Admin is out of reach.
    expect(refusal(() => assertOutranks(actorOf(manager), clubAdmin, 'update'))).toEqual({
      status: 403,
      message: 'Only a Super Admin can change a Super Admin',
    });
    expect(refusal(() => assertOutranks(actorOf(clubAdmin), { ...clubAdmin, id: 3 }, 'update'))).toBeNull();
    expect(refusal(() => assertOutranks(actorOf(clubAdmin), clubAdmin, 'delete'))).toEqual({
      status: 409,
      message: 'You cannot delete your own account',
    });
  });

  it('a unique race is the email taken (409), a foreign-key race the role not found (400)', async () => {
    const failing = (code: string) => () => Promise.reject(Object.assign(new Error('db'), { code }));
    const answer = async (work: () => Promise<unknown>) => {
      try {
        await mapConstraintErrors(work);
        return null;
      } catch (err) {
        const e = err as { status?: number; message: string; errors?: unknown };
        return { status: e.status, message: e.message, errors: e.errors };
      }
    };
    expect(await answer(failing('23505'))).toEqual({
      status: 409,
      message: 'A user with this email already exists',
      errors: [{ fieldName: 'email', message: 'A user with this email already exists' }],
    });
    expect(await answer(failing('23503'))).toEqual({
      status: 400,
      message: 'Role not found',
      errors: [{ fieldName: 'roleId', message: 'Role not found' }],
    });
    expect(await answer(failing('57014'))).toEqual({ status: undefined, message: 'db', errors: undefined });
    expect(await mapConstraintErrors(() => Promise.resolve(7))).toBe(7);
  });
});
