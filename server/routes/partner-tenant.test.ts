import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { authMessages } from '../../contract/auth';
import { partnerInactiveMessages } from '../../contract/partners';
import { ALL_PERMISSION_NAMES } from '../../contract/permissions';
import type { RedemptionResult } from '../../contract/redemption';
import { roleServerMessages } from '../../contract/roles';
import { staffServerMessages } from '../../contract/staff';
import {
  createCustomer,
  createPartner,
  createReward,
  createRole,
  createSuperAdmin,
  createUser,
  createVisit,
  PNG_BASE64,
  setupTestServer,
  signIn,
} from '../../tests/setup/server';
import { partners, roles, users } from '../db/schema';
import { PARTNER_BLOCKED } from '../http/access';

/**
 * Issue 16, defects 1 to 7, each as an attacker (or a cashier) would meet it: partner staff whose
 * role holds every permission, at partner A, against partner B and the club (decision 023).
 */
const t = setupTestServer();
/** Like sign-in (server/domain/rate-limit.ts PASSWORD_CHANGE_LIMIT), spelled out so the test reads alone. */
const PASSWORD_CHANGE_LIMIT = { limit: 5, windowMs: 15 * 60 * 1000 };
let partnerA: { id: number };
let partnerB: { id: number };
let superAdmin: { id: number; email: string; password: string };
let adminToken: string;
let staffA: { id: number; email: string; password: string };
let tokenA: string;

beforeAll(async () => {
  superAdmin = await createSuperAdmin(t.db);
  adminToken = (await signIn(t, superAdmin.email, superAdmin.password)).accessToken;
  partnerA = await createPartner(t.db, { organizationName: 'Shop A' });
  partnerB = await createPartner(t.db, { organizationName: 'Shop B' });
  const everything = await createRole(t.db, 'Partner role, every permission', ALL_PERMISSION_NAMES);
  staffA = await createUser(t.db, { roleId: everything.id, userType: 'PARTNER', partnerId: partnerA.id });
  tokenA = (await signIn(t, staffA.email, staffA.password)).accessToken;
});

describe('defect 1: partner staff cannot edit, block or delete other partners', () => {
  it('update-record, update-status and delete of partner B are refused; B is unchanged', async () => {
    const edit = await t.request('PATCH', '/admin/partners/update-record', {
      token: tokenA,
      json: { partnerId: partnerB.id, organizationName: 'Hijacked' },
    });
    const block = await t.request('PATCH', '/admin/partners/update-status', {
      token: tokenA,
      json: { partnerId: partnerB.id, accountStatus: 'BLOCKED' },
    });
    const remove = await t.request('DELETE', `/admin/partners/${partnerB.id}`, { token: tokenA });
    for (const res of [edit, block, remove]) {
      expect([403, 404], res.text).toContain(res.status);
      expect(res.body.success).toBe(false);
    }
    const [b] = await t.db.select().from(partners).where(eq(partners.id, partnerB.id));
    expect(b).toMatchObject({ organizationName: 'Shop B', accountStatus: 'ACTIVE', deletedAt: null });
  });
});

describe('defect 2: no unscoped invitations, no password takeover', () => {
  it('an invitation without a partner belongs to the inviter’s partner; another partner’s id is refused', async () => {
    // A partner role: partner staff give no other (issue 28).
    const roleId = (await createRole(t.db, 'Cashier', ['rewards.redeem'], false, true)).id;
    const own = await t.request<{ id: number }>('POST', '/admin/user/new-admin-user', {
      token: tokenA,
      json: { firstName: 'New', lastName: 'Cashier', email: 'new-cashier@rewardclub.test', roleId },
    });
    expect(own.status, own.text).toBe(201);
    const [created] = await t.db.select().from(users).where(eq(users.id, own.body.data!.id));
    expect(created).toMatchObject({ partnerId: partnerA.id, userType: 'PARTNER' });
    const foreign = await t.request('POST', '/admin/user/new-admin-user', {
      token: tokenA,
      json: {
        firstName: 'Other',
        lastName: 'Cashier',
        email: 'other-cashier@rewardclub.test',
        roleId,
        partnerId: partnerB.id,
      },
    });
    expect([403, 404]).toContain(foreign.status);
    expect(await t.db.select().from(users).where(eq(users.email, 'other-cashier@rewardclub.test'))).toEqual(
      [],
    );
  });

  it('update-admin-user cannot set the Super Admin’s password (nor a club member’s)', async () => {
    const res = await t.request('PATCH', '/admin/user/update-admin-user', {
      token: tokenA,
      json: { userId: superAdmin.id, password: 'Hijack123' },
    });
    expect([403, 404]).toContain(res.status);
    const clubMember = await createUser(t.db, { roleId: (await createRole(t.db, 'Viewer', [])).id });
    const res2 = await t.request('PATCH', '/admin/user/update-admin-user', {
      token: tokenA,
      json: { userId: clubMember.id, password: 'Hijack123' },
    });
    expect([403, 404]).toContain(res2.status);
    expect(
      (
        await t.request('POST', '/admin/auth/login', {
          json: { email: superAdmin.email, password: 'Hijack123' },
        })
      ).status,
    ).toBe(401);
    // A club member with every permission but not the built-in role cannot either.
    const deputyRole = await createRole(t.db, 'Deputy', ALL_PERMISSION_NAMES);
    const deputy = await createUser(t.db, { roleId: deputyRole.id });
    const deputyToken = (await signIn(t, deputy.email, deputy.password)).accessToken;
    const res3 = await t.request('PATCH', '/admin/user/update-admin-user', {
      token: deputyToken,
      json: { userId: superAdmin.id, password: 'Hijack123' },
    });
    expect(res3.status).toBe(403);
    expect(res3.body.message).toBe(staffServerMessages.superAdminOnly);
  });
});

describe('defect 3: shared lists answer partner staff for their partner only', () => {
  it('customers: only those linked to partner A (their visits and rewards there made the links)', async () => {
    const visitor = await createCustomer(t.db, { firstName: 'Visitor' });
    const holder = await createCustomer(t.db, { firstName: 'Holder' });
    const stranger = await createCustomer(t.db, { firstName: 'Stranger' });
    await createVisit(t.db, {
      partnerId: partnerA.id,
      customerId: visitor.id,
      visitDate: new Date('2026-03-01T10:00:00Z'),
      amount: 1_000,
    });
    await createReward(t.db, { partnerId: partnerA.id, customerId: holder.id });
    await createVisit(t.db, {
      partnerId: partnerB.id,
      customerId: stranger.id,
      visitDate: new Date('2026-03-01T10:00:00Z'),
      amount: 1_000,
    });
    const list = await t.request<{ records: { id: number }[]; meta: { totalCount: number } }>(
      'GET',
      '/admin/user/customers?pageSize=100',
      { token: tokenA },
    );
    expect(list.status, list.text).toBe(200);
    const ids = list.body.data!.records.map((r) => r.id);
    expect(ids).toContain(visitor.id);
    expect(ids).toContain(holder.id);
    expect(ids).not.toContain(stranger.id);
    expect(list.body.data!.meta.totalCount).toBe(ids.length);
    // Not linked to A: the link gate's 403, the same as for an id nobody has (decision 053).
    expect((await t.request('GET', `/admin/user/customers/${stranger.id}`, { token: tokenA })).status).toBe(
      403,
    );
    // The club's admin sees them all.
    const all = await t.request<{ records: { id: number }[] }>('GET', '/admin/user/customers?pageSize=100', {
      token: adminToken,
    });
    expect(all.body.data!.records.map((r) => r.id)).toContain(stranger.id);
  });

  it('activity log: only events of partner A’s users; club figures refused', async () => {
    const staffB = await createUser(t.db, {
      roleId: (await createRole(t.db, 'B staff', [])).id,
      userType: 'PARTNER',
      partnerId: partnerB.id,
    });
    await signIn(t, staffB.email, staffB.password); // a 'Signed in' event of partner B
    const log = await t.request<{ records: { user: { id: number | null } }[] }>(
      'GET',
      '/admin/user/activities?userType=PARTNER&pageSize=100',
      { token: tokenA },
    );
    expect(log.status, log.text).toBe(200);
    const actors = new Set(log.body.data!.records.map((r) => r.user.id));
    expect(actors.has(staffA.id)).toBe(true);
    expect(actors.has(staffB.id)).toBe(false);
    const admins = await t.request<{ records: unknown[] }>('GET', '/admin/user/activities?userType=ADMIN', {
      token: tokenA,
    });
    expect(admins.body.data!.records).toEqual([]);
    expect((await t.request('GET', '/admin/user/stats', { token: tokenA })).status).toBe(403);
  });
});

describe('defect 4: roles', () => {
  it('a user lacking a role’s permissions cannot edit or delete it; partner staff cannot edit club roles', async () => {
    const powerful = await createRole(t.db, 'Powerful', ['partners.delete', 'roles.view']);
    const editorRole = await createRole(t.db, 'Role editor', ['roles.view', 'roles.update', 'roles.delete']);
    const editor = await createUser(t.db, { roleId: editorRole.id });
    const editorToken = (await signIn(t, editor.email, editor.password)).accessToken;
    const editNamed = await t.request('PATCH', '/admin/user/update-role', {
      token: editorToken,
      json: { roleId: powerful.id, roleName: 'Tamed', permissionIds: [1] },
    });
    expect(editNamed.status).toBe(403);
    expect(editNamed.body.message).toBe(roleServerMessages.outranked);
    const del = await t.request('DELETE', `/admin/user/delete-role/${powerful.id}`, { token: editorToken });
    expect(del.status).toBe(403);
    expect(del.body.message).toBe(roleServerMessages.outranked);
    const fromPartner = await t.request('PATCH', '/admin/user/update-role', {
      token: tokenA,
      json: { roleId: editorRole.id, roleName: 'Renamed by a partner', permissionIds: [1] },
    });
    expect(fromPartner.status).toBe(403);
    const [still] = await t.db.select().from(roles).where(eq(roles.id, powerful.id));
    expect(still).toMatchObject({ name: 'Powerful' });
  });
});

describe('defect 5: a blocked partner issues, redeems and records nothing', () => {
  it('409 with the reason; its staff see why in their profile', async () => {
    const shop = await createPartner(t.db, { organizationName: 'Blocked shop' });
    const role = await createRole(t.db, 'Blocked cashier', ALL_PERMISSION_NAMES);
    const cashier = await createUser(t.db, { roleId: role.id, userType: 'PARTNER', partnerId: shop.id });
    const token = (await signIn(t, cashier.email, cashier.password)).accessToken;
    const customer = await createCustomer(t.db);
    const reward = await createReward(t.db, { partnerId: shop.id, customerId: customer.id });
    const sent = await t.request('POST', '/partners/rewards/initiate-reward-redemption-auth', {
      token,
      json: { userId: customer.id, code: reward.code },
    });
    expect(sent.status, sent.text).toBe(200);
    const otp = (await t.lastOtp(customer.email))!;
    await t.db.update(partners).set({ accountStatus: 'BLOCKED' }).where(eq(partners.id, shop.id));
    const redeem = await t.request('POST', '/partners/rewards/redeem-giftcard', {
      token,
      json: { userId: customer.id, code: reward.code, amountToRedeem: 100, otp },
    });
    const issue = await t.request('POST', '/partners/rewards/issue-reward', {
      token,
      json: {
        rewardType: 'GIFTCARD',
        title: 'x',
        description: 'y',
        promotionalImage: PNG_BASE64,
        issuedTo: customer.id,
      },
    });
    const visit = await t.request('POST', '/user/visits', {
      token,
      json: {
        partnerId: shop.id,
        customerId: customer.id,
        attendantName: 'Bisi',
        visitDate: '2026-03-02T08:00:00.000Z',
        items: [{ name: 'Rice', quantity: 1, price: 100 }],
      },
    });
    const resend = await t.request('POST', '/partners/rewards/initiate-reward-redemption-auth', {
      token,
      json: { userId: customer.id, code: reward.code },
    });
    // Its staff change nothing (issue 28): refused at the door, 403 partner_blocked with the reason.
    for (const res of [redeem, issue, visit, resend]) {
      expect(res.status, res.text).toBe(403);
      expect(res.body.code).toBe('partner_blocked');
      expect(res.body.message).toBe(PARTNER_BLOCKED);
    }
    // A club admin acting at the blocked partner meets the 409 with the partner's reason.
    const byAdmin = await t.request('POST', '/user/visits', {
      token: adminToken,
      json: {
        partnerId: shop.id,
        customerId: customer.id,
        attendantName: 'Bisi',
        visitDate: '2026-03-02T08:00:00.000Z',
        items: [{ name: 'Rice', quantity: 1, price: 100 }],
      },
    });
    expect(byAdmin.status, byAdmin.text).toBe(409);
    expect(byAdmin.body.message).toBe(partnerInactiveMessages.BLOCKED);
    const profile = await t.request<{ partner: unknown }>('GET', '/user/profile', { token });
    expect(profile.body.data!.partner).toEqual({
      id: shop.id,
      organizationName: 'Blocked shop',
      status: 'BLOCKED',
      canTransact: false,
      inactiveReason: partnerInactiveMessages.BLOCKED,
    });
  });
});

describe('defect 6: a redemption code is bound to its reward', () => {
  it('a new code at partner B leaves the customer’s code at partner A valid', async () => {
    const customer = await createCustomer(t.db);
    const atA = await createReward(t.db, { partnerId: partnerA.id, customerId: customer.id });
    const atB = await createReward(t.db, { partnerId: partnerB.id, customerId: customer.id });
    const cashierRole = await createRole(t.db, 'Club cashier', ['rewards.redeem']);
    const clubCashier = await createUser(t.db, { roleId: cashierRole.id });
    const cashierToken = (await signIn(t, clubCashier.email, clubCashier.password)).accessToken;
    const send = (code: string) =>
      t.request('POST', '/partners/rewards/initiate-reward-redemption-auth', {
        token: cashierToken,
        json: { userId: customer.id, code },
      });
    expect((await send(atA.code)).status).toBe(200);
    const codeA = (await t.lastOtp(customer.email))!;
    expect((await send(atB.code)).status).toBe(200);
    const check = await t.request('POST', '/partners/rewards/redemption-auth-otp-validity-check', {
      token: tokenA,
      json: { userId: customer.id, otp: codeA },
    });
    expect(check.status, check.text).toBe(200);
    const redeemed = await t.request<RedemptionResult>('POST', '/partners/rewards/redeem-giftcard', {
      token: tokenA,
      json: { userId: customer.id, code: atA.code, amountToRedeem: 100, otp: codeA },
    });
    expect(redeemed.status, redeemed.text).toBe(200);
    expect(redeemed.body.data!.balance).toBe(4_900);
  });
});

describe('defect 7: password guesses are limited; correct sign-ins are not', () => {
  it('change password: 5 wrong old passwords, then 429 with Retry-After, even for the right one', async () => {
    const user = await createUser(t.db, { roleId: (await createRole(t.db, 'Plain', [])).id });
    const { accessToken } = await signIn(t, user.email, user.password);
    const change = (oldPassword: string) =>
      t.request('PATCH', '/user/profile/update-password', {
        token: accessToken,
        json: { oldPassword, newPassword: 'Newpass123' },
      });
    for (let i = 0; i < PASSWORD_CHANGE_LIMIT.limit; i++)
      expect((await change(`wrong-${i}`)).status).toBe(400);
    for (const password of ['wrong-again', user.password]) {
      const res = await change(password);
      expect(res.status).toBe(429);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(res.body.message.startsWith(authMessages.tooManyPasswordAttemptsPrefix)).toBe(true);
    }
    t.clock.advance(PASSWORD_CHANGE_LIMIT.windowMs + 1000);
    const fresh = (await signIn(t, user.email, user.password)).accessToken;
    const after = await t.request('PATCH', '/user/profile/update-password', {
      token: fresh,
      json: { oldPassword: user.password, newPassword: 'Newpass123' },
    });
    expect(after.status, after.text).toBe(200);
  });

  it('eight parallel correct sign-ins of one account all succeed', async () => {
    const user = await createUser(t.db);
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        t.request('POST', '/admin/auth/login', { json: { email: user.email, password: user.password } }),
      ),
    );
    expect(
      results.map((r) => r.status),
      results.map((r) => r.text).join('\n'),
    ).toEqual(Array(8).fill(200));
  });
});
