import { describe, expect, it } from 'vitest';
import { PERMISSIONS } from '../../contract/permissions';
import { permissionsOfRole } from './permissions';

/** docs/product.md#authorization: a fixed catalogue; 'Super Admin' (the built-in role) holds all. */
describe('permissionsOfRole', () => {
  it('no role holds nothing', () => {
    expect(permissionsOfRole(null)).toEqual([]);
  });

  it('the built-in role holds the whole catalogue, whatever it lists', () => {
    const all = permissionsOfRole({ builtIn: true });
    expect(all).toHaveLength(PERMISSIONS.length);
    expect(new Set(all)).toEqual(new Set(PERMISSIONS.map((p) => p.name)));
    expect(all).toContain('dashboard.view');
    expect(all).toContain('visits.review');
  });

  it('another role holds the catalogue names it lists, in its order, and nothing outside the catalogue', () => {
    expect(
      permissionsOfRole({
        permissions: ['rewards.redeem', 'reports.export', 'dashboard.view', '', 'DASHBOARD.VIEW'],
      }),
    ).toEqual(['rewards.redeem', 'dashboard.view']);
    expect(permissionsOfRole({ permissions: [] })).toEqual([]);
  });
});
