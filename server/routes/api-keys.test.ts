import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiKey, CreatedApiKey } from '../../contract/api-keys';
import type { Visit } from '../../contract/visits';
import {
  createCustomer,
  createPartner,
  createRole,
  createSuperAdmin,
  createUser,
  linkCustomer,
  setupTestServer,
  signIn,
} from '../../tests/setup/server';
import { events, idempotencyKeys, partnerApiKeys, partners, rateLimitHits, visits } from '../db/schema';
import { API_KEY_LIMIT, buckets } from '../domain/rate-limit';

/**
 * Partner API keys (issue 21, docs/decisions/028-partner-api-keys.md), as an attacker holding a key
 * would try them: another partner, club routes, a person's routes, permissions it was not given, a
 * revoked or forged key, the rate limit, and idempotent retries.
 */
const t = setupTestServer();
let admin: string;
let partnerId: number;
let otherPartnerId: number;
let customerId: number;

beforeAll(async () => {
  await createSuperAdmin(t.db, 'keys@rewardclub.test', 'Sup3rSecret');
  admin = (await signIn(t, 'keys@rewardclub.test', 'Sup3rSecret')).accessToken;
  partnerId = (await createPartner(t.db, { organizationName: 'Till Partner' })).id;
  otherPartnerId = (await createPartner(t.db)).id;
  customerId = (await createCustomer(t.db)).id;
  // A till acts for customers linked to its partner (decision 053).
  await linkCustomer(t.db, partnerId, customerId);
  await linkCustomer(t.db, otherPartnerId, customerId);
});

const keysPath = (p: number) => `/admin/partners/${p}/api-keys`;

async function createKey(
  permissions: string[],
  opts: { token?: string; partner?: number; name?: string } = {},
) {
  const res = await t.request<CreatedApiKey>('POST', keysPath(opts.partner ?? partnerId), {
    token: opts.token ?? admin,
    json: { name: opts.name ?? 'Front till', permissions },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.data!;
}

const withKey = (key: string, headers: Record<string, string> = {}) => ({
  headers: { 'X-Api-Key': key, ...headers },
});

const visit = (extra: Record<string, unknown> = {}) => ({
  partnerId,
  customerId,
  attendantName: 'Till 1',
  visitDate: '2026-03-01T10:00:00.000Z',
  items: [{ name: 'Suya', quantity: 1, price: 12_000 }],
  ...extra,
});

describe('managing keys', () => {
  it('answers the key once, lists it without the secret, keeps only a hash, and logs both changes', async () => {
    const created = await createKey(['visits.create', 'rewards.view']);
    expect(created.key).toMatch(/^rck_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/);
    expect(created.prefix).toBe(created.key.slice(0, 16));
    const secret = created.key.slice(17);

    const list = await t.request<ApiKey[]>('GET', keysPath(partnerId), { token: admin });
    expect(list.status).toBe(200);
    const listed = list.body.data!.find((k) => k.id === created.id)!;
    expect(listed).toMatchObject({ name: 'Front till', prefix: created.prefix, lastUsedAt: null });
    expect(listed.permissions).toEqual(['visits.create', 'rewards.view']);
    expect(list.text).not.toContain(secret);

    const [row] = await t.db.select().from(partnerApiKeys).where(eq(partnerApiKeys.id, created.id));
    expect(JSON.stringify(row)).not.toContain(secret);
    expect(row!.secretHash).toMatch(/^[0-9a-f]{64}$/);

    const revoked = await t.request('DELETE', `${keysPath(partnerId)}/${created.id}`, { token: admin });
    expect(revoked.status).toBe(200);
    const logged = await t.db.select().from(events).where(eq(events.entity, 'partner'));
    const mine = logged.filter((e) => (e.payload as { apiKeyId?: number }).apiKeyId === created.id);
    expect(mine.map((e) => e.action)).toEqual([
      'Created API key Front till for Till Partner',
      'Revoked API key Front till of Till Partner',
    ]);
    expect(JSON.stringify(mine)).not.toContain(secret);
    const after = await t.request<ApiKey[]>('GET', keysPath(partnerId), { token: admin });
    expect(after.body.data!.map((k) => k.id)).not.toContain(created.id);
  });

  it('refuses permissions a key may not hold, and a partner that does not exist', async () => {
    const bad = await t.request('POST', keysPath(partnerId), {
      token: admin,
      json: { name: 'x', permissions: ['staff.create'] },
    });
    expect(bad.status).toBe(400);
    expect(
      (await t.request('POST', keysPath(partnerId), { token: admin, json: { name: 'x', permissions: [] } }))
        .status,
    ).toBe(400);
    expect((await t.request('GET', keysPath(999_999), { token: admin })).status).toBe(404);
  });

  it("partner staff manage only their own partner's keys, and grant nothing they lack", async () => {
    const role = await createRole(t.db, 'Till manager', ['integrations.manage', 'visits.create']);
    const staff = await createUser(t.db, { userType: 'PARTNER', partnerId, roleId: role.id });
    const token = (await signIn(t, staff.email, staff.password)).accessToken;
    const own = await createKey(['visits.create'], { token });
    expect(own.partnerId).toBe(partnerId);
    const foreign = await createKey(['visits.create'], { partner: otherPartnerId });

    expect((await t.request('GET', keysPath(otherPartnerId), { token })).status).toBe(404);
    expect(
      (
        await t.request('POST', keysPath(otherPartnerId), {
          token,
          json: { name: 'x', permissions: ['visits.create'] },
        })
      ).status,
    ).toBe(404);
    expect((await t.request('DELETE', `${keysPath(otherPartnerId)}/${foreign.id}`, { token })).status).toBe(
      404,
    );
    // Another partner's key named under one's own partner does not exist either.
    expect((await t.request('DELETE', `${keysPath(partnerId)}/${foreign.id}`, { token })).status).toBe(404);
    const escalate = await t.request('POST', keysPath(partnerId), {
      token,
      json: { name: 'more', permissions: ['visits.create', 'rewards.issue'] },
    });
    expect(escalate.status).toBe(403);
    // The foreign key still works: nothing above touched it.
    expect(
      (
        await t.request('POST', '/user/visits', {
          ...withKey(foreign.key),
          json: visit({ partnerId: otherPartnerId }),
        })
      ).status,
    ).toBe(201);
  });
});

describe('calling with X-Api-Key', () => {
  it("records a visit as the key's partner: logged as the key, last used set, RateLimit fields on the answer", async () => {
    const key = await createKey(['visits.create'], { name: 'Bar till' });
    const res = await t.request<Visit>('POST', '/user/visits', { ...withKey(key.key), json: visit() });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.get('RateLimit-Policy')).toBe(`"api-key";q=${API_KEY_LIMIT.limit};w=60`);
    expect(res.headers.get('RateLimit')).toMatch(
      new RegExp(`^"api-key";r=${API_KEY_LIMIT.limit - 1};t=\\d+$`),
    );
    const [event] = await t.db
      .select()
      .from(events)
      .where(and(eq(events.entity, 'visit'), eq(events.entityId, String(res.body.data!.id))));
    expect(event).toMatchObject({
      actorId: null,
      actorType: 'PARTNER',
      actorName: 'API key Bar till',
      actorOrganization: 'Till Partner',
    });
    const [row] = await t.db.select().from(partnerApiKeys).where(eq(partnerApiKeys.id, key.id));
    expect(row!.lastUsedAt?.toISOString()).toBe(t.clock().toISOString());
    const listed = await t.request<ApiKey[]>('GET', keysPath(partnerId), { token: admin });
    expect(listed.body.data!.find((k) => k.id === key.id)!.lastUsedAt).toBe(t.clock().toISOString());
  });

  it('never reaches another partner (404), a club route (403), a person route (401) or key management (403)', async () => {
    const key = await createKey(['visits.create', 'visits.view', 'clients.view', 'rewards.view']);
    const h = withKey(key.key);
    expect(
      (await t.request('POST', '/user/visits', { ...h, json: visit({ partnerId: otherPartnerId }) })).status,
    ).toBe(404);
    expect((await t.request('GET', `/admin/partners/visits?partnerId=${otherPartnerId}`, h)).status).toBe(
      404,
    );
    const own = await t.request<{ records: { partner: { id: number } }[] }>(
      'GET',
      `/admin/partners/visits?partnerId=${partnerId}`,
      h,
    );
    expect(own.status).toBe(200);
    expect(own.body.data!.records.length).toBeGreaterThan(0);
    expect(own.body.data!.records.every((v) => v.partner.id === partnerId)).toBe(true);
    // clients.view is held, but this route is club-wide.
    expect((await t.request('GET', `/user/internet/client_info?client_id=${customerId}`, h)).status).toBe(
      403,
    );
    const profile = await t.request('GET', '/user/profile', h);
    expect(profile.status).toBe(401);
    expect(profile.body.code).toBe('unauthenticated');
    expect((await t.request('GET', keysPath(partnerId), h)).status).toBe(403);
    expect((await t.request('GET', '/admin/webhooks', h)).status).toBe(403);
  });

  it("has the key's permissions only", async () => {
    const key = await createKey(['visits.create']);
    const h = withKey(key.key);
    const rewards = await t.request('GET', `/admin/partners/rewards?partnerId=${partnerId}`, h);
    expect(rewards.status).toBe(403);
    expect(rewards.body.code).toBe('forbidden');
    const issue = await t.request('POST', '/partners/rewards/issue-reward', {
      ...h,
      json: {
        rewardType: 'GIFTCARD',
        issuedAmount: 1000,
        partnerId,
        userId: customerId,
        title: 'x',
        description: 'y',
      },
    });
    expect(issue.status).toBe(403);
  });

  it("refuses a revoked, unknown, forged or malformed key, and a deleted partner's, with 401 unauthenticated", async () => {
    const key = await createKey(['visits.create']);
    expect((await t.request('POST', '/user/visits', { ...withKey(key.key), json: visit() })).status).toBe(
      201,
    );
    await t.request('DELETE', `${keysPath(partnerId)}/${key.id}`, { token: admin });
    const gone = await t.request('POST', '/user/visits', { ...withKey(key.key), json: visit() });
    expect(gone.status).toBe(401);
    expect(gone.body.code).toBe('unauthenticated');

    const live = await createKey(['visits.create']);
    const forged = `${live.key.slice(0, 17)}${live.key.slice(17, 18) === 'A' ? 'B' : 'A'}${live.key.slice(18)}`;
    for (const bad of [
      forged,
      `rck_000000000000_${'A'.repeat(43)}`,
      'nonsense',
      '',
      `rck_${'ä'.repeat(60)}`,
      live.key.slice(0, -1),
    ]) {
      const res = await t.request('GET', '/admin/partners/visits', withKey(bad));
      expect(res.status, bad).toBe(401);
      expect(res.body.code, bad).toBe('unauthenticated');
    }
    // A key and a bearer token: the key decides (no mixing a person's rights into a key's call).
    expect((await t.request('GET', '/user/profile', { token: admin, ...withKey(live.key) })).status).toBe(
      401,
    );

    const doomed = (await createPartner(t.db)).id;
    const doomedKey = await createKey(['visits.create'], { partner: doomed });
    await t.db.update(partners).set({ deletedAt: t.clock() }).where(eq(partners.id, doomed));
    expect((await t.request('GET', '/admin/partners/visits', withKey(doomedKey.key))).status).toBe(401);
  });

  it("a blocked partner's key gets the 403 partner_blocked of partner staff (reads only, issue 28)", async () => {
    const blocked = (await createPartner(t.db)).id;
    const key = await createKey(['visits.create'], { partner: blocked });
    await t.db.update(partners).set({ accountStatus: 'BLOCKED' }).where(eq(partners.id, blocked));
    const res = await t.request('POST', '/user/visits', {
      ...withKey(key.key),
      json: visit({ partnerId: blocked }),
    });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('partner_blocked');
  });

  it('counts every call against the key: the last allowed call says r=0, then 429 with Retry-After', async () => {
    const key = await createKey(['visits.view']);
    const other = await createKey(['visits.view']);
    // The window holds all but one of the limit's calls, a second apart (as if made just now).
    const start = t.clock().getTime() - API_KEY_LIMIT.limit * 50;
    await t.db.insert(rateLimitHits).values(
      Array.from({ length: API_KEY_LIMIT.limit - 1 }, (_, i) => ({
        bucket: buckets.apiKey(key.id),
        at: new Date(start + i * 50),
      })),
    );
    const last = await t.request('GET', `/admin/partners/visits?partnerId=${partnerId}`, withKey(key.key));
    expect(last.status).toBe(200);
    expect(last.headers.get('RateLimit')).toMatch(/^"api-key";r=0;t=\d+$/);
    const over = await t.request('GET', `/admin/partners/visits?partnerId=${partnerId}`, withKey(key.key));
    expect(over.status).toBe(429);
    expect(over.body.code).toBe('rate_limited');
    expect(Number(over.headers.get('Retry-After'))).toBeGreaterThan(0);
    expect(over.headers.get('RateLimit')).toMatch(/^"api-key";r=0;t=\d+$/);
    // Another key of the same partner has its own count.
    expect(
      (await t.request('GET', `/admin/partners/visits?partnerId=${partnerId}`, withKey(other.key))).status,
    ).toBe(200);
    t.clock.advance(API_KEY_LIMIT.windowMs);
    expect(
      (await t.request('GET', `/admin/partners/visits?partnerId=${partnerId}`, withKey(key.key))).status,
    ).toBe(200);
  });

  it('Idempotency-Key: a retry with the key answers the first visit; its keys are apart from staff keys', async () => {
    const key = await createKey(['visits.create']);
    const idem = { 'Idempotency-Key': `till-${key.id}-sale-1` };
    const first = await t.request<Visit>('POST', '/user/visits', {
      ...withKey(key.key, idem),
      json: visit(),
    });
    const again = await t.request<Visit>('POST', '/user/visits', {
      ...withKey(key.key, idem),
      json: visit(),
    });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(again.body.data!.id).toBe(first.body.data!.id);
    const changed = await t.request('POST', '/user/visits', {
      ...withKey(key.key, idem),
      json: visit({ attendantName: 'Other' }),
    });
    expect(changed.status).toBe(422);
    const [row] = await t.db
      .select()
      .from(idempotencyKeys)
      .where(eq(idempotencyKeys.key, idem['Idempotency-Key']));
    expect(row).toMatchObject({ userId: null, apiKeyId: key.id });
    // The same Idempotency-Key from a staff member is theirs: a new visit.
    const staff = await t.request<Visit>('POST', '/user/visits', {
      token: admin,
      headers: idem,
      json: visit(),
    });
    expect(staff.status).toBe(201);
    expect(staff.body.data!.id).not.toBe(first.body.data!.id);
    const recorded = await t.db
      .select({ id: visits.id })
      .from(visits)
      .where(eq(visits.attendantName, 'Till 1'));
    expect(recorded.map((v) => v.id)).toEqual(
      expect.arrayContaining([first.body.data!.id, staff.body.data!.id]),
    );
  });
});
