import { ALL_PERMISSION_NAMES } from '../../contract/permissions';

/** The built-in role holds every permission; other roles hold the catalogue names they list. */
export function permissionsOfRole(role: { builtIn: true } | { permissions: string[] } | null): string[] {
  if (!role) return [];
  if ('builtIn' in role) return [...ALL_PERMISSION_NAMES];
  const known = new Set<string>(ALL_PERMISSION_NAMES);
  return role.permissions.filter((p) => known.has(p));
}
