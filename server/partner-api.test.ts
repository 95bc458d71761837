import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../contract/envelope';
import type { Visit } from '../contract/visits';
import {
  createCustomer,
  createPartner,
  createSuperAdmin,
  setupTestServer,
  signIn,
} from '../tests/setup/server';
import { visits, webhookDeliveries } from './db/schema';
import { LOGIN_IP_LIMIT, LOGIN_LIMIT } from './domain/rate-limit';
import { buildOpenApiDocument } from './openapi';

/**
 * What a partner system relies on (issue 21): a stable `code` on every error, the IETF RateLimit
 * fields on rate-limited calls, and Idempotency-Key on the calls a till makes.
 */
const t = setupTestServer({ config: { webhookAllowPrivate: true } });
let token: string;
let partnerId: number;
let customerId: number;
const ADMIN = { email: 'codes@rewardclub.test', password: 'Sup3rSecret' };

beforeAll(async () => {
  await createSuperAdmin(t.db, ADMIN.email, ADMIN.password);
  token = (await signIn(t, ADMIN.email, ADMIN.password)).accessToken;
  partnerId = (await createPartner(t.db)).id;
  customerId = (await createCustomer(t.db)).id;
});

const visit = (extra: Record<string, unknown> = {}) => ({
  partnerId,
  customerId,
  attendantName: 'Bisi',
  visitDate: '2026-03-01T10:00:00.000Z',
  items: [{ name: 'Jollof rice', quantity: 2, price: 2500 }],
  ...extra,
});

describe('error codes', () => {
  it('every error envelope carries its code; message and errors are as before', async () => {
    const cases: [
      string,
      () => Promise<{ status: number; body: { code?: string; message: string } }>,
      number,
      string,
    ][] = [
      ['no token', () => t.request('GET', '/admin/webhooks'), 401, 'unauthenticated'],
      [
        'a bad body',
        () => t.request('POST', '/user/visits', { token, json: { partnerId: 'x' } }),
        400,
        'validation_failed',
      ],
      [
        'broken JSON',
        () =>
          t.request('POST', '/user/visits', {
            token,
            body: '{',
            headers: { 'content-type': 'application/json' },
          }),
        400,
        'invalid_json',
      ],
      ['an unknown id', () => t.request('GET', '/admin/webhooks/424242', { token }), 404, 'not_found'],
      ['an unknown route', () => t.request('GET', '/nowhere'), 404, 'route_not_found'],
      [
        'a body over the limit',
        () =>
          t.request('POST', '/admin/webhooks', {
            token,
            body: 'x'.repeat(1024 * 1024 + 10),
            headers: { 'content-type': 'application/json' },
          }),
        413,
        'payload_too_large',
      ],
    ];
    for (const [name, send, status, code] of cases) {
      const res = await send();
      expect(res.status, name).toBe(status);
      expect(res.body.code, name).toBe(code);
      expect(ERROR_CODES, name).toContain(res.body.code);
      expect(typeof res.body.message, name).toBe('string');
    }
  });

  it('a blocked partner answers partner_blocked', async () => {
    const blocked = await createPartner(t.db, { accountStatus: 'BLOCKED' });
    const res = await t.request('POST', '/user/visits', { token, json: visit({ partnerId: blocked.id }) });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'partner_blocked', errors: [{ fieldName: 'partnerId' }] });
  });

  it('the reference lists every code in the error envelope', () => {
    const doc = buildOpenApiDocument() as unknown as {
      components: { schemas: Record<string, { properties: { code: { enum: string[] } } }> };
    };
    expect(doc.components.schemas.ErrorEnvelope!.properties.code.enum).toEqual([...ERROR_CODES]);
  });
});

describe('RateLimit headers', () => {
  it('sign-in answers RateLimit-Policy and RateLimit, and Retry-After with its 429', async () => {
    const email = 'limited@rewardclub.test';
    const ip = '203.0.113.9';
    const first = await t.request('POST', '/admin/auth/login', {
      json: { email, password: 'nope-Passw0rd' },
      ip,
    });
    expect(first.status).toBe(401);
    expect(first.body.code).toBe('unauthenticated');
    expect(first.headers.get('ratelimit-policy')).toBe(
      `"login";q=${LOGIN_LIMIT.limit};w=900, "login-ip";q=${LOGIN_IP_LIMIT.limit};w=900`,
    );
    expect(first.headers.get('ratelimit')).toBe(
      `"login";r=${LOGIN_LIMIT.limit - 1};t=900, "login-ip";r=${LOGIN_IP_LIMIT.limit - 1};t=900`,
    );
    t.clock.advance(60_000);
    for (let i = 1; i < LOGIN_LIMIT.limit; i++) {
      await t.request('POST', '/admin/auth/login', { json: { email, password: 'nope-Passw0rd' }, ip });
    }
    const refused = await t.request('POST', '/admin/auth/login', {
      json: { email, password: 'nope-Passw0rd' },
      ip,
    });
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('rate_limited');
    expect(refused.headers.get('retry-after')).toBe('840');
    expect(refused.headers.get('ratelimit')).toMatch(/^"login";r=0;t=840, "login-ip";r=\d+;t=\d+$/);
    expect(refused.headers.get('ratelimit-policy')).toContain('"login";q=5;w=900');
  });

  it('calls without a limit carry no RateLimit fields', async () => {
    const res = await t.request('GET', '/admin/webhooks', { token });
    expect(res.headers.get('ratelimit')).toBeNull();
  });
});

describe('Idempotency-Key on recording a visit', () => {
  it('a retry with the same key returns the first visit, records nothing more, queues one webhook', async () => {
    const hook = await t.request<{ id: number }>('POST', '/admin/webhooks', {
      token,
      json: { url: 'http://127.0.0.1:9/till', events: ['visit.recorded'], partnerId },
    });
    const headers = { 'Idempotency-Key': 'till-7-receipt-0042' };
    const first = await t.request<Visit>('POST', '/user/visits', { token, json: visit(), headers });
    expect(first.status, first.text).toBe(201);
    const again = await t.request<Visit>('POST', '/user/visits', { token, json: visit(), headers });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.data).toEqual(first.body.data);
    const rows = await t.db.select().from(visits).where(eq(visits.id, first.body.data!.id));
    expect(rows).toHaveLength(1);
    const queued = await t.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, hook.body.data!.id));
    expect(queued).toHaveLength(1);

    const other = await t.request('POST', '/user/visits', {
      token,
      json: visit({ attendantName: 'Someone else' }),
      headers,
    });
    expect(other.status).toBe(422);
    expect(other.body.code).toBe('idempotency_key_reused');
    const withoutKey = await t.request<Visit>('POST', '/user/visits', { token, json: visit() });
    expect(withoutKey.body.data!.id).not.toBe(first.body.data!.id);
  });
});
