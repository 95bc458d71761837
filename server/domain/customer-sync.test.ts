import { describe, expect, it } from 'vitest';
import type { CustomerRecord } from '../../contract/customer-sync';
import {
  type CustomerRow,
  customerRecordMessage,
  planCustomerRecords,
  type SyncOutcome,
  type SyncState,
  statusChanged,
  syncEvent,
  syncRefusal,
  toCustomer,
  toSyncedCustomer,
  valuesOf,
} from './customer-sync';

/*
 * The rules of a sync without a database (docs/decisions/051-customer-sync.md): PUT replaces the
 * record (a field left out is cleared, status defaults to ACTIVE); an email held by another customer
 * is a rejection, never a merge; an erased or deleted customer is not synced until restored; only
 * changes make an event and a club-wide message (decision 065: the sync's block and unblock are
 * customer.blocked and customer.unblocked).
 */

const created = new Date('2026-03-01T08:00:00.000Z');
const now = new Date('2026-03-02T09:00:00.000Z');

const row = (o: Partial<CustomerRow> = {}): CustomerRow => ({
  id: 7,
  firstName: 'Ada',
  lastName: 'Obi',
  email: 'ada.obi@mail.test',
  phone: '+2348031234567',
  address: '12 Awolowo Road',
  imageUrl: null,
  accountStatus: 'ACTIVE',
  externalId: 'SUB-7',
  internetAccountNumber: 'FBR-7',
  fiberPlan: null,
  fiberSpeedMbps: null,
  fiberMonthlyFee: null,
  fiberStatus: 'ACTIVE',
  fiberRenewalDate: null,
  erasedAt: null,
  createdAt: created,
  updatedAt: created,
  deletedAt: null,
  ...o,
});

/** The record that says exactly what `row()` holds. */
const record = (o: Partial<CustomerRecord> = {}): CustomerRecord => ({
  firstName: 'Ada',
  lastName: 'Obi',
  email: 'ada.obi@mail.test',
  phone: '+2348031234567',
  address: '12 Awolowo Road',
  status: 'ACTIVE',
  internetAccountNumber: 'FBR-7',
  ...o,
});

const state = (rows: CustomerRow[] = []): SyncState => ({
  existing: new Map(rows.map((r) => [r.externalId!, r])),
  emailOwner: new Map<string, number | string>(rows.map((r) => [r.email.toLowerCase(), r.id])),
});

const ERASED =
  'This external id belonged to a customer whose personal data was erased; an admin restores the external id (Clients: Restore) before a new record can be imported under it';
const DELETED =
  'This customer was deleted in the console; an admin restores it (Clients: Restore) before a sync can change it';
const EMAIL_TAKEN = 'This email belongs to another customer (another external id); change one of them first';
const EXTERNAL_ID_TAKEN = 'A customer with this external id already exists';

describe('valuesOf: PUT replaces the record', () => {
  it('a field left out or blank is cleared; the status is ACTIVE unless given', () => {
    expect(valuesOf({ firstName: 'Ada', lastName: 'Obi', email: 'a@mail.test' })).toEqual({
      firstName: 'Ada',
      lastName: 'Obi',
      email: 'a@mail.test',
      phone: null,
      address: null,
      accountStatus: 'ACTIVE',
      internetAccountNumber: null,
    });
    expect(
      valuesOf(record({ phone: '', address: '', internetAccountNumber: '', status: 'BLOCKED' })),
    ).toEqual({
      firstName: 'Ada',
      lastName: 'Obi',
      email: 'ada.obi@mail.test',
      phone: null,
      address: null,
      accountStatus: 'BLOCKED',
      internetAccountNumber: null,
    });
    expect(valuesOf(record({ phone: null }))).toMatchObject({ phone: null });
  });

  it('what is given is kept as given', () => {
    expect(valuesOf(record())).toEqual({
      firstName: 'Ada',
      lastName: 'Obi',
      email: 'ada.obi@mail.test',
      phone: '+2348031234567',
      address: '12 Awolowo Road',
      accountStatus: 'ACTIVE',
      internetAccountNumber: 'FBR-7',
    });
  });
});

describe('syncRefusal', () => {
  it('an erased customer, a deleted one, or none', () => {
    expect(syncRefusal(row({ erasedAt: now }))).toBe(ERASED);
    expect(syncRefusal(row({ deletedAt: now }))).toBe(DELETED);
    expect(syncRefusal(row({ erasedAt: now, deletedAt: now }))).toBe(ERASED);
    expect(syncRefusal(row())).toBeNull();
  });
});

describe('planCustomerRecords', () => {
  it('a new external id is created with the values and its external id; its email is taken from then on', () => {
    const s = state();
    const plan = planCustomerRecords(
      [
        { externalId: 'SUB-1', record: record({ email: 'New@Mail.test' }) },
        { externalId: 'SUB-2', record: record({ email: 'new@mail.TEST' }) },
      ],
      s,
    );
    expect(plan[0]).toEqual({
      result: 'created',
      values: { ...valuesOf(record({ email: 'New@Mail.test' })), externalId: 'SUB-1' },
    });
    expect(plan[1]).toEqual({ result: 'rejected', reason: EMAIL_TAKEN });
    expect(s.emailOwner.get('new@mail.test')).toBe('SUB-1');
  });

  it('the same new external id twice in a batch: the second is rejected', () => {
    const plan = planCustomerRecords(
      [
        { externalId: 'SUB-1', record: record({ email: 'one@mail.test' }) },
        { externalId: 'SUB-1', record: record({ email: 'two@mail.test' }) },
      ],
      state(),
    );
    expect(plan.map((p) => p.result)).toEqual(['created', 'rejected']);
    expect(plan[1]).toEqual({ result: 'rejected', reason: EXTERNAL_ID_TAKEN });
  });

  it("another customer's email, in any case, is a rejection, never a merge", () => {
    const other = row({ id: 9, externalId: 'SUB-9', email: 'Chi@Mail.test' });
    const plan = planCustomerRecords(
      [
        { externalId: 'SUB-1', record: record({ email: 'chi@mail.test' }) },
        { externalId: 'SUB-7', record: record({ email: 'CHI@mail.test' }) },
      ],
      state([other, row()]),
    );
    expect(plan).toEqual([
      { result: 'rejected', reason: EMAIL_TAKEN },
      { result: 'rejected', reason: EMAIL_TAKEN },
    ]);
  });

  it('the same record again is unchanged; its own email (any case) is no conflict', () => {
    const before = row();
    const plan = planCustomerRecords(
      [{ externalId: 'SUB-7', record: record({ email: 'ADA.obi@mail.test' }) }],
      state([row({ email: 'ada.obi@mail.test' })]),
    );
    // The email's case differs: that is a change of the stored text.
    expect(plan[0]).toMatchObject({ result: 'updated', changed: ['email'] });
    const same = planCustomerRecords([{ externalId: 'SUB-7', record: record() }], state([before]));
    expect(same).toEqual([{ result: 'unchanged', before }]);
  });

  it('an update lists exactly the fields that changed, in the record order', () => {
    const before = row();
    const plan = planCustomerRecords(
      [
        {
          externalId: 'SUB-7',
          record: { firstName: 'Adaeze', lastName: 'Obi', email: 'ada.obi@mail.test', status: 'BLOCKED' },
        },
      ],
      state([before]),
    );
    expect(plan).toEqual([
      {
        result: 'updated',
        before,
        values: {
          firstName: 'Adaeze',
          lastName: 'Obi',
          email: 'ada.obi@mail.test',
          phone: null,
          address: null,
          accountStatus: 'BLOCKED',
          internetAccountNumber: null,
        },
        changed: ['firstName', 'phone', 'address', 'accountStatus', 'internetAccountNumber'],
      },
    ]);
  });

  it('each field alone counts as a change', () => {
    const changes: [Partial<CustomerRecord>, string][] = [
      [{ firstName: 'Adaeze' }, 'firstName'],
      [{ lastName: 'Obiora' }, 'lastName'],
      [{ email: 'ada.new@mail.test' }, 'email'],
      [{ phone: '+2348030000000' }, 'phone'],
      [{ address: '1 Marina' }, 'address'],
      [{ status: 'BLOCKED' }, 'accountStatus'],
      [{ internetAccountNumber: 'FBR-8' }, 'internetAccountNumber'],
    ];
    for (const [change, field] of changes) {
      const [p] = planCustomerRecords([{ externalId: 'SUB-7', record: record(change) }], state([row()]));
      expect(p, field).toMatchObject({ result: 'updated', changed: [field] });
    }
  });

  it('a customer moving to a new email frees the old one for a later row and holds the new one', () => {
    const s = state([row()]);
    const plan = planCustomerRecords(
      [
        { externalId: 'SUB-7', record: record({ email: 'ada.new@mail.test' }) },
        { externalId: 'SUB-2', record: record({ email: 'ADA.OBI@mail.test', firstName: 'Bola' }) },
        { externalId: 'SUB-3', record: record({ email: 'ada.new@mail.test' }) },
      ],
      s,
    );
    expect(plan.map((p) => p.result)).toEqual(['updated', 'created', 'rejected']);
    expect(s.emailOwner.get('ada.new@mail.test')).toBe(7);
    expect(s.emailOwner.get('ada.obi@mail.test')).toBe('SUB-2');
  });

  it('an update keeps its email: its owner stays the customer', () => {
    const s = state([row()]);
    planCustomerRecords([{ externalId: 'SUB-7', record: record({ firstName: 'Adaeze' }) }], s);
    expect(s.emailOwner.get('ada.obi@mail.test')).toBe(7);
    const later = planCustomerRecords([{ externalId: 'SUB-2', record: record() }], s);
    expect(later).toEqual([{ result: 'rejected', reason: EMAIL_TAKEN }]);
  });

  it('a record decided updated is what the next record of the same customer is compared with', () => {
    const plan = planCustomerRecords(
      [
        { externalId: 'SUB-7', record: record({ firstName: 'Adaeze' }) },
        { externalId: 'SUB-7', record: record({ firstName: 'Adaeze' }) },
      ],
      state([row()]),
    );
    expect(plan.map((p) => p.result)).toEqual(['updated', 'unchanged']);
  });

  it('an erased or deleted customer is rejected with its reason, whoever holds the email', () => {
    const erased = row({ erasedAt: now, email: 'erased-7@erased.invalid' });
    const deleted = row({ id: 8, externalId: 'SUB-8', email: 'del@mail.test', deletedAt: now });
    const other = row({ id: 9, externalId: 'SUB-9', email: 'chi@mail.test' });
    const plan = planCustomerRecords(
      [
        { externalId: 'SUB-7', record: record({ email: 'chi@mail.test' }) },
        { externalId: 'SUB-8', record: record({ email: 'del@mail.test' }) },
      ],
      state([erased, deleted, other]),
    );
    expect(plan).toEqual([
      { result: 'rejected', reason: ERASED },
      { result: 'rejected', reason: DELETED },
    ]);
  });
});

describe('toCustomer and toSyncedCustomer', () => {
  it("the club's view, with the erased date only on a tombstone; the sync's adds its own fields", () => {
    const r = row({ imageUrl: '/api/v1/files/abc', updatedAt: now });
    const view = {
      id: 7,
      firstName: 'Ada',
      lastName: 'Obi',
      email: 'ada.obi@mail.test',
      phone: '+2348031234567',
      address: '12 Awolowo Road',
      imageUrl: '/api/v1/files/abc',
      accountStatus: 'ACTIVE',
      createdAt: '2026-03-01T08:00:00.000Z',
      updatedAt: '2026-03-02T09:00:00.000Z',
    };
    expect(toCustomer(r)).toEqual(view);
    expect('erasedAt' in toCustomer(r)).toBe(false);
    expect(toCustomer(row({ erasedAt: now, updatedAt: now, imageUrl: '/api/v1/files/abc' }))).toEqual({
      ...view,
      erasedAt: '2026-03-02T09:00:00.000Z',
    });
    expect(toSyncedCustomer(r)).toEqual({ ...view, externalId: 'SUB-7', internetAccountNumber: 'FBR-7' });
  });
});

describe('customerRecordMessage', () => {
  it("a club-wide message with the customer's record as the sync keeps it", () => {
    expect(customerRecordMessage('customer.updated', row(), ['first name'], now)).toEqual({
      type: 'customer.updated',
      partnerId: null,
      data: {
        customerId: 7,
        externalId: 'SUB-7',
        firstName: 'Ada',
        lastName: 'Obi',
        email: 'ada.obi@mail.test',
        phone: '+2348031234567',
        address: '12 Awolowo Road',
        accountStatus: 'ACTIVE',
        internetAccountNumber: 'FBR-7',
        changed: ['first name'],
        changedAt: '2026-03-02T09:00:00.000Z',
      },
    });
  });
});

const updated = (customer: CustomerRow, changed: string[], blockedNow = false): SyncOutcome => ({
  result: 'updated',
  customer,
  changed,
  blockedNow,
});

describe('statusChanged', () => {
  it('only an update whose changes name the status', () => {
    expect(statusChanged(updated(row(), ['status']))).toBe(true);
    expect(statusChanged(updated(row(), ['first name', 'status']))).toBe(true);
    expect(statusChanged(updated(row(), ['first name']))).toBe(false);
    expect(
      statusChanged({ result: 'created', customer: row(), changed: ['status'], blockedNow: false }),
    ).toBe(false);
    expect(statusChanged({ result: 'rejected', reason: EMAIL_TAKEN })).toBe(false);
  });
});

describe('syncEvent', () => {
  it('nothing for a rejected or unchanged record', () => {
    expect(syncEvent({ result: 'rejected', reason: EMAIL_TAKEN }, now)).toBeUndefined();
    expect(
      syncEvent({ result: 'unchanged', customer: row(), changed: [], blockedNow: false }, now),
    ).toBeUndefined();
  });

  it('a created customer: "Added client", every field, customer.created', () => {
    const e = syncEvent({ result: 'created', customer: row(), changed: [], blockedNow: false }, now)!;
    const fields = [
      'first name',
      'last name',
      'email',
      'phone',
      'address',
      'status',
      'internet account number',
    ];
    expect(e.action).toBe('Added client Ada Obi (SUB-7)');
    expect(e.entity).toBe('customer');
    expect(e.entityId).toBe(7);
    expect(e.payload).toEqual({ externalId: 'SUB-7', result: 'created', fields });
    expect(e.webhook).toEqual(customerRecordMessage('customer.created', row(), fields, now));
  });

  it('an update: "Updated client" with the changes, customer.updated', () => {
    const e = syncEvent(updated(row(), ['first name', 'phone']), now)!;
    expect(e.action).toBe('Updated client Ada Obi (first name, phone)');
    expect(e.payload).toEqual({ externalId: 'SUB-7', result: 'updated', fields: ['first name', 'phone'] });
    expect(e.webhook?.type).toBe('customer.updated');
    expect(e.webhook?.data).toMatchObject({ changed: ['first name', 'phone'], changedAt: now.toISOString() });
  });

  it('blocked by the sync: "Blocked client", customer.blocked', () => {
    const e = syncEvent(updated(row({ accountStatus: 'BLOCKED' }), ['status'], true), now)!;
    expect(e.action).toBe('Blocked client Ada Obi');
    expect(e.webhook?.type).toBe('customer.blocked');
    expect(e.webhook?.data).toMatchObject({ accountStatus: 'BLOCKED', changed: ['status'] });
  });

  it('unblocked by the sync: customer.unblocked (decision 065); another change of an active customer is customer.updated', () => {
    expect(syncEvent(updated(row(), ['status']), now)!.webhook?.type).toBe('customer.unblocked');
    expect(syncEvent(updated(row(), ['status']), now)!.action).toBe('Updated client Ada Obi (status)');
    // Still blocked, another field changed: an update.
    expect(syncEvent(updated(row({ accountStatus: 'BLOCKED' }), ['phone']), now)!.webhook?.type).toBe(
      'customer.updated',
    );
  });
});
