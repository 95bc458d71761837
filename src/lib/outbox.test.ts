import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { QueuedEntry } from '../db/app-db';
import { AppDb } from '../db/app-db';
import {
  discardAll,
  type EditRequest,
  enqueueEdit,
  hasQueuedEdit,
  keepMine,
  loadOutbox,
  markEntry,
  sentEntry,
} from './outbox';

const V0 = '2026-03-02T09:00:00.000Z';
const V1 = '2026-03-02T09:05:00.000Z';
const edit = (address: string, extra: Partial<EditRequest> = {}): EditRequest => ({
  method: 'PATCH',
  path: '/admin/partners/update-record',
  body: { partnerId: 3, address },
  label: 'Edit partner Eko Grill House',
  entity: 'partner',
  entityId: 3,
  baseVersion: V0,
  ...extra,
});

let db: AppDb;
beforeEach(() => {
  db = new AppDb(`outbox-test-${Math.random()}`);
});
afterEach(async () => {
  await db.delete();
});

describe('outbox store', () => {
  it('keeps each user their own entries, oldest first, as pending', async () => {
    await enqueueEdit(db, 1, edit('first'), 'k1');
    await enqueueEdit(db, 2, edit('other user'), 'k2');
    await enqueueEdit(db, 1, edit('second'), 'k3');
    const mine = await loadOutbox(db, 1);
    expect(mine.map((e) => [e.idempotencyKey, e.status, e.baseVersion])).toEqual([
      ['k1', 'pending', V0],
      ['k3', 'pending', V0],
    ]);
    expect(await hasQueuedEdit(db, 1, 'partner', 3)).toBe(true);
    expect(await hasQueuedEdit(db, 1, 'customer', 3)).toBe(false);
    expect(await hasQueuedEdit(db, 1, 'extended-service', null)).toBe(false);
    await discardAll(db, 1);
    expect(await loadOutbox(db, 1)).toEqual([]);
    expect(await loadOutbox(db, 2)).toHaveLength(1);
  });

  it('an idempotency key is stored once', async () => {
    await enqueueEdit(db, 1, edit('a'), 'same');
    await expect(enqueueEdit(db, 1, edit('b'), 'same')).rejects.toThrow();
  });

  it('after a send, later edits of the record made on the same version name the new one', async () => {
    await enqueueEdit(db, 1, edit('first'), 'k1');
    await enqueueEdit(db, 1, edit('second'), 'k2');
    await enqueueEdit(db, 1, edit('read later', { baseVersion: '2026-03-02T08:00:00.000Z' }), 'k3');
    await enqueueEdit(db, 1, edit('another record', { entityId: 4 }), 'k4');
    const [first] = (await loadOutbox(db, 1)) as [QueuedEntry];
    await sentEntry(db, first, V1);
    const rest = await loadOutbox(db, 1);
    expect(rest.map((e) => [e.idempotencyKey, e.baseVersion])).toEqual([
      ['k2', V1],
      ['k3', '2026-03-02T08:00:00.000Z'],
      ['k4', V0],
    ]);
  });

  it('a failed entry is marked with the reason; Keep mine names the server version and sends again', async () => {
    await enqueueEdit(db, 1, edit('x'), 'k1');
    const [entry] = (await loadOutbox(db, 1)) as [QueuedEntry];
    await markEntry(db, entry.id, 'failed', 'address:Address is required');
    expect((await loadOutbox(db, 1))[0]).toMatchObject({
      status: 'failed',
      error: 'address:Address is required',
    });
    await keepMine(db, entry, { id: 3, updatedAt: V1 });
    expect((await loadOutbox(db, 1))[0]).toMatchObject({ status: 'pending', error: null, baseVersion: V1 });
    await keepMine(db, entry, null);
    expect((await loadOutbox(db, 1))[0]?.baseVersion).toBeNull();
  });
});
