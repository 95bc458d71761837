import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_PERMISSIONS } from '../../contract/api-keys';
import { customerLinkMessages } from '../../contract/customer-links';
import {
  type CustomerDataExport,
  customerDataExportSchema,
  customerPrivacyMessages,
  type ErasedCustomer,
} from '../../contract/customer-privacy';
import type { Customer } from '../../contract/customers';
import {
  createCustomer,
  createPartner,
  createRole,
  createSuperAdmin,
  createUser,
  linkCustomer,
  PNG_BASE64,
  setupTestServer,
  signIn,
} from '../../tests/setup/server';
import { API_BASE } from '../app';
import {
  customerLinks,
  customers,
  events,
  mailOutbox,
  webhookDeliveries,
  webhookEndpoints,
} from '../db/schema';
import { fileUrl, storeFile } from '../domain/images';

/**
 * The customer's rights (issue 28, decision 054) on a small data set worked by hand: customer X
 * (the one erased) and Y at partners A (minimum spend ₦10,000) and B, visits and rewards made
 * through the API so the activity log names them as it does in use.
 *
 *   X at A: 2×₦2,500 + ₦1,000 = ₦6,000 (20 Feb), 3×₦1,500 = ₦4,500 (27 Feb) → ₦10,500, eligible,
 *           105 points (60 + 45); a ₦5,000 gift card with ₦2,000 redeemed, a 10% coupon.
 *   X at B: ₦3,000 (25 Feb).
 *   Y at A: ₦12,000 (26 Feb) → eligible, 120 points; a ₦4,000 gift card.
 *
 * Partner A (and the club): 2 gift cards worth ₦9,000, ₦2,000 redeemed, 1 coupon averaging 10%.
 */
const t = setupTestServer();
let admin: string;
let noPrivacy: string;
let cashier: string;
let partnerKey: string;
let clubKey: string;
let A: { id: number; organizationName: string };
let B: { id: number; organizationName: string };
let X: typeof customers.$inferSelect;
let Y: typeof customers.$inferSelect;
let giftcardX: string;
let imageHash: string;

const DATE = '2026-03-02';
const nameOf = (c: { firstName: string; lastName: string }) => `${c.firstName} ${c.lastName}`;

async function visit(partnerId: number, customerId: number, visitDate: string, items: object[]) {
  const res = await t.request('POST', '/user/visits', {
    token: admin,
    json: { partnerId, customerId, attendantName: 'Bisi', visitDate, items },
  });
  expect(res.status, res.text).toBe(201);
}

async function issue(customerId: number, body: Record<string, unknown>): Promise<string> {
  const res = await t.request<{ code: string }>('POST', '/partners/rewards/issue-reward', {
    token: admin,
    json: {
      partnerId: A.id,
      issuedTo: customerId,
      title: 'Thank you',
      description: 'For your visits',
      promotionalImage: PNG_BASE64,
      expiryDate: '2026-12-31',
      ...body,
    },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.data!.code;
}

const erase = (id: number, token = admin) =>
  t.request<ErasedCustomer>('POST', `/admin/user/customers/${id}/erase`, { token });

async function exportOf(id: number, token = admin) {
  return t.app.request(`${API_BASE}/admin/user/customers/${id}/data-export`, {
    headers: { Authorization: `Bearer ${token}` },
  });
}

/** Every figure the dashboard, the partner page and the eligibility tabs show that counts amounts. */
async function figures() {
  const get = async (path: string) => {
    const res = await t.request<unknown>('GET', path, { token: admin });
    expect(res.status, `${path}: ${res.text}`).toBe(200);
    return res.body.data;
  };
  const eligible = (await get(
    `/admin/partners/visits/reward-eligible-users?partnerId=${A.id}&date=${DATE}&pageSize=100`,
  )) as { records: { user: { id: number }; totalSpent: number; isEligible: boolean }[] };
  const points = (await get(
    `/admin/partners/visits/eligible-users-bypoints?partnerId=${A.id}&pageSize=100`,
  )) as {
    records: { id: number; totalUnclaimedPoints: number }[];
  };
  return {
    users: await get('/admin/user/stats'),
    club: await get('/admin/partners/stats/reward'),
    partnerA: await get(`/admin/partners/stats/partner?partnerId=${A.id}`),
    eligibleA: eligible.records
      .map((r) => ({ id: r.user.id, totalSpent: r.totalSpent, isEligible: r.isEligible }))
      .sort((a, b) => a.id - b.id),
    pointsA: points.records
      .map((r) => ({ id: r.id, points: r.totalUnclaimedPoints }))
      .sort((a, b) => a.id - b.id),
  };
}

beforeAll(async () => {
  const root = await createSuperAdmin(t.db);
  admin = (await signIn(t, root.email, root.password)).accessToken;
  const support = await createRole(t.db, 'Support', [
    'dashboard.view',
    'clients.view',
    'clients.update',
    'clients.delete',
  ]);
  const supportUser = await createUser(t.db, { roleId: support.id });
  noPrivacy = (await signIn(t, supportUser.email, supportUser.password)).accessToken;
  A = await createPartner(t.db, { organizationName: 'Mama Put A' });
  B = await createPartner(t.db, { organizationName: 'Buka B' });
  // A partner role holding every permission, customers.privacy included: still a partner.
  const till = await createRole(
    t.db,
    'Till everything',
    [
      'clients.view',
      'customers.privacy',
      'visits.create',
      'visits.view',
      'rewards.view',
      'rewards.issue',
      'rewards.redeem',
    ],
    false,
    true,
  );
  const staff = await createUser(t.db, { roleId: till.id, userType: 'PARTNER', partnerId: A.id });
  cashier = (await signIn(t, staff.email, staff.password)).accessToken;
  const key = await t.request<{ key: string }>('POST', `/admin/partners/${A.id}/api-keys`, {
    token: admin,
    json: { name: 'Till A', permissions: [...API_KEY_PERMISSIONS] },
  });
  expect(key.status, key.text).toBe(201);
  partnerKey = key.body.data!.key;
  const club = await t.request<{ key: string }>('POST', '/admin/api-keys', {
    token: admin,
    json: { name: 'Subscriber sync', scopes: ['customers.read', 'customers.write'] },
  });
  expect(club.status, club.text).toBe(201);
  clubKey = club.body.data!.key;

  imageHash = (await storeFile(t.db, Buffer.from(PNG_BASE64, 'base64'), 'image/png', t.clock())) as string;
  X = await createCustomer(t.db, {
    firstName: 'Chiamaka',
    lastName: 'Eze',
    email: 'Chiamaka.Eze@mail.test',
    phone: '08031234567',
    externalId: 'SUB-X',
    internetAccountNumber: 'FBR-555',
    imageUrl: fileUrl(imageHash),
  });
  Y = await createCustomer(t.db, { firstName: 'Yetunde', lastName: 'Ade', externalId: 'SUB-Y' });
  await visit(A.id, X.id, '2026-02-20T12:00:00.000Z', [
    { name: 'Jollof rice', quantity: 2, price: 2500 },
    { name: 'Zobo', quantity: 1, price: 1000 },
  ]);
  await visit(A.id, X.id, '2026-02-27T12:00:00.000Z', [{ name: 'Suya', quantity: 3, price: 1500 }]);
  await visit(B.id, X.id, '2026-02-25T12:00:00.000Z', [{ name: 'Chapman', quantity: 1, price: 3000 }]);
  await visit(A.id, Y.id, '2026-02-26T12:00:00.000Z', [{ name: 'Asun', quantity: 1, price: 12000 }]);
  giftcardX = await issue(X.id, { rewardType: 'GIFTCARD', issuedAmount: 5000 });
  await issue(X.id, { rewardType: 'COUPON', percentageDiscount: 10 });
  await issue(Y.id, { rewardType: 'GIFTCARD', issuedAmount: 4000 });
  // X gave codes at A and at B; Y at A (admins' visits do not link: decision 053).
  await linkCustomer(t.db, A.id, X.id);
  await linkCustomer(t.db, B.id, X.id);
  await linkCustomer(t.db, A.id, Y.id);
  const endpoint = (url: string, partnerId: number | null) =>
    t.db
      .insert(webhookEndpoints)
      .values({ url, events: ['customer.erased'], partnerId, secret: 'whsec_ZXJhc2U=' });
  await endpoint('https://hooks.example.com/club', null);
  await endpoint('https://hooks.example.com/a', A.id);
  await endpoint('https://hooks.example.com/b', B.id);
  const C = await createPartner(t.db, { organizationName: 'Not linked C' });
  await endpoint('https://hooks.example.com/c', C.id);
});

describe('who may export and erase', () => {
  it('club admins with customers.privacy only: partner staff, partner keys, club keys and other admins are refused', async () => {
    for (const [who, headers] of [
      ['admin without customers.privacy', { Authorization: `Bearer ${noPrivacy}` }],
      ['partner staff holding it', { Authorization: `Bearer ${cashier}` }],
      ['partner key', { 'X-Api-Key': partnerKey }],
      ['club key', { 'X-Api-Key': clubKey }],
    ] as const) {
      for (const [method, path] of [
        ['GET', `/admin/user/customers/${X.id}/data-export`],
        ['POST', `/admin/user/customers/${X.id}/erase`],
      ] as const) {
        const res = await t.app.request(`${API_BASE}${path}`, { method, headers });
        expect([401, 403], `${who} ${method} ${path}`).toContain(res.status);
        const body = (await res.json()) as { success: boolean };
        expect(body.success, who).toBe(false);
      }
    }
    const [row] = await t.db.select().from(customers).where(eq(customers.id, X.id));
    expect(row!.erasedAt).toBeNull();
  });

  it('an unknown customer is 404', async () => {
    expect((await exportOf(2_000_000_000)).status).toBe(404);
    expect((await erase(2_000_000_000)).status).toBe(404);
  });
});

describe("the customer's data export", () => {
  it('is one JSON attachment of the profile, links, visits, rewards, ledger and events naming them', async () => {
    const res = await exportOf(X.id);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('content-disposition')).toMatch(
      new RegExp(`^attachment; filename="customer-${X.id}-data-\\d{4}-\\d{2}-\\d{2}\\.json"$`),
    );
    const file = customerDataExportSchema.parse(JSON.parse(await res.text())) as CustomerDataExport;
    expect(file.profile).toMatchObject({
      id: X.id,
      email: 'Chiamaka.Eze@mail.test',
      phone: '08031234567',
      address: X.address,
      externalId: 'SUB-X',
      internetAccountNumber: 'FBR-555',
    });
    expect(file.links.map((l) => l.partnerName).sort()).toEqual(['Buka B', 'Mama Put A']);
    expect(file.visits.map((v) => [v.partnerName, v.totalAmount])).toEqual([
      ['Mama Put A', 6000],
      ['Mama Put A', 4500],
      ['Buka B', 3000],
    ]);
    expect(file.visits[0]!.items).toEqual([
      { name: 'Jollof rice', quantity: 2, price: 2500 },
      { name: 'Zobo', quantity: 1, price: 1000 },
    ]);
    expect(file.rewards.map((r) => [r.rewardType, r.issuedAmount, r.percentageDiscount])).toEqual([
      ['GIFTCARD', 5000, null],
      ['COUPON', null, 10],
    ]);
    expect(file.ledger.map((e) => [e.kind, e.amount])).toEqual([['ISSUE', 5000]]);
    const actions = file.events.map((e) => e.action);
    expect(actions).toContain('Recorded a visit for Chiamaka Eze at Buka B');
    expect(actions.filter((a) => a.startsWith('Issued '))).toHaveLength(2);
    // Y is not in X's file.
    expect(JSON.stringify(file)).not.toContain('Yetunde');
    // The export is an event of its own, by the admin.
    const [logged] = await t.db
      .select()
      .from(events)
      .where(sql`${events.action} = ${'Exported the data of Chiamaka Eze'}`);
    expect(logged?.entityId).toBe(String(X.id));
  });
});

describe("the customer's erasure", () => {
  let before: Awaited<ReturnType<typeof figures>>;

  it('is refused with its own code while a redemption of theirs is in flight, and runs once it is done', async () => {
    const sent = await t.request('POST', '/partners/rewards/initiate-reward-redemption-auth', {
      token: admin,
      json: { userId: X.id, code: giftcardX },
    });
    expect(sent.status, sent.text).toBe(200);
    const refused = await erase(X.id);
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body).toMatchObject({
      success: false,
      code: 'redemption_in_flight',
      message: customerPrivacyMessages.redemptionInFlight,
    });
    const [still] = await t.db.select().from(customers).where(eq(customers.id, X.id));
    expect([still!.firstName, still!.erasedAt]).toEqual(['Chiamaka', null]);

    const otp = await t.lastOtp('Chiamaka.Eze@mail.test');
    const redeemed = await t.request('POST', '/partners/rewards/redeem-giftcard', {
      token: admin,
      json: { userId: X.id, code: giftcardX, amountToRedeem: 2000, otp },
    });
    expect(redeemed.status, redeemed.text).toBe(200);

    before = await figures();
    // By hand (the header): the figures that count amounts.
    expect(before.users).toMatchObject({ totalClients: 2, totalPartners: 3 });
    for (const stats of [before.club, before.partnerA]) {
      expect(stats).toMatchObject({
        totalIssuedGiftcardsCount: 2,
        totalIssuedGiftcardsAmount: 9000,
        totalRedeemedIssuedGiftcards: 2000,
        totalIssuedCouponsCount: 1,
        totalRedeemedCouponsCount: 0,
        averageCouponDiscount: 10,
      });
    }
    expect(before.eligibleA).toEqual(
      [
        { id: X.id, totalSpent: 10500, isEligible: true },
        { id: Y.id, totalSpent: 12000, isEligible: true },
      ].sort((a, b) => a.id - b.id),
    );
    expect(before.pointsA).toEqual(
      [
        { id: X.id, points: 105 },
        { id: Y.id, points: 120 },
      ].sort((a, b) => a.id - b.id),
    );

    const done = await erase(X.id);
    expect(done.status, done.text).toBe(200);
    expect(done.body.message).toBe(customerPrivacyMessages.erased);
    expect(done.body.data).toMatchObject({
      customerId: X.id,
      linksRemoved: 2,
      kept: { visits: 3, rewards: 2, ledgerEntries: 2 },
    });
    expect(done.body.data!.eventsPseudonymised).toBeGreaterThanOrEqual(8);
  });

  it('keeps every figure that counts amounts: club totals, partner stats, eligibility and points', async () => {
    expect(await figures()).toEqual(before);
  });

  it('leaves a tombstone: no name, contact, address, image, account number or links', async () => {
    const [row] = await t.db.select().from(customers).where(eq(customers.id, X.id));
    expect(row).toMatchObject({
      firstName: 'Erased',
      lastName: 'Customer',
      email: `erased-${X.id}@erased.invalid`,
      phone: null,
      address: null,
      imageUrl: null,
      internetAccountNumber: null,
      externalId: 'SUB-X',
      accountStatus: 'ACTIVE',
    });
    expect(row!.erasedAt).not.toBeNull();
    expect(await t.db.select().from(customerLinks).where(eq(customerLinks.customerId, X.id))).toEqual([]);
    // The image was X's alone: gone.
    expect((await t.app.request(`${API_BASE}/files/${imageHash}`)).status).toBe(404);
    // The mail that carried the code keeps no address of theirs.
    const mails = await t.db.select({ to: mailOutbox.to }).from(mailOutbox);
    expect(mails.map((m) => m.to.toLowerCase())).not.toContain('chiamaka.eze@mail.test');
    // The detail shows the tombstone; the list finds nobody by the old name or address.
    const detail = await t.request<Customer>('GET', `/admin/user/customers/${X.id}`, { token: admin });
    expect(detail.body.data).toMatchObject({
      firstName: 'Erased',
      lastName: 'Customer',
      phone: null,
      address: null,
    });
    expect(detail.body.data!.erasedAt).toBe(row!.erasedAt!.toISOString());
    for (const search of ['Chiamaka', 'Eze', 'chiamaka.eze@mail.test']) {
      const list = await t.request<{ records: Customer[] }>(
        'GET',
        `/admin/user/customers?search=${encodeURIComponent(search)}`,
        { token: admin },
      );
      expect(list.body.data!.records, search).toEqual([]);
    }
  });

  it('keeps every event, naming a pseudonymous reference instead of the person', async () => {
    const all = await t.db.select().from(events);
    const text = JSON.stringify(all);
    for (const personal of ['Chiamaka', 'Eze', 'chiamaka.eze', 'Chiamaka.Eze', '08031234567']) {
      expect(text, personal).not.toContain(personal);
    }
    const ref = `erased customer #${X.id}`;
    const actions = all.map((e) => e.action);
    expect(actions).toContain(`Recorded a visit for ${ref} at Mama Put A`);
    expect(actions).toContain(`Recorded a visit for ${ref} at Buka B`);
    expect(actions).toContain(`Exported the data of ${ref}`);
    expect(actions).toContain(`Erased customer #${X.id}`);
    // Y's events are untouched.
    expect(actions).toContain(`Recorded a visit for ${nameOf(Y)} at Mama Put A`);
    // Outside an erasure the log is still append-only, and inside one an event's identity is fixed.
    await expect(
      t.db.update(events).set({ action: 'rewritten' }).where(eq(events.id, all[0]!.id)),
    ).rejects.toThrow();
    await expect(
      t.db.transaction(async (tx) => {
        await tx.execute(sql`select set_config('app.erasing_customer', ${String(X.id)}, true)`);
        await tx
          .update(events)
          .set({ at: new Date('2020-01-01T00:00:00Z') })
          .where(eq(events.id, all[0]!.id));
      }),
    ).rejects.toThrow();
    await expect(t.db.delete(events).where(eq(events.id, all[0]!.id))).rejects.toThrow();
  });

  it('tells each partner that held a link (its endpoints only) and the club: customer.erased', async () => {
    const rows = await t.db
      .select({ url: webhookEndpoints.url, payload: webhookDeliveries.payload })
      .from(webhookDeliveries)
      .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
      .where(eq(webhookDeliveries.eventType, 'customer.erased'));
    const got = rows
      .map((r) => {
        const data = (r.payload as { data: { partnerId: number | null; customerId: number } }).data;
        return [r.url, data.partnerId, data.customerId];
      })
      .sort();
    expect(got).toEqual(
      [
        ['https://hooks.example.com/a', A.id, X.id],
        ['https://hooks.example.com/b', B.id, X.id],
        ['https://hooks.example.com/club', null, X.id],
      ].sort(),
    );
  });

  it('cannot be exported, erased, edited or blocked again', async () => {
    const exported = await exportOf(X.id);
    expect(exported.status).toBe(409);
    expect(((await exported.json()) as { code: string }).code).toBe('customer_erased');
    const again = await erase(X.id);
    expect([again.status, again.body.code]).toEqual([409, 'customer_erased']);
    const edit = await t.request('PATCH', '/admin/user/customers', {
      token: admin,
      json: { customerId: X.id, firstName: 'Chiamaka' },
    });
    expect([edit.status, edit.body.code]).toEqual([409, 'customer_erased']);
    const block = await t.request('PATCH', '/admin/user/customers/status', {
      token: admin,
      json: { customerId: X.id, accountStatus: 'BLOCKED' },
    });
    expect([block.status, block.body.code]).toEqual([409, 'customer_erased']);
  });

  it('cannot be linked, acted for, or redeemed: the same answers as a customer who does not exist', async () => {
    const linkMails = async () => (await t.mails()).length;
    const mailsBefore = await linkMails();
    for (const json of [
      { email: 'chiamaka.eze@mail.test' },
      { memberNumber: `RC-${String(X.id).padStart(6, '0')}` },
    ]) {
      const asked = await t.request<{ id: number }>('POST', '/partners/customer-links', {
        token: cashier,
        json,
      });
      expect(asked.status, asked.text).toBe(201);
      expect(asked.body.message).toBe(customerLinkMessages.sent);
    }
    expect(await linkMails()).toBe(mailsBefore);
    const gate = JSON.stringify({
      success: false,
      data: null,
      message: customerLinkMessages.notLinked,
      code: 'customer_not_linked',
      errors: [],
    });
    for (const id of [X.id, 2_000_000_000]) {
      const read = await t.request('GET', `/admin/user/customers/${id}`, { token: cashier });
      expect([read.status, read.text]).toEqual([403, gate]);
      const byKey = await t.request('GET', `/admin/user/customers/${id}`, {
        headers: { 'X-Api-Key': partnerKey },
      });
      expect([byKey.status, byKey.text]).toEqual([403, gate]);
    }
    // Club admins: no visit, reward or redemption for the tombstone either.
    const visitRes = await t.request('POST', '/user/visits', {
      token: admin,
      json: {
        partnerId: A.id,
        customerId: X.id,
        attendantName: 'Bisi',
        visitDate: '2026-03-01T10:00:00.000Z',
        items: [{ name: 'Water', quantity: 1, price: 100 }],
      },
    });
    expect(visitRes.status).toBe(404);
    const code = await t.request('POST', '/partners/rewards/initiate-reward-redemption-auth', {
      token: admin,
      json: { userId: X.id, code: giftcardX },
    });
    expect(code.status).toBe(404);
  });

  it('is not re-imported under the same external id until an admin restores it, then a new customer comes', async () => {
    const put = (email: string) =>
      t.request<{ result: string; customer: { id: number } }>('PUT', '/admin/customers/external/SUB-X', {
        headers: { 'X-Api-Key': clubKey },
        json: { firstName: 'Chiamaka', lastName: 'Eze', email },
      });
    const refused = await put('chiamaka.eze@mail.test');
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body.errors?.[0]?.fieldName).toBe('externalId');
    const freed = await t.request('POST', `/admin/user/customers/${X.id}/restore`, { token: admin });
    expect(freed.status, freed.text).toBe(200);
    const created = await put('chiamaka.eze@mail.test');
    expect(created.status, created.text).toBe(200);
    expect(created.body.data!.result).toBe('created');
    expect(created.body.data!.customer.id).not.toBe(X.id);
  });
});
