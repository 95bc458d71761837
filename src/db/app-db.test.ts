import { afterEach, describe, expect, it } from 'vitest';
import { AppDb } from './app-db';

const db = new AppDb('reward-club-admin-test');

afterEach(async () => {
  await db.delete();
  await db.open();
});

describe('AppDb', () => {
  it('clearUserData empties the query cache and the outbox', async () => {
    await db.queries.put({ key: '["profile"]', state: {}, buster: 'v1:1', updatedAt: 1 });
    await db.outbox.add({
      idempotencyKey: 'k1',
      method: 'PATCH',
      path: '/user/profile',
      body: {},
      createdAt: 1,
    });
    await db.clearUserData();
    expect(await db.queries.count()).toBe(0);
    expect(await db.outbox.count()).toBe(0);
  });
});
