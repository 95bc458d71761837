import { afterEach, describe, expect, it } from 'vitest';
import { flowStore } from './flow-store';

afterEach(() => sessionStorage.clear());

describe('flow store (sessionStorage)', () => {
  it('saves, loads and clears a flow in this tab only', async () => {
    const store = flowStore();
    expect(await store.load('guided-redemption:partner-3')).toBeNull();
    await store.save('guided-redemption:partner-3', { step: 'amount', context: { amountText: '250' } });
    expect(await store.load('guided-redemption:partner-3')).toEqual({
      step: 'amount',
      context: { amountText: '250' },
    });
    await store.save('guided-redemption:partner-3', null);
    expect(await store.load('guided-redemption:partner-3')).toBeNull();
  });

  it('reads unreadable progress as none', async () => {
    sessionStorage.setItem('flow:guided-redemption:partner-3', '{not json');
    expect(await flowStore().load('guided-redemption:partner-3')).toBeNull();
  });
});
