import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/client';
import { bearerOf } from '../../tests/setup/customer-import';
import { type ServerProcess, scratchDir, startServerProcess, tinySpaDir } from '../../tests/setup/faults';
import { createCustomer, createPartner } from '../../tests/setup/server';
import { posDay } from './pos-till';

/**
 * Issue 31, "Done when": the till example passes against a fresh server. The real server
 * (`server/main.ts`, as `npm start` runs it) on a new PGlite data folder holding one partner and one
 * customer; a Super Admin from ADMIN_EMAIL makes the partner's key through the API; the till runs
 * with that key only and reads the codes the customer is mailed from the server's mailbox
 * (DATA_DIR/mail, one .eml per message), as the server tests do.
 */
const ADMIN = { email: 'ops@rewardclub.test', password: 'Till#Day2026' };
const CUSTOMER_EMAIL = 'ada.obi@mail.test';
let server: ServerProcess;
let dir: string;
let partnerId: number;

beforeAll(async () => {
  dir = scratchDir('rc-pos-till-');
  const database = await openDatabase({ kind: 'pglite', dataDir: join(dir, 'db') });
  partnerId = (await createPartner(database.db, { minSpendToQualify: 10_000 })).id;
  await createCustomer(database.db, { firstName: 'Ada', lastName: 'Obi', email: CUSTOMER_EMAIL });
  await database.close();
  server = await startServerProcess({
    DATA_DIR: dir,
    SPA_DIR: tinySpaDir(dir),
    JWT_SECRET: 'pos-till-example-secret-0123456789abcdef',
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
  });
}, 180_000);

afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * The code on `line` of a mail to `to` in the server's mailbox, waiting for the mail to be written.
 * The till asks for each kind of code once, so there is one such mail.
 */
async function codeFromMailbox(to: string, line: RegExp): Promise<string> {
  const mailDir = join(dir, 'mail');
  const addressed = new RegExp(`^To: .*${to.replace(/[.+]/g, '\\$&')}`, 'mi');
  for (let i = 0; i < 100; i++) {
    const names = existsSync(mailDir) ? readdirSync(mailDir).filter((f) => f.endsWith('.eml')) : [];
    const code = names
      .map((f) => readFileSync(join(mailDir, f), 'utf8'))
      .filter((raw) => addressed.test(raw))
      .map((raw) => line.exec(raw)?.[1])
      .find(Boolean);
    if (code) return code;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no mail to ${to} matching ${line}`);
}

describe('examples/pos-till against a fresh server', () => {
  it('does the POS day with a partner key: link, look up, visit, issue, OTP, partial gift card, reverse, cursor paging', async () => {
    const admin = await bearerOf(server.url, ADMIN.email, ADMIN.password);
    const created = await fetch(`${server.url}/api/v1/admin/partners/${partnerId}/api-keys`, {
      method: 'POST',
      headers: { ...admin, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Front till',
        permissions: [
          'visits.create',
          'visits.view',
          'rewards.view',
          'rewards.issue',
          'rewards.redeem',
          'rewards.reverse',
        ],
      }),
    });
    expect(created.status).toBe(201);
    const apiKey = ((await created.json()) as { data: { key: string } }).data.key;

    const day = await posDay({
      base: server.url,
      apiKey,
      partnerId,
      email: CUSTOMER_EMAIL,
      askCode: (kind) =>
        codeFromMailbox(
          CUSTOMER_EMAIL,
          kind === 'link' ? /^Your link code is: ([0-9]{6})$/m : /^Your redemption code is: ([0-9]{6})$/m,
        ),
    });

    // 5,000 issued, 2,000 taken, given back.
    expect(day.issued).toBe(5000);
    expect(day.balanceAfterRedeem).toBe(3000);
    expect(day.balanceAfterReversal).toBe(5000);
    // The cursor walk reads each visit recorded before it exactly once, newest first (all recorded
    // now, so ties on the date fall to the higher id), whatever arrived between pages.
    const read = day.pages.flat();
    const expected = [...day.visitIds].sort((a, b) => b - a);
    expect(read.filter((id) => day.visitIds.includes(id))).toEqual(expected);
    expect(new Set(read).size).toBe(read.length);
    expect(day.pages[0]).toHaveLength(2);
  }, 120_000);
});
