import { eq } from 'drizzle-orm';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authMessages } from '../../contract/auth';
import { permissionCatalogue } from '../../contract/permissions';
import {
  createRole,
  createSuperAdmin,
  createUser,
  setupTestServer,
  signIn,
  type Tokens,
} from '../../tests/setup/server';
import { users } from '../db/schema';

/**
 * Access tokens under attack (issue 8 item 3): every forged, stale, misused or outlived token is
 * refused with 401, and permissions follow the role at each request. Each case is counted; a case
 * whose answer differs from the expected one is a violation.
 */
const t = setupTestServer();
const idOf = (name: string) => permissionCatalogue.find((p) => p.name === name)!.id;

let adminToken: string;
let adminLogin: { email: string; password: string };
const cases: { name: string; expected: number; got: number }[] = [];

/** GET /admin/user/customers (clients.view) with a bearer token; the answer is counted as a case. */
async function attempt(name: string, token: string, expected: number, path = '/admin/user/customers') {
  const res = await t.request('GET', path, { token });
  cases.push({ name, expected, got: res.status });
  if (expected === 401) {
    expect(res.body, name).toEqual({
      success: false,
      data: null,
      message: authMessages.sessionInvalid,
      code: 'unauthenticated',
      errors: [],
    });
  }
  return res;
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const parts = (token: string) => {
  const [header, payload, signature] = token.split('.') as [string, string, string];
  return {
    header: JSON.parse(Buffer.from(header, 'base64url').toString()) as Record<string, unknown>,
    payload: JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>,
    signature,
    raw: { header, payload },
  };
};

/** A token signed the way the server signs, with claims and header changed at will. */
async function mint(
  claims: Record<string, unknown>,
  o: { secret?: string; alg?: string; header?: Record<string, unknown>; omit?: string[] } = {},
) {
  const nowS = Math.floor(t.clock().getTime() / 1000);
  const payload: Record<string, unknown> = {
    iss: 'reward-club',
    aud: 'reward-club-admin',
    iat: nowS,
    exp: nowS + 900,
    ...claims,
  };
  for (const k of o.omit ?? []) delete payload[k];
  return new SignJWT(payload)
    .setProtectedHeader({ alg: o.alg ?? 'HS256', typ: 'JWT', ...o.header })
    .sign(new TextEncoder().encode(o.secret ?? t.config.jwtSecret));
}

let viewer: { id: number; email: string; password: string };
let viewerTokens: Tokens;
let viewerRoleId: number;

beforeAll(async () => {
  adminLogin = await createSuperAdmin(t.db);
  adminToken = (await signIn(t, adminLogin.email, adminLogin.password)).accessToken;
  viewerRoleId = (await createRole(t.db, 'Client viewer', ['clients.view', 'dashboard.view'])).id;
  viewer = await createUser(t.db, { roleId: viewerRoleId });
  viewerTokens = await signIn(t, viewer.email, viewer.password);
});

afterAll(() => {
  const violations = cases.filter((c) => c.expected !== c.got);
  console.log(
    `[figure] access tokens: ${cases.length} cases tried, ${violations.length} violations found${violations.length ? `: ${violations.map((v) => `${v.name} (${v.got}, expected ${v.expected})`).join('; ')}` : ''}`,
  );
});

describe('forged and altered tokens', () => {
  it('the genuine token and a token minted the same way work (the control)', async () => {
    expect((await attempt('genuine token', viewerTokens.accessToken, 200)).status).toBe(200);
    const { payload } = parts(viewerTokens.accessToken);
    const same = await mint({ sub: payload.sub, sid: payload.sid });
    expect((await attempt('re-minted with the server key', same, 200)).status).toBe(200);
  });

  it('alg none, with and without a signature, and other algorithms are refused', async () => {
    const { raw, signature } = parts(viewerTokens.accessToken);
    for (const alg of ['none', 'None', 'NONE']) {
      const header = b64({ alg, typ: 'JWT' });
      await attempt(`alg ${alg}, empty signature`, `${header}.${raw.payload}.`, 401);
      await attempt(`alg ${alg}, signature kept`, `${header}.${raw.payload}.${signature}`, 401);
    }
    const { payload } = parts(viewerTokens.accessToken);
    const claims = { sub: payload.sub, sid: payload.sid };
    await attempt('HS512 with the server key', await mint(claims, { alg: 'HS512' }), 401);
    await attempt('HS384 with the server key', await mint(claims, { alg: 'HS384' }), 401);
    // Algorithm confusion: an RS256 header over an HMAC made with the server key.
    const hs = await mint(claims);
    const [, p, s] = hs.split('.');
    await attempt('RS256 header on an HMAC signature', `${b64({ alg: 'RS256', typ: 'JWT' })}.${p}.${s}`, 401);
    await attempt('another typ', await mint(claims, { header: { typ: 'at+jwt' } }), 401);
    expect(cases.every((c) => c.got === c.expected)).toBe(true);
  });

  it('a wrong signature, a tampered payload or header: 401', async () => {
    const { raw, payload, signature } = parts(viewerTokens.accessToken);
    const claims = { sub: payload.sub, sid: payload.sid };
    await attempt('signed with another key', await mint(claims, { secret: 'x'.repeat(64) }), 401);
    await attempt(
      'signature of another token',
      `${raw.header}.${raw.payload}.${parts(adminToken).signature}`,
      401,
    );
    const flipped = signature.slice(0, -2) + (signature.at(-2) === 'A' ? 'B' : 'A') + signature.at(-1);
    await attempt('one signature character changed', `${raw.header}.${raw.payload}.${flipped}`, 401);
    await attempt('signature cut', `${raw.header}.${raw.payload}.${signature.slice(0, 20)}`, 401);
    const admin = parts(adminToken).payload;
    await attempt(
      'sub changed to the admin',
      `${raw.header}.${b64({ ...payload, sub: admin.sub })}.${signature}`,
      401,
    );
    await attempt('sid changed', `${raw.header}.${b64({ ...payload, sid: admin.sid })}.${signature}`, 401);
    await attempt(
      'exp extended',
      `${raw.header}.${b64({ ...payload, exp: Number(payload.exp) + 86_400 })}.${signature}`,
      401,
    );
    await attempt(
      'role claim added',
      `${raw.header}.${b64({ ...payload, role: 'Super Admin' })}.${signature}`,
      401,
    );
    await attempt(
      'header kid added',
      `${b64({ alg: 'HS256', typ: 'JWT', kid: 'x' })}.${raw.payload}.${signature}`,
      401,
    );
    await attempt('two segments', `${raw.header}.${raw.payload}`, 401);
    await attempt('garbage', 'not-a-token', 401);
    expect(cases.every((c) => c.got === c.expected)).toBe(true);
  });

  it('signed with the server key but wrong in its claims: 401', async () => {
    const { payload } = parts(viewerTokens.accessToken);
    const claims = { sub: payload.sub, sid: payload.sid };
    const nowS = Math.floor(t.clock().getTime() / 1000);
    await attempt('another issuer', await mint({ ...claims, iss: 'someone-else' }), 401);
    await attempt('another audience', await mint({ ...claims, aud: 'reward-club-customer' }), 401);
    for (const claim of ['exp', 'iat', 'sub', 'sid', 'iss', 'aud']) {
      await attempt(`no ${claim}`, await mint(claims, { omit: [claim] }), 401);
    }
    await attempt('sub not a number', await mint({ ...claims, sub: 'admin' }), 401);
    await attempt('sub negative', await mint({ ...claims, sub: '-1' }), 401);
    await attempt(
      'sub of another user, own sid',
      await mint({ ...claims, sub: parts(adminToken).payload.sub }),
      401,
    );
    await attempt(
      'sid of no session',
      await mint({ ...claims, sid: '00000000-0000-4000-8000-000000000000' }),
      401,
    );
    await attempt(
      'lifetime longer than the TTL',
      await mint({ ...claims, iat: nowS - 1000, exp: nowS + 1000 }),
      401,
    );
    expect(cases.every((c) => c.got === c.expected)).toBe(true);
  });
});

describe('time', () => {
  it('expired and not-yet-valid tokens: 401', async () => {
    const { payload } = parts(viewerTokens.accessToken);
    const claims = { sub: payload.sub, sid: payload.sid };
    const nowS = Math.floor(t.clock().getTime() / 1000);
    await attempt('expired a second ago', await mint({ ...claims, iat: nowS - 900, exp: nowS - 1 }), 401);
    await attempt('expiring now', await mint({ ...claims, iat: nowS - 900, exp: nowS }), 401);
    await attempt('not before in a minute', await mint({ ...claims, nbf: nowS + 60 }), 401);
    await attempt('issued in the future', await mint({ ...claims, iat: nowS + 300, exp: nowS + 1200 }), 401);
    // The genuine token runs out with the clock.
    const tokens = await signIn(t, viewer.email, viewer.password);
    t.clock.advance(899 * 1000);
    await attempt('genuine, 1 s before expiry', tokens.accessToken, 200);
    t.clock.advance(1000);
    await attempt('genuine, at expiry', tokens.accessToken, 401);
    // The clock moved 15 minutes: the tokens the later tests use are fresh ones.
    viewerTokens = await signIn(t, viewer.email, viewer.password);
    adminToken = (await signIn(t, adminLogin.email, adminLogin.password)).accessToken;
    expect(cases.every((c) => c.got === c.expected)).toBe(true);
  });
});

describe('tokens in the wrong place', () => {
  it('a refresh token is no access token, an access token is no refresh token', async () => {
    const tokens = await signIn(t, viewer.email, viewer.password);
    await attempt('refresh token as bearer', tokens.refreshToken, 401);
    const asRefresh = await t.request('POST', '/auth/refresh-token', {
      json: { refreshToken: tokens.accessToken },
    });
    cases.push({ name: 'access token as refresh token', expected: 401, got: asRefresh.status });
    expect(asRefresh.body.message).toBe(authMessages.refreshInvalid);
    // Both still work where they belong.
    await attempt('access token after the misuse', tokens.accessToken, 200);
    const refreshed = await t.request('POST', '/auth/refresh-token', {
      json: { refreshToken: tokens.refreshToken },
    });
    cases.push({ name: 'refresh token after the misuse', expected: 200, got: refreshed.status });
    expect(cases.every((c) => c.got === c.expected)).toBe(true);
  });
});

describe('the user behind a live token', () => {
  it('deleted or blocked while the token lives: 401 at the next request', async () => {
    const role = await createRole(t.db, 'Short-lived', ['clients.view']);
    const doomed = await createUser(t.db, { roleId: role.id });
    const blocked = await createUser(t.db, { roleId: role.id });
    const d = await signIn(t, doomed.email, doomed.password);
    const b = await signIn(t, blocked.email, blocked.password);
    await attempt('before deletion', d.accessToken, 200);
    const del = await t.request('DELETE', `/admin/user/delete-admin-user/${doomed.id}`, {
      token: adminToken,
    });
    expect(del.status, del.text).toBe(200);
    await attempt('token of a deleted user', d.accessToken, 401);
    const refresh = await t.request('POST', '/auth/refresh-token', {
      json: { refreshToken: d.refreshToken },
    });
    cases.push({ name: 'refresh token of a deleted user', expected: 401, got: refresh.status });

    await attempt('before blocking', b.accessToken, 200);
    await t.db.update(users).set({ accountStatus: 'BLOCKED' }).where(eq(users.id, blocked.id));
    await attempt('token of a blocked user', b.accessToken, 401);
    await t.db.update(users).set({ accountStatus: 'ACTIVE' }).where(eq(users.id, blocked.id));
    // Unblocked, the same live session works again (it was not revoked, only refused).
    await attempt('token after unblocking', b.accessToken, 200);
    expect(cases.every((c) => c.got === c.expected)).toBe(true);
  });

  it('a role changed while the token lives: the next request has the new permissions', async () => {
    const role = await createRole(t.db, 'Changing', ['clients.view']);
    const member = await createUser(t.db, { roleId: role.id });
    const { accessToken } = await signIn(t, member.email, member.password);
    await attempt('permission held', accessToken, 200);
    await attempt('permission not held', accessToken, 403, '/admin/partners');

    const updateRole = (permissionIds: number[]) =>
      t.request('PATCH', '/admin/user/update-role', {
        json: { roleId: role.id, roleName: 'Changing', permissionIds },
        token: adminToken,
      });
    expect((await updateRole([idOf('partners.view')])).status).toBe(200);
    await attempt('permission taken from the role', accessToken, 403);
    await attempt('permission given to the role', accessToken, 200, '/admin/partners');

    // Moved to another role by an admin.
    const other = await createRole(t.db, 'Other', ['clients.view']);
    const moved = await t.request('PATCH', '/admin/user/update-admin-user', {
      json: { userId: member.id, roleId: other.id },
      token: adminToken,
    });
    expect(moved.status, moved.text).toBe(200);
    await attempt('after moving to a role with it', accessToken, 200);
    await attempt('after moving to a role without it', accessToken, 403, '/admin/partners');
    // The profile tells the SPA the new permissions too.
    const profile = await t.request<{ permissions: string[] }>('GET', '/user/profile', {
      token: accessToken,
    });
    expect(profile.body.data?.permissions).toEqual(['clients.view']);
    expect(cases.every((c) => c.got === c.expected)).toBe(true);
  });

  it('a signed-out session and a reset password end the live token', async () => {
    const s1 = await signIn(t, viewer.email, viewer.password);
    expect((await t.request('POST', '/auth/logout', { token: s1.accessToken })).status).toBe(200);
    await attempt('token after sign-out', s1.accessToken, 401);
    expect(cases.every((c) => c.got === c.expected)).toBe(true);
  });
});

describe('figure', () => {
  it('no violation among all cases', () => {
    expect(cases.length).toBeGreaterThan(40);
    expect(cases.filter((c) => c.expected !== c.got)).toEqual([]);
  });
});
