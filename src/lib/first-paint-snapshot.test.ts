import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { AppDb } from '../db/app-db';
import { wipeDevice } from './device-wipe';
import { FIRST_PAINT_STORAGE_KEY, firstPaintSnapshot } from './first-paint-snapshot';

const PROFILE = ['profile', 'detail'] as const;
const FIGURES = ['stats', 'users'] as const;
const settle = () => new Promise((resolve) => setTimeout(resolve, 5));

/** A client whose snapshot follows `user.id`; writes at once (no throttle wait). */
function setup(user: { id: number | null }) {
  const queryClient = new QueryClient();
  const snapshot = firstPaintSnapshot({
    queryClient,
    queryKeys: [PROFILE, FIGURES],
    currentUserId: () => user.id,
    throttleMs: 0,
  });
  return { queryClient, snapshot };
}

const stored = () => JSON.parse(localStorage.getItem(FIRST_PAINT_STORAGE_KEY) ?? 'null');

afterEach(() => localStorage.clear());

describe('firstPaintSnapshot', () => {
  it('keeps only the listed queries, and a new client of the same user gets them back at once', async () => {
    const user = { id: 7 };
    const first = setup(user);
    first.snapshot.subscribe();
    first.queryClient.setQueryData(PROFILE, { firstName: 'Ada' });
    first.queryClient.setQueryData(FIGURES, { totalPartners: 25 });
    first.queryClient.setQueryData(['customers', 'list'], { rows: ['not kept'] });
    await settle();
    expect(stored().buster).toBe('dev:user-7');
    expect(stored().clientState.queries.map((q: { queryKey: unknown }) => q.queryKey)).toEqual([
      PROFILE,
      FIGURES,
    ]);

    const next = setup(user);
    expect(next.snapshot.restore()).toBe(true);
    // Synchronously there, and invalidated: the screen paints it and fetches again.
    expect(next.queryClient.getQueryData(FIGURES)).toEqual({ totalPartners: 25 });
    expect(next.queryClient.getQueryState(PROFILE)?.isInvalidated).toBe(true);
    expect(next.queryClient.getQueryData(['customers', 'list'])).toBeUndefined();
  });

  it("never shows another user's snapshot: it is removed", async () => {
    const first = setup({ id: 7 });
    first.snapshot.subscribe();
    first.queryClient.setQueryData(FIGURES, { totalPartners: 25 });
    await settle();

    const other = setup({ id: 8 });
    expect(other.snapshot.restore()).toBe(false);
    expect(other.queryClient.getQueryData(FIGURES)).toBeUndefined();
    expect(localStorage.getItem(FIRST_PAINT_STORAGE_KEY)).toBeNull();
  });

  it('writes nothing once the user has signed out, even a write that was already waiting', async () => {
    const user: { id: number | null } = { id: 7 };
    const queryClient = new QueryClient();
    const snapshot = firstPaintSnapshot({
      queryClient,
      queryKeys: [FIGURES],
      currentUserId: () => user.id,
      throttleMs: 50,
    });
    snapshot.subscribe();
    queryClient.setQueryData(FIGURES, { totalPartners: 25 });
    user.id = null; // signed out before the throttled write runs
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(localStorage.getItem(FIRST_PAINT_STORAGE_KEY)).toBeNull();
    queryClient.setQueryData(FIGURES, { totalPartners: 26 });
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(localStorage.getItem(FIRST_PAINT_STORAGE_KEY)).toBeNull();
  });

  it('is gone after the device wipe of a sign-out', async () => {
    const { queryClient, snapshot } = setup({ id: 7 });
    snapshot.subscribe();
    queryClient.setQueryData(PROFILE, { firstName: 'Ada' });
    await settle();
    expect(localStorage.getItem(FIRST_PAINT_STORAGE_KEY)).not.toBeNull();
    const db = new AppDb('first-paint-wipe-test');
    await wipeDevice({ queryClient, db, buckets: null, caches: null });
    expect(localStorage.getItem(FIRST_PAINT_STORAGE_KEY)).toBeNull();
  });
});
