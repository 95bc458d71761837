import { TINY_PNG } from '../model/flow-paths';
import type { MailClient } from './mail-client';

/**
 * The data the walk makes through the API, never relying on seeded rows: one partner named
 * `flows-<run id> …` with its extended service (a tester finds everything of a run by that name), a visit there that makes a
 * customer eligible, and fresh rewards per path. The API has no endpoint that creates a customer
 * (customers sign up in the customer app), so the walk takes an existing active customer with an
 * email (two: the guided redemption has its own); it touches them only at its own partner. A partner
 * staff member of that partner is invited and sets a password with the code read from the mailbox.
 */

export interface World {
  runId: string;
  tag: string;
  partner: { id: number; organizationName: string };
  customer: { id: number; name: string; email: string };
  /** A second customer, eligible at the partner too: the guided redemption's (its own rewards list). */
  guidedCustomer: { id: number; name: string; email: string };
  admin: { email: string; password: string };
  /** A partner staff member of the run's partner (invited, password set with the mailed code). */
  staff: { email: string; password: string };
}

interface Envelope<T> {
  success: boolean;
  data: T;
  message: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export class FlowsApi {
  private token: string | null = null;
  private session: unknown = null;

  constructor(
    readonly baseUrl: string,
    readonly admin: { email: string; password: string },
  ) {}

  async call<T>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
    again = true,
  ): Promise<T> {
    const login = path === '/admin/auth/login';
    const token = login ? null : this.token;
    const res = await fetch(`${this.baseUrl.replace(/\/+$/, '')}/api/v1${path}`, {
      method,
      headers: {
        'content-type': 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    // A walk outlives an access token: signed in again (once for all the lanes that share this
    // client, which keep the old token meanwhile), the call is made once more.
    if (res.status === 401 && again && token) {
      if (this.token === token) await this.signIn();
      return this.call<T>(method, path, body, headers, false);
    }
    if (!res.ok) throw new ApiError(res.status, `${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
    return (JSON.parse(text) as Envelope<T>).data;
  }

  /** Signs the admin in; the session (tokens and user) is what the SPA keeps in localStorage 'admin'. */
  async signIn(): Promise<unknown> {
    this.signingIn ??= this.call<{ accessToken: string }>('POST', '/admin/auth/login', this.admin)
      .then((data) => {
        this.token = data.accessToken;
        this.session = data;
        return data;
      })
      .finally(() => {
        this.signingIn = null;
      });
    return this.signingIn;
  }

  private signingIn: Promise<unknown> | null = null;

  /** A fresh session for a browser (its own refresh token), as the admin or as `who`. */
  async freshSession(who: { email: string; password: string } = this.admin): Promise<unknown> {
    return new FlowsApi(this.baseUrl, who).signIn();
  }

  get lastSession() {
    return this.session;
  }

  async health(): Promise<{ status: string; environment?: string }> {
    return this.call('GET', '/health');
  }

  async issueReward(
    world: World,
    rewardType: 'GIFTCARD' | 'COUPON',
    issuedAmount = 5000,
    customer: { id: number } = world.customer,
  ) {
    return this.call<{ id: number; code: string; balance: number | null }>(
      'POST',
      '/partners/rewards/issue-reward',
      {
        rewardType,
        ...(rewardType === 'GIFTCARD' ? { issuedAmount } : { percentageDiscount: 10 }),
        title: `${world.tag} ${rewardType === 'GIFTCARD' ? 'gift card' : 'coupon'}`,
        description: 'Issued by the flow walk',
        promotionalImage: TINY_PNG,
        issuedTo: customer.id,
        partnerId: world.partner.id,
      },
      { 'Idempotency-Key': crypto.randomUUID() },
    );
  }
}

/** Why the walk must not run against this server, or null: production unless explicitly allowed. */
export function productionRefusal(
  baseUrl: string,
  environment: string | undefined,
  allow: string | undefined,
) {
  if (environment !== 'production' || allow === 'true') return null;
  return (
    `${baseUrl} reports itself as production: the walk makes partners, visits and rewards and redeems them. ` +
    'Set FLOWS_ALLOW_PRODUCTION=true to walk it anyway.'
  );
}

const SET_PASSWORD_MAIL = /set-password code is: ([A-Z0-9]+)/;
const LINK_CODE_MAIL = /link code is: ([0-9]{6})/;
const STAFF_PERMISSIONS = [
  'dashboard.view',
  'visits.view',
  'rewards.view',
  'rewards.issue',
  'rewards.redeem',
];

/** Makes the run's partner, its two eligible customers and a partner staff member. */
export async function makeWorld(api: FlowsApi, mail: MailClient, runId: string): Promise<World> {
  await api.signIn();
  const tag = `flows-${runId}`;
  const phone = `080${String(Date.now()).slice(-8)}`;
  const service = await api.call<{ id: number }>(
    'POST',
    '/admin/partners/extended-services',
    { title: `${tag} service`, description: 'Made by the flow walk' },
    { 'Idempotency-Key': crypto.randomUUID() },
  );
  const partner = await api.call<{ id: number; organizationName: string }>('POST', '/admin/partners/invite', {
    firstName: 'Flow',
    lastName: 'Walker',
    email: `${tag}@flows.test`,
    phone,
    organizationName: `${tag} Grill`,
    address: `${tag}, 1 Test Street, Lagos`,
    coverImage: TINY_PNG,
    minSpendToQualify: 2000,
    extendedServiceIds: [service.id],
  });
  const customers = await api.call<{
    records: { id: number; firstName: string; lastName: string; email: string; erasedAt?: string }[];
  }>('GET', '/admin/user/customers?status=ACTIVE&pageSize=50&pageNumber=1');
  // An erased customer keeps their status (decision 054) but takes no visit: not one to walk with.
  const [customer, second] = customers.records.filter((c) => !c.erasedAt && c.email.includes('@'));
  if (!customer || !second)
    throw new Error('The deployment needs two active customers with an email to walk with');
  for (const c of [customer, second])
    await api.call('POST', '/user/visits', {
      partnerId: partner.id,
      customerId: c.id,
      attendantName: tag,
      visitDate: new Date().toISOString(),
      items: [{ name: `${tag} dinner`, quantity: 1, price: 5000 }],
    });
  // The run's partner is new to both customers: each is linked the way a partner does it, a code
  // mailed to the customer and typed back from their mailbox (issue 28, decision 053).
  for (const c of [customer, second]) {
    const seenLink = await mail.seen(c.email);
    const request = await api.call<{ id: number }>('POST', '/partners/customer-links', {
      email: c.email,
      partnerId: partner.id,
    });
    const code = await mail.waitFor(c.email, seenLink, LINK_CODE_MAIL);
    await api.call('POST', `/partners/customer-links/${request.id}/confirm`, { code });
  }
  // Partner staff: a role of their permissions, an invitation, the password set with the mailed code.
  const catalogue = await api.call<{ id: number; name: string }[]>('GET', '/authz');
  const role = await api.call<{ id: number }>('POST', '/admin/user/create-role', {
    roleName: `${tag} partner staff`,
    permissionIds: catalogue.filter((p) => STAFF_PERMISSIONS.includes(p.name)).map((p) => p.id),
  });
  const staff = { email: `${tag}-staff@flows.test`, password: `Flows#${runId.replace(/\W/g, '')}x` };
  const seen = await mail.seen(staff.email);
  await api.call('POST', '/admin/user/new-admin-user', {
    firstName: 'Flow',
    lastName: 'Staff',
    email: staff.email,
    roleId: role.id,
    partnerId: partner.id,
  });
  const resetCode = await mail.waitFor(staff.email, seen, SET_PASSWORD_MAIL);
  await api.call('PATCH', '/auth/update-password', { resetCode, newPassword: staff.password });
  const named = (c: { id: number; firstName: string; lastName: string; email: string }) => ({
    id: c.id,
    name: `${c.firstName} ${c.lastName}`,
    email: c.email,
  });
  return {
    runId,
    tag,
    partner: { id: partner.id, organizationName: partner.organizationName },
    customer: named(customer),
    guidedCustomer: named(second),
    admin: api.admin,
    staff,
  };
}
