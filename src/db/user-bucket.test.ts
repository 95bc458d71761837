import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { AppDb } from './app-db';
import { type BucketManager, USER_BUCKET, UserBucket } from './user-bucket';

/** Storage Buckets stand-in: each bucket is an IndexedDB of its own; deleting one drops it whole. */
function fakeBuckets() {
  const buckets = new Map<string, IDBFactory>();
  const calls: string[] = [];
  const manager: BucketManager = {
    open: async (name) => {
      calls.push(`open ${name}`);
      if (!buckets.has(name)) buckets.set(name, new IDBFactory());
      return { indexedDB: buckets.get(name)! };
    },
    delete: async (name) => {
      calls.push(`delete ${name}`);
      buckets.delete(name);
    },
    keys: async () => [...buckets.keys()],
  };
  return { manager, buckets, calls };
}

const names = async (factory: IDBFactory) => (await factory.databases()).map((d) => d.name);

describe('AppDb in a storage bucket', () => {
  it("keeps the user's data in the bucket, not the default IndexedDB", async () => {
    const { manager, buckets } = fakeBuckets();
    const db = new AppDb('bucket-test-a', { bucket: new UserBucket(() => manager) });
    await db.queries.put({ key: 'k', state: { email: 'planted@x.ng' }, buster: 'b', updatedAt: 1 });
    expect(await names(buckets.get(USER_BUCKET)!)).toContain('bucket-test-a');
    expect(await names(indexedDB)).not.toContain('bucket-test-a');
    db.close();
  });

  it('wipe deletes the whole bucket and the database reopens, empty, in a fresh one', async () => {
    const { manager, buckets, calls } = fakeBuckets();
    const db = new AppDb('bucket-test-b', { bucket: new UserBucket(() => manager) });
    await db.queries.put({ key: 'k', state: {}, buster: 'b', updatedAt: 1 });
    await db.outbox.add({
      idempotencyKey: 'i',
      method: 'PATCH',
      path: '/p',
      body: {},
      createdAt: 1,
    } as never);
    const before = buckets.get(USER_BUCKET);
    await db.wipe();
    expect(calls).toContain(`delete ${USER_BUCKET}`);
    expect(buckets.get(USER_BUCKET)).not.toBe(before);
    expect(await db.queries.count()).toBe(0);
    expect(await db.outbox.count()).toBe(0);
    db.close();
  });

  it('opens the bucket again before each database open (another tab may have deleted it)', async () => {
    const { manager, calls } = fakeBuckets();
    const db = new AppDb('bucket-test-c', { bucket: new UserBucket(() => manager) });
    await db.open();
    db.close({ disableAutoOpen: false });
    await db.queries.count();
    expect(calls.filter((c) => c === `open ${USER_BUCKET}`)).toHaveLength(2);
    db.close();
  });

  it('without Storage Buckets uses the default IndexedDB and deletes the database on wipe', async () => {
    const db = new AppDb('bucket-test-d', { bucket: new UserBucket(() => null) });
    await db.queries.put({ key: 'k', state: {}, buster: 'b', updatedAt: 1 });
    expect(await names(indexedDB)).toContain('bucket-test-d');
    await db.wipe();
    expect(await names(indexedDB)).not.toContain('bucket-test-d');
    expect(await db.queries.count()).toBe(0);
    await db.delete();
  });
});
