import { afterEach, describe, expect, it } from 'vitest';
import { apiCall, apiData, apiMessage, fillPath } from './call';
import { ApiError, createApiClient, setApiClient } from './client';

type Seen = { method: string; url: string; body: unknown; headers: Headers };

/** A server at the network boundary that answers every call with `answer` and records what came. */
function fakeServer(answer: { data?: unknown; message?: string }) {
  const seen: Seen[] = [];
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const text = await request.text();
    seen.push({
      method: request.method,
      url: request.url,
      body: text ? JSON.parse(text) : undefined,
      headers: request.headers,
    });
    return new Response(JSON.stringify({ success: true, message: '', errors: [], ...answer }), {
      headers: { 'Content-Type': 'application/json' },
    });
  }) as typeof globalThis.fetch;
  setApiClient(
    createApiClient({
      baseUrl: 'http://app.test/api/v1',
      tokens: { accessToken: async () => 't', rejected: async () => null },
      fetch,
    }),
  );
  return seen;
}

afterEach(() => setApiClient(null));

const partner = {
  id: 12,
  firstName: 'Segun',
  lastName: 'Adeyemi',
  email: 'segun@ekogrill.ng',
  phone: '08031234567',
  organizationName: 'Eko Grill',
  address: '1 Marina, Lagos',
  coverImage: null,
  minSpendToQualify: 5000,
  accountStatus: 'ACTIVE',
  extendedServiceIds: [],
  partnerExtendedServices: [],
  reviewRules: { amountAbove: null, requireReceipt: false, maxVisitsPerDay: null },
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

describe('apiCall (one typed call per endpoint, decision 057)', () => {
  it("sends the registry's method to its path with the parameters filled in", async () => {
    const seen = fakeServer({ data: null, message: 'API key revoked' });
    expect(
      await apiMessage('DELETE /admin/partners/{partnerId}/api-keys/{keyId}', {
        params: { partnerId: 12, keyId: 5 },
      }),
    ).toBe('API key revoked');
    expect(seen).toHaveLength(1);
    expect(seen[0]?.method).toBe('DELETE');
    expect(seen[0]?.url).toBe('http://app.test/api/v1/admin/partners/12/api-keys/5');
  });

  it('sends the query, the body and the headers the endpoint reads', async () => {
    const seen = fakeServer({ data: { result: 'x' } });
    await apiCall('POST /partners/rewards/redeem-coupon', {
      body: { userId: 3, code: 'CPN-1', otp: '123456' },
      headers: { 'Idempotency-Key': 'k-1' },
    }).catch(() => undefined);
    expect(seen[0]?.method).toBe('POST');
    expect(seen[0]?.url).toBe('http://app.test/api/v1/partners/rewards/redeem-coupon');
    expect(seen[0]?.body).toEqual({ userId: 3, code: 'CPN-1', otp: '123456' });
    expect(seen[0]?.headers.get('Idempotency-Key')).toBe('k-1');

    const again = fakeServer({ data: { totalRewards: 0 } });
    await apiData('GET /admin/partners/stats/partner', { query: { partnerId: 12 } }).catch(() => undefined);
    expect(again[0]?.url).toBe('http://app.test/api/v1/admin/partners/stats/partner?partnerId=12');
  });

  it("parses the answer with the registry's own schema: the record comes back typed", async () => {
    fakeServer({ data: partner });
    const got = await apiData('GET /admin/partners/{partnerId}', { params: { partnerId: 12 } });
    expect(got.organizationName).toBe('Eko Grill');
  });

  it('refuses an answer that is not what the registry says (never z.unknown())', async () => {
    fakeServer({ data: { ...partner, organizationName: undefined } });
    const error = await apiData('GET /admin/partners/{partnerId}', { params: { partnerId: 12 } }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe('Unexpected response from the server');

    // A call that answers only a message refuses a record in its data too.
    fakeServer({ data: { id: 1 }, message: 'Role deleted' });
    await expect(
      apiMessage('DELETE /admin/user/delete-role/{roleId}', { params: { roleId: 1 } }),
    ).rejects.toThrow('Unexpected response from the server');
  });

  it('fills every path parameter, encoded, and refuses a missing one', () => {
    expect(fillPath('/a/{x}/b/{y}', { x: 1, y: 'a b' })).toBe('/a/1/b/a%20b');
    expect(() => fillPath('/a/{x}', {})).toThrow('Missing path parameter x of /a/{x}');
  });

  it('is typed by the registry: a renamed field, a missing parameter or an unread header does not compile', () => {
    // Compiled, never sent: the compiler refuses each line (npm run typecheck covers this file).
    const compileOnly = () => {
      const renamed = { partnerID: 1, accountStatus: 'ACTIVE' as const };
      // @ts-expect-error partnerID is not a field of the body (partnerId is missing)
      void apiMessage('PATCH /admin/partners/update-status', { body: renamed });
      // @ts-expect-error the path parameter partnerId is required
      void apiMessage('DELETE /admin/partners/{partnerId}');
      void apiData('POST /admin/partners/invite', {
        body: {} as never,
        // @ts-expect-error the invite does not read an Idempotency-Key
        headers: { 'Idempotency-Key': 'k' },
      });
      // @ts-expect-error no such endpoint
      void apiData('GET /admin/partner');
      void apiData('GET /admin/partners/{partnerId}', { params: { partnerId: 1 } }).then(
        // @ts-expect-error the answer has organizationName, not organisationName
        (p) => p.organisationName,
      );
    };
    expect(typeof compileOnly).toBe('function');
  });
});
