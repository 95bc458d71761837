import { eq } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import { beforeAll, describe, expect, it } from 'vitest';
import { roleServerMessages } from '../../contract/roles';
import { staffServerMessages as msg, type StaffUser } from '../../contract/staff';
import {
  createPartner,
  createRole,
  createSuperAdmin,
  createUser,
  setupTestServer,
  signIn,
} from '../../tests/setup/server';
import { users } from '../db/schema';

/**
 * Issue 22, points 1 and 2: the invitation and reset mails lead to the console (HTML and text, a
 * link on APP_URL with the code), and partner staff are placed at a partner (decision 033).
 */
const APP_URL = 'https://console.rewardclub.example';
const t = setupTestServer({ config: { appUrl: APP_URL } });
let adminToken: string;
let shopA: { id: number; organizationName: string };
let shopB: { id: number };
let cashierRole: { id: number };
let clubRole: { id: number };
let partnerStaffToken: string;

const invite = (json: Record<string, unknown>, token = adminToken) =>
  t.request<StaffUser>('POST', '/admin/user/new-admin-user', { token, json });
const update = (json: Record<string, unknown>, token = adminToken) =>
  t.request<StaffUser>('PATCH', '/admin/user/update-admin-user', { token, json });

/** The last mail to an address, parsed as a mail client would (both parts). */
async function lastMailTo(to: string) {
  const mine = (await t.mails()).filter((m) => m.raw.toLowerCase().includes(`to: ${to.toLowerCase()}`));
  const raw = mine.at(-1)?.raw;
  if (!raw) throw new Error(`no mail to ${to}`);
  return simpleParser(raw);
}

beforeAll(async () => {
  const admin = await createSuperAdmin(t.db);
  adminToken = (await signIn(t, admin.email, admin.password)).accessToken;
  shopA = {
    ...(await createPartner(t.db, { organizationName: 'Mama Put Kitchen' })),
    organizationName: 'Mama Put Kitchen',
  };
  shopB = await createPartner(t.db, { organizationName: 'Shop B' });
  cashierRole = await createRole(t.db, 'Cashier', ['rewards.view', 'rewards.redeem'], false, true);
  clubRole = await createRole(t.db, 'Club Viewer', ['rewards.view']);
  const manager = await createRole(
    t.db,
    'Partner Manager Staff',
    ['staff.view', 'staff.create', 'staff.update', 'roles.view', 'rewards.view', 'rewards.redeem'],
    false,
    true,
  );
  const lead = await createUser(t.db, { roleId: manager.id, userType: 'PARTNER', partnerId: shopA.id });
  partnerStaffToken = (await signIn(t, lead.email, lead.password)).accessToken;
});

describe('the invitation mail', () => {
  it('is HTML and text, links to APP_URL with the code and email, names the partner and the lifetime', async () => {
    const res = await invite({
      firstName: 'Kemi',
      lastName: 'Cashier',
      email: 'kemi@mamaput.ng',
      roleId: cashierRole.id,
      partnerId: shopA.id,
    });
    expect(res.status, res.text).toBe(201);
    const mail = await lastMailTo('kemi@mamaput.ng');
    const code = /^Your set-password code is: ([A-Z0-9]{8})$/m.exec(mail.text ?? '')?.[1];
    expect(code).toBeDefined();
    const link = `${APP_URL}/reset-password?code=${code}&email=kemi%40mamaput.ng`;
    expect(mail.text).toContain(link);
    expect(mail.text).toContain('as Cashier at Mama Put Kitchen');
    expect(mail.text).toContain('The code is valid for 72 hours');
    expect(mail.text).toContain(`go to ${APP_URL}, choose "Forgot password?", then "I have a reset code"`);
    expect(mail.text).not.toContain('choose to set a password with a code');
    expect(typeof mail.html).toBe('string');
    expect(mail.html).toContain(`href="${link.replace('&', '&#38;')}"`);
    expect(mail.html).toContain(code!);
    expect(mail.html).toContain('72 hours');
  });
});

describe('the reset mail', () => {
  it('is HTML and text, links to APP_URL with the code and email, and says 15 minutes', async () => {
    const member = await createUser(t.db, { roleId: clubRole.id, email: 'ngozi@rewardclub.test' });
    const res = await t.request('POST', '/auth/password-reset-request', { json: { email: member.email } });
    expect(res.status).toBe(200);
    await t.mailer.idle();
    const mail = await lastMailTo(member.email);
    const code = /^Your reset code is: ([A-Z0-9]{8})$/m.exec(mail.text ?? '')?.[1];
    expect(code).toBeDefined();
    const link = `${APP_URL}/reset-password?code=${code}&email=ngozi%40rewardclub.test`;
    expect(mail.text).toContain(link);
    expect(mail.text).toContain('The code is valid for 15 minutes');
    expect(mail.html).toContain(`href="${link.replace('&', '&#38;')}"`);
  });
});

describe('partner staff are placed at a partner', () => {
  it('a partner role without a partner is refused on the partner field; nobody is created', async () => {
    const res = await invite({
      firstName: 'No',
      lastName: 'Partner',
      email: 'no.partner@rewardclub.test',
      roleId: cashierRole.id,
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ fieldName: 'partnerId', message: msg.partnerRequired }]);
    expect(await t.db.select().from(users).where(eq(users.email, 'no.partner@rewardclub.test'))).toEqual([]);
    const nulled = await invite({
      firstName: 'No',
      lastName: 'Partner',
      email: 'no.partner@rewardclub.test',
      roleId: cashierRole.id,
      partnerId: null,
    });
    expect(nulled.status).toBe(400);
    expect(nulled.body.errors).toEqual([{ fieldName: 'partnerId', message: msg.partnerRequired }]);
  });

  it('a club role needs no partner', async () => {
    const res = await invite({
      firstName: 'Club',
      lastName: 'Viewer',
      email: 'club.viewer@rewardclub.test',
      roleId: clubRole.id,
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.data).toMatchObject({ partnerId: null, userType: 'ADMIN' });
  });

  it('partner staff invite to their own partner; another partner is refused', async () => {
    const own = await invite(
      { firstName: 'Own', lastName: 'Cashier', email: 'own.cashier@mamaput.ng', roleId: cashierRole.id },
      partnerStaffToken,
    );
    expect(own.status, own.text).toBe(201);
    expect(own.body.data).toMatchObject({ partnerId: shopA.id, userType: 'PARTNER' });
    const foreign = await invite(
      {
        firstName: 'Foreign',
        lastName: 'Cashier',
        email: 'foreign.cashier@mamaput.ng',
        roleId: cashierRole.id,
        partnerId: shopB.id,
      },
      partnerStaffToken,
    );
    expect(foreign.status).toBe(404);
    expect(await t.db.select().from(users).where(eq(users.email, 'foreign.cashier@mamaput.ng'))).toEqual([]);
  });

  it('edit: a partner role needs a partner; naming one moves the member there', async () => {
    const member = await createUser(t.db, { roleId: clubRole.id });
    const refused = await update({ userId: member.id, roleId: cashierRole.id });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([{ fieldName: 'partnerId', message: msg.partnerRequired }]);
    const [unchanged] = await t.db.select().from(users).where(eq(users.id, member.id));
    expect(unchanged).toMatchObject({ roleId: clubRole.id, partnerId: null, userType: 'ADMIN' });

    const moved = await update({ userId: member.id, roleId: cashierRole.id, partnerId: shopA.id });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.data).toMatchObject({
      partnerId: shopA.id,
      userType: 'PARTNER',
      organizationName: 'Mama Put Kitchen',
    });

    const unplaced = await update({ userId: member.id, partnerId: null });
    expect(unplaced.status).toBe(400);
    expect(unplaced.body.errors).toEqual([{ fieldName: 'partnerId', message: msg.partnerRequired }]);

    const back = await update({ userId: member.id, roleId: clubRole.id, partnerId: null });
    expect(back.status, back.text).toBe(200);
    expect(back.body.data).toMatchObject({ partnerId: null, userType: 'ADMIN' });
  });

  it('partner staff cannot move their member to another partner or to the club', async () => {
    const member = await createUser(t.db, {
      roleId: cashierRole.id,
      userType: 'PARTNER',
      partnerId: shopA.id,
    });
    const foreign = await update({ userId: member.id, partnerId: shopB.id }, partnerStaffToken);
    expect(foreign.status).toBe(404);
    const club = await update({ userId: member.id, partnerId: null, firstName: 'Still' }, partnerStaffToken);
    expect(club.status, club.text).toBe(200);
    const [row] = await t.db.select().from(users).where(eq(users.id, member.id));
    expect(row).toMatchObject({ partnerId: shopA.id, userType: 'PARTNER', firstName: 'Still' });
  });

  it('roles say whether they are partner roles; a held role keeps its kind (409 on partnerRole)', async () => {
    const list = await t.request<{ records: { id: number; partnerRole: boolean }[] }>(
      'GET',
      '/admin/user/get-roles?pageSize=100',
      { token: adminToken },
    );
    const byId = new Map(list.body.data!.records.map((r) => [r.id, r.partnerRole]));
    expect(byId.get(cashierRole.id)).toBe(true);
    expect(byId.get(clubRole.id)).toBe(false);
    const created = await t.request<{ id: number; partnerRole: boolean }>('POST', '/admin/user/create-role', {
      token: adminToken,
      json: { roleName: 'Door Staff', permissionIds: [23], partnerRole: true },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.data!.partnerRole).toBe(true);
    const held = await t.request('PATCH', '/admin/user/update-role', {
      token: adminToken,
      json: { roleId: cashierRole.id, roleName: 'Cashier', permissionIds: [23, 25], partnerRole: false },
    });
    expect(held.status).toBe(409);
    expect(held.body.errors).toEqual([
      { fieldName: 'partnerRole', message: roleServerMessages.partnerRoleHeld },
    ]);
  });
});
