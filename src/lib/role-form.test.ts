import { describe, expect, it } from 'vitest';
import { permissionCatalogue } from '../../contract/permissions';
import { groupLabel, groupPermissions, roleFormSchema, toggleGroup, toggleOne } from './role-form';

describe('role form', () => {
  it('shows group names in lower case with underscores as spaces', () => {
    expect(groupLabel('extended_services')).toBe('extended services');
    expect(groupLabel('STAFF')).toBe('staff');
  });

  it('groups the catalogue with one action per permission, in catalogue order', () => {
    const groups = groupPermissions(permissionCatalogue);
    expect(groups.map((g) => g.label)).toEqual([
      'dashboard',
      'staff',
      'roles',
      'partners',
      'clients',
      'extended services',
      'visits',
      'rewards',
      'activities',
      'integrations',
    ]);
    expect(groups.find((g) => g.group === 'staff')?.permissions).toEqual([
      { id: 2, action: 'view' },
      { id: 3, action: 'create' },
      { id: 4, action: 'update' },
      { id: 5, action: 'delete' },
    ]);
  });

  it('selects and clears a whole group, keeping the other ticks', () => {
    const staff = groupPermissions(permissionCatalogue).find((g) => g.group === 'staff')!;
    expect(toggleGroup([1, 3], staff, true)).toEqual([1, 2, 3, 4, 5]);
    expect(toggleGroup([1, 2, 3, 4, 5, 27], staff, false)).toEqual([1, 27]);
    expect(toggleOne([1], 27, true)).toEqual([1, 27]);
    expect(toggleOne([1, 27], 1, false)).toEqual([27]);
  });

  it('requires a name and at least one permission, with the SPEC messages', () => {
    const result = roleFormSchema.safeParse({ roleName: '  ', permissionIds: [], partnerRole: false });
    expect(result.error?.issues.map((i) => i.message)).toEqual([
      'Role name is required',
      'Permissions must be selected for a role',
    ]);
  });
});
