import { eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createCustomer,
  createPartner,
  createReward,
  createVisit,
  setupTestServer,
} from '../../tests/setup/server';
import {
  customerImportRejects,
  customerImports,
  customerLinks,
  customers,
  events,
  files,
  mailOutbox,
  partners,
  redemptionOtps,
  rewardLedger,
  webhookDeliveries,
  webhookEndpoints,
} from '../db/schema';
import { ApiError } from '../errors';
import { customerDataExport, eraseCustomer, redemptionInFlight } from './customer-privacy';

/*
 * The customer's rights on a database, without HTTP (docs/decisions/054-customer-erasure.md): what
 * an erasure removes and what it keeps, the events it pseudonymises (those about the customer, made by
 * them, carrying their id, or about their visits, rewards and links), the refusal while a redemption
 * code of theirs is usable; and the data export (every list oldest first, 500 rows a read, staff
 * members' addresses and browsers left out).
 */

const t = setupTestServer();
const now = new Date('2026-03-02T09:00:00.000Z');
const MIN = 60_000;
const at = (ms: number) => new Date(now.getTime() + ms);

let A: { id: number };
let B: { id: number };
let C: { id: number };

const erase = (customerId: number) => t.db.transaction((tx) => eraseCustomer(tx, customerId, now));

async function exported(row: typeof customers.$inferSelect) {
  let text = '';
  for await (const piece of customerDataExport(t.db, row, now)) text += piece;
  return JSON.parse(text);
}

const event = (o: Partial<typeof events.$inferInsert>) =>
  t.db
    .insert(events)
    .values({ actorType: 'ADMIN', actorName: 'Staff One', action: 'Something', entity: 'other', ...o })
    .returning({ id: events.id })
    .then((r) => r[0]!.id);

const eventById = async (id: number) => (await t.db.select().from(events).where(eq(events.id, id)))[0]!;

beforeAll(async () => {
  A = await createPartner(t.db, { organizationName: 'Mama Put A' });
  B = await createPartner(t.db, { organizationName: 'Buka B' });
  C = await createPartner(t.db, { organizationName: 'Canteen C' });
});

describe('redemptionInFlight', () => {
  it('a code that is not used, replaced, expired or locked; each of those alone is not in flight', async () => {
    const w = await createCustomer(t.db);
    const reward = await createReward(t.db, { partnerId: A.id, customerId: w.id });
    const otp = (o: Partial<typeof redemptionOtps.$inferInsert>) =>
      t.db.insert(redemptionOtps).values({
        rewardId: reward.id,
        customerId: w.id,
        codeHash: 'h',
        expiresAt: at(MIN),
        attempts: 0,
        ...o,
      });
    await otp({ usedAt: at(-MIN) });
    await otp({ replacedAt: at(-MIN) });
    await otp({ expiresAt: now });
    await otp({ attempts: 5 });
    const inFlight = (id: number) => t.db.transaction((tx) => redemptionInFlight(tx, id, now));
    expect(await inFlight(w.id)).toBe(false);
    await otp({ expiresAt: at(1), attempts: 4 });
    expect(await inFlight(w.id)).toBe(true);
    // Another customer's code is not theirs.
    expect(await inFlight((await createCustomer(t.db)).id)).toBe(false);

    const refused = await erase(w.id).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ status: 409, code: 'redemption_in_flight' });
    const [still] = await t.db.select().from(customers).where(eq(customers.id, w.id));
    expect(still!.erasedAt).toBeNull();
  });
});

describe('eraseCustomer', () => {
  it('an unknown customer is a 404, an erased one a 409 customer_erased', async () => {
    await expect(erase(2_000_000_000)).rejects.toMatchObject({ status: 404, message: 'Customer not found' });
    const gone = await createCustomer(t.db, { erasedAt: at(-MIN) });
    await expect(erase(gone.id)).rejects.toMatchObject({ status: 409, code: 'customer_erased' });
  });

  it('removes the person, keeps the books, pseudonymises exactly the events naming them, and tells their partners', async () => {
    const sharedImage = `/api/v1/files/${'a'.repeat(64)}`;
    await t.db
      .insert(files)
      .values({ hash: 'a'.repeat(64), mime: 'image/png', size: 1, bytes: Buffer.from('x') });
    await t.db.update(partners).set({ coverImage: sharedImage }).where(eq(partners.id, C.id));
    const x = await createCustomer(t.db, {
      firstName: 'Kemi',
      lastName: 'Adeyemi',
      email: 'Kemi.Adeyemi@mail.test',
      phone: '08039876543',
      imageUrl: sharedImage,
      externalId: 'SUB-KEMI',
      internetAccountNumber: 'FBR-909',
      accountStatus: 'BLOCKED',
      fiberRenewalDate: new Date('2026-05-01T00:00:00.000Z'),
      createdAt: new Date('2026-01-05T00:00:00.000Z'),
    });
    const y = await createCustomer(t.db, { firstName: 'Yinka', lastName: 'Bello' });
    const xVisit = await createVisit(t.db, {
      partnerId: A.id,
      customerId: x.id,
      visitDate: at(-3 * MIN),
      amount: 4000,
    });
    await createVisit(t.db, { partnerId: B.id, customerId: x.id, visitDate: at(-2 * MIN), amount: 1000 });
    const yVisit = await createVisit(t.db, {
      partnerId: A.id,
      customerId: y.id,
      visitDate: at(-MIN),
      amount: 2000,
    });
    const gift = await createReward(t.db, { partnerId: A.id, customerId: x.id });
    const coupon = await createReward(t.db, {
      partnerId: B.id,
      customerId: x.id,
      rewardType: 'COUPON',
      issuedAmount: null,
      balance: null,
      percentageDiscount: 10,
    });
    await t.db.insert(rewardLedger).values([
      { rewardId: gift.id, kind: 'ISSUE', amount: 5000 },
      { rewardId: gift.id, kind: 'REDEEM', amount: -1500 },
    ]);
    await createReward(t.db, { partnerId: A.id, customerId: y.id });
    // Links: confirmed at A and B (createVisit/createReward), a pending one at C, requests naming them.
    const [pendingAtC] = await t.db
      .insert(customerLinks)
      .values({ partnerId: C.id, customerId: x.id, requested: `member:${x.id}`, state: 'PENDING' })
      .returning({ id: customerLinks.id });
    await t.db.insert(customerLinks).values([
      { partnerId: C.id, customerId: null, requested: 'email:kemi.adeyemi@mail.test', state: 'PENDING' },
      { partnerId: B.id, customerId: null, requested: `member:${x.id}`, state: 'PENDING' },
      { partnerId: C.id, customerId: null, requested: 'email:someone@mail.test', state: 'PENDING' },
    ]);
    const xLinkAtA = (
      await t.db
        .select({ id: customerLinks.id })
        .from(customerLinks)
        .where(eq(customerLinks.customerId, x.id))
    )[0]!.id;
    for (const p of [A, B, C])
      await t.db.insert(webhookEndpoints).values({
        url: `https://hooks.example.com/${p.id}`,
        events: ['customer.erased'],
        partnerId: p.id,
        secret: 'whsec_eA==',
      });

    // The events: one per way of naming the customer, and others that do not.
    const personal = {
      email: 'kemi.adeyemi@mail.test',
      sentTo: 'kemi.adeyemi@mail.test',
      firstName: 'Kemi',
      lastName: 'Adeyemi',
      phone: '08039876543',
      address: '5 Bode Thomas Street',
      name: 'Kemi Adeyemi',
      reason: 'kept',
    };
    const naming = {
      about: await event({
        entity: 'customer',
        entityId: String(x.id),
        action: 'Updated client Kemi Adeyemi (Kemi.Adeyemi@mail.test)',
        payload: personal,
        ipAddress: '10.0.0.1',
        ipLocation: 'Lagos',
        userAgent: 'Staff browser',
        actorImageUrl: '/api/v1/files/staff',
      }),
      madeBy: await event({
        actorType: 'CUSTOMER',
        actorId: x.id,
        actorName: 'Kemi Adeyemi',
        actorImageUrl: '/api/v1/files/kemi',
        ipAddress: '10.0.0.2',
        ipLocation: 'Ibadan',
        userAgent: 'Kemi phone',
        action: 'Signed in',
        entity: 'session',
      }),
      carries: await event({
        entity: 'otp',
        entityId: '1',
        payload: { customerId: x.id },
        action: 'Sent a code to Kemi Adeyemi',
      }),
      visit: await event({
        entity: 'visit',
        entityId: String(xVisit.id),
        action: 'Recorded a visit for Kemi Adeyemi at Mama Put A',
      }),
      reward: await event({ entity: 'reward', entityId: String(coupon.id), action: 'Issued coupon' }),
      link: await event({
        entity: 'customer_link',
        entityId: String(pendingAtC!.id),
        action: 'Sent a link code',
      }),
    };
    const other = {
      aboutY: await event({
        entity: 'customer',
        entityId: String(y.id),
        action: 'Updated client Yinka Bello',
        payload: { email: 'y@mail.test' },
      }),
      yVisit: await event({
        entity: 'visit',
        entityId: String(yVisit.id),
        action: 'Recorded a visit for Yinka Bello',
      }),
      byY: await event({
        actorType: 'CUSTOMER',
        actorId: y.id,
        actorName: 'Yinka Bello',
        ipAddress: '10.0.0.9',
        entity: 'session',
      }),
      // A staff member's event whose actor id is the customer's id: not made by the customer.
      staffWithXsId: await event({
        actorId: x.id,
        actorType: 'ADMIN',
        actorName: 'Staff Same Id',
        ipAddress: '10.0.0.3',
        entity: 'session',
      }),
      idAsText: await event({ entity: 'partner', entityId: String(x.id), action: 'Partner thing' }),
    };

    // Mail: one waiting (any case of the address), one sent, one to someone else.
    await t.db.insert(mailOutbox).values([
      { to: 'KEMI.ADEYEMI@mail.test', subject: 'Your code', text: 'waiting', html: '<p>w</p>' },
      {
        to: 'Kemi.Adeyemi@mail.test',
        subject: 'Your link code',
        text: 'sent',
        html: '<p>s</p>',
        sentAt: at(-MIN),
      },
      { to: 'y@mail.test', subject: 'Hello', text: 'other', html: null, sentAt: at(-MIN) },
    ]);
    // Webhook messages: the club-wide record (rewritten), a partner's ids-only message and another customer's (kept).
    const [club] = await t.db
      .insert(webhookEndpoints)
      .values({
        url: 'https://hooks.example.com/club',
        events: ['customer.updated'],
        partnerId: null,
        secret: 'whsec_eA==',
      })
      .returning();
    const record = (customerId: number, email: string) => ({
      type: 'customer.updated',
      data: {
        customerId,
        externalId: 'SUB',
        firstName: 'First',
        lastName: 'Last',
        email,
        phone: '0803',
        address: 'Somewhere',
        accountStatus: 'BLOCKED',
        internetAccountNumber: 'FBR',
      },
    });
    const delivery = (eventType: string, payload: object) =>
      t.db
        .insert(webhookDeliveries)
        .values({ endpointId: club!.id, messageId: `msg_${Math.random()}`, eventType, payload })
        .returning({ id: webhookDeliveries.id })
        .then((r) => r[0]!.id);
    const xRecord = await delivery('customer.updated', record(x.id, 'kemi.adeyemi@mail.test'));
    const xBlocked = await delivery('customer.blocked', {
      ...record(x.id, 'kemi.adeyemi@mail.test'),
      type: 'customer.blocked',
    });
    const xIds = await delivery('customer.unblocked', {
      type: 'customer.unblocked',
      data: { partnerId: A.id, customerId: x.id, accountStatus: 'ACTIVE' },
    });
    const yRecord = await delivery('customer.updated', record(y.id, 'y@mail.test'));
    const xVisitMessage = await delivery('visit.recorded', {
      type: 'visit.recorded',
      data: { customerId: x.id, email: 'kemi.adeyemi@mail.test' },
    });
    // Import rejects holding their row as sent, and another's.
    const [job] = await t.db
      .insert(customerImports)
      .values({ fileName: 'subs.csv', format: 'csv', actor: {} })
      .returning({ id: customerImports.id });
    await t.db.insert(customerImportRejects).values([
      { importId: job!.id, rowNumber: 2, externalId: 'SUB-KEMI', reason: 'r', raw: 'Kemi' },
      { importId: job!.id, rowNumber: 3, externalId: 'SUB-OTHER', reason: 'r', raw: 'Other' },
    ]);

    const { answer, event: done } = await erase(x.id);

    expect(answer).toEqual({
      customerId: x.id,
      erasedAt: now.toISOString(),
      linksRemoved: 2,
      eventsPseudonymised: 6,
      kept: { visits: 2, rewards: 2, ledgerEntries: 2 },
    });
    expect(done).toEqual({
      action: `Erased customer #${x.id}`,
      entity: 'customer',
      entityId: x.id,
      payload: { linksRemoved: 2, eventsPseudonymised: 6, kept: { visits: 2, rewards: 2, ledgerEntries: 2 } },
      webhook: {
        type: 'customer.erased',
        partnerId: null,
        data: { partnerId: null, customerId: x.id, erasedAt: now.toISOString() },
      },
    });

    // The tombstone: status and dates stay, the external id stays.
    const [tomb] = await t.db.select().from(customers).where(eq(customers.id, x.id));
    expect(tomb).toMatchObject({
      firstName: 'Erased',
      lastName: 'Customer',
      email: `erased-${x.id}@erased.invalid`,
      phone: null,
      address: null,
      imageUrl: null,
      internetAccountNumber: null,
      fiberRenewalDate: null,
      externalId: 'SUB-KEMI',
      accountStatus: 'BLOCKED',
      erasedAt: now,
      updatedAt: now,
      createdAt: new Date('2026-01-05T00:00:00.000Z'),
    });
    // The image another record shows stays.
    expect(
      await t.db
        .select({ hash: files.hash })
        .from(files)
        .where(eq(files.hash, 'a'.repeat(64))),
    ).toHaveLength(1);

    // Links: every link and request naming them is gone; another request stays.
    const links = await t.db.select().from(customerLinks);
    expect(links.filter((l) => l.customerId === x.id)).toEqual([]);
    expect(links.map((l) => l.requested)).not.toContain('email:kemi.adeyemi@mail.test');
    expect(links.map((l) => l.requested)).not.toContain(`member:${x.id}`);
    expect(links.map((l) => l.requested)).toContain('email:someone@mail.test');
    expect(links.filter((l) => l.customerId === y.id)).toHaveLength(1);
    expect(xLinkAtA).toBeGreaterThan(0);

    // The events naming them: the reference instead of the name and the address, personal keys dropped.
    const ref = `erased customer #${x.id}`;
    const about = await eventById(naming.about);
    expect(about.action).toBe(`Updated client ${ref} (${ref})`);
    expect(about.payload).toEqual({ reason: 'kept' });
    // A staff member's event keeps the staff member's own fields.
    expect(about).toMatchObject({
      actorName: 'Staff One',
      ipAddress: '10.0.0.1',
      ipLocation: 'Lagos',
      userAgent: 'Staff browser',
      actorImageUrl: '/api/v1/files/staff',
    });
    expect(await eventById(naming.madeBy)).toMatchObject({
      actorName: ref,
      actorImageUrl: null,
      ipAddress: null,
      ipLocation: null,
      userAgent: null,
      actorId: x.id,
      actorType: 'CUSTOMER',
    });
    expect((await eventById(naming.carries)).action).toBe(`Sent a code to ${ref}`);
    expect((await eventById(naming.visit)).action).toBe(`Recorded a visit for ${ref} at Mama Put A`);
    // Not naming them: untouched.
    expect(await eventById(other.aboutY)).toMatchObject({
      action: 'Updated client Yinka Bello',
      payload: { email: 'y@mail.test' },
    });
    expect((await eventById(other.yVisit)).action).toBe('Recorded a visit for Yinka Bello');
    expect(await eventById(other.byY)).toMatchObject({ actorName: 'Yinka Bello', ipAddress: '10.0.0.9' });
    expect(await eventById(other.staffWithXsId)).toMatchObject({
      actorName: 'Staff Same Id',
      ipAddress: '10.0.0.3',
    });

    // Mail: the waiting one is gone; the sent one keeps only the tombstone address; another's is untouched.
    const mails = await t.db.select().from(mailOutbox);
    expect(mails.map((m) => m.text)).not.toContain('waiting');
    expect(mails.find((m) => m.text === '' && m.to === `erased-${x.id}@erased.invalid`)).toMatchObject({
      subject: '(erased)',
      html: null,
    });
    expect(mails.find((m) => m.to === 'y@mail.test')).toMatchObject({ subject: 'Hello', text: 'other' });

    // Webhook messages carrying their record: the person's fields replaced, the rest kept.
    const deliveries = await t.db
      .select()
      .from(webhookDeliveries)
      .where(inArray(webhookDeliveries.id, [xRecord, xBlocked, xIds, yRecord, xVisitMessage]));
    const payloadOf = (id: number) => deliveries.find((d) => d.id === id)!.payload;
    const erasedData = {
      customerId: x.id,
      externalId: 'SUB',
      firstName: 'Erased',
      lastName: 'Customer',
      email: `erased-${x.id}@erased.invalid`,
      phone: null,
      address: null,
      accountStatus: 'BLOCKED',
      internetAccountNumber: null,
    };
    expect(payloadOf(xRecord)).toEqual({ type: 'customer.updated', data: erasedData });
    expect(payloadOf(xBlocked)).toEqual({ type: 'customer.blocked', data: erasedData });
    expect(payloadOf(xIds)).toEqual({
      type: 'customer.unblocked',
      data: { partnerId: A.id, customerId: x.id, accountStatus: 'ACTIVE' },
    });
    expect(payloadOf(yRecord)).toEqual(record(y.id, 'y@mail.test'));
    expect(payloadOf(xVisitMessage)).toEqual({
      type: 'visit.recorded',
      data: { customerId: x.id, email: 'kemi.adeyemi@mail.test' },
    });

    // Import rejects: theirs gone, another's kept.
    const rejects = await t.db.select().from(customerImportRejects);
    expect(rejects.map((r) => r.externalId)).toEqual(['SUB-OTHER']);

    // customer.erased to each partner that held a confirmed link, that partner's endpoints only.
    const erasedMessages = await t.db
      .select({ url: webhookEndpoints.url, payload: webhookDeliveries.payload })
      .from(webhookDeliveries)
      .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
      .where(eq(webhookDeliveries.eventType, 'customer.erased'));
    expect(
      erasedMessages
        .map((m) => [m.url, (m.payload as { data: unknown }).data])
        .sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    ).toEqual(
      [
        [
          `https://hooks.example.com/${A.id}`,
          { partnerId: A.id, customerId: x.id, erasedAt: now.toISOString() },
        ],
        [
          `https://hooks.example.com/${B.id}`,
          { partnerId: B.id, customerId: x.id, erasedAt: now.toISOString() },
        ],
      ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    );
  });

  it('an image only the customer showed is deleted with them', async () => {
    const hash = 'b'.repeat(64);
    await t.db.insert(files).values({ hash, mime: 'image/png', size: 1, bytes: Buffer.from('y') });
    const z = await createCustomer(t.db, { imageUrl: `/api/v1/files/${hash}` });
    await erase(z.id);
    expect(await t.db.select({ hash: files.hash }).from(files).where(eq(files.hash, hash))).toEqual([]);
  });
});

describe('customerDataExport', () => {
  it('the profile, links, visits with items, rewards, ledger and events, each oldest first', async () => {
    const k = await createCustomer(t.db, {
      firstName: 'Bisi',
      lastName: 'Okoro',
      email: 'bisi.okoro@mail.test',
      phone: '08030000001',
      externalId: 'SUB-BISI',
      internetAccountNumber: 'FBR-1',
      fiberRenewalDate: new Date('2026-04-01T00:00:00.000Z'),
      createdAt: new Date('2026-01-01T00:00:00.000Z'),
      updatedAt: new Date('2026-02-01T00:00:00.000Z'),
    });
    const v1 = await createVisit(t.db, {
      partnerId: A.id,
      customerId: k.id,
      visitDate: at(-10 * MIN),
      amount: 3000,
    });
    const v2 = await createVisit(t.db, {
      partnerId: B.id,
      customerId: k.id,
      visitDate: at(-5 * MIN),
      amount: 700,
    });
    const reward = await createReward(t.db, {
      partnerId: A.id,
      customerId: k.id,
      expiryDate: new Date('2026-12-31T22:59:59.999Z'),
      createdAt: at(-4 * MIN),
      redeemedAt: at(-MIN),
      status: 'Redeemed',
    });
    await t.db
      .insert(rewardLedger)
      .values({ rewardId: reward.id, kind: 'ISSUE', amount: 5000, reason: 'issued', at: at(-4 * MIN) });
    const [pending] = await t.db
      .insert(customerLinks)
      .values({
        partnerId: C.id,
        customerId: k.id,
        requested: `member:${k.id}`,
        state: 'PENDING',
        createdAt: at(-MIN),
      })
      .returning();
    // The customer's own event keeps their address and browser; a staff member's does not.
    await event({
      actorType: 'CUSTOMER',
      actorId: k.id,
      actorName: 'Bisi Okoro',
      ipAddress: '10.1.1.1',
      ipLocation: 'Abuja',
      userAgent: 'Bisi phone',
      entity: 'session',
    });
    await event({
      entity: 'customer',
      entityId: String(k.id),
      ipAddress: '10.2.2.2',
      ipLocation: 'Lagos',
      userAgent: 'Staff browser',
      action: 'Viewed Bisi',
    });
    // Neither a staff member whose id is the customer's, nor another customer naming them, is the customer.
    await event({
      actorId: k.id,
      entity: 'customer',
      entityId: String(k.id),
      ipAddress: '10.3.3.3',
      ipLocation: 'Kano',
      userAgent: 'Staff same id',
      action: 'Staff with the same id',
    });
    await event({
      actorType: 'CUSTOMER',
      actorId: k.id + 1_000_000,
      actorName: 'Another customer',
      payload: { customerId: k.id },
      ipAddress: '10.4.4.4',
      ipLocation: 'Enugu',
      userAgent: 'Other phone',
      action: 'Another customer naming Bisi',
    });
    // Enough events to need two reads of 500.
    await t.db.insert(events).values(
      Array.from({ length: 520 }, (_, i) => ({
        actorType: 'ADMIN' as const,
        actorName: 'Staff One',
        action: `Bulk ${i}`,
        entity: 'customer',
        entityId: String(k.id),
      })),
    );
    const [row] = await t.db.select().from(customers).where(eq(customers.id, k.id));
    const file = await exported(row!);

    expect(file.format).toBe('reward-club.customer-data-export');
    expect(file.version).toBe(1);
    expect(file.exportedAt).toBe(now.toISOString());
    expect(file.profile).toEqual({
      id: k.id,
      externalId: 'SUB-BISI',
      firstName: 'Bisi',
      lastName: 'Okoro',
      email: 'bisi.okoro@mail.test',
      phone: '08030000001',
      address: k.address,
      imageUrl: null,
      accountStatus: 'ACTIVE',
      internetAccountNumber: 'FBR-1',
      fiberPlan: k.fiberPlan,
      fiberSpeedMbps: k.fiberSpeedMbps,
      fiberMonthlyFee: k.fiberMonthlyFee,
      fiberStatus: 'ACTIVE',
      fiberRenewalDate: '2026-04-01T00:00:00.000Z',
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-02-01T00:00:00.000Z',
      deletedAt: null,
    });
    expect(file.links.map((l: { partnerName: string; state: string }) => [l.partnerName, l.state])).toEqual([
      ['Mama Put A', 'CONFIRMED'],
      ['Buka B', 'CONFIRMED'],
      ['Canteen C', 'PENDING'],
    ]);
    expect(file.links[0].confirmedAt).toBe('2026-01-01T00:00:00.000Z');
    expect(file.links[2]).toEqual({
      id: pending!.id,
      partnerId: C.id,
      partnerName: 'Canteen C',
      state: 'PENDING',
      createdAt: at(-MIN).toISOString(),
      confirmedAt: null,
    });
    expect(file.visits).toEqual([
      {
        id: v1.id,
        partnerId: A.id,
        partnerName: 'Mama Put A',
        attendantName: 'Bisi',
        visitDate: at(-10 * MIN).toISOString(),
        totalAmount: 3000,
        receiptImage: null,
        createdAt: at(-10 * MIN).toISOString(),
        items: [{ name: 'Jollof rice', quantity: 1, price: 3000 }],
      },
      {
        id: v2.id,
        partnerId: B.id,
        partnerName: 'Buka B',
        attendantName: 'Bisi',
        visitDate: at(-5 * MIN).toISOString(),
        totalAmount: 700,
        receiptImage: null,
        createdAt: at(-5 * MIN).toISOString(),
        items: [{ name: 'Jollof rice', quantity: 1, price: 700 }],
      },
    ]);
    expect(file.rewards).toHaveLength(1);
    expect(file.rewards[0]).toMatchObject({
      id: reward.id,
      partnerName: 'Mama Put A',
      expiryDate: '2026-12-31T22:59:59.999Z',
      createdAt: at(-4 * MIN).toISOString(),
      redeemedAt: at(-MIN).toISOString(),
      status: 'Redeemed',
    });
    expect(file.ledger).toEqual([
      {
        id: expect.any(Number),
        rewardId: reward.id,
        kind: 'ISSUE',
        amount: 5000,
        reason: 'issued',
        reversesId: null,
        at: at(-4 * MIN).toISOString(),
      },
    ]);
    // Every event naming them, once each, oldest first, over two reads.
    expect(file.events).toHaveLength(524);
    const ids = file.events.map((e: { id: number }) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(524);
    expect(file.events.at(-1).action).toBe('Bulk 519');
    expect(file.events[0]).toMatchObject({
      actorType: 'CUSTOMER',
      ipAddress: '10.1.1.1',
      ipLocation: 'Abuja',
      userAgent: 'Bisi phone',
    });
    expect(file.events[0].actorId).toBeUndefined();
    for (const action of ['Staff with the same id', 'Another customer naming Bisi']) {
      expect(file.events.find((e: { action: string }) => e.action === action)).toMatchObject({
        ipAddress: null,
        ipLocation: null,
        userAgent: null,
      });
    }
    expect(file.events[1]).toMatchObject({
      action: 'Viewed Bisi',
      ipAddress: null,
      ipLocation: null,
      userAgent: null,
      payload: {},
    });
  });

  it('a customer with nothing but a profile: empty lists', async () => {
    const n = await createCustomer(t.db, { deletedAt: new Date('2026-02-02T00:00:00.000Z') });
    const file = await exported(n);
    expect(file.profile.deletedAt).toBe('2026-02-02T00:00:00.000Z');
    expect([file.links, file.visits, file.rewards, file.ledger, file.events]).toEqual([[], [], [], [], []]);
  });
});
