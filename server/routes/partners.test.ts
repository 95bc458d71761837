import { count, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ListData } from '../../contract/envelope';
import {
  partnerServerMessages as msg,
  PARTNER_WELCOME_MAIL_SUBJECT,
  type Partner,
  partnerMessages,
  partnerSchema,
} from '../../contract/partners';
import {
  createCustomer,
  createExtendedService,
  createPartner,
  createReward,
  createRole,
  createSuperAdmin,
  createUser,
  PNG_BASE64,
  setupTestServer,
  signIn,
} from '../../tests/setup/server';
import { events, files, partnerExtendedServices, partners } from '../db/schema';
import { solidPng } from '../seed/png';

const t = setupTestServer();
let token: string;
let svcA: number;
let svcB: number;

const get = <T = unknown>(path: string, as = token) => t.request<T>('GET', path, { token: as });
const invite = (json: unknown) => t.request<Partner>('POST', '/admin/partners/invite', { json, token });
const update = (json: unknown) =>
  t.request<Partner>('PATCH', '/admin/partners/update-record', { json, token });
const setStatus = (json: unknown) =>
  t.request<Partner>('PATCH', '/admin/partners/update-status', { json, token });
const remove = (id: unknown) => t.request('DELETE', `/admin/partners/${id}`, { token });
const lastEvent = async () => (await t.db.select().from(events).orderBy(events.id)).at(-1)!;
const countOf = async (table: typeof partners | typeof files | typeof partnerExtendedServices) =>
  (await t.db.select({ n: count() }).from(table))[0]!.n;

const validBody = (over: Record<string, unknown> = {}) => ({
  firstName: 'Cass',
  lastName: 'Adeyemi',
  email: `cass-${Math.random().toString(36).slice(2, 8)}@mamacass.ng`,
  phone: '08031234567',
  organizationName: 'Mama Cass Kitchen',
  address: '12 Allen Avenue, Ikeja, Lagos',
  coverImage: PNG_BASE64,
  minSpendToQualify: 10_000,
  extendedServiceIds: [svcA],
  ...over,
});

beforeAll(async () => {
  const admin = await createSuperAdmin(t.db);
  token = (await signIn(t, admin.email, admin.password)).accessToken;
  svcA = (await createExtendedService(t.db, { title: 'Free Wi-Fi' })).id;
  svcB = (await createExtendedService(t.db, { title: 'Home Delivery' })).id;
});

describe('POST /admin/partners/invite', () => {
  it('adds the partner with its cover image and services, mails the contact, logs it', async () => {
    const res = await invite(
      validBody({ email: 'cass@mamacass.ng', extendedServiceIds: [svcB, svcA, svcA] }),
    );
    expect(res.status).toBe(201);
    expect(res.body.message).toBe(partnerMessages.added);
    const p = partnerSchema.parse(res.body.data);
    expect(p).toMatchObject({
      organizationName: 'Mama Cass Kitchen',
      email: 'cass@mamacass.ng',
      minSpendToQualify: 10_000,
      accountStatus: 'ACTIVE',
      extendedServiceIds: [svcA, svcB],
      partnerExtendedServices: [
        { id: svcA, title: 'Free Wi-Fi' },
        { id: svcB, title: 'Home Delivery' },
      ],
    });
    expect(p.coverImage).toMatch(/^\/api\/v1\/files\/[0-9a-f]{64}$/);
    const file = await t.app.request(p.coverImage!);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/png');
    expect(file.headers.get('etag')).toBeTruthy();
    expect(file.headers.get('cache-control')).toContain('immutable');
    expect(await lastEvent()).toMatchObject({
      action: 'Added partner Mama Cass Kitchen',
      entity: 'partner',
      entityId: String(p.id),
    });
    const mail = (await t.mails()).find((m) => /^To: cass@mamacass\.ng$/im.test(m.raw));
    expect(mail?.raw).toContain(`Subject: ${PARTNER_WELCOME_MAIL_SUBJECT}`);
    expect(mail?.raw).toContain('Mama Cass Kitchen is now a partner of the Reward Club.');
  });

  it('a duplicate contact email (any case) is a 409 on email', async () => {
    const res = await invite(validBody({ email: 'CASS@mamacass.ng' }));
    expect(res.status).toBe(409);
    expect(res.body.errors).toEqual([{ fieldName: 'email', message: msg.emailTaken }]);
  });

  it('missing fields each get their message; nothing is written', async () => {
    const before = { partners: await countOf(partners), files: await countOf(files) };
    const res = await invite({});
    expect(res.status).toBe(400);
    const byField = Object.fromEntries(res.body.errors.map((e) => [e.fieldName, e.message]));
    expect(byField).toMatchObject({
      firstName: partnerMessages.firstNameRequired,
      lastName: partnerMessages.lastNameRequired,
      email: 'required',
      phone: partnerMessages.phoneRequired,
      organizationName: partnerMessages.organizationRequired,
      address: partnerMessages.addressRequired,
      coverImage: partnerMessages.coverImageRequired,
      minSpendToQualify: partnerMessages.minSpendRequired,
      extendedServiceIds: partnerMessages.servicesRequired,
    });
    expect({ partners: await countOf(partners), files: await countOf(files) }).toEqual(before);
  });

  it('wrong types, strings for numbers, negative or below-₦2,000 minimum spend are 400 per field', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ minSpendToQualify: '10000' }, 'minSpendToQualify', partnerMessages.minSpendRequired],
      [{ minSpendToQualify: -5 }, 'minSpendToQualify', partnerMessages.minSpendTooLow],
      [{ minSpendToQualify: 1999.99 }, 'minSpendToQualify', partnerMessages.minSpendTooLow],
      [{ extendedServiceIds: [] }, 'extendedServiceIds', partnerMessages.servicesRequired],
      [{ extendedServiceIds: ['1'] }, 'extendedServiceIds.0', 'Extended service ids must be whole numbers'],
      [{ phone: '123' }, 'phone', 'Phone number cannot be less than 7 digits'],
      [{ phone: '080312345678' }, 'phone', 'Phone number should not exceed 11 digits'],
      [{ email: 'nope' }, 'email', 'pls provide a valid email'],
      [{ firstName: 42 }, 'firstName', partnerMessages.firstNameRequired],
    ];
    for (const [over, fieldName, message] of cases) {
      const res = await invite(validBody(over));
      expect(res.status, JSON.stringify(over)).toBe(400);
      expect(res.body.errors, JSON.stringify(over)).toContainEqual({ fieldName, message });
    }
    // The minimum itself is accepted.
    expect((await invite(validBody({ minSpendToQualify: 2000 }))).status).toBe(201);
  });

  it('a cover that is not an image is a 400 on coverImage; nothing half-written remains', async () => {
    const before = {
      partners: await countOf(partners),
      files: await countOf(files),
      links: await countOf(partnerExtendedServices),
    };
    for (const coverImage of [
      Buffer.from('GIF89a not allowed').toString('base64'),
      Buffer.from('%PDF-1.7').toString('base64'),
      '<script>',
    ]) {
      const res = await invite(validBody({ coverImage }));
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([
        { fieldName: 'coverImage', message: partnerMessages.coverImageNotImage },
      ]);
    }
    expect({
      partners: await countOf(partners),
      files: await countOf(files),
      links: await countOf(partnerExtendedServices),
    }).toEqual(before);
  });

  it('unknown or deleted extended services are a 400 on extendedServiceIds; no partner, link or file', async () => {
    const gone = await createExtendedService(t.db);
    await t.request('DELETE', `/admin/partners/extended-services/${gone.id}`, { token });
    const before = {
      partners: await countOf(partners),
      files: await countOf(files),
      links: await countOf(partnerExtendedServices),
    };
    const res = await invite(
      validBody({
        extendedServiceIds: [svcA, 999_999, gone.id],
        coverImage: solidPng(3, 3, [1, 2, 3]).toString('base64'),
      }),
    );
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      { fieldName: 'extendedServiceIds', message: `${msg.unknownServicesPrefix} 999999, ${gone.id}` },
    ]);
    expect({
      partners: await countOf(partners),
      files: await countOf(files),
      links: await countOf(partnerExtendedServices),
    }).toEqual(before);
  });

  it('an image over 5 MiB is a 413 on coverImage; a 20 MB body is a clean 413', async () => {
    const big = Buffer.concat([Buffer.from(PNG_BASE64, 'base64'), Buffer.alloc(5 * 1024 * 1024)]).toString(
      'base64',
    );
    const res = await invite(validBody({ coverImage: big }));
    expect(res.status).toBe(413);
    expect(res.body.errors).toEqual([{ fieldName: 'coverImage', message: 'Image must be at most 5 MiB' }]);

    // Over the text cap of the contract but under the body limit: still 413, not 400.
    const bigger = Buffer.concat([Buffer.from(PNG_BASE64, 'base64'), Buffer.alloc(5_400_000)]).toString(
      'base64',
    );
    const res2 = await invite(validBody({ coverImage: bigger }));
    expect(res2.status).toBe(413);
    expect(res2.body.errors).toContainEqual({
      fieldName: 'coverImage',
      message: 'Image must be at most 5 MiB',
    });

    const huge = Buffer.concat([Buffer.from(PNG_BASE64, 'base64'), Buffer.alloc(20 * 1000 * 1000)]).toString(
      'base64',
    );
    const res3 = await invite(validBody({ coverImage: huge }));
    expect(res3.status).toBe(413);
    expect(res3.body).toMatchObject({ success: false, data: null });
    expect(res3.body.message).toMatch(/^Request body is too large/);
  });

  it('a body that is not JSON is a 400', async () => {
    const res = await t.request('POST', '/admin/partners/invite', {
      body: '{"firstName":',
      token,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
  });
});

describe('GET /admin/partners, /stats, /{partnerId}', () => {
  let listed: { active: Partner; blocked: Partner };

  beforeAll(async () => {
    const active = await createPartner(t.db, {
      organizationName: 'Zobo Palace',
      firstName: 'Amaka',
      email: 'amaka@zobo.ng',
      serviceIds: [svcB],
    });
    const blocked = await createPartner(t.db, { organizationName: 'Suya Spot', accountStatus: 'BLOCKED' });
    await createPartner(t.db, { organizationName: 'Ghost Kitchen', deletedAt: new Date() });
    listed = {
      active: (await get<Partner>(`/admin/partners/${active.id}`)).body.data!,
      blocked: (await get<Partner>(`/admin/partners/${blocked.id}`)).body.data!,
    };
  });

  it('lists ACTIVE by default, BLOCKED on request, never the deleted', async () => {
    const active = await get<ListData<Partner>>('/admin/partners?pageSize=100');
    expect(active.status).toBe(200);
    const names = active.body.data!.records.map((p) => p.organizationName);
    expect(names).toContain('Zobo Palace');
    expect(names).not.toContain('Suya Spot');
    expect(names).not.toContain('Ghost Kitchen');
    expect(active.body.data!.meta.totalCount).toBe(names.length);
    const blocked = await get<ListData<Partner>>('/admin/partners?status=BLOCKED');
    expect(blocked.body.data!.records.map((p) => p.organizationName)).toEqual(['Suya Spot']);
    expect(active.body.data!.records.find((p) => p.organizationName === 'Zobo Palace')).toEqual(
      listed.active,
    );
  });

  it('searches organization, names and email; sorts by a whitelisted column', async () => {
    for (const q of ['zobo', 'AMAKA', 'amaka@zobo']) {
      const res = await get<ListData<Partner>>(`/admin/partners?searchText=${encodeURIComponent(q)}`);
      expect(
        res.body.data!.records.map((p) => p.organizationName),
        q,
      ).toEqual(['Zobo Palace']);
    }
    const sorted = await get<ListData<Partner>>('/admin/partners?sortBy=organizationName&pageSize=100');
    const names = sorted.body.data!.records.map((p) => p.organizationName.toLowerCase());
    expect(names).toEqual([...names].sort());
    const ancient = await get('/admin/partners?startDate=0001-01-01&endDate=9999-12-31');
    expect(ancient.status).toBe(400);
    expect(ancient.body.errors).toEqual([
      { fieldName: 'startDate', message: 'startDate must be on or after 1900-01-01' },
    ]);
    const bad = await get('/admin/partners?sortBy=password&status=GONE&pageSize=7');
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e) => e.fieldName).sort()).toEqual(['pageSize', 'sortBy', 'status']);
  });

  it('stats count live partners by status', async () => {
    const res = await get('/admin/partners/stats');
    const [row] = await t.db.select({ n: count() }).from(partners);
    expect(res.status).toBe(200);
    const s = res.body.data as { totalPartners: number; activePartners: number; blockedPartners: number };
    expect(s.blockedPartners).toBe(1);
    expect(s.totalPartners).toBe(s.activePartners + s.blockedPartners);
    expect(s.totalPartners).toBe(row!.n - 1); // Ghost Kitchen is deleted
  });

  it('detail is 404 for unknown or deleted partners; a bad id is a 400', async () => {
    const [ghost] = await t.db.select().from(partners).where(eq(partners.organizationName, 'Ghost Kitchen'));
    for (const id of [999_999, ghost!.id]) {
      const res = await get(`/admin/partners/${id}`);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ success: false, message: msg.notFound });
    }
    expect((await get('/admin/partners/0')).status).toBe(400);
    expect((await get('/admin/partners/99999999999')).status).toBe(400);
    expect((await get('/admin/partners/abc')).status).toBe(404); // no such route
  });

  it('stats/partner gives the partner’s analytics; 404 for unknown, 400 without partnerId', async () => {
    const customer = await createCustomer(t.db);
    await createReward(t.db, { partnerId: listed.active.id, customerId: customer.id, issuedAmount: 7_500 });
    await createReward(t.db, {
      partnerId: listed.active.id,
      customerId: customer.id,
      rewardType: 'COUPON',
      issuedAmount: null,
      balance: null,
      percentageDiscount: 15,
      status: 'Redeemed',
    });
    const res = await get(`/admin/partners/stats/partner?partnerId=${listed.active.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      totalIssuedGiftcardsCount: 1,
      totalIssuedGiftcardsAmount: 7_500,
      totalIssuedCouponsCount: 1,
      totalRedeemedCouponsCount: 1,
      averageCouponDiscount: 15,
      couponRedemptionRate: 100,
    });
    expect((await get('/admin/partners/stats/partner?partnerId=999999')).status).toBe(404);
    const missing = await get('/admin/partners/stats/partner');
    expect(missing.status).toBe(400);
    expect(missing.body.errors[0]?.fieldName).toBe('partnerId');
  });

  it('partner staff see only their own partner', async () => {
    const role = await createRole(t.db, 'Partner viewer', ['partners.view']);
    const staff = await createUser(t.db, {
      roleId: role.id,
      userType: 'PARTNER',
      partnerId: listed.active.id,
    });
    const own = (await signIn(t, staff.email, staff.password)).accessToken;
    expect((await get(`/admin/partners/${listed.active.id}`, own)).status).toBe(200);
    const other = await get(`/admin/partners/${listed.blocked.id}`, own);
    expect(other.status).toBe(404);
    expect(other.body.message).toBe(msg.notFound);
  });
});

describe('PATCH /admin/partners/update-record', () => {
  it('changes only the fields sent; extendedServiceIds replaces the set; logs it', async () => {
    const created = (await invite(validBody({ email: 'edit@partner.ng', organizationName: 'Edit Me' }))).body
      .data!;
    const res = await update({
      partnerId: created.id,
      minSpendToQualify: 12_500,
      extendedServiceIds: [svcB],
    });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe(msg.updated);
    expect(res.body.data).toMatchObject({
      organizationName: 'Edit Me',
      firstName: 'Cass',
      minSpendToQualify: 12_500,
      extendedServiceIds: [svcB],
      coverImage: created.coverImage,
    });
    expect(await lastEvent()).toMatchObject({
      action: 'Updated partner Edit Me (minimum spend, extended services)',
      entityId: String(created.id),
    });

    const cover = solidPng(5, 5, [250, 200, 0]).toString('base64');
    const renamed = await update({ partnerId: created.id, organizationName: 'Edited', coverImage: cover });
    expect(renamed.body.data!.organizationName).toBe('Edited');
    expect(renamed.body.data!.coverImage).not.toBe(created.coverImage);
    expect((await lastEvent()).action).toBe('Updated partner Edited (organization name, cover image)');

    // Nothing sent, nothing changed, nothing logged.
    const eventsBefore = (await lastEvent()).id;
    expect((await update({ partnerId: created.id })).status).toBe(200);
    expect((await lastEvent()).id).toBe(eventsBefore);
  });

  it('bad input is a 400 per field or 404; nothing changes', async () => {
    const p = await createPartner(t.db, { serviceIds: [svcA] });
    const cases: [unknown, number, string][] = [
      [{ partnerId: p.id, minSpendToQualify: 100 }, 400, 'minSpendToQualify'],
      [{ partnerId: p.id, minSpendToQualify: 'lots' }, 400, 'minSpendToQualify'],
      [{ partnerId: p.id, extendedServiceIds: [] }, 400, 'extendedServiceIds'],
      [{ partnerId: p.id, extendedServiceIds: [999_999] }, 400, 'extendedServiceIds'],
      [{ partnerId: p.id, coverImage: Buffer.from('not an image').toString('base64') }, 400, 'coverImage'],
      [{ partnerId: p.id, firstName: '' }, 400, 'firstName'],
      [{ partnerId: 'x' }, 400, 'partnerId'],
      [{}, 400, 'partnerId'],
    ];
    for (const [json, status, field] of cases) {
      const res = await update(json);
      expect(res.status, JSON.stringify(json)).toBe(status);
      expect(
        res.body.errors.map((e) => e.fieldName),
        JSON.stringify(json),
      ).toContain(field);
    }
    expect((await update({ partnerId: 999_999, firstName: 'X' })).status).toBe(404);
    const after = (await get<Partner>(`/admin/partners/${p.id}`)).body.data!;
    expect(after).toMatchObject({ minSpendToQualify: 10_000, extendedServiceIds: [svcA], firstName: 'Cass' });
  });
});

describe('PATCH /admin/partners/update-status and DELETE /admin/partners/{partnerId}', () => {
  it('blocks and unblocks, logging each change once', async () => {
    const p = await createPartner(t.db, { organizationName: 'Bole Palace' });
    const blocked = await setStatus({ partnerId: p.id, accountStatus: 'BLOCKED' });
    expect(blocked.status).toBe(200);
    expect(blocked.body).toMatchObject({ message: msg.blocked, data: { accountStatus: 'BLOCKED' } });
    expect((await lastEvent()).action).toBe('Blocked partner Bole Palace');
    const again = (await lastEvent()).id;
    await setStatus({ partnerId: p.id, accountStatus: 'BLOCKED' });
    expect((await lastEvent()).id).toBe(again);
    const unblocked = await setStatus({ partnerId: p.id, accountStatus: 'ACTIVE' });
    expect(unblocked.body.message).toBe(msg.unblocked);
    expect((await lastEvent()).action).toBe('Unblocked partner Bole Palace');
    const bad = await setStatus({ partnerId: p.id, accountStatus: 'GONE' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]?.fieldName).toBe('accountStatus');
    expect((await setStatus({ partnerId: 999_999, accountStatus: 'ACTIVE' })).status).toBe(404);
  });

  it('deletes softly: hidden from lists, stats and detail; history kept; its staff can no longer sign in', async () => {
    const p = await createPartner(t.db, { organizationName: 'Closing Down Ltd' });
    const role = await createRole(t.db, 'Closing staff', ['visits.view']);
    const staff = await createUser(t.db, { roleId: role.id, userType: 'PARTNER', partnerId: p.id });
    const staffSession = await signIn(t, staff.email, staff.password);
    const statsBefore = (await get<{ totalPartners: number }>('/admin/partners/stats')).body.data!;

    const res = await remove(p.id);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe(msg.deleted);
    expect(await lastEvent()).toMatchObject({
      action: 'Deleted partner Closing Down Ltd',
      entity: 'partner',
    });
    expect((await get(`/admin/partners/${p.id}`)).status).toBe(404);
    expect((await get<{ totalPartners: number }>('/admin/partners/stats')).body.data!.totalPartners).toBe(
      statsBefore.totalPartners - 1,
    );
    const search = await get<ListData<Partner>>('/admin/partners?searchText=closing');
    expect(search.body.data!.meta.totalCount).toBe(0);
    const [row] = await t.db.select().from(partners).where(eq(partners.id, p.id));
    expect(row!.deletedAt).not.toBeNull();

    const login = await t.request('POST', '/admin/auth/login', {
      json: { email: staff.email, password: staff.password },
    });
    expect(login.status).toBe(401);
    expect((await get('/user/profile', staffSession.accessToken)).status).toBe(401);

    expect((await remove(p.id)).status).toBe(404);
    expect((await remove('abc')).status).toBe(404);
  });

  it('a deleted partner’s email can be used for a new partner', async () => {
    const first = (await invite(validBody({ email: 'again@partner.ng' }))).body.data!;
    await remove(first.id);
    expect((await invite(validBody({ email: 'again@partner.ng' }))).status).toBe(201);
  });
});
