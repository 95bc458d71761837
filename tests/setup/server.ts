import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, inject } from 'vitest';
import type { Envelope } from '../../contract/envelope';
import { ALL_PERMISSION_NAMES, SUPER_ADMIN_ROLE } from '../../contract/permissions';
import { API_BASE, type App, createApp } from '../../server/app';
import type { CampaignWorker } from '../../server/campaign-worker';
import type { ImportWorker } from '../../server/customer-import-worker';
import { type Database, type Db, openDatabase, runOnce } from '../../server/db/client';
import {
  customerLinks,
  customers,
  extendedServices,
  partnerExtendedServices,
  partners,
  rewards,
  roles,
  users,
  visitItems,
  visits,
} from '../../server/db/schema';
import { createPasswordHasher, TEST_PASSWORD_HASHING } from '../../server/domain/passwords';
import { silentLogger } from '../../server/log';
import { createMailer, fileMailbox, type Mailer, type MailTransport } from '../../server/mail';
import { solidPng } from '../../server/seed/png';
import type { AppConfig } from '../../server/types';

/** A clock the tests move by hand. */
export type TestClock = (() => Date) & { advance: (ms: number) => void; set: (d: Date) => void };

export function createTestClock(start = new Date('2026-03-02T09:00:00.000Z')): TestClock {
  let now = start.getTime();
  const clock = (() => new Date(now)) as TestClock;
  clock.advance = (ms) => {
    now += ms;
  };
  clock.set = (d) => {
    now = d.getTime();
  };
  return clock;
}

/** A clock that follows the wall clock (a test of real timers: an import worker's sweep); `advance` and `set` shift it. */
export function createWallClock(): TestClock {
  let offset = 0;
  const clock = (() => new Date(Date.now() + offset)) as TestClock;
  clock.advance = (ms) => {
    offset += ms;
  };
  clock.set = (d) => {
    offset = d.getTime() - Date.now();
  };
  return clock;
}

export type Res<T = unknown> = { status: number; body: Envelope<T>; text: string; headers: Headers };

export type RequestOptions = {
  /** Sent as JSON (with the JSON content type). */
  json?: unknown;
  /** Sent as is. */
  body?: string;
  token?: string;
  headers?: Record<string, string>;
  /** The client's socket address (as @hono/node-server's getConnInfo reads it); none by default. */
  ip?: string;
};

export const testHasher = createPasswordHasher(TEST_PASSWORD_HASHING);

/** Whether this run's server tests use PostgreSQL (TEST_DATABASE_URL) rather than PGlite. */
export const isPostgres = Boolean(process.env.TEST_DATABASE_URL);

/**
 * `url` through PgBouncer when TEST_PGBOUNCER names one (`host:port`, set by `npm run test:pgbouncer`,
 * scripts/test-pgbouncer.mjs), else `url` itself. Databases are still created and dropped directly.
 */
export function throughPooler(url: string): string {
  const pooler = process.env.TEST_PGBOUNCER;
  if (!pooler) return url;
  const u = new URL(url);
  const [host, port] = pooler.split(':');
  u.hostname = host!;
  u.port = port!;
  return u.toString();
}

/**
 * Opens a fresh, migrated database: in-memory PGlite, or a new database on TEST_DATABASE_URL with a
 * pool of `max` connections (concurrency tests ask for 20 or more).
 */
export async function openTestDatabase(
  opts: { max?: number; via?: (url: string) => string } = {},
): Promise<Database> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    // The migrated image the project's global setup made (tests/setup/db-template.ts), if any.
    const template = inject('pgliteTemplate');
    return openDatabase({ kind: 'pglite', from: template ? new Blob([readFileSync(template)]) : undefined });
  }
  const name = `rc_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  // A copy of the migrated template the project's global setup made (tests/setup/db-template.ts), if any.
  const template = inject('postgresTemplate');
  await runOnce(serverUrl, `create database "${name}"${template ? ` template "${template}"` : ''}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({
    kind: 'postgres',
    url: opts.via ? opts.via(url.toString()) : throughPooler(url.toString()),
    max: opts.max ?? 10,
  });
  return {
    ...database,
    close: async () => {
      await database.close();
      await runOnce(serverUrl, `drop database if exists "${name}" with (force)`);
    },
  };
}

export type TestServer = {
  app: App;
  db: Db;
  database: Database;
  clock: TestClock;
  mailer: Mailer;
  mailDir: string;
  config: AppConfig;
  request: <T = unknown>(method: string, path: string, opts?: RequestOptions) => Promise<Res<T>>;
  /** The .eml files delivered so far (after waiting for delivery), oldest first. */
  mails: () => Promise<{ file: string; raw: string }[]>;
  /** The last reset code mailed to an address. */
  lastResetCode: (to: string) => Promise<string | undefined>;
  /** The set-password code of the last staff invitation mailed to an address. */
  lastInviteCode: (to: string) => Promise<string | undefined>;
  /** The 6-digit redemption code of the last OTP mail to an address. */
  lastOtp: (to: string) => Promise<string | undefined>;
  /** The 6-digit code of the last customer-link mail to an address (decision 053). */
  lastLinkCode: (to: string) => Promise<string | undefined>;
  close: () => Promise<void>;
};

export type TestServerOptions = {
  config?: Partial<AppConfig>;
  /** PostgreSQL pool size (default 10). */
  poolSize?: number;
  /** PostgreSQL: the URL the server connects to instead of its database's (a proxy in front of it). */
  databaseVia?: (url: string) => string;
  /** Replaces the file mailbox (e.g. a failing transport); mails() then reads nothing. */
  transport?: MailTransport;
  /** The server's clock (default: a test clock at 2026-03-02T09:00Z that moves only by hand). */
  clock?: TestClock;
  /** The customer import worker the server kicks (issue 27); none by default (tests drain their own). */
  imports?: (db: Db, clock: () => Date) => ImportWorker;
  /** The campaign worker the server kicks (issue 35); none by default (tests drain their own). */
  campaigns?: (db: Db, clock: () => Date) => CampaignWorker;
};

export async function createTestServer(opts: TestServerOptions = {}): Promise<TestServer> {
  const database = await openTestDatabase({ max: opts.poolSize, via: opts.databaseVia });
  const clock = opts.clock ?? createTestClock();
  const mailDir = mkdtempSync(join(tmpdir(), 'rc-mail-'));
  const mailer = createMailer({
    db: database.db,
    transport: opts.transport ?? fileMailbox(mailDir),
    clock,
    log: silentLogger,
  });
  const config: AppConfig = {
    jwtSecret: randomBytes(32).toString('hex'),
    accessTokenTtlSeconds: 900,
    refreshTokenTtlDays: 7,
    trustProxy: false,
    passwordHashing: TEST_PASSWORD_HASHING,
    ...opts.config,
  };
  const imports = opts.imports?.(database.db, clock);
  const campaigns = opts.campaigns?.(database.db, clock);
  const app = createApp({ db: database.db, clock, mailer, config, log: silentLogger, imports, campaigns });

  const request = async <T>(method: string, path: string, o: RequestOptions = {}): Promise<Res<T>> => {
    const headers: Record<string, string> = { ...o.headers };
    let body: string | undefined = o.body;
    if (o.json !== undefined) {
      body = JSON.stringify(o.json);
      headers['content-type'] ??= 'application/json';
    }
    if (o.token) headers.authorization = `Bearer ${o.token}`;
    const env = o.ip ? { incoming: { socket: { remoteAddress: o.ip } } } : undefined;
    const res = await app.request(`${API_BASE}${path}`, { method, headers, body }, env as never);
    const text = await res.text();
    let parsed: unknown = null;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = null;
    }
    return { status: res.status, body: parsed as Envelope<T>, text, headers: res.headers };
  };

  const mails = async () => {
    await mailer.idle();
    return readdirSync(mailDir)
      .filter((f) => f.endsWith('.eml'))
      .sort((a, b) => Number(a.split('-').at(-1)!.slice(0, -4)) - Number(b.split('-').at(-1)!.slice(0, -4)))
      .map((file) => ({ file, raw: readFileSync(join(mailDir, file), 'utf8') }));
  };

  /** The code on a line of the last mail to an address. */
  const lastCode = async (to: string, line: RegExp) => {
    const mine = (await mails()).filter((m) =>
      new RegExp(`^To: .*${to.replace(/[.+]/g, '\\$&')}`, 'mi').test(m.raw),
    );
    return line.exec(mine.at(-1)?.raw ?? '')?.[1];
  };

  return {
    app,
    db: database.db,
    database,
    clock,
    mailer,
    mailDir,
    config,
    request,
    mails,
    lastResetCode: (to) => lastCode(to, /^Your reset code is: ([A-Z0-9]+)$/m),
    lastInviteCode: (to) => lastCode(to, /^Your set-password code is: ([A-Z0-9]+)$/m),
    lastOtp: (to) => lastCode(to, /^Your redemption code is: ([0-9]{6})$/m),
    lastLinkCode: (to) => lastCode(to, /^Your link code is: ([0-9]{6})$/m),
    close: async () => {
      imports?.stop();
      await imports?.idle();
      campaigns?.stop();
      await campaigns?.idle();
      await mailer.idle();
      await database.close();
      rmSync(mailDir, { recursive: true, force: true });
    },
  };
}

/**
 * One fresh server and database per test file: `const t = setupTestServer();` then use `t.request(...)`
 * inside tests (the fields are filled in beforeAll).
 */
export function setupTestServer(opts: TestServerOptions = {}): TestServer {
  const holder = {} as TestServer;
  beforeAll(async () => {
    Object.assign(holder, await createTestServer(opts));
  });
  afterAll(async () => {
    await holder.close?.();
  });
  return holder;
}

// ---------------------------------------------------------------------------------------------
// Fixtures

export async function createRole(
  db: Db,
  name: string,
  permissions: readonly string[],
  builtIn = false,
  partnerRole = false,
) {
  const [role] = await db
    .insert(roles)
    .values({ name, permissions: [...permissions], builtIn, partnerRole })
    .returning();
  return role!;
}

let userSeq = 0;

export async function createUser(
  db: Db,
  opts: {
    email?: string;
    password?: string | null;
    roleId?: number | null;
    firstName?: string;
    lastName?: string;
    userType?: 'ADMIN' | 'PARTNER';
    partnerId?: number | null;
    accountStatus?: 'ACTIVE' | 'BLOCKED';
    deletedAt?: Date | null;
  } = {},
) {
  userSeq++;
  const password = opts.password === undefined ? 'Passw0rd!' : opts.password;
  const [user] = await db
    .insert(users)
    .values({
      email: opts.email ?? `staff${userSeq}-${randomBytes(3).toString('hex')}@rewardclub.test`,
      passwordHash: password === null ? null : await testHasher.hash(password),
      firstName: opts.firstName ?? 'Test',
      lastName: opts.lastName ?? `User${userSeq}`,
      userType: opts.userType ?? 'ADMIN',
      roleId: opts.roleId ?? null,
      partnerId: opts.partnerId ?? null,
      accountStatus: opts.accountStatus ?? 'ACTIVE',
      deletedAt: opts.deletedAt ?? null,
    })
    .returning();
  return { ...user!, password: password ?? '' };
}

/** A Super Admin (built-in role) with a known password. */
export async function createSuperAdmin(db: Db, email = 'root@rewardclub.test', password = 'Sup3rSecret') {
  const [existing] = await db.select().from(roles).where(eq(roles.name, SUPER_ADMIN_ROLE));
  const role = existing ?? (await createRole(db, SUPER_ADMIN_ROLE, ALL_PERMISSION_NAMES, true));
  return createUser(db, { email, password, roleId: role.id, firstName: 'Ada', lastName: 'Root' });
}

export type Tokens = { accessToken: string; refreshToken: string };

/** Signs in through the API and returns the token pair. */
export async function signIn(t: TestServer, email: string, password: string): Promise<Tokens> {
  const res = await t.request<Tokens>('POST', '/admin/auth/login', { json: { email, password } });
  if (res.status !== 200 || !res.body.data) throw new Error(`sign-in failed: ${res.status} ${res.text}`);
  return { accessToken: res.body.data.accessToken, refreshToken: res.body.data.refreshToken };
}

/** A small valid PNG as base64 (without a data-URL prefix), as the SPA sends images. */
export const PNG_BASE64 = solidPng(8, 6, [30, 120, 200]).toString('base64');

let fixtureSeq = 0;

export async function createExtendedService(db: Db, opts: { title?: string; description?: string } = {}) {
  fixtureSeq++;
  const [row] = await db
    .insert(extendedServices)
    .values({
      title: opts.title ?? `Service ${fixtureSeq}`,
      description: opts.description ?? `Description of service ${fixtureSeq}`,
    })
    .returning();
  return row!;
}

export async function createPartner(
  db: Db,
  opts: Partial<typeof partners.$inferInsert> & { serviceIds?: number[] } = {},
) {
  fixtureSeq++;
  const { serviceIds, ...values } = opts;
  const [row] = await db
    .insert(partners)
    .values({
      firstName: 'Cass',
      lastName: 'Okafor',
      email: `partner${fixtureSeq}-${randomBytes(3).toString('hex')}@partners.test`,
      phone: '08031234567',
      organizationName: `Partner ${fixtureSeq}`,
      address: '1 Allen Avenue, Ikeja, Lagos',
      minSpendToQualify: 10_000,
      ...values,
    })
    .returning();
  if (serviceIds?.length) {
    await db
      .insert(partnerExtendedServices)
      .values(serviceIds.map((extendedServiceId) => ({ partnerId: row!.id, extendedServiceId })));
  }
  return row!;
}

export async function createCustomer(db: Db, opts: Partial<typeof customers.$inferInsert> = {}) {
  fixtureSeq++;
  const [row] = await db
    .insert(customers)
    .values({
      firstName: 'Tunde',
      lastName: `Bakare${fixtureSeq}`,
      email: `customer${fixtureSeq}-${randomBytes(3).toString('hex')}@mail.test`,
      address: '5 Bode Thomas Street, Surulere, Lagos',
      fiberPlan: 'Fiber Home 50',
      fiberSpeedMbps: 50,
      fiberMonthlyFee: 25_000,
      fiberRenewalDate: new Date('2026-04-01T00:00:00.000Z'),
      ...opts,
    })
    .returning();
  return row!;
}

/**
 * A confirmed consent link (decision 053), straight into the database: what the migration makes of a
 * partner's existing visits and rewards, and what createVisit/createReward add (existing data).
 */
export async function linkCustomer(db: Db, partnerId: number, customerId: number) {
  await db
    .insert(customerLinks)
    .values({
      partnerId,
      customerId,
      requested: `member:${customerId}`,
      state: 'CONFIRMED',
      confirmedAt: new Date('2026-01-01T00:00:00.000Z'),
    })
    .onConflictDoNothing();
}

/** A visit with one item worth `amount`, straight into the database (and the customer's link to the partner). */
export async function createVisit(
  db: Db,
  opts: { partnerId: number; customerId: number; visitDate: Date; amount: number; attendantName?: string },
) {
  const [row] = await db
    .insert(visits)
    .values({
      partnerId: opts.partnerId,
      customerId: opts.customerId,
      attendantName: opts.attendantName ?? 'Bisi',
      visitDate: opts.visitDate,
      totalAmount: opts.amount,
      createdAt: opts.visitDate,
    })
    .returning();
  await db
    .insert(visitItems)
    .values({ visitId: row!.id, name: 'Jollof rice', quantity: 1, price: opts.amount });
  await linkCustomer(db, opts.partnerId, opts.customerId);
  return row!;
}

export async function createReward(
  db: Db,
  opts: Partial<typeof rewards.$inferInsert> & { partnerId: number; customerId: number },
) {
  fixtureSeq++;
  const [row] = await db
    .insert(rewards)
    .values({
      rewardType: 'GIFTCARD',
      code: `T-${fixtureSeq}-${randomBytes(3).toString('hex')}`,
      title: 'Gift card',
      description: 'A test reward',
      issuedAmount: 5_000,
      balance: 5_000,
      ...opts,
    })
    .returning();
  await linkCustomer(db, opts.partnerId, opts.customerId);
  return row!;
}
