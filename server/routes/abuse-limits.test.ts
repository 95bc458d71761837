import { performance } from 'node:perf_hooks';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authMessages } from '../../contract/auth';
import {
  createCustomer,
  createPartner,
  createReward,
  createRole,
  createUser,
  type Res,
  setupTestServer,
  signIn,
} from '../../tests/setup/server';
import { API_BASE, createApp } from '../app';
import { users } from '../db/schema';
import { createPasswordHasher, DEFAULT_PASSWORD_HASHING } from '../domain/passwords';
import {
  buckets,
  ipKey,
  LOGIN_IP_LIMIT,
  LOGIN_LIMIT,
  OTP_GUESS_IP_LIMIT,
  OTP_GUESS_LIMIT,
  OTP_SEND_IP_LIMIT,
  OTP_SEND_LIMIT,
  RESET_CODE_IP_LIMIT,
  RESET_REQUEST_IP_LIMIT,
  RESET_REQUEST_LIMIT,
  recordHit,
} from '../domain/rate-limit';

/** Abuse limits (docs/decisions/013-abuse-limits.md), through the API on the real database. */
const t = setupTestServer();

const MIN15 = 15 * 60 * 1000;
let seq = 0;
/** A fresh client address per test (203.0.113.0/24, documentation range), so buckets do not mix. */
const nextIp = () => `203.0.113.${++seq}`;
const unknownEmail = () => `ghost${++seq}-${Date.now()}@rewardclub.test`;

const tally = { attempts: 0, refused: 0 };
const count = <T>(res: Res<T>) => {
  tally.attempts++;
  if (res.status === 429) tally.refused++;
  return res;
};

const login = (email: string, password: string, ip?: string) =>
  t.request('POST', '/admin/auth/login', { json: { email, password }, ip }).then(count);
const requestReset = (email: string, ip?: string) =>
  t.request('POST', '/auth/password-reset-request', { json: { email }, ip }).then(count);
const updatePassword = (resetCode: string, newPassword: string, ip?: string) =>
  t.request('PATCH', '/auth/update-password', { json: { resetCode, newPassword }, ip }).then(count);

/** A 429 in the envelope, with a Retry-After in seconds that the message states in words. */
function expect429(res: Res, prefix: string, retryAfterSeconds?: number) {
  expect(res.status, res.text).toBe(429);
  expect(res.body.success).toBe(false);
  expect(res.body.data).toBeNull();
  expect(res.body.message.startsWith(`${prefix} Try again in `), res.body.message).toBe(true);
  const retry = Number(res.headers.get('retry-after'));
  expect(retry).toBeGreaterThan(0);
  if (retryAfterSeconds !== undefined) expect(retry).toBe(retryAfterSeconds);
  expect(res.body.message).toMatch(
    new RegExp(`Try again in ${retry < 60 ? `${retry} seconds?` : `${Math.ceil(retry / 60)} minutes?`}\\.$`),
  );
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

afterAll(() => {
  console.log(
    `[figure] abuse limits: ${tally.attempts} attempts tried, ${tally.refused} answered 429 (each with Retry-After and the message in the envelope)`,
  );
});

describe('sign-in', () => {
  it('5 failures per account, known or unknown email alike, then 429 even for the right password', async () => {
    const user = await createUser(t.db);
    const ghost = unknownEmail();
    for (let i = 0; i < LOGIN_LIMIT.limit; i++) {
      expect((await login(user.email, 'wrong-1')).status).toBe(401);
      expect((await login(ghost, 'wrong-1')).status).toBe(401);
    }
    const known = await login(user.email, user.password);
    const unknown = await login(ghost, 'wrong-1');
    expect429(known, authMessages.tooManyAttemptsPrefix, 900);
    expect(unknown.body).toEqual(known.body);
    expect(unknown.headers.get('retry-after')).toBe('900');
    expect(known.body.message).toBe('Too many failed sign-in attempts. Try again in 15 minutes.');
  });

  it('parallel wrong passwords for one account: exactly 5 are tried, the rest are refused', async () => {
    const user = await createUser(t.db);
    const results = await Promise.all(Array.from({ length: 30 }, () => login(user.email, 'wrong-parallel')));
    const by = (s: number) => results.filter((r) => r.status === s).length;
    console.log(
      `[figure] 30 parallel wrong sign-ins for one account: ${by(401)} tried (401), ${by(429)} refused (429)`,
    );
    expect(by(401)).toBe(LOGIN_LIMIT.limit);
    expect(by(429)).toBe(30 - LOGIN_LIMIT.limit);
  });

  it('parallel right passwords for one account: every one signed in, none a 500', async () => {
    // Each success clears the account's bucket; two clearing it at once deadlocked on PostgreSQL
    // (each held its own hit's row and waited for the other's) before clearBucket took the lock.
    const user = await createUser(t.db);
    for (let round = 0; round < 20; round++) {
      const results = await Promise.all(
        Array.from({ length: LOGIN_LIMIT.limit }, () => login(user.email, user.password, nextIp())),
      );
      expect(
        results.map((r) => r.status),
        results.map((r) => r.text).join('\n'),
      ).toEqual(Array(LOGIN_LIMIT.limit).fill(200));
    }
  });

  it('20 failures per client address across accounts, then 429 there and only there', async () => {
    const ip = nextIp();
    const victim = await createUser(t.db);
    for (let i = 0; i < LOGIN_IP_LIMIT.limit; i++) {
      expect((await login(unknownEmail(), 'spray-1', ip)).status).toBe(401);
    }
    // The address is refused even for an account it never tried, even with the right password.
    expect429(await login(victim.email, victim.password, ip), authMessages.tooManyAttemptsPrefix, 900);
    // Another address, and the account itself, are not affected.
    expect((await login(victim.email, victim.password, nextIp())).status).toBe(200);
    // Behind the limit, attempts do not push the opening time further.
    t.clock.advance(MIN15 - 60_000);
    expect429(await login(victim.email, victim.password, ip), authMessages.tooManyAttemptsPrefix, 60);
    t.clock.advance(60_000);
    expect((await login(victim.email, victim.password, ip)).status).toBe(200);
  });

  it('an IPv6 client is counted by its /64', async () => {
    expect(ipKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(ipKey('2001:0db8:0001:0002:ffff:0:0:9')).toBe('2001:db8:1:2::/64');
    expect(ipKey('::1')).toBe('0:0:0:0::/64');
    expect(ipKey('198.51.100.7')).toBe('198.51.100.7');
    for (let i = 0; i < LOGIN_IP_LIMIT.limit; i++) {
      expect((await login(unknownEmail(), 'spray-6', `2001:db8:77:1::${(i + 1).toString(16)}`)).status).toBe(
        401,
      );
    }
    expect429(await login(unknownEmail(), 'x', '2001:db8:77:1:ffff::9'), authMessages.tooManyAttemptsPrefix);
    expect((await login(unknownEmail(), 'x', '2001:db8:77:2::1')).status).toBe(401);
  });

  it('a locked-out account recovers through password reset, then signs in', async () => {
    const user = await createUser(t.db);
    const attacker = nextIp();
    const owner = nextIp();
    for (let i = 0; i < LOGIN_LIMIT.limit; i++) await login(user.email, 'guess', attacker);
    expect429(await login(user.email, user.password, owner), authMessages.tooManyAttemptsPrefix);
    expect((await requestReset(user.email, owner)).status).toBe(200);
    const code = await t.lastResetCode(user.email);
    expect(code).toBeDefined();
    expect((await updatePassword(code!, 'Recovered#2026', owner)).status).toBe(200);
    expect((await login(user.email, 'Recovered#2026', owner)).status).toBe(200);
  });
});

describe('password reset', () => {
  it('5 requests per email, registered or not, then the same 429 for both', async () => {
    const user = await createUser(t.db);
    const ghost = unknownEmail();
    for (let i = 0; i < RESET_REQUEST_LIMIT.limit; i++) {
      expect((await requestReset(user.email)).status).toBe(200);
      expect((await requestReset(ghost)).status).toBe(200);
    }
    const known = await requestReset(user.email);
    const unknown = await requestReset(ghost);
    expect429(known, authMessages.tooManyResetRequestsPrefix, 900);
    expect(unknown.body).toEqual(known.body);
    expect(unknown.headers.get('retry-after')).toBe(known.headers.get('retry-after'));
    // Five mails reached the owner, none went to the unknown address.
    const mine = (await t.mails()).filter((m) => m.raw.includes(`To: ${user.email}`));
    expect(mine).toHaveLength(RESET_REQUEST_LIMIT.limit);
  });

  it('10 requests per client address, then 429 from there', async () => {
    const ip = nextIp();
    for (let i = 0; i < RESET_REQUEST_IP_LIMIT.limit; i++) {
      expect((await requestReset(unknownEmail(), ip)).status).toBe(200);
    }
    expect429(await requestReset(unknownEmail(), ip), authMessages.tooManyResetRequestsPrefix, 900);
    expect((await requestReset(unknownEmail(), nextIp())).status).toBe(200);
  });

  it('10 wrong reset codes per client address, then 429 even for the right code', async () => {
    const user = await createUser(t.db);
    const ip = nextIp();
    await requestReset(user.email, nextIp());
    const code = (await t.lastResetCode(user.email))!;
    for (let i = 0; i < RESET_CODE_IP_LIMIT.limit; i++) {
      const res = await updatePassword(`WRONG${i}XYZ`, 'NewPassw0rd!', ip);
      expect(res.status).toBe(400);
    }
    expect429(await updatePassword(code, 'NewPassw0rd!', ip), authMessages.tooManyResetCodesPrefix, 900);
    // The code was not spent: from another address it still works.
    expect((await updatePassword(code, 'NewPassw0rd!', nextIp())).status).toBe(200);
  });
});

describe('redemption codes', () => {
  let staff: { id: number; email: string; password: string };
  let token: string;
  let customer: { id: number; email: string };
  let partnerId: number;

  beforeAll(async () => {
    partnerId = (await createPartner(t.db)).id;
    const role = await createRole(t.db, 'Limit cashier', ['rewards.view', 'rewards.redeem']);
    staff = await createUser(t.db, { roleId: role.id, userType: 'PARTNER', partnerId });
    customer = await createCustomer(t.db);
  });

  const post = (path: string, json: unknown, ip?: string) =>
    t.request('POST', `/partners/rewards/${path}`, { json, token, ip }).then(count);
  const send = (code: string, ip?: string) =>
    post('initiate-reward-redemption-auth', { userId: customer.id, code }, ip);
  const check = (otp: string, ip?: string) =>
    post('redemption-auth-otp-validity-check', { userId: customer.id, otp }, ip);
  /** A new 15-minute window (earlier tests' hits have left it) and a token valid in it. */
  const freshSession = async () => {
    t.clock.advance(MIN15 + 1000);
    token = (await signIn(t, staff.email, staff.password)).accessToken;
  };

  it('30 codes sent per staff member in 15 minutes, then 429 with Retry-After', async () => {
    await freshSession();
    // Earlier sends of this staff member (the limit counts them the same; each real send mails).
    for (let i = 0; i < OTP_SEND_LIMIT.limit - 2; i++) {
      await recordHit(t.db, buckets.otpSend(staff.id), OTP_SEND_LIMIT, t.clock());
    }
    const reward = await createReward(t.db, { partnerId, customerId: customer.id });
    expect((await send(reward.code)).status).toBe(200);
    expect((await send(reward.code)).status).toBe(200);
    const refused = await send(reward.code);
    expect429(refused, 'Too many codes were sent.', 900);
    expect(refused.body.errors).toEqual([]);
  });

  it('60 codes sent per client address, then 429 from there', async () => {
    await freshSession();
    const ip = nextIp();
    for (let i = 0; i < OTP_SEND_IP_LIMIT.limit - 1; i++) {
      await recordHit(t.db, buckets.otpSendIp(ip), OTP_SEND_IP_LIMIT, t.clock());
    }
    const reward = await createReward(t.db, { partnerId, customerId: customer.id });
    expect((await send(reward.code, ip)).status).toBe(200);
    expect429(await send(reward.code, ip), 'Too many codes were sent.');
    expect((await send(reward.code, nextIp())).status).toBe(200);
  });

  it('20 wrong codes per staff member (over several codes), then 429 even for a right one', async () => {
    await freshSession();
    let guesses = 0;
    while (guesses < OTP_GUESS_LIMIT.limit) {
      const reward = await createReward(t.db, { partnerId, customerId: customer.id });
      expect((await send(reward.code)).status).toBe(200);
      const otp = (await t.lastOtp(customer.email))!;
      for (let i = 0; i < 5 && guesses < OTP_GUESS_LIMIT.limit; i++, guesses++) {
        const wrong = String((Number(otp) + 1 + i) % 1_000_000).padStart(6, '0');
        expect((await check(wrong)).status).toBe(400);
      }
    }
    const reward = await createReward(t.db, { partnerId, customerId: customer.id });
    expect((await send(reward.code)).status).toBe(200);
    const right = (await t.lastOtp(customer.email))!;
    const refused = await check(right);
    expect429(refused, 'Too many wrong codes were tried.');
    expect(refused.body.errors).toEqual([{ fieldName: 'otp', message: refused.body.message }]);
    const redeem = await post('redeem-giftcard', {
      userId: customer.id,
      code: reward.code,
      otp: right,
      amountToRedeem: 100,
    });
    expect429(redeem, 'Too many wrong codes were tried.');
  });

  it('40 wrong codes per client address, then 429 from there', async () => {
    await freshSession();
    const ip = nextIp();
    for (let i = 0; i < OTP_GUESS_IP_LIMIT.limit - 1; i++) {
      await recordHit(t.db, buckets.otpGuessIp(ip), OTP_GUESS_IP_LIMIT, t.clock());
    }
    const reward = await createReward(t.db, { partnerId, customerId: customer.id });
    expect((await send(reward.code, ip)).status).toBe(200);
    const otp = (await t.lastOtp(customer.email))!;
    const wrong = String((Number(otp) + 1) % 1_000_000).padStart(6, '0');
    expect((await check(wrong, ip)).status).toBe(400);
    expect429(await check(otp, ip), 'Too many wrong codes were tried.');
    expect((await check(otp, nextIp())).status).toBe(200);
  });
});

describe('known and unknown emails answer the same, in the same time', () => {
  it('sign-in (wrong password vs unknown email) and reset request: same answer, medians within noise', async () => {
    // A second instance on the same database hashing with the production argon2id cost, so the
    // timing is measured with the work that would reveal a known email.
    const app = createApp({
      db: t.db,
      clock: t.clock,
      mailer: t.mailer,
      config: { ...t.config, passwordHashing: DEFAULT_PASSWORD_HASHING },
    });
    /**
     * The time until the answer exists (the node server writes it out in the same tick), and the
     * process's CPU time in it (every thread: argon2id runs in libuv's pool). The wall time is the
     * figure an attacker sees; the test decides on the CPU time, the work done, which other
     * processes of a shared machine do not stretch (wall-clock medians did, in CI at load 16).
     */
    const call = async (method: string, path: string, json: unknown) => {
      const start = performance.now();
      const cpu0 = process.cpuUsage();
      const res = await app.request(`${API_BASE}${path}`, {
        method,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(json),
      });
      const used = process.cpuUsage(cpu0);
      const ms = performance.now() - start;
      const body = await res.json();
      count({ status: res.status } as Res);
      return { status: res.status, body, ms, cpuMs: (used.user + used.system) / 1000 };
    };
    const hash = await createPasswordHasher(DEFAULT_PASSWORD_HASHING).hash('The-Real-Passw0rd');
    const N = 15; // sign-ins (each runs argon2id at the production cost)
    const R = 40; // reset requests (cheap, so more of them for a steadier median)
    const known: string[] = [];
    for (let i = 0; i < N + R + 1; i++) {
      const u = await createUser(t.db, { password: null });
      await t.db.update(users).set({ passwordHash: hash }).where(eq(users.id, u.id));
      known.push(u.email);
    }
    const signIn = (email: string) =>
      call('POST', '/admin/auth/login', { email, password: 'Wrong-Passw0rd' });
    const reset = (email: string) => call('POST', '/auth/password-reset-request', { email });
    // Warm-up: the first call of each kind pays for compilation and caches.
    await signIn(unknownEmail());
    await signIn(known[N + R]!);

    const signInMs = { known: [] as number[], unknown: [] as number[] };
    const resetMs = { known: [] as number[], unknown: [] as number[] };
    const signInCpu = { known: [] as number[], unknown: [] as number[] };
    const resetCpu = { known: [] as number[], unknown: [] as number[] };
    for (let i = 0; i < N; i++) {
      // Interleaved, so drift of the shared machine hits both kinds alike.
      const a = await signIn(known[i]!);
      const b = await signIn(unknownEmail());
      expect(a.status).toBe(401);
      expect(b.status).toBe(401);
      expect(b.body).toEqual(a.body);
      signInMs.known.push(a.ms);
      signInMs.unknown.push(b.ms);
      signInCpu.known.push(a.cpuMs);
      signInCpu.unknown.push(b.cpuMs);
    }
    for (let i = 0; i < R; i++) {
      const a = await reset(known[N + i]!);
      await t.mailer.idle(); // the code and the mail are made after the answer
      const b = await reset(unknownEmail());
      await t.mailer.idle();
      expect(a.status).toBe(200);
      expect(b.body).toEqual(a.body);
      resetMs.known.push(a.ms);
      resetMs.unknown.push(b.ms);
      resetCpu.known.push(a.cpuMs);
      resetCpu.unknown.push(b.cpuMs);
    }
    const s = { known: median(signInMs.known), unknown: median(signInMs.unknown) };
    const r = { known: median(resetMs.known), unknown: median(resetMs.unknown) };
    console.log(
      `[figure] timing medians: sign-in (${N} each, argon2id ${DEFAULT_PASSWORD_HASHING.memoryCost} KiB) known ${s.known.toFixed(1)} ms vs unknown ${s.unknown.toFixed(1)} ms; reset request (${R} each) known ${r.known.toFixed(1)} ms vs unknown ${r.unknown.toFixed(1)} ms`,
    );
    const sc = { known: median(signInCpu.known), unknown: median(signInCpu.unknown) };
    const rc = { known: median(resetCpu.known), unknown: median(resetCpu.unknown) };
    console.log(
      `[figure] CPU medians: sign-in known ${sc.known.toFixed(1)} ms vs unknown ${sc.unknown.toFixed(1)} ms; reset request known ${rc.known.toFixed(1)} ms vs unknown ${rc.unknown.toFixed(1)} ms`,
    );
    // Without the dummy hash an unknown email would skip the whole argon2id verification (most of
    // the work of a sign-in); without the deferred work a known email would add a transaction.
    expect(Math.abs(sc.known - sc.unknown)).toBeLessThan(Math.max(8, 0.25 * Math.max(sc.known, sc.unknown)));
    expect(Math.abs(rc.known - rc.unknown)).toBeLessThan(Math.max(5, 0.5 * Math.max(rc.known, rc.unknown)));
    // The known accounts did get their codes.
    expect(await t.lastResetCode(known[N]!)).toMatch(/^[A-Z0-9]{8}$/);
  });
});
