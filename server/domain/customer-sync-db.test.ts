import { eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { CustomerRecord } from '../../contract/customer-sync';
import { createCustomer, setupTestServer } from '../../tests/setup/server';
import { customers } from '../db/schema';
import { applyCustomerRecords, readSyncState } from './customer-sync';

/*
 * Applying subscriber records on a database (docs/decisions/051-customer-sync.md): in order, each
 * created, updated, unchanged or rejected; the outcome says which fields changed (in words) and
 * whether the record blocked the customer just now; new customers are written with the time of the
 * sync; nothing is written for a rejected or unchanged record.
 */

const t = setupTestServer();
const now = new Date('2026-03-02T09:00:00.000Z');
const before = new Date('2026-02-01T00:00:00.000Z');

const rec = (o: Partial<CustomerRecord> & { email: string }): CustomerRecord => ({
  firstName: 'Sade',
  lastName: 'Ola',
  ...o,
});

const apply = (rows: { externalId: string; record: CustomerRecord }[]) =>
  t.db.transaction((tx) => applyCustomerRecords(tx, rows, now));

describe('applyCustomerRecords', () => {
  it('in the order given: created ones among the others get their own customers; updates say what changed and whether they blocked', async () => {
    const same = await createCustomer(t.db, {
      externalId: 'APPLY-SAME',
      firstName: 'Sade',
      lastName: 'Ola',
      email: 'apply.same@mail.test',
      phone: null,
      address: null,
      internetAccountNumber: null,
      updatedAt: before,
    });
    const active = await createCustomer(t.db, {
      externalId: 'APPLY-ACTIVE',
      email: 'apply.active@mail.test',
      updatedAt: before,
    });
    const blocked = await createCustomer(t.db, {
      externalId: 'APPLY-BLOCKED',
      email: 'apply.blocked@mail.test',
      accountStatus: 'BLOCKED',
      updatedAt: before,
    });
    const other = await createCustomer(t.db, { externalId: 'APPLY-OTHER', email: 'apply.other@mail.test' });

    const out = await apply([
      { externalId: 'APPLY-NEW-1', record: rec({ email: 'apply.new1@mail.test', firstName: 'First' }) },
      { externalId: 'APPLY-ACTIVE', record: rec({ email: 'apply.active@mail.test', status: 'BLOCKED' }) },
      { externalId: 'APPLY-SAME', record: rec({ email: 'apply.same@mail.test' }) },
      {
        externalId: 'APPLY-NEW-2',
        record: rec({ email: 'apply.new2@mail.test', firstName: 'Second', status: 'BLOCKED' }),
      },
      {
        externalId: 'APPLY-BLOCKED',
        record: rec({ email: 'apply.blocked@mail.test', status: 'BLOCKED', phone: '08031112222' }),
      },
      { externalId: 'APPLY-THIEF', record: rec({ email: 'APPLY.OTHER@mail.test' }) },
      { externalId: 'APPLY-NEW-3', record: rec({ email: 'apply.new3@mail.test', firstName: 'Third' }) },
    ]);
    expect(out.map((o) => o.result)).toEqual([
      'created',
      'updated',
      'unchanged',
      'created',
      'updated',
      'rejected',
      'created',
    ]);

    const created = [out[0], out[3], out[6]].map((o) => (o?.result === 'created' ? o : null));
    expect(
      created.map((o) => [o?.customer.externalId, o?.customer.firstName, o?.customer.accountStatus]),
    ).toEqual([
      ['APPLY-NEW-1', 'First', 'ACTIVE'],
      ['APPLY-NEW-2', 'Second', 'BLOCKED'],
      ['APPLY-NEW-3', 'Third', 'ACTIVE'],
    ]);
    for (const o of created) {
      expect(o).toMatchObject({ changed: [], blockedNow: false });
      expect(o?.customer.createdAt).toEqual(now);
      expect(o?.customer.updatedAt).toEqual(now);
    }

    // An active customer blocked by the record: blocked now; the address it left out cleared (PUT replaces).
    expect(out[1]).toMatchObject({
      result: 'updated',
      blockedNow: true,
      changed: ['first name', 'last name', 'address', 'status'],
    });
    if (out[1]!.result !== 'rejected') {
      expect(out[1]!.customer).toMatchObject({
        id: active.id,
        accountStatus: 'BLOCKED',
        address: null,
        updatedAt: now,
      });
    }
    // Unchanged: the row as it was, not written.
    expect(out[2]).toEqual({ result: 'unchanged', customer: same, changed: [], blockedNow: false });
    // A blocked customer who stays blocked is not blocked "now".
    expect(out[4]).toMatchObject({ result: 'updated', blockedNow: false });
    expect(out[4]!.result === 'updated' && out[4]!.changed).toContain('phone');
    expect(out[5]).toEqual({
      result: 'rejected',
      reason: 'This email belongs to another customer (another external id); change one of them first',
    });

    const rows = await t.db
      .select()
      .from(customers)
      .where(inArray(customers.externalId, ['APPLY-SAME', 'APPLY-BLOCKED', 'APPLY-OTHER', 'APPLY-THIEF']));
    expect(rows.find((r) => r.id === same.id)!.updatedAt).toEqual(before);
    expect(rows.find((r) => r.id === blocked.id)).toMatchObject({ phone: '08031112222', updatedAt: now });
    expect(rows.find((r) => r.id === other.id)!.email).toBe('apply.other@mail.test');
    expect(rows.some((r) => r.externalId === 'APPLY-THIEF')).toBe(false);
  });

  it('unblocking is not blocking now; nothing to apply is nothing', async () => {
    await createCustomer(t.db, {
      externalId: 'APPLY-UNBLOCK',
      email: 'apply.unblock@mail.test',
      accountStatus: 'BLOCKED',
    });
    const [o] = await apply([
      { externalId: 'APPLY-UNBLOCK', record: rec({ email: 'apply.unblock@mail.test' }) },
    ]);
    expect(o).toMatchObject({ result: 'updated', blockedNow: false });
    expect(o!.result === 'updated' && o!.changed).toContain('status');
    expect(await apply([])).toEqual([]);
  });
});

describe('readSyncState', () => {
  it('the customers a batch names by external id, and who holds each email (lower case)', async () => {
    const a = await createCustomer(t.db, { externalId: 'STATE-A', email: 'State.A@Mail.test' });
    const b = await createCustomer(t.db, { externalId: 'STATE-B', email: 'state.b@mail.test' });
    const state = await readSyncState(t.db, [
      { externalId: 'STATE-A', record: rec({ email: 'someone@mail.test' }) },
      { externalId: 'STATE-NONE', record: rec({ email: 'STATE.B@mail.test' }) },
    ]);
    expect([...state.existing.keys()]).toEqual(['STATE-A']);
    expect(state.existing.get('STATE-A')!.id).toBe(a.id);
    expect([...state.emailOwner.entries()]).toEqual([['state.b@mail.test', b.id]]);
    const empty = await readSyncState(t.db, []);
    expect([empty.existing.size, empty.emailOwner.size]).toEqual([0, 0]);
    const [row] = await t.db.select().from(customers).where(eq(customers.id, a.id));
    expect(row!.email).toBe('State.A@Mail.test');
  });
});
