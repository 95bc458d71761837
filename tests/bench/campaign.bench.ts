/**
 * `npm run bench:campaign` (issue 35, "Speed and size"; docs/decisions/070, "Speed at 100,000"): a
 * campaign of 100,000 customers against the server built as `npm run build` builds it and run as
 * `npm run start:prod` runs it (plain node, NODE_ENV=production), on PostgreSQL (TEST_DATABASE_URL or
 * the local server, a database of its own) and on PGlite.
 *
 * Seeded set-based while no server runs (PGlite is one process's files): one partner, CUSTOMERS
 * customers each with a visit there yesterday above its minimum spend and a confirmed link (the
 * `eligible` segment names them all), 1% more that the preview skips (blocked, or not linked), a few
 * other campaigns for the list, and a webhook endpoint of the partner on a receiver in this process
 * (every reward queues its `reward.issued` message, and the server's sender delivers them meanwhile,
 * as in production; BENCH_CAMPAIGN_WEBHOOKS=0 leaves the endpoint out).
 *
 * Prints: the preview (first and best of 3), the submit (it fixes the segment), the run from submit
 * to `done` (the campaign's own submittedAt to finishedAt) and rewards per second, the server's peak
 * RSS (VmHWM) over it all, and the campaign list (GET /admin/campaigns) timed one request after
 * another while the run goes, p50/p95/max. Then checks in SQL that every customer holds exactly one
 * reward with its ledger entry, event and delivery. Goals (issue 35): preview ≤ 5 s, issue ≤ 2 min,
 * peak RSS ≤ 250 MiB, list p95 < 200 ms during the run, on PostgreSQL on a 2-core machine. Timings
 * never fail the bench.
 *
 * BENCH_CAMPAIGN_CUSTOMERS changes the size (100,000); BENCH_CAMPAIGN_PGLITE_CUSTOMERS the PGlite size
 * (the same by default); BENCH_CAMPAIGN_TARGETS=PostgreSQL (or PGlite) runs one only.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { openDatabase, runOnce } from '../../server/db/client';
import { executeRows } from '../../server/db/rows';
import { classifiedSql } from '../../server/domain/campaigns';
import { bearerOf, peakRssMiB } from '../setup/customer-import';
import { buildServer, type ServerProcess, scratchDir, startServerProcess, tinySpaDir } from '../setup/faults';
import { figure } from './figures';
import { apiCall, EXPLAIN, pct } from './support';

const CUSTOMERS = Number(process.env.BENCH_CAMPAIGN_CUSTOMERS ?? 100_000);
const PGLITE_CUSTOMERS = Number(process.env.BENCH_CAMPAIGN_PGLITE_CUSTOMERS ?? CUSTOMERS);
const WEBHOOKS = process.env.BENCH_CAMPAIGN_WEBHOOKS !== '0';
const TARGETS = (process.env.BENCH_CAMPAIGN_TARGETS ?? 'PostgreSQL,PGlite').split(',').map((s) => s.trim());
const ADMIN = { email: 'bench-campaign@rewardclub.test', password: 'Bench#Campaign2026' };
const bench = 'campaign';
const AMOUNT = 1_000;

/** A till that answers every webhook 204 at once: the sender's work is real, the receiver's is nil. */
const received = { count: 0 };
const till = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    received.count++;
    res.writeHead(204).end();
  });
});
await new Promise<void>((resolve) => till.listen(0, '127.0.0.1', resolve));
const tillUrl = `http://127.0.0.1:${(till.address() as { port: number }).port}/hooks`;

const built = buildServer();
process.on('exit', () => rmSync(built.dir, { recursive: true, force: true }));

type CampaignView = {
  id: number;
  state: string;
  issued: number;
  skipped: number;
  total: number | null;
  submittedAt: string | null;
  finishedAt: string | null;
};

/** The data, straight into the database while no server runs. */
async function seed(open: () => ReturnType<typeof openDatabase>, size: number): Promise<number> {
  const database = await open();
  const { db } = database;
  try {
    const t0 = performance.now();
    const [partner] = await executeRows<{ id: number }>(
      db,
      sql`insert into partners (first_name, last_name, email, phone, organization_name, address, min_spend_to_qualify)
          values ('Bisi', 'Adeyemi', 'campaigns@partner.test', '08031234567', 'Bench Kitchen', '1 Allen Avenue, Ikeja', 10000)
          returning id`,
    );
    const p = partner!.id;
    // `size` customers to reward, then 1% more: every 200th of those blocked, the rest not linked.
    const extra = Math.ceil(size / 100);
    await db.execute(sql`insert into customers (first_name, last_name, email, phone, address, account_status)
        select (array['Adebayo','Chiamaka','Emeka','Funmilayo','Ibrahim','Ngozi'])[1 + g % 6],
          (array['Okonkwo','Bello','Eze','Okafor','Lawal','Obi'])[1 + (g * 7) % 6] || g,
          'campaign' || g || '@mail.test', '0806' || lpad((g % 10000000)::text, 7, '0'),
          g || ' Bode Thomas Street, Surulere, Lagos',
          case when g > ${size} and g % 2 = 0 then 'BLOCKED' else 'ACTIVE' end
        from generate_series(1, ${size + extra}) g`);
    // One visit yesterday above the minimum spend: eligible today (the 30 Lagos days up to today).
    await db.execute(sql`insert into visits (partner_id, customer_id, attendant_name, visit_date, total_amount, created_at)
        select ${p}, id, 'Kemi', now() - interval '1 day', 12000, now() - interval '1 day'
        from customers where email like 'campaign%@mail.test'`);
    await db.execute(sql`insert into customer_links (partner_id, customer_id, requested, state, confirmed_at)
        select ${p}, id, 'member:' || id, 'CONFIRMED', now() from customers
        where email like 'campaign%@mail.test' and (id <= ${size} or account_status = 'BLOCKED')`);
    // Other campaigns, so the list has a page to show.
    const [admin] = await executeRows<{ id: number }>(
      db,
      sql`select id from users where email = ${ADMIN.email}`,
    );
    await db.execute(sql`insert into campaigns (name, partner_id, reward_type, issued_amount, title, description,
          segment, created_by, actor)
        select 'Earlier campaign ' || g, ${p}, 'GIFTCARD', 500, 'Thanks', 'An earlier campaign',
          '{"kind":"eligible"}'::jsonb, ${admin!.id},
          jsonb_build_object('id', ${admin!.id}::int, 'type', 'ADMIN', 'name', 'Bench Root', 'organization', 'Reward Club')
        from generate_series(1, 24) g`);
    if (WEBHOOKS)
      await db.execute(sql`insert into webhook_endpoints (url, events, partner_id, secret)
          values (${tillUrl}, array['reward.issued', 'campaign.completed'], ${p}, 'whsec_YmVuY2hiZW5jaGJlbmNoYmVuY2hiZW5jaA==')`);
    for (const table of ['customers', 'visits', 'customer_links', 'campaigns'])
      await db.execute(sql.raw(`vacuum analyze ${table}`));
    console.log(`seeded ${size} + ${extra} customers in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    return p;
  } finally {
    await database.close();
  }
}

/** What the database holds of the campaign: every count should be `size`. */
async function check(
  open: () => ReturnType<typeof openDatabase>,
  campaignId: number,
  partnerId: number,
  size: number,
) {
  const database = await open();
  try {
    const [row] = await executeRows<Record<string, number>>(
      database.db,
      sql`select
        (select count(*) from rewards where campaign_id = ${campaignId})::int as rewards,
        (select count(distinct customer_id) from rewards where campaign_id = ${campaignId})::int as customers,
        (select count(*) from reward_ledger l join rewards r on r.id = l.reward_id
          where r.campaign_id = ${campaignId} and l.kind = 'ISSUE' and l.amount = ${AMOUNT})::int as ledger,
        (select count(*) from events e join rewards r on e.entity = 'reward' and e.entity_id = r.id::text
          where r.campaign_id = ${campaignId})::int as events,
        (select count(*) from webhook_deliveries where event_type = 'reward.issued')::int as deliveries,
        (select count(*) from webhook_deliveries where event_type = 'reward.issued' and status = 'succeeded')::int as delivered`,
    );
    const r = row!;
    const wrong = (['rewards', 'customers', 'ledger', 'events'] as const).filter(
      (k) => Number(r[k]) !== size,
    );
    if (WEBHOOKS && Number(r.deliveries) !== size) wrong.push('deliveries' as never);
    if (wrong.length) throw new Error(`the run did not write one of each per customer: ${JSON.stringify(r)}`);
    if (EXPLAIN) {
      // The preview's count, as GET .../preview runs it (one statement for the whole segment).
      const x = {
        campaignId,
        partnerId,
        minSpendToQualify: 10_000,
        segment: { kind: 'eligible' as const },
        now: new Date(),
      };
      const plan = await executeRows<Record<string, string>>(
        database.db,
        sql`explain (analyze, costs off) ${classifiedSql(x)} select reason, count(*)::int as n from classified group by reason`,
      );
      console.log(`\n-- the preview's count:\n${plan.map((p) => Object.values(p)[0]).join('\n')}`);
    }
    return { delivered: Number(r.delivered), deliveries: Number(r.deliveries) };
  } finally {
    await database.close();
  }
}

async function measure(target: 'PGlite' | 'PostgreSQL', databaseUrl: string, size: number) {
  const dir = scratchDir('rc-bench-campaign-');
  const env = {
    NODE_ENV: 'production',
    DATABASE_URL: databaseUrl,
    DATA_DIR: dir,
    SPA_DIR: tinySpaDir(dir),
    JWT_SECRET: randomBytes(32).toString('hex'),
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    // The till is on this machine.
    WEBHOOK_ALLOW_PRIVATE: 'true',
  };
  const open = () =>
    openDatabase(
      databaseUrl
        ? { kind: 'postgres', url: databaseUrl, max: 2 }
        : { kind: 'pglite', dataDir: join(dir, 'db') },
    );
  let server: ServerProcess | null = null;
  received.count = 0;
  try {
    // A first start migrates and makes the admin; then the data goes in while no server runs.
    server = await startServerProcess(env, { built: built.main });
    await server.stop();
    const partnerId = await seed(open, size);
    server = await startServerProcess(env, { built: built.main });
    const base = server.url;
    const auth = await bearerOf(base, ADMIN.email, ADMIN.password);
    const idle = peakRssMiB(server.pid);

    const draft = await apiCall<CampaignView>(base, auth, 'POST', '/admin/campaigns', {
      name: `Bench thank-you ${size}`,
      partnerId,
      reward: {
        rewardType: 'GIFTCARD',
        issuedAmount: AMOUNT,
        title: 'Thank you',
        description: 'For being with us',
      },
      segment: { kind: 'eligible' },
    });
    const previews: number[] = [];
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      const p = await apiCall<{ count: number; skipped: { count: number } }>(
        base,
        auth,
        'GET',
        `/admin/campaigns/${draft.id}/preview`,
      );
      previews.push((performance.now() - t0) / 1000);
      if (p.count !== size || p.skipped.count !== Math.ceil(size / 100))
        throw new Error(`the preview counts ${p.count} (${p.skipped.count} skipped), not ${size}`);
    }
    figure({
      bench,
      name: `preview of ${size} customers (eligible segment), first request`,
      value: previews[0]!,
      unit: 's',
      budget: target === 'PostgreSQL' ? { max: 5 } : null,
      target,
    });
    figure({
      bench,
      name: `preview of ${size} customers, best of 3`,
      value: Math.min(...previews),
      unit: 's',
      budget: target === 'PostgreSQL' ? { max: 5 } : null,
      target,
    });

    // The list, one request after another, while the run goes (and a few before it starts).
    let running = true;
    const listMs: number[] = [];
    const rssSamples: number[] = [];
    // An error ends the listing and is thrown after the run (never an unhandled rejection).
    const lister = (async () => {
      while (running) {
        const t0 = performance.now();
        const page = await apiCall<{ records: unknown[] }>(base, auth, 'GET', '/admin/campaigns?pageSize=20');
        listMs.push(performance.now() - t0);
        if (page.records.length === 0) throw new Error('the campaign list is empty');
        await new Promise((r) => setTimeout(r, 50));
      }
    })().then(
      () => null,
      (e: unknown) => e,
    );

    const t0 = performance.now();
    const submitted = await apiCall<CampaignView>(base, auth, 'POST', `/admin/campaigns/${draft.id}/submit`);
    const submitSeconds = (performance.now() - t0) / 1000;
    if (submitted.state !== 'running') throw new Error(`submitted: ${JSON.stringify(submitted)}`);
    let done: CampaignView;
    for (;;) {
      done = await apiCall<CampaignView>(base, auth, 'GET', `/admin/campaigns/${draft.id}`);
      const rss = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'))?.[1];
      if (rss) rssSamples.push(Number(rss) / 1024);
      if (done.state !== 'running') break;
      if (performance.now() - t0 > 30 * 60_000)
        throw new Error(`the run did not end in 30 min: ${JSON.stringify(done)}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    const wallSeconds = (performance.now() - t0) / 1000;
    running = false;
    const listError = await lister;
    if (listError) throw listError;
    if (done.state !== 'done' || done.issued !== size)
      throw new Error(`the run ended ${done.state} with ${done.issued} of ${size}`);
    const runSeconds = (Date.parse(done.finishedAt!) - Date.parse(done.submittedAt!)) / 1000;
    const peak = peakRssMiB(server.pid);
    const sentByEnd = received.count;
    await server.stop();
    server = null;
    const db = await check(open, draft.id, partnerId, size);

    figure({
      bench,
      name: `submit (fixes the segment of ${size + Math.ceil(size / 100)})`,
      value: submitSeconds,
      unit: 's',
      budget: null,
      target,
    });
    figure({
      bench,
      name: `issue ${size} rewards: submit to done (submittedAt..finishedAt; ${wallSeconds.toFixed(1)} s as polled)`,
      value: runSeconds,
      unit: 's',
      budget: target === 'PostgreSQL' ? { max: 120 } : null,
      target,
    });
    figure({
      bench,
      name: 'rewards issued per second',
      value: size / runSeconds,
      unit: 'rewards/s',
      budget: null,
      target,
    });
    const sorted = [...listMs].sort((a, b) => a - b);
    for (const p of [50, 95] as const)
      figure({
        bench,
        name: `campaign list during the run (${sorted.length} requests one after another), p${p}`,
        value: pct(sorted, p),
        unit: 'ms',
        budget: p === 95 && target === 'PostgreSQL' ? { max: 200 } : null,
        target,
      });
    figure({
      bench,
      name: 'campaign list during the run, max',
      value: sorted.at(-1) ?? 0,
      unit: 'ms',
      budget: null,
      target,
    });
    figure({
      bench,
      name: `server peak RSS (VmHWM) over preview, submit and run (${idle.toFixed(0)} MiB after start and sign-in; VmRSS sampled up to ${Math.max(...rssSamples).toFixed(0)} MiB)`,
      value: peak,
      unit: 'MiB',
      budget: target === 'PostgreSQL' ? { max: 250 } : null,
      target,
    });
    if (WEBHOOKS)
      console.log(
        `${target}: reward.issued deliveries ${db.deliveries}; ${sentByEnd} received by the till by the end of the run, ${db.delivered} marked delivered when the server stopped`,
      );
  } finally {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

try {
  const pgServer = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
  let pgAvailable = TARGETS.includes('PostgreSQL');
  if (pgAvailable)
    try {
      await runOnce(pgServer, 'select 1', 3_000);
    } catch {
      pgAvailable = false;
      console.log('No PostgreSQL answered (set TEST_DATABASE_URL): PGlite only.');
    }
  if (pgAvailable) {
    const name = `rc_bench_campaign_${randomBytes(4).toString('hex')}`;
    await runOnce(pgServer, `create database "${name}"`);
    const url = new URL(pgServer);
    url.pathname = `/${name}`;
    try {
      await measure('PostgreSQL', url.toString(), CUSTOMERS);
    } finally {
      await runOnce(pgServer, `drop database if exists "${name}" with (force)`);
    }
  }
  if (TARGETS.includes('PGlite')) await measure('PGlite', '', PGLITE_CUSTOMERS);
} finally {
  till.close();
}
