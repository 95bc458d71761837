import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { bearerOf } from '../../tests/setup/customer-import';
import {
  createScratchDatabase,
  FAULTS_ENABLED,
  type ServerProcess,
  scratchDir,
  startServerProcess,
  tinySpaDir,
} from '../../tests/setup/faults';
import { type Database, openDatabase } from '../db/client';
import { executeRows } from '../db/rows';

/**
 * Issue 35: "exactly one reward per customer per campaign even when the server is killed half way
 * and started again". The real server (server/main.ts) on a real database (a PGlite data dir, or a
 * scratch PostgreSQL database when TEST_DATABASE_URL is set): a campaign of CUSTOMERS linked
 * customers is submitted; while its rewards are being issued the server is SIGKILLed; started again
 * on the same data, the campaign finishes (after the 15-s lease runs out) and every customer holds
 * exactly one of its rewards, with one ISSUE ledger entry, one event and one `reward.issued`
 * message each, and one `campaign.completed`. Runs with HARDENING_FAULTS=1 (CI sets it), like
 * import-kill.test.ts.
 */
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const kind = onPostgres ? 'postgres' : 'pglite';
const ADMIN = { email: 'campaigns@rewardclub.test', password: 'Campaign#Kill2026' };
/**
 * Enough that the kill lands half way on either database (a poll is answered between two batches:
 * 1,000 customers each on PostgreSQL, 250 on PGlite, where the batch holds the server's thread).
 */
const CUSTOMERS = onPostgres ? 6_000 : 2_500;

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const clean of cleanups.reverse()) await clean();
});

type CampaignView = { id: number; state: string; issued: number; skipped: number; total: number | null };

async function call<T>(url: string, headers: Record<string, string>, method = 'GET', body?: unknown) {
  for (let attempt = 1; ; attempt++) {
    try {
      const res = await fetch(url, {
        method,
        headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${text}`);
      return (JSON.parse(text) as { data: T }).data;
    } catch (e) {
      // A PGlite server holding its loop may close a keep-alive socket as a poll goes out.
      const code = (e as { cause?: { code?: string } }).cause?.code;
      if (method !== 'GET' || attempt >= 3 || (code !== 'ECONNRESET' && code !== 'UND_ERR_SOCKET')) throw e;
    }
  }
}

async function waitFor(
  base: string,
  headers: Record<string, string>,
  id: number,
  until: (c: CampaignView) => boolean,
  { timeoutMs = 240_000, everyMs = 100 } = {},
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const c = await call<CampaignView>(`${base}/api/v1/admin/campaigns/${id}`, headers);
    if (until(c)) return c;
    if (Date.now() > deadline)
      throw new Error(`campaign ${id}: not there in ${timeoutMs} ms: ${JSON.stringify(c)}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** What the database holds of the campaign. */
async function snapshot(db: Database['db'], campaignId: number) {
  const one = async (query: ReturnType<typeof sql>) =>
    Number((await executeRows<{ n: number }>(db, query))[0]?.n ?? 0);
  return {
    rewards: await one(sql`select count(*)::int as n from rewards where campaign_id = ${campaignId}`),
    /** Every reward at the partner, the campaign's or not (the partner has no other). */
    atPartner: await one(sql`select count(*)::int as n from rewards
      where partner_id = (select partner_id from campaigns where id = ${campaignId})`),
    allLedger: await one(sql`select count(*)::int as n from reward_ledger`),
    customers: await one(
      sql`select count(distinct customer_id)::int as n from rewards where campaign_id = ${campaignId}`,
    ),
    ledger: await one(sql`select count(*)::int as n from reward_ledger where kind = 'ISSUE'
      and reward_id in (select id from rewards where campaign_id = ${campaignId})`),
    events: await one(sql`select count(*)::int as n from events where entity = 'reward'
      and entity_id in (select id::text from rewards where campaign_id = ${campaignId})`),
    issuedMessages:
      await one(sql`select count(*)::int as n from webhook_deliveries where event_type = 'reward.issued'
      and (payload->'data'->>'rewardId')::int in (select id from rewards where campaign_id = ${campaignId})`),
    completedMessages: await one(sql`select count(*)::int as n from webhook_deliveries
      where event_type = 'campaign.completed' and (payload->'data'->>'campaignId')::int = ${campaignId}`),
    counted: (
      await executeRows<{ issued: number; skipped: number; total: number; state: string }>(
        db,
        sql`select issued, skipped, total, state from campaigns where id = ${campaignId}`,
      )
    )[0],
  };
}

describe.runIf(FAULTS_ENABLED)(`a campaign killed half way (${kind})`, () => {
  it('SIGKILL while rewards are issued: started again, every customer holds exactly one reward', async () => {
    const dir = scratchDir('rc-campaign-kill-');
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    let databaseUrl = '';
    if (onPostgres) {
      const scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL!, 'rc_campaign_kill');
      cleanups.push(scratch.drop);
      databaseUrl = scratch.url;
    }
    const open = () =>
      openDatabase(
        onPostgres
          ? { kind: 'postgres', url: databaseUrl, max: 2 }
          : { kind: 'pglite', dataDir: join(dir, 'db') },
      );
    const env = {
      DATA_DIR: dir,
      DATABASE_URL: databaseUrl,
      SPA_DIR: tinySpaDir(dir),
      JWT_SECRET: 'campaign-kill-secret-0123456789abcdef0123456789',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
    };
    // A first start migrates and makes the admin; the data goes in while no server runs (PGlite is
    // one process's files).
    let server: ServerProcess = await startServerProcess(env);
    await server.stop();
    let database = await open();
    const [partner] = await executeRows<{ id: number }>(
      database.db,
      sql`insert into partners (first_name, last_name, email, phone, organization_name, address, min_spend_to_qualify)
            values ('Cass', 'Okafor', 'kill@partners.test', '08031234567', 'Kill Kitchen', '1 Allen Avenue', 10000)
            returning id`,
    );
    await database.db.execute(sql`insert into customers (first_name, last_name, email)
        select 'Ada', 'Kill' || g, 'kill' || g || '@mail.test' from generate_series(1, ${CUSTOMERS}) g`);
    await database.db.execute(sql`insert into customer_links (partner_id, customer_id, requested, state, confirmed_at)
        select ${partner!.id}, id, 'member:' || id, 'CONFIRMED', now() from customers where email like 'kill%@mail.test'`);
    // A webhook endpoint of the partner: each reward queues its `reward.issued` message.
    await database.db.execute(sql`insert into webhook_endpoints (url, events, partner_id, secret)
        values ('https://till.example.com/hooks', array['reward.issued', 'campaign.completed'], ${partner!.id}, 'whsec_a2lsbGtpbGxraWxs')`);
    await database.close();

    server = await startServerProcess(env);
    cleanups.push(() => server.kill());
    let auth = await bearerOf(server.url, ADMIN.email, ADMIN.password);
    const created = await call<{ id: number }>(`${server.url}/api/v1/admin/campaigns`, auth, 'POST', {
      name: 'Kill test',
      partnerId: partner!.id,
      reward: { rewardType: 'GIFTCARD', issuedAmount: 1000, title: 'Thanks', description: 'A test' },
      segment: { kind: 'filter' },
    });
    const submitted = await call<CampaignView>(
      `${server.url}/api/v1/admin/campaigns/${created.id}/submit`,
      auth,
      'POST',
    );
    expect(submitted).toMatchObject({ state: 'running', total: CUSTOMERS });

    // Half way: some rewards issued, not all.
    const seen = await waitFor(server.url, auth, created.id, (c) => c.issued > 0, { everyMs: 5 });
    await server.kill();
    expect(server.alive()).toBe(false);

    database = await open();
    const torn = await snapshot(database.db, created.id);
    await database.close();
    // Committed batches are whole: the counts are the rewards, each with its ledger entry, event, message.
    expect(torn.rewards).toBeGreaterThan(0);
    expect(torn.rewards).toBeLessThan(CUSTOMERS);
    expect(torn.counted).toMatchObject({ state: 'running', issued: torn.rewards });
    expect([
      torn.customers,
      torn.ledger,
      torn.events,
      torn.issuedMessages,
      torn.atPartner,
      torn.allLedger,
    ]).toEqual(Array(6).fill(torn.rewards));
    expect(torn.completedMessages).toBe(0);

    // Started again on the same data: the next lease resumes the campaign.
    server = await startServerProcess(env);
    auth = await bearerOf(server.url, ADMIN.email, ADMIN.password);
    const done = await waitFor(server.url, auth, created.id, (c) => c.state === 'done', { everyMs: 500 });
    await server.stop();
    expect(done).toMatchObject({ issued: CUSTOMERS, skipped: 0, total: CUSTOMERS });

    database = await open();
    const end = await snapshot(database.db, created.id);
    await database.close();
    expect(end).toMatchObject({
      rewards: CUSTOMERS,
      atPartner: CUSTOMERS,
      allLedger: CUSTOMERS,
      customers: CUSTOMERS,
      ledger: CUSTOMERS,
      events: CUSTOMERS,
      issuedMessages: CUSTOMERS,
      completedMessages: 1,
    });
    console.log(
      `[figure] campaign SIGKILL (${kind}): ${torn.rewards} of ${CUSTOMERS} rewards at the kill (seen ${seen.issued}); after the restart ${end.rewards}, each customer once`,
    );
  }, 400_000);
});
