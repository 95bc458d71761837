import { type APIRequestContext, expect } from '@playwright/test';
import { DEMO_ADMIN, E2E_BASE_URL } from './env';

/** The API of the shared e2e server, as another admin would use it (outbox and queued-edits specs). */
const API = `${E2E_BASE_URL}/api/v1`;

/** A 1×1 PNG: the smallest image the partner calls accept. */
export const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

export interface ApiPartner {
  id: number;
  organizationName: string;
  firstName: string;
  lastName: string;
  address: string;
  updatedAt: string;
}

export async function adminToken(request: APIRequestContext): Promise<string> {
  const res = await request.post(`${API}/admin/auth/login`, { data: DEMO_ADMIN });
  expect(res.ok()).toBe(true);
  return (await res.json()).data.accessToken as string;
}

/** One call that must succeed; its `data`. */
export async function apiCall<T>(
  request: APIRequestContext,
  token: string,
  method: 'GET' | 'POST' | 'PATCH',
  path: string,
  data?: unknown,
): Promise<T> {
  const res = await request.fetch(`${API}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}` },
    ...(data === undefined ? {} : { data }),
  });
  expect(res.ok(), `${method} ${path}: ${res.status()} ${await res.text()}`).toBe(true);
  return (await res.json()).data as T;
}

/**
 * A customer a partner can serve today, picked by the product's rules: active, not erased (an erased
 * customer keeps their status so the club's counts stay, decision 054, but takes no visit, reward
 * or code), with an email to mail a link code to. Lists put the newest customers first, and other
 * specs add and erase customers on the shared server.
 */
export function isServable(c: { accountStatus?: string; erasedAt?: string | null; email?: string | null }) {
  return (c.accountStatus ?? 'ACTIVE') === 'ACTIVE' && !c.erasedAt && !!c.email?.includes('@');
}

/** A partner of the test's own (`<mailbox>.<stamp>@partners.ng`), so the seeded partners stay as they are. */
export async function freshPartner(
  request: APIRequestContext,
  token: string,
  name: string,
  mailbox: string,
): Promise<ApiPartner> {
  const services = await apiCall<{ records: { id: number }[] }>(
    request,
    token,
    'GET',
    '/admin/partners/extended-services?pageSize=10',
  );
  const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;
  return apiCall<ApiPartner>(request, token, 'POST', '/admin/partners/invite', {
    firstName: 'Ife',
    lastName: 'Adeyemi',
    email: `${mailbox}.${stamp}@partners.ng`,
    phone: '08031234567',
    organizationName: `${name} ${stamp}`,
    address: '3 Awolowo Road, Ikoyi, Lagos',
    coverImage: PNG,
    minSpendToQualify: 10_000,
    extendedServiceIds: [services.records[0]!.id],
  });
}

export const readPartner = (request: APIRequestContext, token: string, id: number) =>
  apiCall<ApiPartner>(request, token, 'GET', `/admin/partners/${id}`);

/** The activity log's entries about one partner (newest first, as the log lists them). */
export async function partnerLog(request: APIRequestContext, token: string, partner: ApiPartner) {
  const log = await apiCall<{ records: { action: string; entity: string; entityId: string | null }[] }>(
    request,
    token,
    'GET',
    `/admin/user/activities?userType=ADMIN&pageSize=100&searchText=${encodeURIComponent(partner.organizationName)}`,
  );
  return log.records.filter(
    (r) =>
      r.entity === 'partner' && r.entityId === String(partner.id) && r.action.startsWith('Updated partner'),
  );
}
