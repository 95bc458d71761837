import { describe, expect, it } from 'vitest';
import { setupTestServer } from '../../tests/setup/server';
import { checkRateLimit, humanDuration, recordHit } from './rate-limit';

const t = setupTestServer();
const rule = { limit: 3, windowMs: 60_000 };

describe('rate limits in the database', () => {
  it('block at the limit and open when the oldest counted hit leaves the window', async () => {
    const start = new Date('2026-03-02T09:00:00Z');
    const at = (s: number) => new Date(start.getTime() + s * 1000);
    expect(await checkRateLimit(t.db, 'b', rule, at(0))).toEqual({ blocked: false });
    await recordHit(t.db, 'b', rule, at(0));
    await recordHit(t.db, 'b', rule, at(10));
    expect((await checkRateLimit(t.db, 'b', rule, at(11))).blocked).toBe(false);
    await recordHit(t.db, 'b', rule, at(20));
    expect(await checkRateLimit(t.db, 'b', rule, at(21))).toEqual({ blocked: true, retryAfterSeconds: 39 });
    expect(await checkRateLimit(t.db, 'other', rule, at(21))).toEqual({ blocked: false });
    expect((await checkRateLimit(t.db, 'b', rule, at(60))).blocked).toBe(false);
  });
});

describe('humanDuration', () => {
  it('reads well', () => {
    expect(humanDuration(1)).toBe('1 second');
    expect(humanDuration(30)).toBe('30 seconds');
    expect(humanDuration(60)).toBe('1 minute');
    expect(humanDuration(61)).toBe('2 minutes');
    expect(humanDuration(900)).toBe('15 minutes');
  });
});
