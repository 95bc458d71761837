import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { authMessages } from '../../contract/auth';
import type { ListData } from '../../contract/envelope';
import { ALL_PERMISSION_NAMES } from '../../contract/permissions';
import {
  INVITE_MAIL_SUBJECT,
  staffServerMessages as msg,
  type StaffUser,
  staffUserSchema,
} from '../../contract/staff';
import { PHONE_CHARACTERS_MESSAGE } from '../../contract/validation';
import { createRole, createSuperAdmin, createUser, setupTestServer, signIn } from '../../tests/setup/server';
import { API_BASE } from '../app';
import { events, partners, users } from '../db/schema';

const t = setupTestServer();
let admin: Awaited<ReturnType<typeof createSuperAdmin>>;
let token: string;
let superAdminRoleId: number;
let supportRoleId: number;

const list = (query = '', path = '/admin/user/admin-users') =>
  t.request<ListData<StaffUser>>('GET', `${path}${query}`, { token });
const invite = (json: unknown, as = token) =>
  t.request<StaffUser>('POST', '/admin/user/new-admin-user', { json, token: as });
const update = (json: unknown, as = token) =>
  t.request<StaffUser>('PATCH', '/admin/user/update-admin-user', { json, token: as });
const remove = (id: unknown, as = token) =>
  t.request('DELETE', `/admin/user/delete-admin-user/${id}`, { token: as });
const login = (email: string, password: string) =>
  t.request('POST', '/admin/auth/login', { json: { email, password } });
const setPassword = (resetCode: unknown, newPassword: string) =>
  t.request('PATCH', '/auth/update-password', { json: { resetCode, newPassword } });
const lastEvent = async () => (await t.db.select().from(events).orderBy(events.id)).at(-1)!;

beforeAll(async () => {
  admin = await createSuperAdmin(t.db);
  token = (await signIn(t, admin.email, admin.password)).accessToken;
  superAdminRoleId = admin.roleId!;
  supportRoleId = (await createRole(t.db, 'Support', ['dashboard.view', 'clients.view'])).id;
});

describe('POST /admin/user/new-admin-user (invitation)', () => {
  it('creates the member without a password, mails a set-password code that works once, logs it all', async () => {
    const res = await invite({
      firstName: 'Ngozi',
      lastName: 'Eze',
      email: 'Ngozi.Eze@RewardClub.test',
      roleId: supportRoleId,
    });
    expect(res.status).toBe(201);
    expect(res.body.message).toBe(msg.invited);
    const staff = staffUserSchema.parse(res.body.data);
    expect(staff).toMatchObject({
      firstName: 'Ngozi',
      lastName: 'Eze',
      email: 'Ngozi.Eze@RewardClub.test',
      userRole: { id: supportRoleId, name: 'Support' },
      userType: 'ADMIN',
      hasPassword: false,
      accountStatus: 'ACTIVE',
    });
    expect(await lastEvent()).toMatchObject({
      action: 'Invited Ngozi Eze',
      actorName: 'Ada Root',
      entity: 'user',
      entityId: String(staff.id),
    });
    // Not yet able to sign in.
    expect((await login('ngozi.eze@rewardclub.test', 'anything')).status).toBe(401);

    const mail = (await t.mails()).find((m) => /^To: Ngozi\.Eze@RewardClub\.test$/im.test(m.raw))!;
    expect(mail.raw).toContain(`Subject: ${INVITE_MAIL_SUBJECT}`);
    expect(mail.raw).toContain('Ada Root invited you to Reward Club Admin as Support.');
    const code = await t.lastInviteCode('Ngozi.Eze@RewardClub.test');
    expect(code).toMatch(/^[A-HJ-NP-Z2-9]{8}$/);

    const done = await setPassword(code, 'Welcome1');
    expect(done.status).toBe(200);
    expect(done.body.message).toBe(authMessages.passwordUpdated);
    expect((await lastEvent()).action).toBe('Set password from an invitation');
    expect((await login('ngozi.eze@rewardclub.test', 'Welcome1')).status).toBe(200);
    const again = await setPassword(code, 'Another1');
    expect(again.status).toBe(400);
    expect(again.body.errors).toEqual([{ fieldName: 'resetCode', message: authMessages.resetCodeInvalid }]);
    const detail = await t.request<StaffUser>('GET', `/admin/user/admin-detail?userId=${staff.id}`, {
      token,
    });
    expect(detail.body.data!.hasPassword).toBe(true);
    // The code is nowhere in the database or the log.
    const dump = JSON.stringify(await t.db.select().from(events));
    expect(dump).not.toContain(code!);
  });

  it('the set-password code lasts 72 hours', async () => {
    await invite({
      firstName: 'Late',
      lastName: 'Reader',
      email: 'late@rewardclub.test',
      roleId: supportRoleId,
    });
    const code = await t.lastInviteCode('late@rewardclub.test');
    t.clock.advance(71 * 3600 * 1000);
    token = (await signIn(t, admin.email, admin.password)).accessToken; // the old one ran out
    await invite({
      firstName: 'Later',
      lastName: 'Reader',
      email: 'later@rewardclub.test',
      roleId: supportRoleId,
    });
    const other = await t.lastInviteCode('later@rewardclub.test');
    t.clock.advance(3600 * 1000 + 1000);
    expect((await setPassword(code, 'Welcome1')).status).toBe(400);
    expect((await setPassword(other, 'Welcome1')).status).toBe(200);
    token = (await signIn(t, admin.email, admin.password)).accessToken;
  });

  it('refuses an email already in use (any case): 409 per field', async () => {
    const res = await invite({
      firstName: 'A',
      lastName: 'B',
      email: admin.email.toUpperCase(),
      roleId: supportRoleId,
    });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('A user with this email already exists');
    expect(res.body.errors).toEqual([{ fieldName: 'email', message: msg.emailTaken }]);
  });

  it('a deleted member’s email can be invited again', async () => {
    const gone = await createUser(t.db, { roleId: supportRoleId, deletedAt: new Date() });
    const res = await invite({
      firstName: 'Back',
      lastName: 'Again',
      email: gone.email,
      roleId: supportRoleId,
    });
    expect(res.status).toBe(201);
  });

  it.each([
    [
      {},
      [
        { fieldName: 'firstName', message: 'First name is required' },
        { fieldName: 'lastName', message: 'Last name is required' },
        { fieldName: 'email', message: 'required' },
        { fieldName: 'roleId', message: 'Role is required' },
      ],
    ],
    [
      { firstName: ' ', lastName: 'Eze', email: 'nope', roleId: 'x' },
      [
        { fieldName: 'firstName', message: 'First name is required' },
        { fieldName: 'email', message: 'pls provide a valid email' },
        { fieldName: 'roleId', message: 'Role is required' },
      ],
    ],
  ])('validates %j', async (json, errors) => {
    const res = await invite(json);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual(errors);
  });

  it('unknown role or partner: 400 per field', async () => {
    const role = await invite({
      firstName: 'A',
      lastName: 'B',
      email: 'a.b@rewardclub.test',
      roleId: 999999,
    });
    expect(role.status).toBe(400);
    expect(role.body.errors).toEqual([{ fieldName: 'roleId', message: msg.roleNotFound }]);
    const partner = await invite({
      firstName: 'A',
      lastName: 'B',
      email: 'a.b@rewardclub.test',
      roleId: supportRoleId,
      partnerId: 999999,
    });
    expect(partner.status).toBe(400);
    expect(partner.body.errors).toEqual([{ fieldName: 'partnerId', message: msg.partnerNotFound }]);
  });

  it('partner staff: invited with a partner, typed PARTNER with the organisation', async () => {
    const [p] = await t.db
      .insert(partners)
      .values({
        firstName: 'Bisi',
        lastName: 'Ade',
        email: 'bisi@ekogrill.ng',
        phone: '08030000000',
        organizationName: 'Eko Grill House',
        address: '1 Adeola Odeku Street, Lagos',
      })
      .returning();
    const res = await invite({
      firstName: 'Segun',
      lastName: 'Adeyemi',
      email: 'segun@ekogrill.ng',
      roleId: supportRoleId,
      partnerId: p!.id,
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      userType: 'PARTNER',
      partnerId: p!.id,
      organizationName: 'Eko Grill House',
    });
  });

  it('nobody hands out a role with permissions they lack: 403', async () => {
    const inviterRole = await createRole(t.db, 'Inviter', ['staff.create', 'staff.view']);
    const inviter = await createUser(t.db, { roleId: inviterRole.id });
    const inviterToken = (await signIn(t, inviter.email, inviter.password)).accessToken;
    const res = await invite(
      { firstName: 'Sly', lastName: 'Fox', email: 'sly@rewardclub.test', roleId: superAdminRoleId },
      inviterToken,
    );
    expect(res.status).toBe(403);
    expect(res.body.message).toBe(msg.cannotGrant);
  });
});

describe('GET /admin/user/admin-users, /admin/admin-users and admin-detail', () => {
  beforeAll(async () => {
    for (const [firstName, lastName] of [
      ['Zainab', 'Bello'],
      ['adaeze', 'Okafor'],
      ['Musa', 'Abubakar'],
    ] as const) {
      await createUser(t.db, {
        firstName,
        lastName,
        roleId: supportRoleId,
        email: `${firstName}.${lastName}@list.test`,
      });
      t.clock.advance(1000);
    }
    await createUser(t.db, {
      firstName: 'Hidden',
      lastName: 'Deleted',
      deletedAt: new Date(),
      email: 'hidden@list.test',
    });
  });

  it('pages live staff, newest first by default, same answer on both paths', async () => {
    const res = await list('?pageNumber=1&pageSize=10');
    expect(res.status).toBe(200);
    const { records, meta } = res.body.data!;
    for (const r of records) staffUserSchema.parse(r);
    expect(records.some((r) => r.lastName === 'Deleted')).toBe(false);
    const total = (await t.db.select().from(users)).filter((u) => !u.deletedAt).length;
    expect(meta).toEqual({ totalCount: total, pageNumber: 1, pageSize: 10 });
    const created = records.map((r) => r.createdAt);
    expect(created).toEqual([...created].sort().reverse());
    const other = await list('?pageNumber=1&pageSize=10', '/admin/admin-users');
    expect(other.body).toEqual(res.body);
  });

  it('searches first name, last name, full name and email, case-insensitively; % and _ are literal', async () => {
    const names = async (q: string) =>
      (await list(`?searchText=${encodeURIComponent(q)}`)).body.data!.records.map((r) => r.firstName);
    expect(await names('zaina')).toEqual(['Zainab']);
    expect(await names('ABUBAKAR')).toEqual(['Musa']);
    expect(await names('adaeze okafor')).toEqual(['adaeze']);
    expect(await names('musa.abubakar@list')).toEqual(['Musa']);
    expect(await names('hidden')).toEqual([]);
    expect(await names('%')).toEqual([]);
    expect(await names('_')).toEqual([]);
    const search = await list('?search=bello');
    expect(search.body.data!.records.map((r) => r.firstName)).toEqual(['Zainab']);
    expect(search.body.data!.meta.totalCount).toBe(1);
  });

  it('sorts by every whitelisted key, both ways, case-insensitively, id breaking ties', async () => {
    for (const sortBy of ['firstName', 'lastName', 'email', 'role', 'createdAt'] as const) {
      for (const sortOrder of ['asc', 'desc'] as const) {
        const res = await list(`?sortBy=${sortBy}&sortOrder=${sortOrder}&pageSize=100`);
        expect(res.status).toBe(200);
        const key = (r: StaffUser) =>
          sortBy === 'role'
            ? (r.userRole?.name.toLowerCase() ?? '\uffff')
            : sortBy === 'createdAt'
              ? r.createdAt
              : r[sortBy].toLowerCase();
        const keys = res.body.data!.records.map(key);
        const sorted = [...keys].sort();
        expect(keys, `${sortBy} ${sortOrder}`).toEqual(sortOrder === 'asc' ? sorted : sorted.reverse());
      }
    }
    const firstNames = (await list('?sortBy=firstName&pageSize=100')).body.data!.records.map(
      (r) => r.firstName,
    );
    expect(firstNames.indexOf('adaeze')).toBeLessThan(firstNames.indexOf('Musa'));
  });

  it('pages without repeating or skipping a row', async () => {
    const all = (await list('?sortBy=lastName&pageSize=100')).body.data!.records.map((r) => r.id);
    const pages: number[] = [];
    for (let page = 1; page <= Math.ceil(all.length / 10); page++) {
      pages.push(
        ...(await list(`?sortBy=lastName&pageSize=10&pageNumber=${page}`)).body.data!.records.map(
          (r) => r.id,
        ),
      );
    }
    expect(pages).toEqual(all);
    const beyond = await list('?pageNumber=999&pageSize=10');
    expect(beyond.body.data!.records).toEqual([]);
    expect(beyond.body.data!.meta.totalCount).toBe(all.length);
  });

  it.each([
    ['?pageSize=7', 'pageSize', 'pageSize must be one of 10, 20, 50, 100'],
    ['?pageNumber=0', 'pageNumber', 'pageNumber must be a whole number from 1'],
    ['?pageNumber=abc', 'pageNumber', 'pageNumber must be a whole number from 1'],
    ['?sortBy=password', 'sortBy', undefined],
    ['?sortOrder=up', 'sortOrder', "sortOrder must be 'asc' or 'desc'"],
    [`?searchText=${'x'.repeat(101)}`, 'searchText', 'searchText must be at most 100 characters'],
    ['?startDate=yesterday', 'startDate', 'startDate must be a date (YYYY-MM-DD)'],
  ])('rejects %s with 400 per field', async (query, fieldName, message) => {
    const res = await list(query);
    expect(res.status).toBe(400);
    expect(res.body.errors[0]!.fieldName).toBe(fieldName);
    if (message) expect(res.body.errors[0]!.message).toBe(message);
  });

  it('filters by creation date (whole days in Lagos time, both ends inclusive)', async () => {
    const zainab = (await list('?searchText=zainab')).body.data!.records[0]!;
    const lagosDay = (iso: string, plusDays = 0) =>
      new Date(Date.parse(iso) + 3600_000 + plusDays * 86_400_000).toISOString().slice(0, 10);
    const day = lagosDay(zainab.createdAt);
    const ids = async (q: string) => (await list(`${q}&pageSize=100`)).body.data!.records.map((r) => r.id);
    expect(await ids(`?startDate=${day}&endDate=${day}`)).toContain(zainab.id);
    expect(await ids(`?startDate=${lagosDay(zainab.createdAt, 1)}`)).not.toContain(zainab.id);
    expect(await ids(`?endDate=${lagosDay(zainab.createdAt, -1)}`)).not.toContain(zainab.id);
    expect((await list('?endDate=2000-01-01')).body.data!.meta.totalCount).toBe(0);
  });

  it('detail by userId or staffId; 404 for unknown or deleted; 400 without an id', async () => {
    const byUser = await t.request<StaffUser>('GET', `/admin/user/admin-detail?userId=${admin.id}`, {
      token,
    });
    expect(byUser.status).toBe(200);
    expect(byUser.body.data).toMatchObject({
      id: admin.id,
      userRole: { name: 'Super Admin' },
      hasPassword: true,
    });
    expect(JSON.stringify(byUser.body)).not.toMatch(/password_?hash/i);
    const byStaff = await t.request('GET', `/admin/user/admin-detail?staffId=${admin.id}`, { token });
    expect(byStaff.body).toEqual(byUser.body);
    const [hidden] = await t.db.select().from(users).where(eq(users.email, 'hidden@list.test'));
    for (const id of [999999, hidden!.id]) {
      const res = await t.request('GET', `/admin/user/admin-detail?userId=${id}`, { token });
      expect(res.status).toBe(404);
      expect(res.body.message).toBe(msg.notFound);
    }
    const missing = await t.request('GET', '/admin/user/admin-detail', { token });
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual([{ fieldName: 'userId', message: 'userId is required' }]);
  });
});

describe('PATCH /admin/user/update-admin-user', () => {
  it('changes names, phone and role; logs the change in plain words', async () => {
    const member = await createUser(t.db, { firstName: 'Emeka', lastName: 'Obi', roleId: supportRoleId });
    const auditor = await createRole(t.db, 'Auditor', ['dashboard.view']);
    const res = await update({
      userId: member.id,
      firstName: 'Chukwuemeka',
      phone: '08031234567',
      roleId: auditor.id,
    });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe(msg.updated);
    expect(res.body.data).toMatchObject({
      firstName: 'Chukwuemeka',
      lastName: 'Obi',
      phone: '08031234567',
      userRole: { id: auditor.id, name: 'Auditor' },
    });
    expect((await lastEvent()).action).toBe(
      'Updated staff Chukwuemeka Obi (first name, phone, role Auditor)',
    );
  });

  it('takes a phone as people write it (normalised), tells what is wrong, and an empty phone clears it (issue 22)', async () => {
    const member = await createUser(t.db, { roleId: supportRoleId });
    const written = await update({ userId: member.id, phone: '+234 (0)803-123 4567' });
    expect(written.status).toBe(200);
    expect(written.body.data?.phone).toBe('08031234567');
    const dashed = await update({ userId: member.id, phone: '080-1234 567' });
    expect(dashed.body.data?.phone).toBe('0801234567');
    const wrong = await update({ userId: member.id, phone: '0803 123 ABC' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors).toEqual([{ fieldName: 'phone', message: PHONE_CHARACTERS_MESSAGE }]);
    const cleared = await update({ userId: member.id, phone: '' });
    expect(cleared.status).toBe(200);
    expect(cleared.body.data?.phone).toBeNull();
    expect((await lastEvent()).action).toMatch(/\(phone\)$/);
  });

  it('a new password: argon2 hash, their sessions end, the new password signs in', async () => {
    const member = await createUser(t.db, { roleId: supportRoleId });
    const session = await signIn(t, member.email, member.password);
    const res = await update({ userId: member.id, password: 'Changed9' });
    expect(res.status).toBe(200);
    const [row] = await t.db.select().from(users).where(eq(users.id, member.id));
    expect(row!.passwordHash).toMatch(/^\$argon2id\$/);
    expect((await t.request('GET', '/user/profile', { token: session.accessToken })).status).toBe(401);
    expect(
      (await t.request('POST', '/auth/refresh-token', { json: { refreshToken: session.refreshToken } }))
        .status,
    ).toBe(401);
    expect((await login(member.email, member.password)).status).toBe(401);
    expect((await login(member.email, 'Changed9')).status).toBe(200);
    expect((await lastEvent()).action).toMatch(/^Signed in$/);
    const updated = (
      await t.db
        .select()
        .from(events)
        .where(eq(events.entityId, String(member.id)))
    ).find((e) => e.action.startsWith('Updated staff'));
    expect(updated!.action).toContain('(password)');
    expect(JSON.stringify(updated)).not.toContain('Changed9');
  });

  it("one's own password is refused whole (400 on password, decision 044): nothing saved, the old password still signs in", async () => {
    const selfEditor = await createRole(t.db, 'Self editor', ['staff.view', 'staff.update', 'roles.view']);
    const me = await createUser(t.db, { firstName: 'Bola', lastName: 'Ade', roleId: selfEditor.id });
    const session = await signIn(t, me.email, me.password);
    const [before] = await t.db.select().from(users).where(eq(users.id, me.id));
    const eventsBefore = (await t.db.select().from(events)).length;

    const res = await update(
      { userId: me.id, password: 'Changed9', firstName: 'Hijacked', phone: '08031234567' },
      session.accessToken,
    );
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(msg.ownPasswordInProfile);
    expect(res.body.errors).toEqual([{ fieldName: 'password', message: msg.ownPasswordInProfile }]);
    const [after] = await t.db.select().from(users).where(eq(users.id, me.id));
    expect(after).toEqual(before);
    expect((await t.db.select().from(events)).length).toBe(eventsBefore);
    // Their session goes on; the old password still signs in, the new one does not.
    expect((await t.request('GET', '/user/profile', { token: session.accessToken })).status).toBe(200);
    expect((await login(me.email, 'Changed9')).status).toBe(401);
    expect((await login(me.email, me.password)).status).toBe(200);

    // The Super Admin too.
    const own = await update({ userId: admin.id, password: 'Changed9' });
    expect(own.status).toBe(400);
    expect(own.body.errors).toEqual([{ fieldName: 'password', message: msg.ownPasswordInProfile }]);
    expect((await login(admin.email, admin.password)).status).toBe(200);

    // The rest of one's own record still changes here; another member's password still does too.
    const named = await update({ userId: me.id, firstName: 'Bolanle' }, session.accessToken);
    expect(named.status).toBe(200);
    expect(named.body.data?.firstName).toBe('Bolanle');
    const viewer = await createRole(t.db, 'Staff viewer', ['staff.view']);
    const other = await createUser(t.db, { roleId: viewer.id });
    const set = await update({ userId: other.id, password: 'Changed9' }, session.accessToken);
    expect(set.status).toBe(200);
    expect((await login(other.email, 'Changed9')).status).toBe(200);
    expect((await login(other.email, other.password)).status).toBe(401);
  });

  it.each([
    [{ userId: 'x' }, 'userId', 'userId must be a number'],
    [{ userId: 1, phone: '123' }, 'phone', 'Phone number cannot be less than 7 digits'],
    [{ userId: 1, phone: '123456789012' }, 'phone', 'Phone number should not exceed 11 digits'],
    [{ userId: 1, password: 'weak' }, 'password', 'Please create a secure password'],
    [{ userId: 1, firstName: '' }, 'firstName', 'First name is required'],
  ])('validates %j', async (json, fieldName, message) => {
    const res = await update(json);
    expect(res.status).toBe(400);
    expect(res.body.errors).toContainEqual({ fieldName, message });
  });

  it('404 for unknown or deleted members; 400 for an unknown role', async () => {
    expect((await update({ userId: 999999, firstName: 'X' })).status).toBe(404);
    const gone = await createUser(t.db, { deletedAt: new Date() });
    expect((await update({ userId: gone.id, firstName: 'X' })).body.message).toBe(msg.notFound);
    const member = await createUser(t.db, { roleId: supportRoleId });
    const res = await update({ userId: member.id, roleId: 999999 });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ fieldName: 'roleId', message: msg.roleNotFound }]);
  });

  it('the last Super Admin keeps the role (409); a member cannot change someone who outranks them (403)', async () => {
    const res = await update({ userId: admin.id, roleId: supportRoleId });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(msg.lastSuperAdminRole);
    const editorRole = await createRole(t.db, 'Editor', ['staff.update', 'staff.view']);
    const editor = await createUser(t.db, { roleId: editorRole.id });
    const editorToken = (await signIn(t, editor.email, editor.password)).accessToken;
    const takeover = await update({ userId: admin.id, password: 'Hijack12' }, editorToken);
    expect(takeover.status).toBe(403);
    expect(takeover.body.message).toBe(msg.outranked);
    expect((await login(admin.email, 'Hijack12')).status).toBe(401);
  });
});

describe('DELETE /admin/user/delete-admin-user/{staffId}', () => {
  it('soft-deletes: hidden from lists, signed out, cannot sign in; logged', async () => {
    const member = await createUser(t.db, { firstName: 'Tunde', lastName: 'Bakare', roleId: supportRoleId });
    const session = await signIn(t, member.email, member.password);
    const res = await remove(member.id);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe(msg.deleted);
    const [row] = await t.db.select().from(users).where(eq(users.id, member.id));
    expect(row!.deletedAt).toEqual(t.clock());
    expect((await lastEvent()).action).toBe('Deleted staff Tunde Bakare');
    expect((await t.request('GET', '/user/profile', { token: session.accessToken })).status).toBe(401);
    expect(
      (await t.request('POST', '/auth/refresh-token', { json: { refreshToken: session.refreshToken } }))
        .status,
    ).toBe(401);
    expect((await login(member.email, member.password)).status).toBe(401);
    expect((await list('?searchText=Bakare')).body.data!.records).toEqual([]);
    expect((await remove(member.id)).status).toBe(404);
  });

  it('nobody deletes themselves (409); bad ids are 400; unknown ids 404', async () => {
    const self = await remove(admin.id);
    expect(self.status).toBe(409);
    expect(self.body.message).toBe(msg.cannotDeleteSelf);
    expect((await remove('abc')).status).toBe(400);
    expect((await remove(999999)).status).toBe(404);
  });

  it('only a Super Admin deletes a Super Admin (403, issue 16); the last one cannot be deleted (409)', async () => {
    // A member whose (non built-in) role holds every permission outranks nobody, yet is no Super Admin.
    const allRole = await createRole(t.db, 'Everything', ALL_PERMISSION_NAMES);
    const deputy = await createUser(t.db, { roleId: allRole.id });
    const deputyToken = (await signIn(t, deputy.email, deputy.password)).accessToken;
    const refused = await remove(admin.id, deputyToken);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(msg.superAdminOnly);
    const second = await createUser(t.db, { roleId: superAdminRoleId });
    expect((await remove(second.id, deputyToken)).status).toBe(403);
    expect((await remove(second.id)).status).toBe(200);
    // Nobody deletes themselves, so the last Super Admin stays (409 stays for two deleting each other).
    expect((await remove(admin.id)).body.message).toBe(msg.cannotDeleteSelf);
  });
});

describe('event log: client address', () => {
  it('a staff change made from loopback reads Local network, with the user agent', async () => {
    const fresh = await createSuperAdmin(t.db, 'second-root@rewardclub.test');
    const tokens = await signIn(t, fresh.email, fresh.password);
    const res = await t.app.request(
      `${API_BASE}/admin/user/new-admin-user`,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${tokens.accessToken}`,
          'content-type': 'application/json',
          'user-agent': 'staff-test-agent',
        },
        body: JSON.stringify({
          firstName: 'Local',
          lastName: 'Invite',
          email: 'local@rewardclub.test',
          roleId: supportRoleId,
        }),
      },
      { incoming: { socket: { remoteAddress: '::1' } } } as never,
    );
    expect(res.status).toBe(201);
    expect(await lastEvent()).toMatchObject({
      action: 'Invited Local Invite',
      ipAddress: '::1',
      ipLocation: 'Local network',
      userAgent: 'staff-test-agent',
    });
  });
});
