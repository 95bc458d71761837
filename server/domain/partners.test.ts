import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCustomer,
  createExtendedService,
  createPartner,
  openTestDatabase,
} from '../../tests/setup/server';
import type { Database, Db } from '../db/client';
import { extendedServices } from '../db/schema';
import type { AuthUser } from '../types';
import {
  assertEmailFree,
  assertServices,
  findLivePartner,
  missingServices,
  partnerWelcomeMail,
  scopedLivePartner,
  servicesOf,
  toPartners,
  transactingCustomer,
  transactingPartner,
  uniqueEmail,
} from './partners';

// A database of its own, without the app: these are the partner rules themselves.
let database: Database;
let db: Db;
beforeAll(async () => {
  database = await openTestDatabase();
  db = database.db;
});
afterAll(() => database.close());

const deleted = new Date('2026-03-01T12:00:00.000Z');

/** What a call refuses with: status, message, code and field errors, or 'passed' with its result. */
async function outcome(call: () => Promise<unknown>) {
  try {
    return { passed: await call() };
  } catch (err) {
    const e = err as { status: number; message: string; code: string; errors: unknown };
    return { status: e.status, message: e.message, code: e.code, errors: e.errors };
  }
}

describe('the partner a visit, an issue or a redemption happens at (issue 16)', () => {
  it('an active partner transacts; none is 404; blocked or deleted is 409 partner_blocked with the reason', async () => {
    const active = await createPartner(db, { organizationName: 'Mama Put' });
    const blocked = await createPartner(db, { accountStatus: 'BLOCKED' });
    const gone = await createPartner(db, { accountStatus: 'BLOCKED', deletedAt: deleted });
    expect(await outcome(() => db.transaction((tx) => transactingPartner(tx, active.id)))).toEqual({
      passed: { id: active.id, organizationName: 'Mama Put' },
    });
    expect(await outcome(() => db.transaction((tx) => transactingPartner(tx, 2_000_000)))).toEqual({
      status: 404,
      message: 'Partner not found',
      code: 'not_found',
      errors: [],
    });
    expect(await outcome(() => db.transaction((tx) => transactingPartner(tx, blocked.id)))).toEqual({
      status: 409,
      message: 'This partner is blocked: it cannot issue, redeem or record visits.',
      code: 'partner_blocked',
      errors: [],
    });
    // Deleted says deleted, whatever its status was.
    expect(await outcome(() => db.transaction((tx) => transactingPartner(tx, gone.id, 'partnerId')))).toEqual(
      {
        status: 409,
        message: 'This partner was deleted: it cannot issue, redeem or record visits.',
        code: 'partner_blocked',
        errors: [
          {
            fieldName: 'partnerId',
            message: 'This partner was deleted: it cannot issue, redeem or record visits.',
          },
        ],
      },
    );
    expect(
      await outcome(() => db.transaction((tx) => transactingPartner(tx, 2_000_000, 'partnerId'))),
    ).toEqual({
      status: 404,
      message: 'Partner not found',
      code: 'not_found',
      errors: [{ fieldName: 'partnerId', message: 'Partner not found' }],
    });
  });

  it('the customer: a live active one; none, deleted or erased is 404 on the field; blocked is 400 customer_blocked', async () => {
    const ok = await createCustomer(db, { firstName: 'Tunde', lastName: 'Bakare' });
    const blocked = await createCustomer(db, { accountStatus: 'BLOCKED' });
    const gone = await createCustomer(db, { deletedAt: deleted });
    const erased = await createCustomer(db, { erasedAt: deleted });
    expect(
      await outcome(() => db.transaction((tx) => transactingCustomer(tx, ok.id, 'userId', 'share'))),
    ).toEqual({
      passed: { id: ok.id, firstName: 'Tunde', lastName: 'Bakare' },
    });
    expect(
      await outcome(() => db.transaction((tx) => transactingCustomer(tx, ok.id, 'customerId', 'update'))),
    ).toEqual({ passed: { id: ok.id, firstName: 'Tunde', lastName: 'Bakare' } });
    for (const id of [gone.id, erased.id, 2_000_000]) {
      expect(
        await outcome(() => db.transaction((tx) => transactingCustomer(tx, id, 'userId', 'share'))),
      ).toEqual({
        status: 404,
        message: 'Customer not found',
        code: 'not_found',
        errors: [{ fieldName: 'userId', message: 'Customer not found' }],
      });
    }
    expect(
      await outcome(() => db.transaction((tx) => transactingCustomer(tx, blocked.id, 'customerId', 'share'))),
    ).toEqual({
      status: 400,
      message: 'Customer is blocked',
      code: 'customer_blocked',
      errors: [{ fieldName: 'customerId', message: 'Customer is blocked' }],
    });
  });
});

describe('a partner and its extended services', () => {
  it('live services only, by id, for each partner asked; a partner without any has none', async () => {
    const wifi = await createExtendedService(db, { title: 'Free Wi-Fi' });
    const delivery = await createExtendedService(db, { title: 'Home Delivery' });
    const old = await createExtendedService(db, { title: 'Old service' });
    await db.update(extendedServices).set({ deletedAt: deleted }).where(eq(extendedServices.id, old.id));
    const a = await createPartner(db, { serviceIds: [delivery.id, old.id, wifi.id] });
    const b = await createPartner(db, { serviceIds: [wifi.id] });
    const c = await createPartner(db);
    const byPartner = await servicesOf(db, [a.id, b.id, c.id]);
    expect([...byPartner.entries()]).toEqual([
      [
        a.id,
        [
          { id: wifi.id, title: 'Free Wi-Fi' },
          { id: delivery.id, title: 'Home Delivery' },
        ],
      ],
      [b.id, [{ id: wifi.id, title: 'Free Wi-Fi' }]],
      [c.id, []],
    ]);
    expect((await servicesOf(db, [])).size).toBe(0);

    const [pa, pc] = await toPartners(db, [
      (await findLivePartner(db, a.id))!,
      (await findLivePartner(db, c.id))!,
    ]);
    expect(pa).toMatchObject({
      id: a.id,
      extendedServiceIds: [wifi.id, delivery.id],
      partnerExtendedServices: [
        { id: wifi.id, title: 'Free Wi-Fi' },
        { id: delivery.id, title: 'Home Delivery' },
      ],
    });
    expect(pc).toMatchObject({ id: c.id, extendedServiceIds: [], partnerExtendedServices: [] });

    // Unknown or deleted ids are named, each once; live ones pass.
    expect(await missingServices(db, [wifi.id, old.id, 2_000_000, old.id])).toEqual([old.id, 2_000_000]);
    expect(await missingServices(db, [])).toEqual([]);
    expect(await outcome(() => db.transaction((tx) => assertServices(tx, [wifi.id, delivery.id])))).toEqual({
      passed: undefined,
    });
    const message = `Unknown extended services: ${old.id}, 2000000`;
    expect(
      await outcome(() => db.transaction((tx) => assertServices(tx, [old.id, wifi.id, 2_000_000]))),
    ).toEqual({
      status: 400,
      message,
      code: 'validation_failed',
      errors: [{ fieldName: 'extendedServiceIds', message }],
    });
  });

  it('on the wire: money as numbers, the review rules, times as ISO text', async () => {
    const p = await createPartner(db, {
      minSpendToQualify: 12_500,
      reviewAmountAbove: 50_000,
      reviewRequireReceipt: true,
      reviewMaxVisitsPerDay: 3,
    });
    const [wire] = await toPartners(db, [(await findLivePartner(db, p.id))!]);
    expect(wire).toMatchObject({
      minSpendToQualify: 12_500,
      accountStatus: 'ACTIVE',
      reviewRules: { amountAbove: 50_000, requireReceipt: true, maxVisitsPerDay: 3 },
      createdAt: p.createdAt.toISOString(),
      updatedAt: p.updatedAt.toISOString(),
    });
    const plain = await createPartner(db);
    const [none] = await toPartners(db, [(await findLivePartner(db, plain.id))!]);
    expect(none!.reviewRules).toEqual({ amountAbove: null, requireReceipt: false, maxVisitsPerDay: null });
  });
});

describe('finding partners and their emails', () => {
  it('a deleted partner is not found, any status is', async () => {
    const blocked = await createPartner(db, { accountStatus: 'BLOCKED' });
    const gone = await createPartner(db, { deletedAt: deleted });
    expect((await findLivePartner(db, blocked.id))?.accountStatus).toBe('BLOCKED');
    expect(await db.transaction((tx) => findLivePartner(tx, blocked.id, true))).toMatchObject({
      id: blocked.id,
    });
    expect(await findLivePartner(db, gone.id)).toBeUndefined();
    expect(await findLivePartner(db, 2_000_000)).toBeUndefined();
  });

  it("a list names a live partner the caller may see; another partner's is 404, a deleted one the list's 404", async () => {
    const own = await createPartner(db);
    const other = await createPartner(db);
    const gone = await createPartner(db, { deletedAt: deleted });
    const staff = { id: 1, partnerId: own.id, permissions: [] } as unknown as AuthUser;
    const admin = { ...staff, partnerId: null } as AuthUser;
    expect(await outcome(() => scopedLivePartner(db, staff, own.id, 'No visits here'))).toMatchObject({
      passed: { id: own.id },
    });
    expect(await outcome(() => scopedLivePartner(db, admin, other.id, 'No visits here'))).toMatchObject({
      passed: { id: other.id },
    });
    // Another partner's is 404 'Partner not found' (decision 023), before anything is read.
    expect(await outcome(() => scopedLivePartner(db, staff, other.id, 'No visits here'))).toMatchObject({
      status: 404,
      message: 'Partner not found',
    });
    expect(await outcome(() => scopedLivePartner(db, admin, gone.id, 'No visits here'))).toMatchObject({
      status: 404,
      message: 'No visits here',
    });
  });

  it("a live partner's email, in any case, is taken (409 on email); a deleted partner's is free", async () => {
    await createPartner(db, { email: 'cass@mamacass.ng' });
    await createPartner(db, { email: 'old@mamacass.ng', deletedAt: deleted });
    const taken = {
      status: 409,
      message: 'A partner with this email already exists',
      code: 'conflict',
      errors: [{ fieldName: 'email', message: 'A partner with this email already exists' }],
    };
    expect(await outcome(() => assertEmailFree(db, 'CASS@MamaCass.ng'))).toEqual(taken);
    expect(await outcome(() => assertEmailFree(db, 'old@mamacass.ng'))).toEqual({ passed: undefined });
    expect(await outcome(() => assertEmailFree(db, 'new@mamacass.ng'))).toEqual({ passed: undefined });
    // The same email written at once by two requests: the unique index's refusal is the same 409.
    expect(await outcome(() => uniqueEmail(() => createPartner(db, { email: 'cass@mamacass.ng' })))).toEqual(
      taken,
    );
    expect(await outcome(() => uniqueEmail(() => Promise.resolve(7)))).toEqual({ passed: 7 });
    expect(await outcome(() => uniqueEmail(() => Promise.reject(new Error('disk full'))))).toMatchObject({
      message: 'disk full',
    });
  });

  it('the welcome mail goes to the contact, greets them and names the organization', () => {
    const mail = partnerWelcomeMail({
      email: 'cass@mamacass.ng',
      firstName: 'Cass',
      organizationName: 'Mama Cass Kitchen',
    });
    expect(mail.to).toBe('cass@mamacass.ng');
    expect(mail.subject).toBe('Welcome to the Reward Club partner network');
    const lines = mail.text.split('\n');
    expect(lines[0]).toBe('Hello Cass,');
    expect(lines).toContain('Mama Cass Kitchen is now a partner of the Reward Club.');
    expect(lines.at(-1)).toBe('Reward Club');
  });
});
