/**
 * Partner benchmark: 5,000 partners, 100,000 customers, 1,000,000 visits (one item each) and
 * 100,000 rewards seeded with generate_series, then the partner list with search, the client list,
 * the visits tab of a busy partner, eligible users for a date, points and partner analytics through
 * app.request(): p50/p99 in ms on PGlite and on PostgreSQL (TEST_DATABASE_URL, else a local server at
 * postgres://postgres@127.0.0.1:5432/postgres if one answers). Prints figures; never fails on timings.
 *
 * `npm run bench:partners` (add `-- --explain` for the plans). Sizes: BENCH_VISITS (both targets),
 * BENCH_PGLITE_VISITS (PGlite only), BENCH_REWARDS (default 100,000), BENCH_RUNS (runs per case, default 30).
 * BENCH_KEEP_DB=<postgres url> (PostgreSQL only): seed that database once, keep it, and on later runs
 * only migrate and time it (the 10M data set takes many minutes to seed).
 * After the timings, every list and figure it timed is compared with its direct query
 * (scale-figures.ts): a difference ends the bench with an error.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../../server/db/client';
import { executeRows } from '../../server/db/rows';
import { analyzeSeeded, BUSY, LARGE, NOW, seedLargeData } from './large-seed';
import { checkFigures } from './scale-figures';
import {
  type Case,
  caseFigures,
  EXPLAIN,
  pgliteTarget,
  postgresTarget,
  printPlans,
  signedInApp,
  type Target,
  timeCases,
} from './support';

const { partners: PARTNERS, customers: CUSTOMERS } = LARGE;
const REWARDS = Number(process.env.BENCH_REWARDS ?? 100_000);
const VISITS = Number(process.env.BENCH_VISITS ?? 1_000_000);
const PGLITE_VISITS = Number(process.env.BENCH_PGLITE_VISITS ?? VISITS);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const DATE = '2026-03-01';

const CASES: Case[] = [
  { name: 'partners: page 1 (newest first)', path: '/admin/partners?pageSize=10' },
  { name: 'partners: search "kitchen" (10%)', path: '/admin/partners?searchText=kitchen' },
  { name: 'partners: search "partner4242" (rare)', path: '/admin/partners?searchText=partner4242' },
  {
    name: 'partners: sort organizationName, page 50',
    path: '/admin/partners?sortBy=organizationName&pageNumber=50',
  },
  { name: 'partners: stats header', path: '/admin/partners/stats' },
  { name: 'clients: page 1', path: '/admin/user/customers?pageSize=10' },
  { name: 'clients: search "ngozi"', path: '/admin/user/customers?searchText=ngozi' },
  { name: 'clients: sort lastName, page 100', path: '/admin/user/customers?sortBy=lastName&pageNumber=100' },
  { name: 'visits tab: busy partner, page 1', path: `/admin/partners/visits?partnerId=${BUSY}` },
  {
    name: 'visits tab: busy, sort totalAmount desc',
    path: `/admin/partners/visits?partnerId=${BUSY}&sortBy=totalAmount&sortOrder=desc`,
  },
  {
    name: 'visits tab: busy, sort userName',
    path: `/admin/partners/visits?partnerId=${BUSY}&sortBy=userName`,
  },
  { name: 'visits tab: busy, page 200', path: `/admin/partners/visits?partnerId=${BUSY}&pageNumber=200` },
  { name: 'visits tab: typical partner', path: '/admin/partners/visits?partnerId=2042' },
  {
    name: 'eligible users: busy, date',
    path: `/admin/partners/visits/reward-eligible-users?partnerId=${BUSY}&date=${DATE}`,
  },
  {
    name: 'eligible users: busy, by totalSpent',
    path: `/admin/partners/visits/reward-eligible-users?partnerId=${BUSY}&date=${DATE}&sortBy=totalSpent&sortOrder=desc`,
  },
  {
    name: 'eligible users: typical partner',
    path: `/admin/partners/visits/reward-eligible-users?partnerId=2042&date=${DATE}`,
  },
  { name: 'points: busy partner', path: `/admin/partners/visits/eligible-users-bypoints?partnerId=${BUSY}` },
  { name: 'analytics: busy partner', path: `/admin/partners/stats/partner?partnerId=${BUSY}` },
  { name: 'analytics: typical partner', path: '/admin/partners/stats/partner?partnerId=2042' },
  { name: 'rewards tab: busy partner', path: `/admin/partners/rewards?partnerId=${BUSY}` },
  // The weekly charts (decision 018): 12 weeks of rewards and ledger rows, the outstanding balance.
  { name: 'weekly charts: club-wide', path: '/admin/partners/stats/reward/weekly' },
  { name: 'weekly charts: busy partner', path: `/admin/partners/stats/partner/weekly?partnerId=${BUSY}` },
  { name: 'weekly charts: typical partner', path: '/admin/partners/stats/partner/weekly?partnerId=2042' },
];

const window = { start: '2026-01-30T23:00:00.000Z', end: '2026-03-01T23:00:00.000Z' };
/** The SQL behind some cases (same expressions as server/routes), for EXPLAIN. */
const EXPLAINED: [string, string][] = [
  [
    'partners search "kitchen"',
    `select id from partners where deleted_at is null and account_status = 'ACTIVE' and (organization_name || ' ' || first_name || ' ' || last_name || ' ' || email) ilike '%kitchen%' order by created_at desc, id desc limit 10`,
  ],
  [
    'partners sort organizationName page 50',
    `select id from partners where deleted_at is null and account_status = 'ACTIVE' order by lower(organization_name) asc, id asc limit 10 offset 490`,
  ],
  [
    'visits tab busy page 1',
    `select id from visits where partner_id = ${BUSY} order by visit_date desc, id desc limit 10`,
  ],
  ['visits tab busy count', `select count(*) from visits where partner_id = ${BUSY}`],
  [
    'visits tab busy by totalAmount',
    `select id from visits where partner_id = ${BUSY} order by total_amount desc, id desc limit 10`,
  ],
  [
    'eligible users busy (page with its window count)',
    `with spend as (select customer_id, sum(total_amount) as total from visits where partner_id = ${BUSY} and visit_date >= '${window.start}' and visit_date < '${window.end}' group by customer_id)
     select customers.id, spend.total, count(*) over () from spend
     cross join lateral (select c.id, c.first_name, c.last_name, c.email, c.deleted_at from customers c where c.id = spend.customer_id offset 0) customers
     where customers.deleted_at is null order by lower(customers.first_name || ' ' || customers.last_name), customers.id limit 10`,
  ],
  [
    'points busy (page with its window count)',
    `with earned as (select customer_id, sum(floor(total_amount / 100))::bigint as points from visits where partner_id = ${BUSY} group by customer_id),
     claimed as (select customer_id, sum(points_claimed)::bigint as points from rewards where partner_id = ${BUSY} and points_claimed > 0 group by customer_id),
     balance as (select e.customer_id, e.points - coalesce(c.points, 0) as unclaimed from earned e left join claimed c on c.customer_id = e.customer_id)
     select customers.id, balance.unclaimed, count(*) over () from balance
     cross join lateral (select c.id, c.first_name, c.last_name, c.email, c.deleted_at from customers c where c.id = balance.customer_id offset 0) customers
     where balance.unclaimed > 0 and customers.deleted_at is null order by balance.unclaimed desc, customers.id desc limit 10`,
  ],
  // The weekly charts at NOW (decision 018 and its follow-up): the 84 Lagos days of the 12 weeks from
  // the per-day rollup, and the live outstanding balance.
  [
    'weekly charts club-wide: issued and redeemed (reward_activity_by_day_day_idx)',
    `select (d.day - '2025-12-15'::date) / 7 as w, sum(d.ic)::int, sum(d.ia)::numeric(14, 2)::text, sum(d.rc)::int, sum(d.ra)::numeric(14, 2)::text
     from (select a.day, sum(a.issued_count) as ic, sum(a.issued_amount) as ia, sum(a.redeemed_count) as rc, sum(a.redeemed_amount) as ra
       from reward_activity_by_day a where a.day >= '2025-12-15'::date and a.day < '2026-03-09'::date group by a.day) d group by 1`,
  ],
  [
    'weekly charts busy partner: issued and redeemed (primary key range)',
    `select (d.day - '2025-12-15'::date) / 7 as w, sum(d.ic)::int, sum(d.ia)::numeric(14, 2)::text, sum(d.rc)::int, sum(d.ra)::numeric(14, 2)::text
     from (select a.day, sum(a.issued_count) as ic, sum(a.issued_amount) as ia, sum(a.redeemed_count) as rc, sum(a.redeemed_amount) as ra
       from reward_activity_by_day a where a.partner_id = ${BUSY} and a.day >= '2025-12-15'::date and a.day < '2026-03-09'::date group by a.day) d group by 1`,
  ],
  [
    'weekly charts: outstanding club-wide (rewards_giftcard_open_idx)',
    `select count(*), sum(balance) from rewards where reward_type = 'GIFTCARD' and status = 'Active'
       and (expiry_date is null or expiry_date > '2026-03-02T09:00:00Z')`,
  ],
  [
    'weekly charts: outstanding busy partner (rewards_giftcard_open_idx)',
    `select count(*), sum(balance) from rewards where reward_type = 'GIFTCARD' and status = 'Active'
       and (expiry_date is null or expiry_date > '2026-03-02T09:00:00Z') and partner_id = ${BUSY}`,
  ],
  [
    'visits tab busy by userName',
    `select visits.id from visits join customers on customers.id = visits.customer_id where visits.partner_id = ${BUSY} order by lower(customers.first_name || ' ' || customers.last_name), visits.id limit 10`,
  ],
];

/** Each target seeds its own number of visits (PGlite may be given fewer). */
type SizedTarget = Target & { visits: number };

async function run(target: SizedTarget) {
  const t0 = performance.now();
  const database = await target.open();
  const mailDir = mkdtempSync(join(tmpdir(), 'rc-bench-mail-'));
  try {
    let last = t0;
    const steps: string[] = [];
    const sizes = { ...LARGE, visits: target.visits, rewards: REWARDS, events: 0 };
    const [seededBefore] = await executeRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from visits`,
    );
    if (Number(seededBefore?.n) > 0) steps.push(`kept ${Number(seededBefore?.n).toLocaleString()} visits`);
    else
      await seedLargeData(database.db, sizes, (step) => {
        const at = performance.now();
        steps.push(`${step} ${((at - last) / 1000).toFixed(1)} s`);
        last = at;
      });
    await analyzeSeeded(database.db);
    // The rollups, filled by the triggers during the seed (migrations 0011 and 0021).
    await database.db.execute(sql`vacuum analyze reward_activity_by_day`);
    await database.db.execute(sql`vacuum analyze customer_points`);
    const seeded = performance.now();
    const signedIn = await signedInApp(database.db, mailDir, () => NOW);

    console.log(
      `\n${target.name}: seeded ${PARTNERS.toLocaleString()} partners, ${CUSTOMERS.toLocaleString()} customers, ${target.visits.toLocaleString()} visits (+ items), ${REWARDS.toLocaleString()} rewards in ${((seeded - t0) / 1000).toFixed(1)} s (${steps.join(', ')}, then vacuum analyze); ${RUNS} runs per case after 3 warm-ups`,
    );
    const rows = await timeCases(signedIn, CASES, RUNS);
    console.table(rows);
    caseFigures('partners', target.name, rows);
    // Not a timing: the lists and figures equal their direct queries on this data set (issue 36).
    await checkFigures(database.db, signedIn, {
      partners: [BUSY, 2042],
      now: NOW,
      search: 'ngozi',
      date: DATE,
    });

    if (EXPLAIN) await printPlans(database.db, target.name, EXPLAINED);
  } finally {
    await database.close();
    rmSync(mailDir, { recursive: true, force: true });
  }
}

const targets: SizedTarget[] = [];
if (process.env.BENCH_SKIP_PGLITE !== '1') targets.push({ ...pgliteTarget, visits: PGLITE_VISITS });
const kept = process.env.BENCH_KEEP_DB;
const pg: Target | null = kept
  ? {
      name: 'PostgreSQL',
      open: async () => ({ ...(await openDatabase({ kind: 'postgres', url: kept, max: 10 })), url: kept }),
    }
  : await postgresTarget();
if (pg) targets.push({ ...pg, visits: VISITS });
else console.log('No PostgreSQL answered (set TEST_DATABASE_URL); PGlite only.');
for (const target of targets) await run(target);
