import { TINY_PNG } from '../model/flow-paths';

/**
 * The data the walk makes through the API, never relying on seeded rows: one partner named
 * `flows-<run id> …` with its extended service (a tester finds everything of a run by that name), a visit there that makes a
 * customer eligible, and fresh rewards per path. The API has no endpoint that creates a customer
 * (customers sign up in the customer app), so the walk takes an existing active customer with an
 * email; it touches them only at its own partner.
 */

export interface World {
  runId: string;
  tag: string;
  partner: { id: number; organizationName: string };
  customer: { id: number; name: string; email: string };
  admin: { email: string; password: string };
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
  ): Promise<T> {
    const res = await fetch(`${this.baseUrl.replace(/\/+$/, '')}/api/v1${path}`, {
      method,
      headers: {
        'content-type': 'application/json',
        ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new ApiError(res.status, `${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
    return (JSON.parse(text) as Envelope<T>).data;
  }

  /** Signs the admin in; the session (tokens and user) is what the SPA keeps in localStorage 'admin'. */
  async signIn(): Promise<unknown> {
    this.token = null;
    const data = await this.call<{ accessToken: string }>('POST', '/admin/auth/login', this.admin);
    this.token = data.accessToken;
    this.session = data;
    return data;
  }

  /** A fresh session for a browser (its own refresh token). */
  async freshSession(): Promise<unknown> {
    return new FlowsApi(this.baseUrl, this.admin).signIn();
  }

  get lastSession() {
    return this.session;
  }

  async health(): Promise<{ status: string; environment?: string }> {
    return this.call('GET', '/health');
  }

  async issueReward(world: World, rewardType: 'GIFTCARD' | 'COUPON', issuedAmount = 5000) {
    return this.call<{ id: number; code: string; balance: number | null }>(
      'POST',
      '/partners/rewards/issue-reward',
      {
        rewardType,
        ...(rewardType === 'GIFTCARD' ? { issuedAmount } : { percentageDiscount: 10 }),
        title: `${world.tag} ${rewardType === 'GIFTCARD' ? 'gift card' : 'coupon'}`,
        description: 'Issued by the flow walk',
        promotionalImage: TINY_PNG,
        issuedTo: world.customer.id,
        partnerId: world.partner.id,
      },
      { 'Idempotency-Key': crypto.randomUUID() },
    );
  }
}

/** Makes the run's partner and eligible customer. */
export async function makeWorld(api: FlowsApi, runId: string): Promise<World> {
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
    records: { id: number; firstName: string; lastName: string; email: string }[];
  }>('GET', '/admin/user/customers?status=ACTIVE&pageSize=10&pageNumber=1');
  const customer = customers.records.find((c) => c.email.includes('@'));
  if (!customer) throw new Error('The deployment has no active customer with an email to walk with');
  await api.call('POST', '/user/visits', {
    partnerId: partner.id,
    customerId: customer.id,
    attendantName: tag,
    visitDate: new Date().toISOString(),
    items: [{ name: `${tag} dinner`, quantity: 1, price: 5000 }],
  });
  return {
    runId,
    tag,
    partner: { id: partner.id, organizationName: partner.organizationName },
    customer: { id: customer.id, name: `${customer.firstName} ${customer.lastName}`, email: customer.email },
    admin: api.admin,
  };
}
