import { createRequire } from 'node:module';
import { BlockList, isIP } from 'node:net';
import type { AccountStatus } from '../../contract/list';
import type { DbOrTx } from '../db/client';
import { ROWS_PER_STATEMENT } from '../db/rows';
import { events } from '../db/schema';
import type { AuthUser, RequestMeta } from '../types';
import { enqueueWebhookBatch, enqueueWebhooks, type WebhookEvent } from './webhooks';

export type ActorType = 'ADMIN' | 'PARTNER' | 'CUSTOMER';

export type Actor = {
  id: number | null;
  type: ActorType;
  name: string;
  imageUrl?: string | null;
  organization?: string | null;
  /** The partner the actor works at when acting (null: club staff): the event belongs to it (issue 28). */
  partnerId?: number | null;
};

export const ADMIN_ORGANIZATION = 'Reward Club';

/** The event log's action sentences, as the activity log shows them. */
export const actions = {
  signedIn: 'Signed in',
  failedSignIn: 'Failed sign-in attempt',
  blockedSignIn: 'Sign-in refused: account blocked',
  signedOut: 'Signed out',
  tokenReuse: 'Refresh token reuse detected; session revoked',
  resetRequested: 'Requested a password reset',
  resetCompleted: 'Reset password with a reset code',
  passwordChanged: 'Changed password',
  profileUpdated: 'Updated profile',
  invitationAccepted: 'Set password from an invitation',
  createdRole: (role: string) => `Created role ${role}`,
  updatedRole: (role: string, previousName?: string) =>
    previousName && previousName !== role
      ? `Updated role ${role} (renamed from ${previousName})`
      : `Updated role ${role}`,
  deletedRole: (role: string) => `Deleted role ${role}`,
  invitedStaff: (name: string) => `Invited ${name}`,
  updatedStaff: (name: string, changes: string[]) =>
    changes.length ? `Updated staff ${name} (${changes.join(', ')})` : `Updated staff ${name}`,
  deletedStaff: (name: string) => `Deleted staff ${name}`,
  addedPartner: (org: string) => `Added partner ${org}`,
  updatedPartner: (org: string, changes: string[]) =>
    changes.length ? `Updated partner ${org} (${changes.join(', ')})` : `Updated partner ${org}`,
  blockedPartner: (org: string) => `Blocked partner ${org}`,
  unblockedPartner: (org: string) => `Unblocked partner ${org}`,
  deletedPartner: (org: string) => `Deleted partner ${org}`,
  updatedClient: (name: string, changes: string[]) =>
    changes.length ? `Updated client ${name} (${changes.join(', ')})` : `Updated client ${name}`,
  blockedClient: (name: string) => `Blocked client ${name}`,
  unblockedClient: (name: string) => `Unblocked client ${name}`,
  deletedClient: (name: string) => `Deleted client ${name}`,
  addedClient: (name: string, externalId: string) => `Added client ${name} (${externalId})`,
  importedCustomers: (file: string, counts: string) => `Imported customers from ${file}: ${counts}`,
  importFailed: (file: string, reason: string) => `Customer import from ${file} failed: ${reason}`,
  createdClubKey: (name: string) => `Created club integration key ${name}`,
  revokedClubKey: (name: string) => `Revoked club integration key ${name}`,
  createdService: (title: string) => `Created extended service ${title}`,
  updatedService: (title: string, previousTitle?: string) =>
    previousTitle && previousTitle !== title
      ? `Updated extended service ${title} (renamed from ${previousTitle})`
      : `Updated extended service ${title}`,
  deletedService: (title: string) => `Deleted extended service ${title}`,
  recordedVisit: (customer: string, org: string) => `Recorded a visit for ${customer} at ${org}`,
  approvedVisit: (customer: string, org: string) => `Approved a visit of ${customer} at ${org} in review`,
  rejectedVisit: (customer: string, org: string, reason: string) =>
    `Rejected a visit of ${customer} at ${org} in review: ${reason}`,
  setVisitReviewRules: (org: string, rules: string) => `Set the visit review rules of ${org}: ${rules}`,
  issuedReward: (kind: string, code: string, customer: string, org: string) =>
    `Issued ${kind} ${code} to ${customer} at ${org}`,
  sentRedemptionCode: (code: string, customer: string) => `Sent a redemption code for ${code} to ${customer}`,
  redemptionCodeNotSent: (code: string) => `Could not send a redemption code for ${code}; it was withdrawn`,
  wrongRedemptionCode: (customer: string, attempt: number) =>
    `Wrong redemption code for ${customer} (attempt ${attempt} of 5)`,
  redeemedGiftcard: (amount: string, code: string, customer: string) =>
    `Redeemed ${amount} from gift card ${code} of ${customer}`,
  redeemedCoupon: (code: string, customer: string) => `Redeemed coupon ${code} of ${customer}`,
  rewardExpired: (code: string) => `Reward ${code} expired`,
  reversedRedemption: (amount: string, code: string, reason: string) =>
    `Reversed a redemption of ${amount} on ${code}: ${reason}`,
  createdWebhook: (url: string) => `Created webhook ${url}`,
  updatedWebhook: (url: string, changes: string[]) =>
    changes.length ? `Updated webhook ${url} (${changes.join(', ')})` : `Updated webhook ${url}`,
  createdApiKey: (name: string, partner: string) => `Created API key ${name} for ${partner}`,
  revokedApiKey: (name: string, partner: string) => `Revoked API key ${name} of ${partner}`,
  deletedWebhook: (url: string) => `Deleted webhook ${url}`,
  rotatedWebhookSecret: (url: string) => `Rotated the signing secret of webhook ${url}`,
  disabledWebhook: (url: string) => `Disabled webhook ${url} after its deliveries kept failing`,
  replayedWebhookDelivery: (messageId: string, url: string) =>
    `Replayed webhook message ${messageId} to ${url}`,
  sentLinkCode: (partner: string) => `Asked a customer for a link to ${partner} (code mailed if they exist)`,
  linkedCustomer: (customer: string, partner: string) => `Linked ${customer} to ${partner}`,
  wrongLinkCode: (attempt: number) => `Wrong link code (attempt ${attempt} of 5)`,
  unlinkedCustomer: (customer: string, partner: string) => `Removed the link of ${customer} to ${partner}`,
  exportedCustomerData: (customer: string) => `Exported the data of ${customer}`,
  erasedCustomer: (ref: string) => `Erased customer ${ref}`,
  restoredClient: (name: string) => `Restored client ${name}`,
  createdCampaign: (name: string, org: string) => `Created campaign ${name} at ${org}`,
  submittedCampaign: (name: string, total: number) => `Started campaign ${name} for ${total} customers`,
  campaignAwaitsApproval: (name: string, reasons: string) =>
    `Submitted campaign ${name} for approval: ${reasons}`,
  approvedCampaign: (name: string) => `Approved campaign ${name}`,
  rejectedCampaign: (name: string, reason: string) => `Rejected campaign ${name}: ${reason}`,
  cancelledCampaign: (name: string) => `Cancelled campaign ${name}`,
  completedCampaign: (name: string, counts: string) => `Campaign ${name} finished: ${counts}`,
  failedCampaign: (name: string, reason: string) => `Campaign ${name} stopped: ${reason}`,
  setApprovalThresholds: (text: string) => `Set the approval thresholds: ${text}`,
  requestedRewardApproval: (what: string, reasons: string) => `Asked for approval of ${what}: ${reasons}`,
  approvedRewardRequest: (what: string) => `Approved ${what}`,
  rejectedRewardRequest: (what: string, reason: string) => `Rejected ${what}: ${reason}`,
  rewardRequestExpired: (what: string, days: number) =>
    `Request for ${what} expired: not decided within ${days} day${days === 1 ? '' : 's'}`,
  campaignExpired: (name: string, days: number) =>
    `Campaign ${name} expired: not approved within ${days} day${days === 1 ? '' : 's'}`,
  releasedExternalId: (externalId: string, ref: string) =>
    `Freed external id ${externalId} of erased customer ${ref} for a new import`,
} as const;

/** The sentence of a customer's or a partner's new account status. */
const statusSentences = {
  customer: { BLOCKED: actions.blockedClient, ACTIVE: actions.unblockedClient },
  partner: { BLOCKED: actions.blockedPartner, ACTIVE: actions.unblockedPartner },
} as const;

/**
 * The event of blocking or unblocking a customer or a partner (`before`, named `name` as the log
 * names it): the sentence of the new status, with the status before in the payload.
 */
export const accountStatusEvent = (
  entity: keyof typeof statusSentences,
  before: { id: number; accountStatus: AccountStatus },
  name: string,
  accountStatus: AccountStatus,
): ChangeEvent => ({
  action: statusSentences[entity][accountStatus](name),
  entity,
  entityId: before.id,
  payload: { accountStatus, previousStatus: before.accountStatus },
});

/** A staff member as an event's actor. */
export const actorOf = (user: {
  id: number;
  firstName: string;
  lastName: string;
  userType: 'ADMIN' | 'PARTNER';
  imageUrl?: string | null;
  organizationName?: string | null;
  partnerId?: number | null;
}): Actor => ({
  id: user.id,
  type: user.userType,
  name: `${user.firstName} ${user.lastName}`.trim(),
  imageUrl: user.imageUrl ?? null,
  organization: user.userType === 'ADMIN' ? ADMIN_ORGANIZATION : (user.organizationName ?? null),
  partnerId: user.partnerId ?? null,
});

/** The caller as the event log names it; a partner API key is "API key <name>" of its partner, no users row. */
export const actorOfAuthUser = (user: AuthUser): Actor =>
  user.apiKey?.kind === 'club'
    ? { id: null, type: 'ADMIN', name: `API key ${user.apiKey.name}`, organization: ADMIN_ORGANIZATION }
    : user.apiKey
      ? {
          id: null,
          type: 'PARTNER',
          name: `API key ${user.apiKey.name}`,
          imageUrl: null,
          organization: user.organizationName ?? null,
          partnerId: user.partnerId,
        }
      : actorOf(user);

export type NewEvent = {
  actor: Actor;
  /** A plain sentence: 'Signed in', 'Failed sign-in attempt', 'Updated profile' ... */
  action: string;
  entity: string;
  entityId?: string | number | null;
  payload?: Record<string, unknown>;
  meta?: RequestMeta;
  at: Date;
  /** What partner systems hear of it: a Standard Webhooks message to each subscribed endpoint. */
  webhook?: WebhookEvent;
};

/** What an event says beyond who made it, from where and when. */
export type ChangeEvent = Omit<NewEvent, 'actor' | 'meta' | 'at'>;

const SECRET_KEY = /pass(word)?|code|token|secret|otp|hash/i;

/** Belt and braces: secrets never reach the event log, whatever a caller puts in a payload. */
export function scrubPayload(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(scrubPayload);
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .filter(([k]) => !SECRET_KEY.test(k))
        .map(([k, v]) => [k, scrubPayload(v)]),
    );
  }
  return value;
}

/** The event log row of an event. */
const eventRow = (e: NewEvent) => ({
  at: e.at,
  actorId: e.actor.id,
  actorType: e.actor.type,
  actorName: e.actor.name,
  actorImageUrl: e.actor.imageUrl ?? null,
  actorOrganization: e.actor.organization ?? null,
  action: e.action,
  entity: e.entity,
  entityId: e.entityId == null ? null : String(e.entityId),
  payload: (scrubPayload(e.payload ?? {}) as Record<string, unknown>) ?? {},
  ipAddress: e.meta?.ipAddress ?? null,
  ipLocation: e.meta?.ipAddress ? ipLocation(e.meta.ipAddress) : null,
  userAgent: e.meta?.userAgent ?? null,
  partnerId: e.actor.partnerId ?? null,
});

/** Appends one immutable row to the event log; call it inside the transaction of the change. */
export async function recordEvent(db: DbOrTx, e: NewEvent): Promise<void> {
  await db.insert(events).values(eventRow(e));
  // The webhook outbox, in the same transaction as the change (docs/decisions/027).
  if (e.webhook) await enqueueWebhooks(db, e.webhook, e.at);
}

/**
 * Appends many events at once (a campaign's batch, docs/decisions/070): the same rows and webhook
 * deliveries as `recordEvent` called for each in turn, in their order, written in a few INSERT
 * statements. Inside the transaction of the change.
 */
export async function recordEvents(db: DbOrTx, es: readonly NewEvent[]): Promise<void> {
  for (let i = 0; i < es.length; i += ROWS_PER_STATEMENT)
    await db.insert(events).values(es.slice(i, i + ROWS_PER_STATEMENT).map(eventRow));
  const messages = es.flatMap((e) => (e.webhook ? [{ event: e.webhook, at: e.at }] : []));
  if (messages.length > 0) await enqueueWebhookBatch(db, messages);
}

// ---------------------------------------------------------------------------------------------
// Client address and its location

const localRanges = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const) {
  localRanges.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
] as const) {
  localRanges.addSubnet(net, prefix, 'ipv6');
}

/** '::ffff:10.0.0.1' → '10.0.0.1'; anything that is not an IP address → null. */
export function normalizeIp(raw: string | null | undefined): string | null {
  if (!raw) return null;
  let ip = raw.trim();
  if (ip.startsWith('[') && ip.includes(']')) ip = ip.slice(1, ip.indexOf(']'));
  const zone = ip.indexOf('%');
  if (zone > 0) ip = ip.slice(0, zone);
  if (/^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(ip)) ip = ip.slice(7);
  return isIP(ip) ? ip : null;
}

export const isLocalIp = (ip: string): boolean => localRanges.check(ip, isIP(ip) === 6 ? 'ipv6' : 'ipv4');

type GeoLookup = { lookup: (ip: string) => { country: string; city: string } | null };
let geo: GeoLookup | null | undefined;
const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });

/** Loaded on first use: the offline database (geoip-lite ships its data in the package). */
function geoip(): GeoLookup | null {
  if (geo === undefined) {
    try {
      geo = createRequire(import.meta.url)('geoip-lite') as GeoLookup;
    } catch {
      geo = null;
    }
  }
  return geo;
}

/** 'Local network' for loopback and private ranges; 'Lagos, Nigeria' / 'Nigeria' from offline GeoIP; else 'Unknown'. */
export function ipLocation(raw: string): string {
  const ip = normalizeIp(raw);
  if (!ip) return 'Unknown';
  if (isLocalIp(ip)) return 'Local network';
  const hit = geoip()?.lookup(ip);
  if (!hit?.country) return 'Unknown';
  let country = hit.country;
  try {
    country = regionNames.of(hit.country) ?? hit.country;
  } catch {
    // keep the code
  }
  return hit.city ? `${hit.city}, ${country}` : country;
}
