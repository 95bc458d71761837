import { describe, expect, it } from 'vitest';
import { permissionCatalogue } from '../../contract/permissions';
import { canUse } from './permissions';
import { groupLabel, groupPermissions, roleFormSchema, togglePermissions, unmetNeedsNote } from './role-form';

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
      // customers.create and customers.import (issue 27, decision 051), customers.privacy (decision 054).
      'customers',
      // campaigns.manage (issue 35, decision 070); rewards.approve joins the rewards group.
      'campaigns',
    ]);
    expect(groups.find((g) => g.group === 'staff')?.permissions).toEqual([
      { id: 2, action: 'view' },
      { id: 3, action: 'create' },
      { id: 4, action: 'update' },
      { id: 5, action: 'delete' },
    ]);
  });

  const ids = (...names: string[]) => names.map((n) => permissionCatalogue.find((p) => p.name === n)!.id);
  const toggle = (selected: number[], names: string[], on: boolean) =>
    togglePermissions(permissionCatalogue, selected, ids(...names), on);

  it('selects and clears a whole group, keeping the other ticks', () => {
    const staff = groupPermissions(permissionCatalogue).find((g) => g.group === 'staff')!;
    const group = staff.permissions.map((p) => p.id);
    const roles = ids('roles.view');
    expect(togglePermissions(permissionCatalogue, [1, 3, ...roles], group, true).ids).toEqual([
      1, 2, 3, 4, 5, 6,
    ]);
    expect(togglePermissions(permissionCatalogue, [1, 2, 3, 4, 5, 27], group, false)).toEqual({
      ids: [1, 27],
      note: null,
    });
    expect(toggle([1], ['activities.view'], true)).toEqual({ ids: [1, 27], note: null });
    expect(toggle([1, 27], ['dashboard.view'], false)).toEqual({ ids: [27], note: null });
  });

  it('ticking a permission ticks what it needs, with a note (staff create needs roles view)', () => {
    expect(toggle([], ['staff.create'], true)).toEqual({
      ids: ids('staff.view', 'staff.create', 'roles.view'),
      note: 'Also ticked staff view and roles view: staff create needs them.',
    });
    expect(toggle(ids('staff.view'), ['staff.create'], true).note).toBe(
      'Also ticked roles view: staff create needs it.',
    );
    // The whole partners group needs the extended services list for its form.
    const partners = groupPermissions(permissionCatalogue).find((g) => g.group === 'partners')!;
    const all = togglePermissions(
      permissionCatalogue,
      [],
      partners.permissions.map((p) => p.id),
      true,
    );
    expect(all.ids).toContain(ids('extended_services.view')[0]);
    expect(all.note).toBe(
      'Also ticked extended services view: partners view, partners create, partners update and partners delete need it.',
    );
  });

  it('unticking a needed permission unticks what needs it, with a note', () => {
    const held = ids('staff.view', 'staff.create', 'staff.update', 'roles.view', 'dashboard.view');
    expect(toggle(held, ['roles.view'], false)).toEqual({
      ids: ids('dashboard.view', 'staff.view'),
      note: 'Also unticked staff create and staff update: they need roles view.',
    });
  });

  it('names the dead ends of a role saved before the rule', () => {
    expect(unmetNeedsNote(permissionCatalogue, ids('staff.view', 'staff.create'))).toBe(
      'staff create needs roles view. Without it, its buttons stay hidden.',
    );
    expect(unmetNeedsNote(permissionCatalogue, ids('staff.view', 'staff.create', 'roles.view'))).toBeNull();
  });

  it('rewards reverse needs rewards view: its Reverse sits in a reward history the Rewards tab opens (decision 044)', () => {
    expect(toggle([], ['rewards.reverse'], true)).toEqual({
      ids: ids('rewards.view', 'rewards.reverse'),
      note: 'Also ticked rewards view: rewards reverse needs it.',
    });
    expect(toggle(ids('rewards.view', 'rewards.redeem', 'rewards.reverse'), ['rewards.view'], false)).toEqual(
      {
        ids: ids('rewards.redeem'),
        note: 'Also unticked rewards reverse: it needs rewards view.',
      },
    );
    expect(unmetNeedsNote(permissionCatalogue, ids('rewards.redeem', 'rewards.reverse'))).toBe(
      'rewards reverse needs rewards view. Without it, its buttons stay hidden.',
    );
    // The SPA offers Reverse only with it (useCan answers with canUse).
    expect(canUse({ permissions: ['rewards.redeem', 'rewards.reverse'] }, 'rewards.reverse')).toBe(false);
    expect(canUse({ permissions: ['rewards.view', 'rewards.reverse'] }, 'rewards.reverse')).toBe(true);
  });

  it('requires a name and at least one permission, with the product.md messages', () => {
    const result = roleFormSchema.safeParse({ roleName: '  ', permissionIds: [], partnerRole: false });
    expect(result.error?.issues.map((i) => i.message)).toEqual([
      'Role name is required',
      'Permissions must be selected for a role',
    ]);
  });
});
