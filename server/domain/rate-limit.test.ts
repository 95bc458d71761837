import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openTestDatabase } from '../../tests/setup/server';
import type { Database, Db } from '../db/client';
import { rateLimitHits } from '../db/schema';
import { beginAttempt, settleAttempt } from './password-attempts';
import {
  API_KEY_LIMIT,
  buckets,
  checkRateLimit,
  checkRateLimits,
  clearBucket,
  humanDuration,
  ipKey,
  LOGIN_IP_LIMIT,
  LOGIN_LIMIT,
  LONGEST_WINDOW_MS,
  limitStatus,
  loginBucket,
  OTP_GUESS_IP_LIMIT,
  OTP_GUESS_LIMIT,
  OTP_SEND_IP_LIMIT,
  OTP_SEND_LIMIT,
  PASSWORD_CHANGE_LIMIT,
  purgeOldHits,
  RESET_CODE_IP_LIMIT,
  RESET_REQUEST_IP_LIMIT,
  RESET_REQUEST_LIMIT,
  recordHit,
  releaseHits,
  takeRateLimit,
  takeRateLimits,
} from './rate-limit';

// A database of its own, without the app: these are the rules themselves.
const t = {} as { db: Db };
let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
  t.db = database.db;
});
afterAll(() => database.close());
const rule = { limit: 3, windowMs: 60_000 };
const MIN_15 = 15 * 60 * 1000;

/** A clock of its own per test, so no test depends on another's hits (nor on today's date). */
const clockAt = (iso: string) => {
  const start = new Date(iso);
  return (s: number) => new Date(start.getTime() + s * 1000);
};

/** The hits stored for some buckets, oldest first, as [bucket, seconds after `from`]. */
async function hitsOf(names: string[], from: Date) {
  const rows = await t.db
    .select({ bucket: rateLimitHits.bucket, at: rateLimitHits.at })
    .from(rateLimitHits)
    .where(inArray(rateLimitHits.bucket, names));
  return rows
    .map((r) => [r.bucket, (r.at.getTime() - from.getTime()) / 1000] as const)
    .sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0]));
}

describe('the limits (docs/decisions/013-abuse-limits.md, 028 for API keys)', () => {
  it('allow the counts of the table in 15 minutes', () => {
    expect(LOGIN_LIMIT).toEqual({ limit: 5, windowMs: MIN_15 });
    expect(LOGIN_IP_LIMIT).toEqual({ limit: 20, windowMs: MIN_15 });
    expect(RESET_REQUEST_LIMIT).toEqual({ limit: 5, windowMs: MIN_15 });
    expect(RESET_REQUEST_IP_LIMIT).toEqual({ limit: 10, windowMs: MIN_15 });
    expect(RESET_CODE_IP_LIMIT).toEqual({ limit: 10, windowMs: MIN_15 });
    expect(OTP_SEND_LIMIT).toEqual({ limit: 30, windowMs: MIN_15 });
    expect(OTP_SEND_IP_LIMIT).toEqual({ limit: 60, windowMs: MIN_15 });
    expect(OTP_GUESS_LIMIT).toEqual({ limit: 20, windowMs: MIN_15 });
    expect(OTP_GUESS_IP_LIMIT).toEqual({ limit: 40, windowMs: MIN_15 });
    expect(API_KEY_LIMIT).toEqual({ limit: 600, windowMs: 60 * 1000 });
    // Wrong old passwords in the change-password call: like sign-in (decision 044).
    expect(PASSWORD_CHANGE_LIMIT).toEqual({ limit: 5, windowMs: MIN_15 });
    expect(LONGEST_WINDOW_MS).toBe(MIN_15);
  });

  it('count in the buckets the table names; an email whatever its case and spaces', () => {
    expect(buckets.login(' Ada.Obi@Mail.NG ')).toBe('login:ada.obi@mail.ng');
    expect(loginBucket('ADA@x.ng')).toBe('login:ada@x.ng');
    expect(buckets.loginIp('203.0.113.7')).toBe('login-ip:203.0.113.7');
    expect(buckets.reset(' Ada@X.ng')).toBe('reset:ada@x.ng');
    expect(buckets.resetIp('203.0.113.7')).toBe('reset-ip:203.0.113.7');
    expect(buckets.resetCodeIp('203.0.113.7')).toBe('reset-code-ip:203.0.113.7');
    expect(buckets.otpSend(12)).toBe('otp-send:12');
    expect(buckets.otpSendIp('203.0.113.7')).toBe('otp-send-ip:203.0.113.7');
    expect(buckets.otpGuess(12)).toBe('otp-guess:12');
    expect(buckets.otpGuessIp('203.0.113.7')).toBe('otp-guess-ip:203.0.113.7');
    expect(buckets.apiKey(3)).toBe('api-key:3');
    expect(buckets.clubKey(3)).toBe('club-key:3');
    expect(buckets.passwordChange(12)).toBe('password-change:12');
    // The address buckets count an IPv6 client by its /64.
    expect(buckets.loginIp('2001:db8:1:2:3:4:5:6')).toBe('login-ip:2001:db8:1:2::/64');
    expect(buckets.otpGuessIp('2001:db8:1:2::9')).toBe('otp-guess-ip:2001:db8:1:2::/64');
  });

  it('count an IPv4 address as it is and an IPv6 address by its /64, however it is written', () => {
    expect(ipKey('203.0.113.7')).toBe('203.0.113.7');
    expect(ipKey('not an address')).toBe('not an address');
    const sixtyFour = '2001:db8:a:b::/64';
    for (const ip of [
      '2001:db8:a:b:1:2:3:4',
      '2001:0DB8:000a:000B:ffff:ffff:ffff:ffff',
      '2001:db8:a:b::',
      '2001:db8:a:b::1',
      '2001:db8:a:b:0:0:0:1',
    ]) {
      expect(ipKey(ip), ip).toBe(sixtyFour);
    }
    expect(ipKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(ipKey('2001:db8::a:b:c:d:e')).toBe('2001:db8:0:a::/64');
    expect(ipKey('::1')).toBe('0:0:0:0::/64');
    expect(ipKey('fe80::1:2:3:4')).toBe('fe80:0:0:0::/64');
    expect(ipKey('2001:db8:a:b:c::')).toBe(sixtyFour);
    expect(ipKey('0:0:0:0:0:0:0:1')).toBe('0:0:0:0::/64');
  });
});

describe('rate limits in the database', () => {
  it('block at the limit and open when the oldest counted hit leaves the window', async () => {
    const at = clockAt('2026-03-02T09:00:00Z');
    expect(await checkRateLimit(t.db, 'b', rule, at(0))).toEqual({ blocked: false });
    await recordHit(t.db, 'b', rule, at(0));
    await recordHit(t.db, 'b', rule, at(10));
    expect((await checkRateLimit(t.db, 'b', rule, at(11))).blocked).toBe(false);
    await recordHit(t.db, 'b', rule, at(20));
    expect(await checkRateLimit(t.db, 'b', rule, at(21))).toEqual({ blocked: true, retryAfterSeconds: 39 });
    expect(await checkRateLimit(t.db, 'other', rule, at(21))).toEqual({ blocked: false });
    expect((await checkRateLimit(t.db, 'b', rule, at(60))).blocked).toBe(false);
  });

  it('the Retry-After is at least one second and rounds up', async () => {
    const at = clockAt('2026-03-03T09:00:00Z');
    for (const s of [0, 1, 2]) await recordHit(t.db, 'round', rule, at(s));
    expect(await checkRateLimit(t.db, 'round', rule, at(59.5))).toEqual({
      blocked: true,
      retryAfterSeconds: 1,
    });
    expect(await checkRateLimit(t.db, 'round', rule, at(30.2))).toEqual({
      blocked: true,
      retryAfterSeconds: 30,
    });
    expect(await checkRateLimit(t.db, 'round', rule, at(60))).toEqual({ blocked: false });
  });

  it('recording a hit drops the hits of that bucket that left the window, and no other', async () => {
    const at = clockAt('2026-03-04T09:00:00Z');
    await recordHit(t.db, 'rec', rule, at(0));
    await recordHit(t.db, 'rec-other', rule, at(0));
    await recordHit(t.db, 'rec', rule, at(30));
    await recordHit(t.db, 'rec', rule, at(60));
    expect(await hitsOf(['rec', 'rec-other'], at(0))).toEqual([
      ['rec-other', 0],
      ['rec', 30],
      ['rec', 60],
    ]);
  });

  it('takes exactly `limit` places; a refused request counts nothing and the opening time stays', async () => {
    const at = clockAt('2026-03-05T09:00:00Z');
    const ids: number[] = [];
    for (const s of [0, 10, 20]) {
      const taken = await takeRateLimit(t.db, 'take', rule, at(s));
      expect(taken.blocked).toBe(false);
      if (!taken.blocked) ids.push(taken.hitId);
    }
    expect(new Set(ids).size).toBe(3);
    expect(await takeRateLimit(t.db, 'take', rule, at(25))).toEqual({ blocked: true, retryAfterSeconds: 35 });
    expect(await takeRateLimit(t.db, 'take', rule, at(50))).toEqual({ blocked: true, retryAfterSeconds: 10 });
    expect(await hitsOf(['take'], at(0))).toEqual([
      ['take', 0],
      ['take', 10],
      ['take', 20],
    ]);
    // A place given back (a successful sign-in) frees it at once.
    await releaseHits(t.db, [ids[2]!]);
    expect((await takeRateLimit(t.db, 'take', rule, at(51))).blocked).toBe(false);
    await releaseHits(t.db, []);
    expect(await hitsOf(['take'], at(0))).toHaveLength(3);
  });

  it('parallel requests for one bucket: exactly `limit` get a place', async () => {
    const at = clockAt('2026-03-06T09:00:00Z');
    const all = await Promise.all(Array.from({ length: 6 }, () => takeRateLimit(t.db, 'burst', rule, at(0))));
    expect(all.filter((r) => !r.blocked)).toHaveLength(3);
    expect(all.filter((r) => r.blocked)).toHaveLength(3);
  });

  it('several buckets: a place in each with a key; refused by any, the places are given back and the longest wait answers', async () => {
    const at = clockAt('2026-03-07T09:00:00Z');
    const wide = { limit: 2, windowMs: 120_000 };
    const ok = await takeRateLimits(
      t.db,
      [
        ['multi-a', rule],
        [null, rule],
        ['multi-b', wide],
      ],
      at(0),
    );
    expect(ok.blocked).toBe(false);
    if (!ok.blocked) expect(ok.hitIds).toHaveLength(2);
    // multi-b fills (2 of 2), multi-a has one place left.
    expect((await takeRateLimits(t.db, [['multi-b', wide]], at(10))).blocked).toBe(false);
    await recordHit(t.db, 'multi-c', rule, at(0));
    await recordHit(t.db, 'multi-c', rule, at(1));
    await recordHit(t.db, 'multi-c', rule, at(2));
    const refused = await takeRateLimits(
      t.db,
      [
        ['multi-a', rule],
        ['multi-c', rule],
        ['multi-b', wide],
      ],
      at(20),
    );
    // multi-c opens at 60 s, multi-b at 120 s: the longer wait.
    expect(refused).toEqual({ blocked: true, retryAfterSeconds: 100 });
    expect(await hitsOf(['multi-a'], at(0))).toEqual([['multi-a', 0]]);
    expect(
      await checkRateLimits(
        t.db,
        [
          ['multi-a', rule],
          [null, rule],
        ],
        at(20),
      ),
    ).toEqual({ blocked: false });
    expect(
      await checkRateLimits(
        t.db,
        [
          ['multi-c', rule],
          [null, rule],
          ['multi-b', wide],
          ['multi-a', rule],
        ],
        at(20),
      ),
    ).toEqual({ blocked: true, retryAfterSeconds: 100 });
    expect(await checkRateLimits(t.db, [['multi-c', rule]], at(20))).toEqual({
      blocked: true,
      retryAfterSeconds: 40,
    });
    // A check counts nothing.
    expect(await hitsOf(['multi-a'], at(0))).toHaveLength(1);
  });

  it('clearing a bucket empties it and no other', async () => {
    const at = clockAt('2026-03-08T09:00:00Z');
    for (const s of [0, 1, 2]) await recordHit(t.db, 'clear-me', rule, at(s));
    await recordHit(t.db, 'clear-me-not', rule, at(0));
    expect((await checkRateLimit(t.db, 'clear-me', rule, at(3))).blocked).toBe(true);
    await clearBucket(t.db, 'clear-me');
    expect(await checkRateLimit(t.db, 'clear-me', rule, at(3))).toEqual({ blocked: false });
    expect(await hitsOf(['clear-me', 'clear-me-not'], at(0))).toEqual([['clear-me-not', 0]]);
  });

  it('old hits of every bucket are purged when the longest window has passed, at most once per 10 minutes', async () => {
    const at = clockAt('2026-09-01T09:00:00Z');
    const names = ['purge-a', 'purge-b', 'purge-c'];
    await t.db.insert(rateLimitHits).values([
      { bucket: 'purge-a', at: at(-15 * 60 - 1) },
      { bucket: 'purge-b', at: at(-20 * 60) },
      { bucket: 'purge-c', at: at(-15 * 60 + 1) },
    ]);
    await purgeOldHits(t.db, at(0));
    expect(await hitsOf(names, at(0))).toEqual([['purge-c', -899]]);
    // Within 10 minutes of the last purge nothing is purged, after them it is.
    await t.db.insert(rateLimitHits).values({ bucket: 'purge-a', at: at(-3600) });
    await purgeOldHits(t.db, at(9 * 60 + 59));
    expect(await hitsOf(names, at(0))).toEqual([
      ['purge-a', -3600],
      ['purge-c', -899],
    ]);
    await purgeOldHits(t.db, at(10 * 60));
    expect(await hitsOf(names, at(0))).toEqual([]);
    // A clock set back (a corrected clock) is no reason to wait either.
    await t.db.insert(rateLimitHits).values({ bucket: 'purge-b', at: at(-86_400 - 3600) });
    await purgeOldHits(t.db, at(-86_400));
    expect(await hitsOf(names, at(0))).toEqual([]);
  });

  it('taking places purges the old hits', async () => {
    const at = clockAt('2026-10-01T09:00:00Z');
    await t.db.insert(rateLimitHits).values({ bucket: 'stale', at: at(-3600) });
    await takeRateLimits(t.db, [['fresh', rule]], at(0));
    expect(await hitsOf(['stale', 'fresh'], at(0))).toEqual([['fresh', 0]]);
  });
});

describe('where each limit stands (the RateLimit fields, decision 027)', () => {
  it('names the bucket kind, the places left and the seconds until the oldest counted hit leaves', async () => {
    const at = clockAt('2026-03-09T09:00:00Z');
    const email = buckets.login('status@x.ng');
    const ip = buckets.loginIp('198.51.100.4');
    await recordHit(t.db, email, LOGIN_LIMIT, at(0));
    await recordHit(t.db, email, LOGIN_LIMIT, at(100));
    // An attempt in flight counts as used.
    await t.db.insert(rateLimitHits).values({ bucket: `pending:${email}`, at: at(200) });
    // Outside the window: not counted.
    await recordHit(t.db, ip, LOGIN_IP_LIMIT, at(-900));
    expect(
      await limitStatus(
        t.db,
        [
          [email, LOGIN_LIMIT],
          [null, LOGIN_LIMIT],
          [ip, LOGIN_IP_LIMIT],
        ],
        at(300.5),
      ),
    ).toEqual([
      { name: 'login', rule: LOGIN_LIMIT, remaining: 2, resetSeconds: 600 },
      { name: 'login-ip', rule: LOGIN_IP_LIMIT, remaining: 20, resetSeconds: 0 },
    ]);
  });

  it('none left at the limit', async () => {
    const at = clockAt('2026-03-10T09:00:00Z');
    for (const s of [0, 1, 2, 3]) await recordHit(t.db, 'otp-send:77', rule, at(s));
    expect(await limitStatus(t.db, [['otp-send:77', rule]], at(10))).toEqual([
      { name: 'otp-send', rule, remaining: 0, resetSeconds: 51 },
    ]);
  });
});

describe('password attempts (only failures count, issue 16 defect 7)', () => {
  it('a failure counts in every bucket, a success gives its places back', async () => {
    const at = clockAt('2026-03-11T09:00:00Z');
    const limits = [
      ['pw-acct', rule],
      [null, rule],
      ['pw-ip', { limit: 10, windowMs: 60_000 }],
    ] as const;
    const ok = await beginAttempt(t.db, limits, at(0));
    expect(ok).toMatchObject({ blocked: false, buckets: ['pw-acct', 'pw-ip'] });
    if (ok.blocked) return;
    expect(await hitsOf(['pending:pw-acct', 'pending:pw-ip'], at(0))).toEqual([
      ['pending:pw-acct', 0],
      ['pending:pw-ip', 0],
    ]);
    await settleAttempt(t.db, ok, false);
    expect(await hitsOf(['pw-acct', 'pw-ip', 'pending:pw-acct', 'pending:pw-ip'], at(0))).toEqual([]);

    const bad = await beginAttempt(t.db, limits, at(5));
    if (bad.blocked) throw new Error('blocked');
    await settleAttempt(t.db, bad, true);
    expect(await hitsOf(['pw-acct', 'pw-ip', 'pending:pw-acct', 'pending:pw-ip'], at(0))).toEqual([
      ['pw-acct', 5],
      ['pw-ip', 5],
    ]);
  });

  it('failures at the limit block with the wait until the oldest leaves; attempts in flight count toward it', async () => {
    const at = clockAt('2026-03-12T09:00:00Z');
    const limits = [['pw-block', rule]] as const;
    for (const s of [0, 10]) {
      const a = await beginAttempt(t.db, limits, at(s));
      if (a.blocked) throw new Error('blocked');
      await settleAttempt(t.db, a, true);
    }
    const third = await beginAttempt(t.db, limits, at(20));
    expect(third.blocked).toBe(false);
    if (third.blocked) return;
    await settleAttempt(t.db, third, true);
    expect(await beginAttempt(t.db, limits, at(30))).toEqual({ blocked: true, retryAfterSeconds: 30 });
    // The refused attempt took no place.
    expect(await hitsOf(['pending:pw-block'], at(0))).toEqual([]);
    expect((await beginAttempt(t.db, limits, at(60))).blocked).toBe(false);
  });

  it('blocked in one bucket: the places taken in the others are given back', async () => {
    const at = clockAt('2026-03-13T09:00:00Z');
    for (const s of [0, 1, 2]) await recordHit(t.db, 'pw-full', rule, at(s));
    const limits = [
      ['pw-free', rule],
      ['pw-full', rule],
    ] as const;
    expect(await beginAttempt(t.db, limits, at(10))).toEqual({ blocked: true, retryAfterSeconds: 50 });
    expect(await hitsOf(['pending:pw-free', 'pw-free'], at(0))).toEqual([]);
  });

  it('when only attempts in flight fill a bucket, the next waits for them instead of being refused', async () => {
    const at = clockAt('2026-03-14T09:00:00Z');
    const one = { limit: 1, windowMs: 60_000 };
    const first = await beginAttempt(t.db, [['pw-wait', one]], at(0));
    if (first.blocked) throw new Error('blocked');
    let second: Awaited<ReturnType<typeof beginAttempt>> | undefined;
    const waiting = beginAttempt(t.db, [['pw-wait', one]], at(0)).then((r) => {
      second = r;
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(second).toBeUndefined();
    await settleAttempt(t.db, first, false);
    await waiting;
    expect(second).toMatchObject({ blocked: false, buckets: ['pw-wait'] });
    // A failure instead: the place becomes a counted hit, and the one waiting is refused with the wait.
    if (second?.blocked !== false) return;
    let third: Awaited<ReturnType<typeof beginAttempt>> | undefined;
    const waiting3 = beginAttempt(t.db, [['pw-wait', one]], at(1)).then((r) => {
      third = r;
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(third).toBeUndefined();
    await settleAttempt(t.db, second, true);
    await waiting3;
    expect(third).toEqual({ blocked: true, retryAfterSeconds: 59 });
  });
});

describe('password attempts: failures and attempts in flight together', () => {
  it('counted failures and attempts in flight together fill a bucket: the next waits, then is refused if they failed', async () => {
    const at = clockAt('2026-03-16T09:00:00Z');
    const two = { limit: 2, windowMs: 60_000 };
    const failed = await beginAttempt(t.db, [['pw-mixed', two]], at(0));
    if (failed.blocked) throw new Error('blocked');
    await settleAttempt(t.db, failed, true);
    const inFlight = await beginAttempt(t.db, [['pw-mixed', two]], at(10));
    if (inFlight.blocked) throw new Error('blocked');
    let next: Awaited<ReturnType<typeof beginAttempt>> | undefined;
    const waiting = beginAttempt(t.db, [['pw-mixed', two]], at(20)).then((r) => {
      next = r;
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(next).toBeUndefined();
    await settleAttempt(t.db, inFlight, true);
    await waiting;
    // Two failures (at 0 s and 10 s) in a 60-second window: open again at 60 s.
    expect(next).toEqual({ blocked: true, retryAfterSeconds: 40 });
  });

  it('one bucket waiting on attempts in flight, another blocked: refused at once with that wait', async () => {
    const at = clockAt('2026-03-19T09:00:00Z');
    const one = { limit: 1, windowMs: 60_000 };
    const inFlight = await beginAttempt(t.db, [['pw-busy', one]], at(0));
    if (inFlight.blocked) throw new Error('blocked');
    await recordHit(t.db, 'pw-shut', one, at(0));
    let answer: Awaited<ReturnType<typeof beginAttempt>> | undefined;
    const asked = beginAttempt(
      t.db,
      [
        ['pw-busy', one],
        ['pw-shut', one],
      ],
      at(20),
    ).then((r) => {
      answer = r;
    });
    await Promise.race([asked, new Promise((resolve) => setTimeout(resolve, 1000))]);
    const atOnce = answer;
    await settleAttempt(t.db, inFlight, false);
    await asked;
    expect(atOnce).toEqual({ blocked: true, retryAfterSeconds: 40 });
  });

  it('blocked in several buckets: the longest Retry-After', async () => {
    const at = clockAt('2026-03-17T09:00:00Z');
    const short = { limit: 1, windowMs: 60_000 };
    const long = { limit: 1, windowMs: 900_000 };
    await recordHit(t.db, 'pw-short', short, at(0));
    await recordHit(t.db, 'pw-long', long, at(0));
    expect(
      await beginAttempt(
        t.db,
        [
          ['pw-short', short],
          ['pw-long', long],
        ],
        at(30),
      ),
    ).toEqual({ blocked: true, retryAfterSeconds: 870 });
  });
});

describe('password attempts waiting too long', () => {
  it('after 15 seconds of waiting for attempts in flight, the next is refused with a 1-second Retry-After', async () => {
    const at = clockAt('2026-03-18T09:00:00Z');
    const one = { limit: 1, windowMs: 60_000 };
    const first = await beginAttempt(t.db, [['pw-long-wait', one]], at(0));
    if (first.blocked) throw new Error('blocked');
    // Only the wall clock the wait is measured on is moved by hand; the database and timers run as usual.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const start = Date.now();
      let next: Awaited<ReturnType<typeof beginAttempt>> | undefined;
      const waiting = beginAttempt(t.db, [['pw-long-wait', one]], at(1)).then((r) => {
        next = r;
      });
      const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
      vi.setSystemTime(start + 14_999);
      await pause(200);
      expect(next).toBeUndefined();
      vi.setSystemTime(start + 15_000);
      await Promise.race([waiting, pause(1000)]);
      const atFifteenSeconds = next;
      // Whatever happened, let a loop still polling end.
      vi.setSystemTime(start + 60_000);
      await waiting;
      expect(atFifteenSeconds).toEqual({ blocked: true, retryAfterSeconds: 1 });
      expect(await hitsOf(['pending:pw-long-wait'], at(0))).toEqual([['pending:pw-long-wait', 0]]);
    } finally {
      vi.useRealTimers();
      await settleAttempt(t.db, first, false);
    }
  });
});

describe('password attempts left in flight', () => {
  it('a place left by a crashed process stops counting after a minute; a younger one is waited for', async () => {
    const at = clockAt('2026-03-15T09:00:00Z');
    const one = { limit: 1, windowMs: 60_000 };
    await t.db.insert(rateLimitHits).values({ bucket: 'pending:pw-crash', at: at(-61) });
    const first = await beginAttempt(t.db, [['pw-crash', one]], at(0));
    expect(first.blocked).toBe(false);
    if (first.blocked) return;
    await settleAttempt(t.db, first, false);
    const [young] = await t.db
      .insert(rateLimitHits)
      .values({ bucket: 'pending:pw-crash', at: at(-30) })
      .returning({ id: rateLimitHits.id });
    let next: Awaited<ReturnType<typeof beginAttempt>> | undefined;
    const waiting = beginAttempt(t.db, [['pw-crash', one]], at(0)).then((r) => {
      next = r;
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(next).toBeUndefined();
    await releaseHits(t.db, [young!.id]);
    await waiting;
    expect(next).toMatchObject({ blocked: false, buckets: ['pw-crash'] });
    if (next?.blocked === false) await settleAttempt(t.db, next, false);
  });
});

describe('humanDuration', () => {
  it('reads well', () => {
    expect(humanDuration(1)).toBe('1 second');
    expect(humanDuration(30)).toBe('30 seconds');
    expect(humanDuration(59)).toBe('59 seconds');
    expect(humanDuration(60)).toBe('1 minute');
    expect(humanDuration(61)).toBe('2 minutes');
    expect(humanDuration(120)).toBe('2 minutes');
    expect(humanDuration(900)).toBe('15 minutes');
  });
});
