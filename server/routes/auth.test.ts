import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  authMessages,
  type LoginResponse,
  loginResponseSchema,
  RESET_MAIL_SUBJECT,
} from '../../contract/auth';
import { createRole, createSuperAdmin, createUser, setupTestServer, signIn } from '../../tests/setup/server';
import { API_BASE, createApp } from '../app';
import { events, mailOutbox, passwordResetCodes, rateLimitHits, refreshTokens } from '../db/schema';
import { actions } from '../domain/events';
import { REFRESH_GRACE_MS } from '../domain/sessions';
import { silentLogger } from '../log';

const t = setupTestServer();
const ADMIN = { email: 'root@rewardclub.test', password: 'Sup3rSecret' };

beforeAll(async () => {
  await createSuperAdmin(t.db, ADMIN.email, ADMIN.password);
});

const login = (json: unknown, headers?: Record<string, string>) =>
  t.request<LoginResponse>('POST', '/admin/auth/login', { json, headers });

describe('POST /admin/auth/login', () => {
  it('signs in and returns tokens and the session user', async () => {
    const res = await login(ADMIN);
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.message).toBe(authMessages.loginSuccess);
    expect(res.body.errors).toEqual([]);
    const data = loginResponseSchema.parse(res.body.data);
    expect(data.user).toMatchObject({ email: ADMIN.email, firstName: 'Ada', userType: 'ADMIN' });
    expect(data.user.role?.name).toBe('Super Admin');
    expect(data.user.permissions).toContain('dashboard.view');
    expect(data.refreshToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('accepts the email in any case and with spaces around it', async () => {
    const res = await login({ email: '  ROOT@RewardClub.test ', password: ADMIN.password });
    expect(res.status).toBe(200);
  });

  it('answers wrong password and unknown email the same way', async () => {
    const wrong = await login({ email: ADMIN.email, password: 'nope' });
    const unknown = await login({ email: 'ghost@rewardclub.test', password: 'nope' });
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({
        success: false,
        data: null,
        message: authMessages.invalidCredentials,
        errors: [],
      });
    }
  });

  it.each([
    [
      {},
      [
        { fieldName: 'email', message: 'required' },
        { fieldName: 'password', message: 'Pls enter your password' },
      ],
    ],
    [
      { email: '', password: '' },
      [
        { fieldName: 'email', message: 'required' },
        { fieldName: 'password', message: 'Pls enter your password' },
      ],
    ],
    [
      { email: 'not-an-email', password: 'x' },
      [{ fieldName: 'email', message: 'pls provide a valid email' }],
    ],
    [{ email: 123, password: 'x' }, [{ fieldName: 'email', message: 'required' }]],
    [
      { email: ['a@b.co'], password: ['x'] },
      [
        { fieldName: 'email', message: 'required' },
        { fieldName: 'password', message: 'Pls enter your password' },
      ],
    ],
    [
      { email: null, password: null },
      [
        { fieldName: 'email', message: 'required' },
        { fieldName: 'password', message: 'Pls enter your password' },
      ],
    ],
    [
      { email: `${'a'.repeat(300)}@x.co`, password: 'x' },
      [{ fieldName: 'email', message: 'pls provide a valid email' }],
    ],
  ])('validates %j', async (json, errors) => {
    const res = await login(json);
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
    expect(res.body.errors).toEqual(errors);
  });

  it('rejects an array or a scalar body with 400, never 500', async () => {
    for (const json of [[], [ADMIN], 'text', 42, null, true]) {
      const res = await login(json);
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect(res.body.success).toBe(false);
    }
  });

  it('rejects malformed JSON and non-JSON content with 400 Invalid JSON body', async () => {
    const bad = await t.request('POST', '/admin/auth/login', {
      body: '{"email": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Invalid JSON body');
    const form = await t.request('POST', '/admin/auth/login', {
      body: 'email=a@b.co&password=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(400);
    expect(form.body.message).toBe('Invalid JSON body');
  });

  it('rejects a 10 MB body with a 413 envelope', async () => {
    const res = await t.request('POST', '/admin/auth/login', {
      json: { email: ADMIN.email, password: 'x'.repeat(10 * 1024 * 1024) },
    });
    expect(res.status).toBe(413);
    expect(res.body.success).toBe(false);
    expect(res.body.message).toMatch(/too large/);
  });

  it('refuses blocked, deleted and invited (no password) users', async () => {
    const blocked = await createUser(t.db, { accountStatus: 'BLOCKED' });
    const deleted = await createUser(t.db, { deletedAt: new Date() });
    const invited = await createUser(t.db, { password: null });
    const b = await login({ email: blocked.email, password: blocked.password });
    expect(b.status).toBe(403);
    expect(b.body.message).toBe(authMessages.accountBlocked);
    expect((await login({ email: deleted.email, password: deleted.password })).status).toBe(401);
    expect((await login({ email: invited.email, password: 'anything' })).status).toBe(401);
  });

  it('throttles after 5 failures per account in 15 minutes, with Retry-After', async () => {
    const user = await createUser(t.db);
    for (let i = 0; i < 5; i++) {
      expect((await login({ email: user.email, password: 'wrong' })).status).toBe(401);
    }
    const blocked = await login({ email: user.email, password: user.password });
    expect(blocked.status).toBe(429);
    expect(blocked.body.message).toBe('Too many failed sign-in attempts. Try again in 15 minutes.');
    expect(Number(blocked.headers.get('retry-after'))).toBe(900);
    // Other accounts are not affected.
    expect((await login(ADMIN)).status).toBe(200);
    t.clock.advance(10 * 60 * 1000);
    const later = await login({ email: user.email, password: user.password });
    expect(later.status).toBe(429);
    expect(Number(later.headers.get('retry-after'))).toBe(300);
    t.clock.advance(300 * 1000 + 1);
    expect((await login({ email: user.email, password: user.password })).status).toBe(200);
    // Success clears the counter.
    const hits = await t.db
      .select()
      .from(rateLimitHits)
      .where(eq(rateLimitHits.bucket, `login:${user.email}`));
    expect(hits).toHaveLength(0);
  });

  it('logs sign-ins and failed attempts with actor, sentence and no secrets', async () => {
    const user = await createUser(t.db, { firstName: 'Chinedu', lastName: 'Eze' });
    await login({ email: user.email, password: 'wrong-Pass1' });
    await login({ email: user.email, password: user.password }, { 'user-agent': 'vitest-agent' });
    const rows = await t.db.select().from(events).where(eq(events.actorId, user.id)).orderBy(events.id);
    expect(rows.map((r) => r.action)).toEqual([actions.failedSignIn, actions.signedIn]);
    expect(rows[1]).toMatchObject({
      actorType: 'ADMIN',
      actorName: 'Chinedu Eze',
      actorOrganization: 'Reward Club',
      entity: 'user',
      entityId: String(user.id),
      userAgent: 'vitest-agent',
    });
    expect(JSON.stringify(rows)).not.toContain('wrong-Pass1');
  });
});

describe('refresh tokens', () => {
  const refresh = (refreshToken: unknown) =>
    t.request<{ accessToken: string; refreshToken: string }>('POST', '/auth/refresh-token', {
      json: { refreshToken },
    });

  it('rotates on every use; the new access token works', async () => {
    const first = await signIn(t, ADMIN.email, ADMIN.password);
    const res = await refresh(first.refreshToken);
    expect(res.status).toBe(200);
    expect(res.body.data?.refreshToken).not.toBe(first.refreshToken);
    const profile = await t.request('GET', '/user/profile', { token: res.body.data!.accessToken });
    expect(profile.status).toBe(200);
    const again = await refresh(res.body.data!.refreshToken);
    expect(again.status).toBe(200);
  });

  it('reuse of a rotated token after the grace revokes the whole family', async () => {
    const first = await signIn(t, ADMIN.email, ADMIN.password);
    const second = (await refresh(first.refreshToken)).body.data!;
    t.clock.advance(REFRESH_GRACE_MS);
    const reuse = await refresh(first.refreshToken);
    expect(reuse.status).toBe(401);
    expect(reuse.body.message).toBe(authMessages.refreshInvalid);
    // The legitimate successor is dead too, and so is its access token.
    expect((await refresh(second.refreshToken)).status).toBe(401);
    expect((await t.request('GET', '/user/profile', { token: second.accessToken })).status).toBe(401);
    const [reuseEvent] = await t.db.select().from(events).where(eq(events.action, actions.tokenReuse));
    expect(reuseEvent).toBeDefined();
  });

  it('two parallel refreshes with the same token: one rotation, both get the same successor', async () => {
    const first = await signIn(t, ADMIN.email, ADMIN.password);
    const results = await Promise.all([refresh(first.refreshToken), refresh(first.refreshToken)]);
    expect(results.map((r) => r.status)).toEqual([200, 200]);
    expect(results[0]!.body.data!.refreshToken).toBe(results[1]!.body.data!.refreshToken);
    expect((await refresh(results[0]!.body.data!.refreshToken)).status).toBe(200);
  });

  // Issue 17, defect 1: the server rotated the token but the reply was lost; the SPA refreshes again
  // with the token it still holds. Before the grace this revoked the family (the user was signed out).
  it('a lost reply: the same token again within the grace yields the same successor, no revocation', async () => {
    const first = await signIn(t, ADMIN.email, ADMIN.password);
    const lost = (await refresh(first.refreshToken)).body.data!;
    t.clock.advance(REFRESH_GRACE_MS - 1000);
    const again = await refresh(first.refreshToken);
    expect(again.status).toBe(200);
    expect(again.body.data!.refreshToken).toBe(lost.refreshToken);
    expect((await t.request('GET', '/user/profile', { token: again.body.data!.accessToken })).status).toBe(
      200,
    );
    const next = await refresh(again.body.data!.refreshToken);
    expect(next.status).toBe(200);
    expect((await refresh(next.body.data!.refreshToken)).status).toBe(200);
  });

  it('within the grace, a token whose successor was already used is a reuse: the family is revoked', async () => {
    const first = await signIn(t, ADMIN.email, ADMIN.password);
    const second = (await refresh(first.refreshToken)).body.data!;
    const third = (await refresh(second.refreshToken)).body.data!;
    expect((await refresh(first.refreshToken)).status).toBe(401);
    expect((await refresh(third.refreshToken)).status).toBe(401);
  });

  it('two instances on one database agree: a token rotated by one yields the same successor on the other', async () => {
    const other = createApp({
      db: t.db,
      clock: t.clock,
      mailer: t.mailer,
      config: t.config,
      log: silentLogger,
    });
    const refreshOn = async (app: typeof other, refreshToken: string) => {
      const res = await app.request(`${API_BASE}/auth/refresh-token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ refreshToken }),
      });
      return { status: res.status, body: (await res.json()) as { data: { refreshToken: string } | null } };
    };
    const first = await signIn(t, ADMIN.email, ADMIN.password);
    const onA = await refresh(first.refreshToken);
    const onB = await refreshOn(other, first.refreshToken);
    expect(onB.status).toBe(200);
    expect(onB.body.data!.refreshToken).toBe(onA.body.data!.refreshToken);
    // After the grace, the other instance too takes a second use as theft.
    const next = await refreshOn(other, onB.body.data!.refreshToken);
    t.clock.advance(REFRESH_GRACE_MS);
    expect((await refresh(onB.body.data!.refreshToken)).status).toBe(401);
    expect((await refreshOn(other, next.body.data!.refreshToken)).status).toBe(401);
  });

  it('rejects unknown, malformed and expired tokens', async () => {
    expect((await refresh('x'.repeat(43))).status).toBe(401);
    expect((await refresh('')).status).toBe(400);
    expect((await refresh(42)).status).toBe(400);
    const tokens = await signIn(t, ADMIN.email, ADMIN.password);
    t.clock.advance(7 * 24 * 3600 * 1000 + 1000);
    expect((await refresh(tokens.refreshToken)).status).toBe(401);
  });

  it('stores only hashes', async () => {
    const tokens = await signIn(t, ADMIN.email, ADMIN.password);
    const rows = await t.db.select({ h: refreshTokens.tokenHash }).from(refreshTokens);
    expect(rows.some((r) => r.h === tokens.refreshToken)).toBe(false);
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.h))).toBe(true);
  });
});

describe('access tokens and logout', () => {
  it('an expired access token gets 401', async () => {
    const tokens = await signIn(t, ADMIN.email, ADMIN.password);
    t.clock.advance(899 * 1000);
    expect((await t.request('GET', '/user/profile', { token: tokens.accessToken })).status).toBe(200);
    t.clock.advance(2 * 1000);
    const res = await t.request('GET', '/user/profile', { token: tokens.accessToken });
    expect(res.status).toBe(401);
    expect(res.body.message).toBe(authMessages.sessionInvalid);
  });

  it('a forged or garbage token gets 401, no token gets 401', async () => {
    const tokens = await signIn(t, ADMIN.email, ADMIN.password);
    const [h, p] = tokens.accessToken.split('.');
    for (const token of [`${h}.${p}.AAAA`, 'garbage', `${tokens.accessToken}x`]) {
      expect((await t.request('GET', '/user/profile', { token })).status).toBe(401);
    }
    const none = await t.request('GET', '/user/profile');
    expect(none.status).toBe(401);
    expect(none.body.message).toBe(authMessages.unauthenticated);
  });

  it('logout revokes the session: refresh token and access token stop working', async () => {
    const tokens = await signIn(t, ADMIN.email, ADMIN.password);
    const other = await signIn(t, ADMIN.email, ADMIN.password);
    const res = await t.request('POST', '/auth/logout', { token: tokens.accessToken });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe(authMessages.loggedOut);
    expect(
      (await t.request('POST', '/auth/refresh-token', { json: { refreshToken: tokens.refreshToken } }))
        .status,
    ).toBe(401);
    expect((await t.request('GET', '/user/profile', { token: tokens.accessToken })).status).toBe(401);
    // Another session of the same user lives on.
    expect((await t.request('GET', '/user/profile', { token: other.accessToken })).status).toBe(200);
    expect((await t.request('POST', '/auth/logout')).status).toBe(401);
  });

  it('a blocked user is locked out at once', async () => {
    const user = await createUser(t.db, {
      roleId: (await createRole(t.db, 'Viewer', ['dashboard.view'])).id,
    });
    const tokens = await signIn(t, user.email, user.password);
    expect((await t.request('GET', '/admin/user/stats', { token: tokens.accessToken })).status).toBe(200);
    const { users } = await import('../db/schema');
    await t.db
      .update(users)
      .set({ accountStatus: 'BLOCKED' })
      .where(and(eq(users.id, user.id)));
    expect((await t.request('GET', '/admin/user/stats', { token: tokens.accessToken })).status).toBe(401);
    expect(
      (await t.request('POST', '/auth/refresh-token', { json: { refreshToken: tokens.refreshToken } }))
        .status,
    ).toBe(401);
  });
});

describe('password reset by code', () => {
  const requestReset = (email: unknown) =>
    t.request('POST', '/auth/password-reset-request', { json: { email } });
  const updatePassword = (resetCode: unknown, newPassword: unknown) =>
    t.request('PATCH', '/auth/update-password', { json: { resetCode, newPassword } });

  it('answers the same whether or not the email exists', async () => {
    const user = await createUser(t.db);
    const known = await requestReset(user.email);
    const unknown = await requestReset('nobody@rewardclub.test');
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(known.body).toEqual(unknown.body);
    expect(known.body.message).toBe(authMessages.resetRequested);
    expect(await t.lastResetCode('nobody@rewardclub.test')).toBeUndefined();
  });

  it('validates the email', async () => {
    const res = await requestReset('nope');
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ fieldName: 'email', message: 'pls provide a valid email' }]);
  });

  it('mails a code (an .eml file) that works once, then never again; sessions end', async () => {
    const user = await createUser(t.db);
    const session = await signIn(t, user.email, user.password);
    await requestReset(user.email);
    const mails = await t.mails();
    const mail = mails.find((m) => m.raw.includes(`To: ${user.email}`));
    expect(mail?.file).toMatch(/^\d{4}-\d{2}-\d{2}T[\d-]+Z-\d+\.eml$/);
    expect(mail?.raw).toContain(`Subject: ${RESET_MAIL_SUBJECT}`);
    const code = await t.lastResetCode(user.email);
    expect(code).toMatch(/^[A-HJ-NP-Z2-9]{8}$/);

    const done = await updatePassword(code!.toLowerCase(), 'NewPassw0rd');
    expect(done.status).toBe(200);
    expect(done.body.message).toBe(authMessages.passwordUpdated);
    expect((await login({ email: user.email, password: 'NewPassw0rd' })).status).toBe(200);
    expect((await login({ email: user.email, password: user.password })).status).toBe(401);
    // All earlier sessions were revoked.
    expect(
      (await t.request('POST', '/auth/refresh-token', { json: { refreshToken: session.refreshToken } }))
        .status,
    ).toBe(401);

    const again = await updatePassword(code, 'OtherPassw0rd');
    expect(again.status).toBe(400);
    expect(again.body.errors).toEqual([
      { fieldName: 'resetCode', message: 'Reset code is invalid or has expired' },
    ]);
    const actionsOf = (await t.db.select().from(events).where(eq(events.actorId, user.id))).map(
      (e) => e.action,
    );
    expect(actionsOf).toEqual(expect.arrayContaining([actions.resetRequested, actions.resetCompleted]));
  });

  it('a code expires after 15 minutes', async () => {
    const user = await createUser(t.db);
    await requestReset(user.email);
    const code = await t.lastResetCode(user.email);
    t.clock.advance(15 * 60 * 1000 + 1000);
    const res = await updatePassword(code, 'NewPassw0rd');
    expect(res.status).toBe(400);
    expect(res.body.errors[0]?.fieldName).toBe('resetCode');
  });

  it('a newer code replaces the older one', async () => {
    const user = await createUser(t.db);
    await requestReset(user.email);
    const first = await t.lastResetCode(user.email);
    t.clock.advance(1000);
    await requestReset(user.email);
    const second = await t.lastResetCode(user.email);
    expect(second).not.toBe(first);
    expect((await updatePassword(first, 'NewPassw0rd')).status).toBe(400);
    expect((await updatePassword(second, 'NewPassw0rd')).status).toBe(200);
  });

  it('validates the new password with the spec message and never stores or logs the code', async () => {
    const user = await createUser(t.db);
    await requestReset(user.email);
    const code = (await t.lastResetCode(user.email))!;
    const weak = await updatePassword(code, 'weak');
    expect(weak.status).toBe(400);
    expect(weak.body.errors).toEqual([
      { fieldName: 'newPassword', message: 'Please create a secure password' },
    ]);
    const missing = await updatePassword('', 'NewPassw0rd');
    expect(missing.body.errors).toEqual([{ fieldName: 'resetCode', message: 'Reset code is required' }]);
    const dump = JSON.stringify([
      await t.db.select().from(passwordResetCodes),
      await t.db.select().from(events),
      await t.db.select().from(mailOutbox),
    ]);
    expect(dump).not.toContain(code);
  });
});
