import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { type ConfirmedLink, customerLinkMessages, memberNumberOf } from '../../contract/customer-links';
import type { Customer } from '../../contract/customers';
import {
  createCustomer,
  createPartner,
  createRole,
  createSuperAdmin,
  createUser,
  createVisit,
  PNG_BASE64,
  setupTestServer,
  signIn,
} from '../../tests/setup/server';
import { customerLinks, customers, webhookDeliveries, webhookEndpoints } from '../db/schema';

/**
 * Consent links (issue 28, decision 053) and the widening the issue found: a cashier at partner A
 * tries every id (visits, rewards, detail reads, lookups, exports) and gains no customer until one
 * gives the code from their mailbox.
 */
const t = setupTestServer();
let partnerA: { id: number; organizationName: string };
let partnerB: { id: number };
let admin: string;
let cashier: string;
let own: { id: number; email: string };
const others: { id: number; email: string }[] = [];

const NOT_LINKED = JSON.stringify({
  success: false,
  data: null,
  message: customerLinkMessages.notLinked,
  code: 'customer_not_linked',
  errors: [],
});

const visitFor = (customerId: number) => ({
  partnerId: partnerA.id,
  customerId,
  attendantName: 'Till',
  visitDate: '2026-03-01T10:00:00.000Z',
  items: [{ name: 'Water', quantity: 1, price: 0.01 }],
});

/** The customers the cashier's partner can see: the list, every page. */
async function visibleCustomers(token: string): Promise<number[]> {
  const res = await t.request<{ records: Customer[] }>('GET', '/admin/user/customers?pageSize=100', {
    token,
  });
  expect(res.status, res.text).toBe(200);
  return res.body.data!.records.map((r) => r.id).sort((a, b) => a - b);
}

beforeAll(async () => {
  const root = await createSuperAdmin(t.db);
  admin = (await signIn(t, root.email, root.password)).accessToken;
  partnerA = await createPartner(t.db, { organizationName: 'Mama Put A' });
  partnerB = await createPartner(t.db, { organizationName: 'Buka B' });
  const till = await createRole(
    t.db,
    'Cashier',
    ['visits.create', 'visits.view', 'clients.view', 'rewards.view', 'rewards.issue', 'rewards.redeem'],
    false,
    true,
  );
  const staff = await createUser(t.db, { roleId: till.id, userType: 'PARTNER', partnerId: partnerA.id });
  cashier = (await signIn(t, staff.email, staff.password)).accessToken;
  own = await createCustomer(t.db);
  await createVisit(t.db, {
    partnerId: partnerA.id,
    customerId: own.id,
    visitDate: new Date('2026-02-01T10:00:00Z'),
    amount: 5_000,
  });
  for (let i = 0; i < 8; i++) {
    const c = await createCustomer(t.db);
    others.push(c);
    if (i % 2 === 0)
      await createVisit(t.db, {
        partnerId: partnerB.id,
        customerId: c.id,
        visitDate: new Date('2026-02-01T10:00:00Z'),
        amount: 5_000,
      });
  }
});

describe('widening the scope (issue 28 defect 1): 0 customers gained without a code', () => {
  it('visits, rewards and detail reads for ids 1..N are all one 403; lookups and exports gain nobody', async () => {
    const before = await visibleCustomers(cashier);
    expect(before).toEqual([own.id]);
    const maxId = Math.max(...others.map((o) => o.id)) + 5;
    const answers = new Set<string>();
    for (let id = 1; id <= maxId; id++) {
      if (id === own.id) continue;
      const visit = await t.request('POST', '/user/visits', { token: cashier, json: visitFor(id) });
      const reward = await t.request('POST', '/partners/rewards/issue-reward', {
        token: cashier,
        json: {
          rewardType: 'GIFTCARD',
          title: 'Free',
          description: 'Widening',
          promotionalImage: PNG_BASE64,
          issuedAmount: 1,
          issuedTo: id,
          partnerId: partnerA.id,
        },
      });
      const detail = await t.request('GET', `/admin/user/customers/${id}`, { token: cashier });
      for (const res of [visit, reward, detail]) answers.add(`${res.status} ${res.text}`);
    }
    // One answer for every id, existing or not: nothing tells which ids exist.
    expect([...answers]).toEqual([`403 ${NOT_LINKED}`]);
    for (const o of others) {
      const found = await t.request<unknown[]>(
        'GET',
        `/partners/visits/customers?search=${encodeURIComponent(o.email)}`,
        { token: cashier },
      );
      expect(found.body.data).toEqual([]);
    }
    const csv = await t.request('GET', '/admin/user/customers/export', { token: cashier });
    expect(csv.status).toBe(200);
    expect(csv.text.trim().split('\n')).toHaveLength(2); // the header and the one own customer
    expect(await visibleCustomers(cashier)).toEqual(before);
  }, 120_000);

  it('asking for a link gains nothing until the customer gives the code from their mailbox', async () => {
    const target = others[0]!;
    const asked = await t.request<{ id: number }>('POST', '/partners/customer-links', {
      token: cashier,
      json: { email: target.email.toUpperCase() },
    });
    expect(asked.status, asked.text).toBe(201);
    expect(await visibleCustomers(cashier)).toEqual([own.id]);
    const code = await t.lastLinkCode(target.email);
    expect(code).toMatch(/^[0-9]{6}$/);
    const wrong = code === '000000' ? '111111' : '000000';
    const miss = await t.request('POST', `/partners/customer-links/${asked.body.data!.id}/confirm`, {
      token: cashier,
      json: { code: wrong },
    });
    expect(miss.status).toBe(400);
    expect(miss.body.message).toBe(customerLinkMessages.wrong(4));
    const hit = await t.request<ConfirmedLink>(
      'POST',
      `/partners/customer-links/${asked.body.data!.id}/confirm`,
      { token: cashier, json: { code } },
    );
    expect(hit.status, hit.text).toBe(200);
    expect(hit.body.data!.customer.id).toBe(target.id);
    expect(hit.body.data!.customer.email).not.toBe(target.email);
    expect(await visibleCustomers(cashier)).toEqual([own.id, target.id].sort((a, b) => a - b));
    const visit = await t.request('POST', '/user/visits', { token: cashier, json: visitFor(target.id) });
    expect(visit.status, visit.text).toBe(201);
  });
});

describe('asking for a link: the same answer whether or not the customer exists', () => {
  it('an unknown address and an unknown member number answer like a known one, and mail nobody', async () => {
    const mailsBefore = (await t.mails()).length;
    const unknown = await t.request<{ id: number; expiresAt: string }>('POST', '/partners/customer-links', {
      token: cashier,
      json: { email: 'nobody-here@mail.test' },
    });
    const unknownMember = await t.request<{ id: number }>('POST', '/partners/customer-links', {
      token: cashier,
      json: { memberNumber: 'RC-999999999' },
    });
    const known = await t.request<{ id: number }>('POST', '/partners/customer-links', {
      token: cashier,
      json: { memberNumber: memberNumberOf(others[1]!.id) },
    });
    for (const res of [unknown, unknownMember, known]) {
      expect(res.status).toBe(201);
      expect(res.body.message).toBe(customerLinkMessages.sent);
      expect(Object.keys(res.body.data as object).sort()).toEqual(['expiresAt', 'id']);
    }
    expect((await t.mails()).length).toBe(mailsBefore + 1);
    // Confirming a request for nobody answers as a wrong code does.
    const nobody = await t.request('POST', `/partners/customer-links/${unknown.body.data!.id}/confirm`, {
      token: cashier,
      json: { code: '123456' },
    });
    const wrongKnown = await t.request('POST', `/partners/customer-links/${known.body.data!.id}/confirm`, {
      token: cashier,
      json: { code: (await t.lastLinkCode(others[1]!.email)) === '123456' ? '654321' : '123456' },
    });
    expect(nobody.status).toBe(400);
    expect(nobody.text).toBe(wrongKnown.text);
  });

  it('five wrong codes lock the request; the right code then no longer links', async () => {
    const target = others[2]!;
    const asked = await t.request<{ id: number }>('POST', '/partners/customer-links', {
      token: cashier,
      json: { email: target.email },
    });
    const code = (await t.lastLinkCode(target.email))!;
    const wrong = code === '999999' ? '888888' : '999999';
    for (let i = 0; i < 5; i++) {
      await t.request('POST', `/partners/customer-links/${asked.body.data!.id}/confirm`, {
        token: cashier,
        json: { code: wrong },
      });
    }
    const late = await t.request('POST', `/partners/customer-links/${asked.body.data!.id}/confirm`, {
      token: cashier,
      json: { code },
    });
    expect(late.status).toBe(429);
    const linked = await t.db.select().from(customerLinks).where(eq(customerLinks.customerId, target.id));
    expect(linked.filter((l) => l.partnerId === partnerA.id && l.state === 'CONFIRMED')).toEqual([]);
  });

  it('an expired code does not link', async () => {
    const target = others[3]!;
    const asked = await t.request<{ id: number }>('POST', '/partners/customer-links', {
      token: cashier,
      json: { email: target.email },
    });
    const code = (await t.lastLinkCode(target.email))!;
    t.clock.advance(5 * 60 * 1000 + 1);
    const late = await t.request('POST', `/partners/customer-links/${asked.body.data!.id}/confirm`, {
      token: cashier,
      json: { code },
    });
    expect(late.status).toBe(400);
    expect(late.body.message).toBe(customerLinkMessages.expired);
  });

  it("another partner's request is not found; an erased customer is never mailed", async () => {
    const erased = others[4]!;
    await t.db.update(customers).set({ erasedAt: new Date() }).where(eq(customers.id, erased.id));
    const mailsBefore = (await t.mails()).length;
    const asked = await t.request('POST', '/partners/customer-links', {
      token: cashier,
      json: { email: erased.email },
    });
    expect(asked.status).toBe(201);
    expect((await t.mails()).length).toBe(mailsBefore);
    const foreign = await t.request<{ id: number }>('POST', '/partners/customer-links', {
      token: admin,
      json: { email: others[5]!.email, partnerId: partnerB.id },
    });
    expect(foreign.status, foreign.text).toBe(201);
    const res = await t.request('POST', `/partners/customer-links/${foreign.body.data!.id}/confirm`, {
      token: cashier,
      json: { code: '123456' },
    });
    expect(res.status).toBe(404);
  });
});

describe('admins see and remove links', () => {
  it('lists the links; removing one queues customer.unlinked and the partner is refused again', async () => {
    const [hook] = await t.db
      .insert(webhookEndpoints)
      .values({
        url: 'https://hooks.example.com/links',
        events: ['customer.unlinked'],
        partnerId: partnerA.id,
        secret: 'whsec_bGlua3M=',
      })
      .returning();
    const links = await t.request<{ id: number; partnerId: number }[]>(
      'GET',
      `/admin/user/customers/${own.id}/links`,
      { token: admin },
    );
    expect(links.status, links.text).toBe(200);
    const link = links.body.data!.find((l) => l.partnerId === partnerA.id)!;
    const removed = await t.request('DELETE', `/admin/user/customers/${own.id}/links/${link.id}`, {
      token: admin,
    });
    expect(removed.status, removed.text).toBe(200);
    const deliveries = await t.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, hook!.id));
    expect(deliveries.map((d) => d.eventType)).toEqual(['customer.unlinked']);
    const visit = await t.request('POST', '/user/visits', { token: cashier, json: visitFor(own.id) });
    expect(visit.status).toBe(403);
    expect(visit.text).toBe(NOT_LINKED);
    // Club admins are not bound by links.
    const byAdmin = await t.request('POST', '/user/visits', { token: admin, json: visitFor(own.id) });
    expect(byAdmin.status, byAdmin.text).toBe(201);
  });
});
