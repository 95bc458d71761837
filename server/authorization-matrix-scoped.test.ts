import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { type ApiEndpoint, type ApiRouteKey, apiEndpoints, apiKeyKind } from '../contract/api';
import { API_KEY_PERMISSIONS } from '../contract/api-keys';
import { customerLinkMessages } from '../contract/customer-links';
import { ALL_PERMISSION_NAMES } from '../contract/permissions';
import {
  createCustomer,
  createExtendedService,
  createPartner,
  createReward,
  createRole,
  createSuperAdmin,
  createUser,
  createVisit,
  linkCustomer,
  PNG_BASE64,
  setupTestServer,
  signIn,
} from '../tests/setup/server';
import { API_BASE, routeAccess } from './app';
import {
  campaigns,
  clubApiKeys,
  customerImports,
  customerLinks,
  customers,
  partnerApiKeys,
  rewardLedger,
  rewardRequests,
  visits,
  webhookDeliveries,
  webhookEndpoints,
} from './db/schema';
import { PARTNER_NOT_FOUND } from './domain/scope';
import type { Access } from './http/access';
import { toOpenApiPath } from './openapi';

/**
 * THE scoped authorization matrix (issue 16, decision 023), generated from the routes' own
 * declarations (`routeAccess`: permission and scope, read off the guards). Every route is called as
 *   (a) a club admin with every permission (the Super Admin),
 *   (b) a partner user at partner A whose role holds every permission,
 *   (c) a partner user at partner A whose role holds none,
 * against a resource of partner A, of partner B and of the club, and each answer is compared with
 * what the declaration demands. The table below only says how to name a resource of each kind in a
 * route's request (`names`: the request names something bound to that target), keyed by the route
 * descriptors (contract/api.ts), so a descriptor without a row does not compile; a route missing
 * from it, or declaring no scope, fails the test.
 */
type Target = 'A' | 'B' | 'club';
type Call = { path?: string; query?: string; json?: unknown; names: boolean };
type Build = (target: Target, caller: Caller) => Call | Promise<Call>;

const t = setupTestServer();
const TARGETS: Target[] = ['A', 'B', 'club'];
const CALLERS = ['clubAdmin', 'partnerAll', 'partnerNone'] as const;
type Caller = (typeof CALLERS)[number];

/** The world: partners A and B (and C, a partner neither caller belongs to, for club resources). */
const w = {} as {
  partner: Record<Target, number>;
  customer: Record<Target, { id: number; email: string }>;
  visit: Record<Target, number>;
  gift: Record<Target, { id: number; code: string }>;
  coupon: Record<Target, { id: number; code: string }>;
  staff: Record<Target, number>;
  roleId: number;
  partnerRoleId: number;
  serviceId: number;
  adminId: number;
};
const creds = {} as Record<Caller, { email: string; password: string }>;
const DAY = '2026-03-02';
let seq = 0;

/** The partner a target names: A, B, or for the club a third partner C. */
const P = (target: Target) => w.partner[target];
/** `?partnerId=` of a target (A or B); the club target names no partner. */
const pq = (target: Target, extra = '') =>
  target === 'club' ? (extra ? `?${extra}` : '') : `?partnerId=${P(target)}${extra ? `&${extra}` : ''}`;
const none: Build = () => ({ names: false });
const listOfPartner: Build = (target) => ({ query: pq(target), names: target !== 'club' });
const staffOf = async (target: Target) =>
  (
    await createUser(t.db, {
      roleId: w.roleId,
      userType: target === 'club' ? 'ADMIN' : 'PARTNER',
      partnerId: target === 'club' ? null : P(target),
    })
  ).id;
const webhookOf = async (target: Target) => {
  const [hook] = await t.db
    .insert(webhookEndpoints)
    .values({
      url: `https://hooks.example.com/matrix-${++seq}`,
      events: ['visit.recorded'],
      partnerId: target === 'club' ? null : P(target),
      secret: 'whsec_bWF0cml4',
    })
    .returning({ id: webhookEndpoints.id });
  return hook!.id;
};
const importOf = async () => {
  const [job] = await t.db
    .insert(customerImports)
    .values({ fileName: 'matrix.csv', format: 'csv', state: 'done', actor: { name: 'Matrix' } })
    .returning({ id: customerImports.id });
  return job!.id;
};
const redeemEntry = async (target: Target) => {
  const reward = await createReward(t.db, { partnerId: P(target), customerId: w.customer[target].id });
  const [entry] = await t.db
    .insert(rewardLedger)
    .values({ rewardId: reward.id, kind: 'REDEEM', amount: -100, actorId: w.adminId })
    .returning({ id: rewardLedger.id });
  return entry!.id;
};

/** A campaign at the target's partner (the club's: at C), made by nobody the callers are. */
const campaignOf = async (target: Target, state: 'draft' | 'awaiting_approval' = 'draft') => {
  const [row] = await t.db
    .insert(campaigns)
    .values({
      name: `Matrix ${++seq}`,
      partnerId: P(target),
      state,
      rewardType: 'COUPON',
      percentageDiscount: 5,
      title: 'Matrix',
      description: 'Matrix',
      segment: { kind: 'list', customerIds: [w.customer[target].id] },
      actor: { name: 'Matrix' },
    })
    .returning({ id: campaigns.id });
  return row!.id;
};
const campaignPath =
  (suffix: string, state?: 'awaiting_approval'): Build =>
  async (target) => ({
    path: `/admin/campaigns/${await campaignOf(target, state)}${suffix}`,
    names: true,
  });

/** A reward request waiting for approval at the target's partner (decision 074), made by nobody the callers are. */
const rewardRequestOf = async (target: Target) => {
  const [row] = await t.db
    .insert(rewardRequests)
    .values({
      partnerId: P(target),
      customerId: w.customer[target].id,
      rewardType: 'GIFTCARD',
      issuedAmount: 100,
      title: 'Matrix',
      description: 'Matrix',
      approvalReasons: ['Matrix'],
      actor: { name: 'Matrix' },
    })
    .returning({ id: rewardRequests.id });
  return row!.id;
};
const rewardRequestPath =
  (prefix: string, suffix: string): Build =>
  async (target) => ({ path: `${prefix}${await rewardRequestOf(target)}${suffix}`, names: true });
/** A visit waiting for review at the target's partner (the club's: at C). */
const waitingVisitOf = async (target: Target) => {
  const visit = await createVisit(t.db, {
    partnerId: P(target),
    customerId: w.customer[target].id,
    visitDate: new Date('2026-03-01T12:00:00.000Z'),
    amount: 90_000,
  });
  await t.db
    .update(visits)
    .set({ reviewState: 'waiting', reviewFlags: ['amount_above'] })
    .where(eq(visits.id, visit.id));
  return visit.id;
};

/** A pending link request at the target's partner (the club's: at C). */
const linkRequestOf = async (target: Target) => {
  const [row] = await t.db
    .insert(customerLinks)
    .values({
      partnerId: P(target),
      customerId: w.customer[target].id,
      requested: `email:matrix-${++seq}`,
      state: 'PENDING',
      codeHash: '0'.repeat(64),
      codeExpiresAt: new Date(Date.now() + 3_600_000),
    })
    .returning({ id: customerLinks.id });
  return row!.id;
};
/** The confirmed link of the target's customer at the target's partner (made again if removed). */
const confirmedLinkOf = async (target: Target) => {
  await linkCustomer(t.db, P(target), w.customer[target].id);
  const [row] = await t.db
    .select({ id: customerLinks.id })
    .from(customerLinks)
    .where(
      and(
        eq(customerLinks.partnerId, P(target)),
        eq(customerLinks.customerId, w.customer[target].id),
        eq(customerLinks.state, 'CONFIRMED'),
      ),
    );
  return row!.id;
};

const ROUTES: Record<ApiRouteKey, Build> = {
  // Public: the callers' own credentials, so 'through' means signed in.
  'POST /admin/auth/login': (_target, caller) => ({
    json: { email: creds[caller].email, password: creds[caller].password },
    names: false,
  }),
  'POST /auth/refresh-token': async (_target, caller) => ({
    json: { refreshToken: (await signIn(t, creds[caller].email, creds[caller].password)).refreshToken },
    names: false,
  }),
  'POST /auth/logout': none,
  'POST /auth/password-reset-request': () => ({ json: { email: 'nobody@rewardclub.test' }, names: false }),
  'PATCH /auth/update-password': () => ({
    json: { resetCode: 'ABCD2345', newPassword: 'Passw0rd9' },
    names: false,
  }),
  'GET /health': none,
  'GET /authz': none,
  'GET /openapi.json': none,
  'GET /files/{hash}': () => ({ path: `/files/${'a'.repeat(64)}`, names: false }),
  'GET /user/profile': none,
  'PATCH /user/profile': () => ({ json: { address: 'Somewhere' }, names: false }),
  'PATCH /user/profile/update-password': () => ({
    json: { oldPassword: 'not-it', newPassword: 'Passw0rd9' },
    names: false,
  }),
  // Staff
  'GET /admin/user/stats': none,
  'GET /admin/user/admin-users': none,
  'GET /admin/admin-users': none,
  'GET /admin/user/admin-users/export': none,
  'GET /admin/admin-users/export': none,
  'GET /admin/user/admin-detail': (target) => ({ query: `?userId=${w.staff[target]}`, names: true }),
  'POST /admin/user/new-admin-user': (target, caller) => ({
    json: {
      firstName: 'Matrix',
      lastName: 'Invite',
      email: `matrix-${++seq}@rewardclub.test`,
      // Partner staff give partner roles only (issue 28): a partner member is invited with one.
      roleId: target === 'club' && caller === 'clubAdmin' ? w.roleId : w.partnerRoleId,
      ...(target === 'club' ? {} : { partnerId: P(target) }),
    },
    names: target === 'B',
  }),
  'PATCH /admin/user/update-admin-user': async (target) => ({
    json: { userId: await staffOf(target), firstName: 'Renamed' },
    names: true,
  }),
  'DELETE /admin/user/delete-admin-user/{staffId}': async (target) => ({
    path: `/admin/user/delete-admin-user/${await staffOf(target)}`,
    names: true,
  }),
  // Roles (club)
  'GET /admin/user/get-roles': none,
  'GET /admin/user/get-roles/export': none,
  'GET /admin/user/get-role-detail': () => ({ query: `?roleId=${w.roleId}`, names: false }),
  'POST /admin/user/create-role': () => ({
    json: { roleName: `Matrix role ${++seq}`, permissionIds: [1] },
    names: false,
  }),
  'PATCH /admin/user/update-role': async () => ({
    json: {
      roleId: (await createRole(t.db, `Editable ${++seq}`, [])).id,
      roleName: `Edited ${seq}`,
      permissionIds: [1],
    },
    names: false,
  }),
  'DELETE /admin/user/delete-role/{roleId}': async () => ({
    path: `/admin/user/delete-role/${(await createRole(t.db, `Deletable ${++seq}`, [])).id}`,
    names: false,
  }),
  // Activity log, customers
  'GET /admin/user/activities': () => ({ query: '?userType=PARTNER', names: false }),
  'GET /admin/user/activities/export': () => ({ query: '?userType=PARTNER', names: false }),
  'GET /admin/user/customers': none,
  'GET /admin/user/customers/export': none,
  'GET /admin/user/customers/{customerId}': (target) => ({
    path: `/admin/user/customers/${w.customer[target].id}`,
    names: true,
  }),
  'PATCH /admin/user/customers': (target) => ({
    json: { customerId: w.customer[target].id, address: 'Matrix street' },
    names: true,
  }),
  'PATCH /admin/user/customers/status': (target) => ({
    json: { customerId: w.customer[target].id, accountStatus: 'ACTIVE' },
    names: true,
  }),
  'DELETE /admin/user/customers/{customerId}': async () => ({
    path: `/admin/user/customers/${(await createCustomer(t.db)).id}`,
    names: false,
  }),
  // Consent links (issue 28): asking names the partner; confirming names a request of the target's partner.
  'POST /partners/customer-links': (target) => ({
    json: {
      email: w.customer[target].email,
      ...(target === 'club' ? {} : { partnerId: P(target) }),
    },
    names: target !== 'club',
  }),
  'POST /partners/customer-links/{linkId}/confirm': async (target) => ({
    path: `/partners/customer-links/${await linkRequestOf(target)}/confirm`,
    json: { code: '000000' },
    names: true,
  }),
  'GET /admin/user/customers/{customerId}/links': (target) => ({
    path: `/admin/user/customers/${w.customer[target].id}/links`,
    names: true,
  }),
  'DELETE /admin/user/customers/{customerId}/links/{linkId}': async (target) => ({
    path: `/admin/user/customers/${w.customer[target].id}/links/${await confirmedLinkOf(target)}`,
    names: true,
  }),
  'GET /user/internet/client_info': (target) => ({
    query: `?client_id=${w.customer[target].id}`,
    names: true,
  }),
  // Partners
  'GET /admin/partners': none,
  'GET /admin/partners/export': none,
  'GET /admin/partners/stats': none,
  'GET /admin/partners/stats/reward': none,
  'GET /admin/partners/stats/reward/weekly': none,
  'GET /admin/partners/stats/partner': (target) => ({ query: `?partnerId=${P(target)}`, names: true }),
  'GET /admin/partners/stats/partner/weekly': (target) => ({ query: `?partnerId=${P(target)}`, names: true }),
  'GET /admin/partners/{partnerId}': (target) => ({
    path: `/admin/partners/${P(target)}`,
    names: true,
  }),
  'POST /admin/partners/invite': () => ({
    json: {
      firstName: 'Matrix',
      lastName: 'Partner',
      email: `matrix-partner-${++seq}@partners.test`,
      phone: '08031234567',
      organizationName: `Matrix ${seq}`,
      address: 'Lagos',
      coverImage: PNG_BASE64,
      minSpendToQualify: 10_000,
      extendedServiceIds: [w.serviceId],
    },
    names: false,
  }),
  'PATCH /admin/partners/update-record': (target) => ({
    json: { partnerId: P(target), address: `Street ${++seq}` },
    names: true,
  }),
  // Destructive: a fresh partner each call (blocking or deleting A would end the callers' partner).
  'PATCH /admin/partners/update-status': async () => ({
    json: { partnerId: (await createPartner(t.db)).id, accountStatus: 'BLOCKED' },
    names: false,
  }),
  'DELETE /admin/partners/{partnerId}': async () => ({
    path: `/admin/partners/${(await createPartner(t.db)).id}`,
    names: false,
  }),
  // Partner API keys (scope partner): the partner in the path; a key of the target's partner to revoke.
  'GET /admin/partners/{partnerId}/api-keys': (target) => ({
    path: `/admin/partners/${P(target)}/api-keys`,
    names: true,
  }),
  'POST /admin/partners/{partnerId}/api-keys': (target) => ({
    path: `/admin/partners/${P(target)}/api-keys`,
    json: { name: `Matrix till ${++seq}`, permissions: ['visits.view'] },
    names: true,
  }),
  'DELETE /admin/partners/{partnerId}/api-keys/{keyId}': async (target) => {
    const [key] = await t.db
      .insert(partnerApiKeys)
      .values({
        partnerId: P(target),
        name: `Matrix key ${++seq}`,
        prefix: `${seq}`.padStart(12, '0'),
        secretHash: '0'.repeat(64),
        permissions: ['visits.view'],
      })
      .returning({ id: partnerApiKeys.id });
    return { path: `/admin/partners/${P(target)}/api-keys/${key!.id}`, names: true };
  },
  // The subscriber sync (club, decision 051): club resources only.
  'GET /admin/api-keys': none,
  'POST /admin/api-keys': () => ({
    json: { name: `Matrix sync ${++seq}`, scopes: ['customers.read'] },
    names: false,
  }),
  'DELETE /admin/api-keys/{id}': async () => {
    const [key] = await t.db
      .insert(clubApiKeys)
      .values({
        name: `Matrix club key ${++seq}`,
        prefix: `c${seq}`.padStart(12, '0'),
        secretHash: '0'.repeat(64),
        scopes: ['customers.read'],
      })
      .returning({ id: clubApiKeys.id });
    return { path: `/admin/api-keys/${key!.id}`, names: false };
  },
  'PUT /admin/customers/external/{externalId}': () => ({
    path: `/admin/customers/external/MATRIX-${++seq}`,
    json: { firstName: 'Matrix', lastName: 'Sync', email: `matrix-sync-${seq}@mail.test` },
    names: false,
  }),
  'GET /admin/customers/external/{externalId}': async () => ({
    path: `/admin/customers/external/${(await createCustomer(t.db, { externalId: `MX-${++seq}` })).externalId}`,
    names: false,
  }),
  'POST /admin/user/customers': () => ({
    json: {
      externalId: `MATRIX-ADD-${++seq}`,
      firstName: 'Matrix',
      lastName: 'Add',
      email: `matrix-add-${seq}@mail.test`,
    },
    names: false,
  }),
  'POST /admin/user/customers/{customerId}/restore': async () => {
    const deleted = await createCustomer(t.db, { externalId: `MX-R-${++seq}` });
    await t.db.update(customers).set({ deletedAt: new Date() }).where(eq(customers.id, deleted.id));
    return { path: `/admin/user/customers/${deleted.id}/restore`, names: false };
  },
  // The customer's rights (decision 054): club-scoped, each call on a customer of its own.
  'GET /admin/user/customers/{customerId}/data-export': async () => ({
    path: `/admin/user/customers/${(await createCustomer(t.db)).id}/data-export`,
    names: false,
  }),
  'POST /admin/user/customers/{customerId}/erase': async () => ({
    path: `/admin/user/customers/${(await createCustomer(t.db)).id}/erase`,
    names: false,
  }),
  'POST /admin/customers/imports': () => ({ path: '/admin/customers/imports', names: false }),
  'POST /admin/customers/imports/dry-run': () => ({
    path: '/admin/customers/imports/dry-run',
    names: false,
  }),
  'GET /admin/customers/imports/{id}': async () => ({
    path: `/admin/customers/imports/${await importOf()}`,
    names: false,
  }),
  'GET /admin/customers/imports/{id}/rejects': async () => ({
    path: `/admin/customers/imports/${await importOf()}/rejects`,
    names: false,
  }),
  // Webhooks (scope partner): a webhook of the target's partner (the club's: a club-wide one).
  'GET /admin/webhooks': listOfPartner,
  'POST /admin/webhooks': (target) => ({
    json: {
      url: `https://hooks.example.com/matrix-${++seq}`,
      events: ['visit.recorded'],
      ...(target === 'club' ? {} : { partnerId: P(target) }),
    },
    names: target !== 'club',
  }),
  'GET /admin/webhooks/{webhookId}': async (target) => ({
    path: `/admin/webhooks/${await webhookOf(target)}`,
    names: true,
  }),
  'PATCH /admin/webhooks/{webhookId}': async (target) => ({
    path: `/admin/webhooks/${await webhookOf(target)}`,
    json: { description: 'Matrix' },
    names: true,
  }),
  'POST /admin/webhooks/{webhookId}/rotate-secret': async (target) => ({
    path: `/admin/webhooks/${await webhookOf(target)}/rotate-secret`,
    names: true,
  }),
  'DELETE /admin/webhooks/{webhookId}': async (target) => ({
    path: `/admin/webhooks/${await webhookOf(target)}`,
    names: true,
  }),
  'GET /admin/webhooks/{webhookId}/deliveries': async (target) => ({
    path: `/admin/webhooks/${await webhookOf(target)}/deliveries`,
    names: true,
  }),
  'POST /admin/webhooks/{webhookId}/deliveries/{deliveryId}/replay': async (target) => {
    const webhookId = await webhookOf(target);
    const [delivery] = await t.db
      .insert(webhookDeliveries)
      .values({
        endpointId: webhookId,
        messageId: `msg_matrix${++seq}`,
        eventType: 'visit.recorded',
        payload: {},
      })
      .returning({ id: webhookDeliveries.id });
    return { path: `/admin/webhooks/${webhookId}/deliveries/${delivery!.id}/replay`, names: true };
  },
  // Extended services (club)
  'GET /admin/partners/extended-services': none,
  'GET /admin/partners/extended-services/export': none,
  'GET /admin/partners/extended-services/{extendedServiceId}': () => ({
    path: `/admin/partners/extended-services/${w.serviceId}`,
    names: false,
  }),
  'POST /admin/partners/extended-services': () => ({
    json: { title: `Service ${++seq}`, description: 'Matrix' },
    names: false,
  }),
  'PATCH /admin/partners/extended-services': () => ({
    json: { extendedServiceId: w.serviceId, description: `Matrix ${++seq}` },
    names: false,
  }),
  'DELETE /admin/partners/extended-services/{extendedServiceId}': async () => ({
    path: `/admin/partners/extended-services/${(await createExtendedService(t.db)).id}`,
    names: false,
  }),
  // Visits, eligibility, points
  'GET /admin/partners/visits': listOfPartner,
  'GET /admin/partners/visits/export': listOfPartner,
  'GET /admin/partners/visits/{visitId}': (target) => ({
    path: `/admin/partners/visits/${w.visit[target]}`,
    names: true,
  }),
  'GET /admin/partners/visits/reward-eligible-users': (target) => ({
    query: pq(target, `date=${DAY}`),
    names: target !== 'club',
  }),
  'GET /admin/partners/visits/reward-eligible-users/export': (target) => ({
    query: pq(target, `date=${DAY}`),
    names: target !== 'club',
  }),
  'GET /admin/partners/visits/reward-eligible-users/{userId}': (target) => ({
    path: `/admin/partners/visits/reward-eligible-users/${w.customer[target].id}`,
    query: `?partnerId=${P(target)}&date=${DAY}`,
    names: true,
  }),
  'GET /admin/partners/visits/eligible-users-bypoints': listOfPartner,
  'GET /admin/partners/visits/eligible-users-bypoints/export': listOfPartner,
  'POST /user/visits': (target) => ({
    json: {
      partnerId: P(target),
      customerId: w.customer[target].id,
      attendantName: 'Matrix',
      visitDate: '2026-03-02T08:00:00.000Z',
      items: [{ name: 'Rice', quantity: 1, price: 100 }],
    },
    names: true,
  }),
  // Rewards
  'GET /admin/partners/rewards': listOfPartner,
  'GET /admin/partners/rewards/export': listOfPartner,
  'GET /partners/reward-types': none,
  'GET /partners/reward-type-categories': none,
  'GET /partners/stats/reward': listOfPartner,
  'GET /partners/rewards/redeemed-giftcard-balance': listOfPartner,
  'GET /partners/rewards/customers': listOfPartner,
  'GET /partners/visits/customers': listOfPartner,
  'GET /partners/rewards/{rewardId}/ledger': (target) => ({
    path: `/partners/rewards/${w.gift[target].id}/ledger`,
    names: true,
  }),
  'POST /partners/rewards/get-reward': (target) => ({
    json: { userId: w.customer[target].id, code: w.gift[target].code },
    names: true,
  }),
  'POST /partners/rewards/issue-reward': (target) => ({
    json: {
      rewardType: 'GIFTCARD',
      title: 'Matrix',
      description: 'Matrix',
      promotionalImage: PNG_BASE64,
      issuedTo: w.customer[target].id,
      partnerId: P(target),
    },
    names: true,
  }),
  'POST /partners/rewards/initiate-reward-redemption-auth': (target) => ({
    json: { userId: w.customer[target].id, code: w.gift[target].code },
    names: true,
  }),
  'POST /partners/rewards/redemption-auth-otp-validity-check': (target) => ({
    json: { userId: w.customer[target].id, otp: '000000', code: w.gift[target].code },
    names: true,
  }),
  'POST /partners/rewards/redeem-giftcard': (target) => ({
    json: { userId: w.customer[target].id, code: w.gift[target].code, amountToRedeem: 10, otp: '000000' },
    names: true,
  }),
  'POST /partners/rewards/redeem-coupon': (target) => ({
    json: { userId: w.customer[target].id, code: w.coupon[target].code, otp: '000000' },
    names: true,
  }),
  'POST /partners/rewards/reverse-redemption': async (target) => ({
    json: { ledgerEntryId: await redeemEntry(target), reason: 'Matrix reversal' },
    names: true,
  }),
  // Campaigns (issue 35, decision 070)
  'GET /admin/campaigns': listOfPartner,
  'POST /admin/campaigns': (target) => ({
    json: {
      name: 'Matrix',
      partnerId: P(target),
      reward: { rewardType: 'COUPON', percentageDiscount: 5, title: 'Matrix', description: 'Matrix' },
      segment: { kind: 'eligible' },
    },
    names: true,
  }),
  'GET /admin/campaigns/{id}': campaignPath(''),
  'GET /admin/campaigns/{id}/preview': campaignPath('/preview'),
  'POST /admin/campaigns/{id}/submit': campaignPath('/submit'),
  'POST /admin/campaigns/{id}/cancel': campaignPath('/cancel'),
  'POST /admin/campaigns/{id}/approve': campaignPath('/approve', 'awaiting_approval'),
  'POST /admin/campaigns/{id}/reject': async (target) => ({
    ...(await campaignPath('/reject', 'awaiting_approval')(target, 'clubAdmin')),
    json: { reason: 'Matrix' },
  }),
  'GET /admin/settings/approvals': none,
  'PUT /admin/settings/approvals': () => ({
    json: { campaignTotalAbove: null, singleRewardAbove: null },
    names: false,
  }),
  // The approvals queue (decision 074)
  'GET /admin/approvals': none,
  'GET /partners/rewards/requests': listOfPartner,
  'GET /partners/rewards/requests/{id}': rewardRequestPath('/partners/rewards/requests/', ''),
  'POST /admin/approvals/rewards/{id}/approve': rewardRequestPath('/admin/approvals/rewards/', '/approve'),
  'POST /admin/approvals/rewards/{id}/reject': async (target) => ({
    ...(await rewardRequestPath('/admin/approvals/rewards/', '/reject')(target, 'clubAdmin')),
    json: { reason: 'Matrix' },
  }),
  // Visit review (issue 35, decision 075): the club's, never a partner's staff.
  'GET /admin/visit-reviews': listOfPartner,
  'GET /admin/visit-reviews/export': listOfPartner,
  'POST /admin/visit-reviews/{visitId}/approve': async (target) => ({
    path: `/admin/visit-reviews/${await waitingVisitOf(target)}/approve`,
    names: true,
  }),
  'POST /admin/visit-reviews/{visitId}/reject': async (target) => ({
    path: `/admin/visit-reviews/${await waitingVisitOf(target)}/reject`,
    json: { reason: 'Matrix' },
    names: true,
  }),
  'PATCH /admin/partners/{partnerId}/review-rules': (target) => ({
    path: `/admin/partners/${P(target)}/review-rules`,
    json: { requireReceipt: false },
    names: true,
  }),
};

/** `METHOD path` relative to /api/v1, as the table spells it. */
/** A mounted route as its descriptor is named (contract/api.ts): `GET /admin/partners/{partnerId}`. */
const keyOf = (r: { method: string; path: string }) => `${r.method} ${toOpenApiPath(r.path)}` as ApiRouteKey;

/**
 * What the declaration demands of a caller, target and request: 'through' (past the guard and the
 * scope: neither 401 nor 403, and for partner staff at their own partner not 404 either), 403, or
 * 404 (a partner user naming another partner's resource, or a club resource on a partner route).
 */
type Want = 'through' | 'through-not-404' | 403 | 404;
function want(access: Access, caller: Caller, target: Target, names: boolean): Want {
  if (access.kind === 'public') return 'through';
  if (caller === 'clubAdmin') return target === 'club' ? 'through' : 'through-not-404';
  // Partner users.
  if (access.scope === 'club') return 403;
  if (caller === 'partnerNone' && access.kind === 'permission') return 403;
  if (access.scope === 'partner' && names) return target === 'A' ? 'through-not-404' : 404;
  return 'through';
}

const tokens = new Map<Caller, string>();
async function tokenOf(caller: Caller, fresh: boolean): Promise<string> {
  if (fresh || !tokens.has(caller)) {
    const { accessToken } = await signIn(t, creds[caller].email, creds[caller].password);
    if (fresh) return accessToken;
    tokens.set(caller, accessToken);
  }
  return tokens.get(caller)!;
}

beforeAll(async () => {
  const admin = await createSuperAdmin(t.db);
  creds.clubAdmin = admin;
  w.adminId = admin.id;
  w.partner = {
    A: (await createPartner(t.db, { organizationName: 'Matrix A' })).id,
    B: (await createPartner(t.db, { organizationName: 'Matrix B' })).id,
    club: (await createPartner(t.db, { organizationName: 'Matrix C' })).id,
  };
  w.roleId = (await createRole(t.db, 'Matrix nothing', [])).id;
  w.partnerRoleId = (await createRole(t.db, 'Matrix partner nothing', [], false, true)).id;
  w.serviceId = (await createExtendedService(t.db)).id;
  const all = await createRole(t.db, 'Matrix partner, every permission', ALL_PERMISSION_NAMES);
  creds.partnerAll = await createUser(t.db, { roleId: all.id, userType: 'PARTNER', partnerId: w.partner.A });
  creds.partnerNone = await createUser(t.db, {
    roleId: w.roleId,
    userType: 'PARTNER',
    partnerId: w.partner.A,
  });
  w.customer = {} as typeof w.customer;
  w.visit = {} as typeof w.visit;
  w.gift = {} as typeof w.gift;
  w.coupon = {} as typeof w.coupon;
  w.staff = {} as typeof w.staff;
  for (const target of TARGETS) {
    const customer = await createCustomer(t.db);
    w.customer[target] = customer;
    // The club's customer has visited and holds rewards only at C, a partner neither caller is at.
    w.visit[target] = (
      await createVisit(t.db, {
        partnerId: P(target),
        customerId: customer.id,
        visitDate: new Date('2026-03-01T10:00:00Z'),
        amount: 15_000,
      })
    ).id;
    w.gift[target] = await createReward(t.db, {
      partnerId: P(target),
      customerId: customer.id,
      issuedAmount: 1_000_000,
      balance: 1_000_000,
    });
    w.coupon[target] = await createReward(t.db, {
      partnerId: P(target),
      customerId: customer.id,
      rewardType: 'COUPON',
      issuedAmount: null,
      balance: null,
      percentageDiscount: 10,
    });
    w.staff[target] = await staffOf(target);
  }
});

describe('scoped authorization matrix (derived from the route declarations)', () => {
  it('every route declares a scope, and the table names every route (and nothing else)', () => {
    const routes = routeAccess(t.app);
    const undeclared = routes.filter((r) => !r.access?.scope).map(keyOf);
    expect(undeclared, 'routes without a declared scope').toEqual([]);
    expect(
      routes.map(keyOf).filter((k) => !(k in ROUTES)),
      'routes missing from ROUTES',
    ).toEqual([]);
    const mounted = new Set<string>(routes.map(keyOf));
    expect(
      Object.keys(ROUTES).filter((k) => !mounted.has(k)),
      'stale ROUTES entries',
    ).toEqual([]);
  });

  it('every answer agrees with the declared scope and permission: zero mismatches', async () => {
    const namesCustomer = new Set(
      apiEndpoints.filter((e) => e.customer).map((e) => `${e.method.toUpperCase()} ${e.path}`),
    );
    const mismatches: string[] = [];
    let calls = 0;
    for (const route of routeAccess(t.app)) {
      const key = keyOf(route);
      const build = ROUTES[key];
      if (!build || !route.access) continue; // the test above names it
      for (const caller of CALLERS) {
        for (const target of TARGETS) {
          const call = await build(target, caller);
          const path = call.path ?? route.path.slice(API_BASE.length);
          const fresh = key === 'POST /auth/logout';
          const token = route.access.kind === 'public' ? undefined : await tokenOf(caller, fresh);
          const res = await t.request(route.method, `${path}${call.query ?? ''}`, {
            token,
            json: route.method === 'GET' || route.method === 'DELETE' ? undefined : (call.json ?? {}),
          });
          calls++;
          const expected = want(route.access, caller, target, call.names);
          const label = `${key} as ${caller} on ${target}: want ${expected}, got ${res.status} ${res.body?.message ?? ''}`;
          const ok =
            res.status < 500 &&
            (expected === 'through'
              ? res.status !== 401 && res.status !== 403
              : expected === 'through-not-404'
                ? ![401, 403, 404].includes(res.status)
                : (res.status === expected ||
                    // Another partner's customer is not linked to A: the link gate's one answer (issue 28).
                    (expected === 404 &&
                      res.status === 403 &&
                      res.body?.code === 'customer_not_linked' &&
                      namesCustomer.has(key))) &&
                  // A partner user is never told a foreign partner exists, and refused with nothing done.
                  res.body?.success === false);
          if (!ok) mismatches.push(label);
          // The 404 of a foreign partner id (guard or handler) carries no data.
          if (expected === 404 && res.body?.message === PARTNER_NOT_FOUND) expect(res.body.data).toBeNull();
        }
      }
    }
    console.log(`[figure] scoped authorization matrix: ${calls} calls, ${mismatches.length} mismatches`);
    expect(mismatches).toEqual([]);
  }, 240_000);
});

/**
 * The customer dimension (issue 28, decision 053): every route that names a customer (its descriptor
 * says where: `customer`), called by a partner user and by a partner API key of partner A for a
 * customer linked to A, one not linked (a customer of B), one that does not exist and one erased
 * (linked to A before). Only the linked one passes the link gate; the three others get one and the
 * same answer, byte for byte, so the gate tells nothing about which ids exist.
 */
describe('scoped authorization matrix: the customer dimension', () => {
  const KINDS = ['linked', 'unlinked', 'nonexistent', 'erased'] as const;
  type Kind = (typeof KINDS)[number];
  const naming = apiEndpoints.filter((e) => e.customer);
  const keyOfEndpoint = (e: ApiEndpoint) => `${e.method.toUpperCase()} ${e.path}` as ApiRouteKey;

  it('every partner route with a customer field declares where it names the customer', () => {
    // Fields that name a customer; `userId` of the staff routes names a staff member instead.
    const customerFields = new Set(['customerId', 'userId', 'issuedTo']);
    const staffRoutes = new Set(['GET /admin/user/admin-detail', 'PATCH /admin/user/update-admin-user']);
    const undeclared = apiEndpoints
      .filter((e) => e.scope === 'partner' && !e.customer && !staffRoutes.has(keyOfEndpoint(e)))
      .filter((e) =>
        [e.params, e.query, e.body].some((schema) => {
          const shape = (schema as { shape?: Record<string, unknown> } | undefined)?.shape ?? {};
          return Object.keys(shape).some((k) => customerFields.has(k));
        }),
      )
      .map(keyOfEndpoint);
    expect(undeclared).toEqual([]);
    expect(naming.length).toBeGreaterThanOrEqual(11);
  });

  it('partner user and partner key x {linked, unlinked, nonexistent, erased} x every route naming a customer: 0 mismatches', async () => {
    const erased = await createCustomer(t.db);
    await createVisit(t.db, {
      partnerId: P('A'),
      customerId: erased.id,
      visitDate: new Date('2026-03-01T10:00:00Z'),
      amount: 15_000,
    });
    const admin = await tokenOf('clubAdmin', false);
    // The real erasure (decision 054): the tombstone it leaves, links and all.
    const erasure = await t.request('POST', `/admin/user/customers/${erased.id}/erase`, { token: admin });
    expect(erasure.status, erasure.text).toBe(200);
    const ids: Record<Kind, number> = {
      linked: w.customer.A.id,
      unlinked: w.customer.B.id,
      nonexistent: 2_000_000_000,
      erased: erased.id,
    };
    const keyRes = await t.request<{ key: string }>('POST', `/admin/partners/${P('A')}/api-keys`, {
      token: admin,
      json: { name: 'Matrix customer key', permissions: [...API_KEY_PERMISSIONS] },
    });
    expect(keyRes.status, keyRes.text).toBe(201);
    const apiKey = keyRes.body.data!.key;
    const refusal = JSON.stringify({
      success: false,
      data: null,
      message: customerLinkMessages.notLinked,
      code: 'customer_not_linked',
      errors: [],
    });
    const mismatches: string[] = [];
    let calls = 0;
    for (const e of naming) {
      const key = keyOfEndpoint(e);
      const where = e.customer!;
      for (const caller of ['partner user', 'partner key'] as const) {
        if (caller === 'partner key' && apiKeyKind(e) !== 'partner') continue;
        for (const kind of KINDS) {
          const call = await ROUTES[key]('A', 'partnerAll');
          const id = ids[kind];
          let path = call.path ?? e.path;
          let query = call.query ?? '';
          let json = call.json as Record<string, unknown> | undefined;
          if (where.in === 'param') path = path.replace(String(w.customer.A.id), String(id));
          if (where.in === 'query') query = `${query}${query ? '&' : '?'}${where.field}=${id}`;
          if (where.in === 'json') json = { ...json, [where.field]: id };
          const res = await t.request(e.method.toUpperCase(), `${path}${query}`, {
            ...(caller === 'partner user'
              ? { token: await tokenOf('partnerAll', false) }
              : { headers: { 'X-Api-Key': apiKey } }),
            json: e.method === 'get' || e.method === 'delete' ? undefined : (json ?? {}),
          });
          calls++;
          const refused = res.status === 403 && res.text === refusal;
          const label = `${key} as ${caller} for a ${kind} customer: got ${res.status} ${res.text.slice(0, 160)}`;
          if (kind === 'linked' ? refused || res.status >= 500 : !refused) mismatches.push(label);
        }
      }
    }
    console.log(`[figure] customer dimension: ${calls} calls, ${mismatches.length} mismatches`);
    expect(mismatches).toEqual([]);
  }, 240_000);
});
