import { afterEach, describe, expect, it } from 'vitest';
import { AppDb } from './app-db';
import { flowStore } from './flow-store';

const db = new AppDb('reward-club-admin-flows-test');

afterEach(async () => {
  await db.delete();
  await db.open();
});

describe('flow store (Dexie version 2)', () => {
  it('saves, loads and clears a flow; logout clears it too', async () => {
    const store = flowStore(db);
    expect(await store.load('guided-redemption:partner-3')).toBeNull();
    await store.save('guided-redemption:partner-3', { step: 'amount', context: { amountText: '250' } });
    expect(await store.load('guided-redemption:partner-3')).toEqual({
      step: 'amount',
      context: { amountText: '250' },
    });
    await db.clearUserData();
    expect(await store.load('guided-redemption:partner-3')).toBeNull();
  });
});
