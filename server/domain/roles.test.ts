import { describe, expect, it } from 'vitest';
import { PERMISSIONS } from '../../contract/permissions';
import { missingPermissions, permissionNamesOf, type RoleRow, toRole } from './roles';

/** docs/product.md#entities 'Role' and #authorization: permissions are `group.action` from a fixed catalogue. */
describe('permission ids of a role', () => {
  it('become names in catalogue order, duplicates dropped, unknown ids reported', () => {
    // 25 rewards.redeem, 1 dashboard.view, 14 clients.view.
    expect(permissionNamesOf([25, 1, 14, 1, 0, 999, 25])).toEqual({
      names: ['dashboard.view', 'clients.view', 'rewards.redeem'],
      unknown: [0, 999],
    });
    expect(permissionNamesOf([])).toEqual({ names: [], unknown: [] });
  });
});

describe('missingPermissions (nobody gives what they lack)', () => {
  it('lists what the role grants that the holder lacks, in the role order', () => {
    expect(missingPermissions(['staff.view', 'staff.delete', 'roles.view'], ['roles.view'])).toEqual([
      'staff.view',
      'staff.delete',
    ]);
    expect(missingPermissions(['staff.view'], ['staff.view', 'roles.view'])).toEqual([]);
    expect(missingPermissions([], [])).toEqual([]);
  });
});

const row = (o: Partial<RoleRow> = {}): RoleRow => ({
  id: 4,
  name: 'Cashier',
  createdAt: new Date('2026-03-02T09:00:00.000Z'),
  permissions: ['rewards.redeem', 'dashboard.view'],
  builtIn: false,
  partnerRole: true,
  staffCount: 3,
  ...o,
});

describe('a role on the wire', () => {
  it('lists its permissions with id, name and group, and its live staff count', () => {
    expect(toRole(row({ permissions: ['rewards.redeem', 'reports.export', 'dashboard.view'] }))).toEqual({
      id: 4,
      name: 'Cashier',
      createdAt: '2026-03-02T09:00:00.000Z',
      permissions: [
        { id: 25, name: 'rewards.redeem', group: 'rewards' },
        { id: 1, name: 'dashboard.view', group: 'dashboard' },
      ],
      permissionIds: [25, 1],
      builtIn: false,
      partnerRole: true,
      staffCount: 3,
    });
    // A count the database sends as text (bigint) is a number on the wire.
    expect(toRole(row({ staffCount: '12' as unknown as number })).staffCount).toBe(12);
  });

  it("the built-in role (the Super Admin's) lists the whole catalogue, whatever it stores", () => {
    const role = toRole(row({ name: 'Super Admin', builtIn: true, partnerRole: false, permissions: [] }));
    expect(role.builtIn).toBe(true);
    expect(role.partnerRole).toBe(false);
    expect(role.permissionIds).toHaveLength(PERMISSIONS.length);
    expect(new Set(role.permissionIds)).toEqual(new Set(PERMISSIONS.map((p) => p.id)));
    expect(role.permissions).toContainEqual({ id: 34, name: 'visits.review', group: 'visits' });
  });
});
