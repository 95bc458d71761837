import { z } from './zod';

/**
 * The permission catalogue: fixed in code, `group.action`, with stable numeric ids
 * (roles are saved with permission ids). Served by GET /authz; the server enforces it,
 * the SPA hides what the signed-in user lacks. Never renumber an entry; append new ones.
 */
export const PERMISSIONS = [
  { id: 1, name: 'dashboard.view' },
  { id: 2, name: 'staff.view' },
  { id: 3, name: 'staff.create' },
  { id: 4, name: 'staff.update' },
  { id: 5, name: 'staff.delete' },
  { id: 6, name: 'roles.view' },
  { id: 7, name: 'roles.create' },
  { id: 8, name: 'roles.update' },
  { id: 9, name: 'roles.delete' },
  { id: 10, name: 'partners.view' },
  { id: 11, name: 'partners.create' },
  { id: 12, name: 'partners.update' },
  { id: 13, name: 'partners.delete' },
  { id: 14, name: 'clients.view' },
  { id: 15, name: 'clients.update' },
  { id: 16, name: 'clients.delete' },
  { id: 17, name: 'extended_services.view' },
  { id: 18, name: 'extended_services.create' },
  { id: 19, name: 'extended_services.update' },
  { id: 20, name: 'extended_services.delete' },
  { id: 21, name: 'visits.view' },
  { id: 22, name: 'visits.create' },
  { id: 23, name: 'rewards.view' },
  { id: 24, name: 'rewards.issue' },
  { id: 25, name: 'rewards.redeem' },
  { id: 26, name: 'rewards.reverse' },
  { id: 27, name: 'activities.view' },
  { id: 28, name: 'integrations.manage' },
  { id: 29, name: 'customers.create' },
  { id: 30, name: 'customers.import' },
  { id: 31, name: 'customers.privacy' },
  { id: 32, name: 'campaigns.manage' },
  { id: 33, name: 'rewards.approve' },
  { id: 34, name: 'visits.review' },
] as const;

export type PermissionName = (typeof PERMISSIONS)[number]['name'];

export const permissionSchema = z.object({ id: z.int(), name: z.string(), group: z.string() });
export type Permission = z.infer<typeof permissionSchema>;

export const permissionGroup = (name: string): string => name.slice(0, name.indexOf('.'));

export const permissionCatalogue: Permission[] = PERMISSIONS.map((p) => ({
  id: p.id,
  name: p.name,
  group: permissionGroup(p.name),
}));

export const ALL_PERMISSION_NAMES: PermissionName[] = PERMISSIONS.map((p) => p.name);

export const SUPER_ADMIN_ROLE = 'Super Admin';

/**
 * What each permission's screens need besides it (issue 22): the button and the screen a permission
 * opens call routes that other permissions guard, so a role holding one without the other meets
 * 'Not allowed'. Read from the screens and their calls (contract/api.ts `access`):
 * - staff.create: 'Add Staff' sits on the Users tab (GET admin-users, staff.view) and its role select
 *   lists the roles (GET get-roles, roles.view).
 * - staff.update: 'Edit' sits on the Users tab; the form loads the member (GET admin-detail,
 *   staff.view) and the role select (roles.view). staff.delete: 'Delete' sits on the Users tab.
 * - roles.create / update / delete: on the Roles tab (roles.view); the edit form loads the role
 *   (GET get-role-detail, roles.view).
 * - partners.create / update: their buttons are on the partner list and detail (partners.view); the
 *   form's extended services come from GET extended-services (extended_services.view).
 *   partners.delete: on the partner detail.
 * - clients.update / delete: on the client list and detail (clients.view).
 * - customers.create / import: 'Add customer' and 'Import customers' sit on the client list (clients.view).
 * - customers.privacy: 'Export this customer's data' and 'Erase this customer' sit on the client
 *   detail (clients.view; decision 054).
 * - extended_services.create / update / delete: on the service list (extended_services.view).
 * - visits.create: 'Record visit' on the partner's Visits tab (visits.view).
 * - visits.review: the Visit reviews screen filters by partner (partners.view) and opens a visit's
 *   page (visits.view); a partner's review rules are edited on the partner's page (decision 075).
 * - rewards.issue: issued from the partner's Eligible users tab (GET reward-eligible-users, visits.view).
 * - rewards.reverse: 'Reverse' sits in a reward's history (its ledger), opened from a row of the
 *   partner's Rewards tab (rewards.view). The receipt of Redeem Reward (rewards.redeem) shows that
 *   history too, but only for the reward just redeemed: a redemption found wrong later is found on the
 *   Rewards tab, so the need is rewards.view (decision 044).
 * One table: the role form ticks what a permission needs (src/lib/role-form.ts), the SPA offers an
 * action only with what it needs (src/lib/permissions.ts `canUse`), and the server may check it.
 */
export const PERMISSION_NEEDS: Readonly<Partial<Record<PermissionName, readonly PermissionName[]>>> = {
  'staff.create': ['staff.view', 'roles.view'],
  'staff.update': ['staff.view', 'roles.view'],
  'staff.delete': ['staff.view'],
  'roles.create': ['roles.view'],
  'roles.update': ['roles.view'],
  'roles.delete': ['roles.view'],
  'partners.create': ['partners.view', 'extended_services.view'],
  'partners.update': ['partners.view', 'extended_services.view'],
  'partners.delete': ['partners.view'],
  'clients.update': ['clients.view'],
  'clients.delete': ['clients.view'],
  'customers.create': ['clients.view'],
  'customers.import': ['clients.view'],
  'customers.privacy': ['clients.view'],
  'extended_services.create': ['extended_services.view'],
  'extended_services.update': ['extended_services.view'],
  'extended_services.delete': ['extended_services.view'],
  'visits.create': ['visits.view'],
  // The review queue's partner filter lists the partners and its rows open the visit's page; the
  // rules are edited on the partner's page.
  'visits.review': ['partners.view', 'visits.view'],
  'rewards.issue': ['visits.view'],
  'rewards.reverse': ['rewards.view'],
};

/** Everything `permission` needs, directly or through what it needs (without itself). */
export function needsOf(permission: string): PermissionName[] {
  const found = new Set<PermissionName>();
  const visit = (p: string) => {
    for (const need of PERMISSION_NEEDS[p as PermissionName] ?? []) {
      if (!found.has(need)) {
        found.add(need);
        visit(need);
      }
    }
  };
  visit(permission);
  found.delete(permission as PermissionName);
  return [...found];
}

/** Every permission that needs `permission`, directly or not. */
export const dependentsOf = (permission: string): PermissionName[] =>
  ALL_PERMISSION_NAMES.filter((p) => needsOf(p).includes(permission as PermissionName));

/** The permissions of `held` whose needs are missing from `held` (empty: a role without dead ends). */
export const unmetNeeds = (
  held: readonly string[],
): { permission: PermissionName; missing: PermissionName[] }[] =>
  ALL_PERMISSION_NAMES.filter((p) => held.includes(p))
    .map((permission) => ({ permission, missing: needsOf(permission).filter((n) => !held.includes(n)) }))
    .filter((x) => x.missing.length > 0);
