/**
 * Partner benchmark: 5,000 partners, 100,000 customers, 1,000,000 visits (one item each) and
 * 100,000 rewards seeded with generate_series, then the partner list with search, the client list,
 * the visits tab of a busy partner, eligible users for a date, points and partner analytics through
 * app.request(): p50/p99 in ms on PGlite and on PostgreSQL (TEST_DATABASE_URL, else a local server at
 * postgres://postgres@127.0.0.1:5432/postgres if one answers). Prints figures; never fails on timings.
 *
 * `npm run bench:partners` (add `-- --explain` for the plans). Sizes: BENCH_VISITS (both targets),
 * BENCH_PGLITE_VISITS (PGlite only), BENCH_RUNS (runs per case, default 30).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { ALL_PERMISSION_NAMES, SUPER_ADMIN_ROLE } from '../../contract/permissions';
import type { Db } from '../../server/db/client';
import { roles, users } from '../../server/db/schema';
import { createPasswordHasher, TEST_PASSWORD_HASHING } from '../../server/domain/passwords';
import {
  arr,
  BENCH_ADMIN,
  type Case,
  EXPLAIN,
  pgliteTarget,
  postgresTarget,
  printPlans,
  signedInApp,
  type Target,
  timeCases,
} from './support';

const PARTNERS = 5_000;
const CUSTOMERS = 100_000;
const REWARDS = 100_000;
const VISITS = Number(process.env.BENCH_VISITS ?? 1_000_000);
const PGLITE_VISITS = Number(process.env.BENCH_PGLITE_VISITS ?? VISITS);
/** Partner 1 is the busy one: every 20th visit (5%) and every 50th reward are there. */
const BUSY = 1;
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
/** Fixed "now" for the data (dates are relative to it), so every run seeds the same rows. */
const NOW = new Date('2026-03-02T09:00:00.000Z');
const DATE = '2026-03-01';

const FIRST = [
  'Adebayo',
  'Chiamaka',
  'Emeka',
  'Funmilayo',
  'Ibrahim',
  'Ngozi',
  'Oluwaseun',
  'Aisha',
  'Chinedu',
  'Yetunde',
  'Musa',
  'Amarachi',
  'Tunde',
  'Zainab',
  'Obinna',
  'Folake',
  'Usman',
  'Ifeoma',
  'Babatunde',
  'Halima',
];
const LAST = [
  'Adeyemi',
  'Okonkwo',
  'Bello',
  'Eze',
  'Abubakar',
  'Okafor',
  'Ogunleye',
  'Nwosu',
  'Lawal',
  'Obi',
  'Umeh',
  'Mohammed',
  'Chukwu',
  'Balogun',
  'Onyeka',
  'Suleiman',
  'Nnamdi',
  'Danjuma',
  'Ibekwe',
  'Akinola',
];
const PLACE = [
  'Eko',
  'Jollof',
  'Wuse',
  'Garden City',
  'Ikoyi',
  'Naija Fresh',
  'Calabar',
  'Maitama',
  'Bole',
  'Yaba',
  'Lekki',
  'Ajah',
  'Garki',
  'Woji',
  'Jabi',
  'Festac',
  'Magodo',
  'Asokoro',
  'Utako',
  'Surulere',
];
const KIND = [
  'Kitchen',
  'Grill House',
  'Supermarket',
  'Cinemas',
  'Fitness Club',
  'Spa',
  'Pharmacy',
  'Auto Care',
  'Cafe',
  'Fashion House',
];

async function seed(db: Db, visits: number, log: (step: string) => void) {
  const hasher = createPasswordHasher(TEST_PASSWORD_HASHING);
  const [superRole] = await db
    .insert(roles)
    .values({ name: SUPER_ADMIN_ROLE, permissions: [...ALL_PERMISSION_NAMES], builtIn: true })
    .returning({ id: roles.id });
  await db.insert(users).values({
    email: BENCH_ADMIN.email,
    passwordHash: await hasher.hash(BENCH_ADMIN.password),
    firstName: 'Bench',
    lastName: 'Root',
    roleId: superRole!.id,
  });
  const now = sql.raw(`'${NOW.toISOString()}'::timestamptz`);

  await db.execute(sql`insert into extended_services (title, description)
    select 'Service ' || g, 'Perk number ' || g || ' for Reward Club members' from generate_series(1, 20) g`);
  // Partner 1 (the busy one) is ACTIVE; every 10th partner is BLOCKED.
  await db.execute(sql`insert into partners (first_name, last_name, email, phone, organization_name, address,
      min_spend_to_qualify, account_status, created_at, updated_at)
    select (${arr(FIRST)})[1 + g % ${FIRST.length}], (${arr(LAST)})[1 + (g * 7) % ${LAST.length}],
      'contact' || g || '@partner' || g || '.com.ng', '0803' || lpad(((g::bigint * 7919) % 10000000)::text, 7, '0'),
      (${arr(PLACE)})[1 + g % ${PLACE.length}] || ' ' || (${arr(KIND)})[1 + (g / ${PLACE.length}) % ${KIND.length}] || ' ' || g,
      g || ' Allen Avenue, Ikeja, Lagos', 10000 + (g % 17) * 2500,
      case when g % 10 = 0 then 'BLOCKED' else 'ACTIVE' end,
      ${now} - (g % 700) * interval '1 day', ${now}
    from generate_series(1, ${PARTNERS}) g`);
  await db.execute(sql`insert into partner_extended_services (partner_id, extended_service_id)
    select p, 1 + (p * k) % 20 from generate_series(1, ${PARTNERS}) p, generate_series(1, 2) k
    on conflict do nothing`);
  log('partners');
  await db.execute(sql`insert into customers (first_name, last_name, email, phone, address, account_status,
      fiber_plan, fiber_speed_mbps, fiber_monthly_fee, fiber_status, fiber_renewal_date, created_at, updated_at)
    select (${arr(FIRST)})[1 + g % ${FIRST.length}], (${arr(LAST)})[1 + (g * 7 + g / ${FIRST.length}) % ${LAST.length}],
      'customer' || g || '@mail.ng', '0806' || lpad(((g::bigint * 104729) % 10000000)::text, 7, '0'),
      g || ' Bode Thomas Street, Surulere, Lagos', case when g % 14 = 13 then 'BLOCKED' else 'ACTIVE' end,
      'Fiber Home 50', 50, 25000, 'ACTIVE', ${now} + (g % 30) * interval '1 day',
      ${now} - (g % 900) * interval '1 day', ${now}
    from generate_series(1, ${CUSTOMERS}) g`);
  log('customers');
  // Visits over the last 365 days: 5% at the busy partner, the rest spread over the others;
  // amounts from ₦50 to ₦20,000.
  await db.execute(sql`insert into visits (partner_id, customer_id, attendant_name, visit_date, total_amount, created_at)
    select case when g % 20 = 0 then ${BUSY} else 2 + (g::bigint * 7919) % ${PARTNERS - 1} end,
      1 + (g::bigint * 104729) % ${CUSTOMERS}, (${arr(FIRST)})[1 + (g * 3) % ${FIRST.length}],
      ${now} - ((g * 37) % (365 * 24 * 60)) * interval '1 minute', ((g * 131) % 400 + 1) * 50,
      ${now} - ((g * 37) % (365 * 24 * 60)) * interval '1 minute'
    from generate_series(1, ${visits}) g`);
  log('visits');
  await db.execute(sql`insert into visit_items (visit_id, name, quantity, price)
    select id, 'Jollof rice with chicken', 1, total_amount from visits`);
  log('visit items');
  await db.execute(sql`insert into rewards (partner_id, customer_id, reward_type, reward_type_category, code, title,
      description, expiry_date, issued_amount, percentage_discount, balance, status, points_claimed, created_at, updated_at)
    select case when g % 50 = 0 then ${BUSY} else 1 + (g * 31) % ${PARTNERS} end, 1 + (g::bigint * 7919) % ${CUSTOMERS},
      case when g % 3 = 0 then 'GIFTCARD' else 'COUPON' end,
      case when g % 3 = 2 then 'DISCOUNTED_SUBSCRIPTION' else 'GENERAL' end,
      'B-' || g, 'Bench reward ' || g, 'A reward for the benchmark',
      ${now} + ((g % 120) - 30) * interval '1 day',
      case when g % 3 = 0 then 5000 else null end, case when g % 3 = 0 then null else 5 + g % 30 end,
      case when g % 3 = 0 then case when g % 2 = 0 then 2500 else 5000 end else null end,
      case when g % 7 = 0 then 'Redeemed' else 'Active' end, case when g % 11 = 0 then 40 else 0 end,
      ${now} - (g % 365) * interval '1 day', ${now}
    from generate_series(1, ${REWARDS}) g`);
  await db.execute(sql`insert into reward_ledger (reward_id, kind, amount, at)
    select id, 'ISSUE', issued_amount, created_at from rewards where reward_type = 'GIFTCARD'
    union all
    select id, 'REDEEM', balance - issued_amount, created_at from rewards where reward_type = 'GIFTCARD' and balance < issued_amount`);
  log('rewards');
}

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
    await seed(database.db, target.visits, (step) => {
      const at = performance.now();
      steps.push(`${step} ${((at - last) / 1000).toFixed(1)} s`);
      last = at;
    });
    for (const table of ['partners', 'customers', 'visits', 'visit_items', 'rewards', 'reward_ledger'])
      await database.db.execute(sql.raw(`vacuum analyze ${table}`));
    const seeded = performance.now();
    const signedIn = await signedInApp(database.db, mailDir, () => NOW);

    console.log(
      `\n${target.name}: seeded ${PARTNERS.toLocaleString()} partners, ${CUSTOMERS.toLocaleString()} customers, ${target.visits.toLocaleString()} visits (+ items), ${REWARDS.toLocaleString()} rewards in ${((seeded - t0) / 1000).toFixed(1)} s (${steps.join(', ')}, then vacuum analyze); ${RUNS} runs per case after 3 warm-ups`,
    );
    console.table(await timeCases(signedIn, CASES, RUNS));

    if (EXPLAIN) await printPlans(database.db, target.name, EXPLAINED);
  } finally {
    await database.close();
    rmSync(mailDir, { recursive: true, force: true });
  }
}

const targets: SizedTarget[] = [];
if (process.env.BENCH_SKIP_PGLITE !== '1') targets.push({ ...pgliteTarget, visits: PGLITE_VISITS });
const pg = await postgresTarget();
if (pg) targets.push({ ...pg, visits: VISITS });
else console.log('No PostgreSQL answered (set TEST_DATABASE_URL); PGlite only.');
for (const target of targets) await run(target);
