import type { RegisteredRouter } from '@tanstack/react-router';
import type { ComponentType } from 'react';
import type { SessionUser } from '../../contract/auth';
import type { PermissionName } from '../../contract/permissions';
import { can, isSuperAdmin } from '../lib/permissions';
import { requirePartnerAccess, requirePermission, requireSuperAdmin } from '../lib/use-can';
import {
  ActivityIcon,
  ApprovalIcon,
  BuildingIcon,
  GiftIcon,
  HomeIcon,
  InboxIcon,
  KeyIcon,
  LayersIcon,
  MegaphoneIcon,
  ShieldCheckIcon,
  SlidersIcon,
  UserIcon,
  UsersIcon,
} from './icons';

/** A route of the SPA by its full path, as the generated route tree names it (`/dashboard/clients/`). */
export type RoutePath = keyof RegisteredRouter['routesByPath'];

/**
 * A screen's declaration (decision 057): who may open it (a holder of any one of `permission`) and,
 * with `menu`, its entry in the sidebar. The route's `beforeLoad` (`screenGuard`), the sidebar and
 * the list's Export button read it from here; nothing else names the screen's permission.
 */
export interface Screen {
  permission: readonly [PermissionName, ...PermissionName[]];
  /**
   * Partner staff open it for their own partner only (the path's `$partnerId`; another partner's is
   * 'not found'); club staff need the permission.
   */
  ownPartner?: true;
  /**
   * Only the Super Admin (the built-in role, club staff) opens it, whatever a role holds: the club's
   * integration keys (the server refuses anyone else, decision 051).
   */
  superAdmin?: true;
  /** The club staff's sidebar entry: its label and icon, in the order of SCREENS. */
  menu?: { label: string; icon: ComponentType<{ size?: number }> };
}

/**
 * Every screen behind sign-in, by its route's full path (the compiler knows the route tree: a
 * mistyped path does not compile). The sidebar lists the entries with a `menu` in this order
 * (product.md#menu: Dashboard, Staff & Role, Partner, Redeem Reward, Client, Extended Services,
 * then Visit reviews (decision 075), Activity Log, then Webhooks; Campaigns, issue 35, after Redeem
 * Reward).
 */
export const SCREENS = {
  '/dashboard/': { permission: ['dashboard.view'], menu: { label: 'Dashboard', icon: HomeIcon } },
  '/dashboard/staff/': {
    permission: ['staff.view', 'roles.view'],
    menu: { label: 'Staff & Role', icon: UsersIcon },
  },
  '/dashboard/staff/add': { permission: ['staff.create'] },
  '/dashboard/staff/$staffId/edit': { permission: ['staff.update'] },
  '/dashboard/roles/add': { permission: ['roles.create'] },
  '/dashboard/roles/$roleId/edit': { permission: ['roles.update'] },
  '/dashboard/partners/': { permission: ['partners.view'], menu: { label: 'Partner', icon: BuildingIcon } },
  '/dashboard/partners/add': { permission: ['partners.create'] },
  '/dashboard/partners/$partnerId/': { permission: ['partners.view'], ownPartner: true },
  '/dashboard/partners/$partnerId/edit': { permission: ['partners.update'] },
  '/dashboard/redeem/': { permission: ['rewards.redeem'], menu: { label: 'Redeem Reward', icon: GiftIcon } },
  '/dashboard/rewards/': { permission: ['rewards.view'] },
  // Campaigns (issue 35, decision 073): the list and the form are the makers'; a campaign's page
  // opens for its approvers too (the approvals queue leads there).
  '/dashboard/campaigns/': {
    permission: ['campaigns.manage'],
    menu: { label: 'Campaigns', icon: MegaphoneIcon },
  },
  '/dashboard/campaigns/new': { permission: ['campaigns.manage'] },
  '/dashboard/campaigns/$campaignId': { permission: ['campaigns.manage', 'rewards.approve'] },
  '/dashboard/clients/': { permission: ['clients.view'], menu: { label: 'Client', icon: UserIcon } },
  '/dashboard/clients/add': { permission: ['customers.create'] },
  '/dashboard/clients/import': { permission: ['customers.import'] },
  '/dashboard/clients/$clientId/': { permission: ['clients.view'] },
  '/dashboard/clients/$clientId/edit': { permission: ['clients.update'] },
  '/dashboard/extservices/': {
    permission: ['extended_services.view'],
    menu: { label: 'Extended Services', icon: LayersIcon },
  },
  '/dashboard/extservices/add': { permission: ['extended_services.create'] },
  '/dashboard/extservices/$serviceId/edit': { permission: ['extended_services.update'] },
  '/dashboard/eligibility/': { permission: ['visits.view'] },
  '/dashboard/eligibility/user/$userId': { permission: ['visits.view'] },
  '/dashboard/visits/$visitId': { permission: ['visits.view'] },
  '/dashboard/visit-reviews/': {
    permission: ['visits.review'],
    menu: { label: 'Visit reviews', icon: ShieldCheckIcon },
  },
  '/dashboard/activities/': {
    permission: ['activities.view'],
    menu: { label: 'Activity Log', icon: ActivityIcon },
  },
  '/dashboard/webhooks/': {
    permission: ['integrations.manage'],
    menu: { label: 'Webhooks', icon: InboxIcon },
  },
  '/dashboard/club-keys/': {
    permission: ['integrations.manage'],
    superAdmin: true,
    menu: { label: 'Club API keys', icon: KeyIcon },
  },
  // Four eyes (issue 35, decision 074): the queue for approvers, the thresholds for the Super Admin.
  '/dashboard/approvals/': {
    permission: ['rewards.approve'],
    menu: { label: 'Approvals', icon: ApprovalIcon },
  },
  '/dashboard/settings/approvals': {
    permission: ['rewards.approve'],
    superAdmin: true,
    menu: { label: 'Approval settings', icon: SlidersIcon },
  },
} as const satisfies { [P in RoutePath]?: Screen };

export type ScreenPath = keyof typeof SCREENS;

/** The path a link names: the route's full path without its trailing slash (`/dashboard/clients`). */
type LinkPath<P extends string> = P extends `${infer Head}/` ? (Head extends '' ? '/' : Head) : P;
const linkPath = <P extends string>(path: P) =>
  (path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path) as LinkPath<P>;

/** The screens' permission(s), for an Export button or an action that follows the screen's access. */
export const screenPermission = (path: ScreenPath): Screen['permission'] => SCREENS[path].permission;

type ScreenUser =
  | (Pick<SessionUser, 'permissions'> & Partial<Pick<SessionUser, 'role' | 'partnerId'>>)
  | null;

/**
 * Whether a signed-in user may open the screen: a holder of any one of its permissions, and the
 * Super Admin for a `superAdmin` screen.
 */
export const mayOpen = (user: ScreenUser | undefined, path: ScreenPath): boolean => {
  const screen: Screen = SCREENS[path];
  if (screen.superAdmin && !isSuperAdmin(user)) return false;
  return screen.permission.some((p) => can(user, p));
};

type WithMenu = { [P in ScreenPath]: (typeof SCREENS)[P] extends { menu: object } ? P : never }[ScreenPath];

/** The club staff's sidebar, in order: each entry's link, label, icon and screen. */
export const MENU = (Object.keys(SCREENS) as ScreenPath[])
  .filter((path): path is WithMenu => 'menu' in SCREENS[path])
  .map((path) => ({ screen: path, to: linkPath(path), ...SCREENS[path].menu }));

/** The route guard (`beforeLoad`) of a screen: the 'Not allowed' state without its permission. */
export const screenGuard = (path: Exclude<ScreenPath, '/dashboard/partners/$partnerId/'>) => {
  const screen: Screen = SCREENS[path];
  const [first, ...more] = screen.permission;
  return screen.superAdmin ? requireSuperAdmin(first) : requirePermission(first, ...more);
};

/** The guard of a screen partner staff open for their own partner only (`ownPartner`). */
export const ownPartnerScreenGuard = (path: '/dashboard/partners/$partnerId/') => {
  const [first, ...more] = screenPermission(path);
  return requirePartnerAccess(first, ...more);
};
