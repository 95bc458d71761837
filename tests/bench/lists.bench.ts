/**
 * List benchmark: 100,000 staff and 100,000 events, then the staff list and the activity log through
 * app.request() (page 1, a deep page, searches, sorts), p50/p99 in ms, on PGlite and on PostgreSQL
 * (TEST_DATABASE_URL, else a local server at postgres://postgres@127.0.0.1:5432/postgres if one answers).
 * Prints figures; never fails on timings. `npm run bench:lists` (add `-- --explain` for the plans).
 *
 * Not a vitest test: a script, `npx tsx tests/bench/lists.bench.ts`.
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
  caseFigures,
  EXPLAIN,
  pgliteTarget,
  postgresTarget,
  printPlans,
  signedInApp,
  type Target,
  timeCases,
} from './support';

const STAFF = 100_000;
const EVENTS = 100_000;
const RUNS = Number(process.env.BENCH_RUNS ?? 40);

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
  'Kelechi',
  'Temitope',
  'Sadiq',
  'Nneka',
  'Olumide',
  'Hauwa',
  'Ikenna',
  'Bukola',
  'Abdullahi',
  'Chioma',
  'Segun',
  'Fatima',
  'Uche',
  'Kemi',
  'Yusuf',
  'Adaobi',
  'Damilola',
  'Maryam',
  'Chukwuemeka',
  'Titilayo',
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
  'Adebayo',
  'Umeh',
  'Mohammed',
  'Chukwu',
  'Balogun',
  'Onyeka',
  'Suleiman',
  'Nnamdi',
  'Oyelaran',
  'Danjuma',
  'Ibekwe',
  'Akinola',
  'Garba',
  'Ezeh',
  'Afolabi',
  'Okoro',
  'Yakubu',
  'Nwachukwu',
  'Ogundipe',
  'Aliyu',
];
const ORGS = [
  'Eko Grill House',
  'Jollof Republic',
  'Wuse Suya Spot',
  'Garden City Cinemas',
  'Ikoyi Fitness Club',
  'Naija Fresh Supermarket',
  'Calabar Pot Kitchen',
  'Maitama Spa & Wellness',
];
const ACTIONS = [
  'Signed in',
  'Signed out',
  'Failed sign-in attempt',
  'Updated profile',
  'Recorded a visit',
  'Issued a reward',
  'Redeemed a gift card',
  'Redeemed a coupon',
  'Viewed their rewards',
  'Changed password',
];
const PLACES = [
  ['102.89.', 'Lagos, Nigeria'],
  ['105.112.', 'Lagos, Nigeria'],
  ['197.210.', 'Port Harcourt, Nigeria'],
  ['102.88.', 'Abuja, Nigeria'],
  ['192.168.1.', 'Local network'],
  ['10.0.0.', 'Local network'],
];

async function seed(db: Db) {
  const hasher = createPasswordHasher(TEST_PASSWORD_HASHING);
  const [superRole] = await db
    .insert(roles)
    .values({ name: SUPER_ADMIN_ROLE, permissions: [...ALL_PERMISSION_NAMES], builtIn: true })
    .returning();
  const others = await db
    .insert(roles)
    .values(
      ['Support', 'Partner Manager', 'Auditor', 'Partner Staff'].map((name) => ({
        name,
        permissions: ['dashboard.view'],
      })),
    )
    .returning({ id: roles.id });
  await db.insert(users).values({
    email: BENCH_ADMIN.email,
    passwordHash: await hasher.hash(BENCH_ADMIN.password),
    firstName: 'Bench',
    lastName: 'Root',
    roleId: superRole!.id,
  });
  const roleIds = sql.raw(`array[${others.map((r) => r.id).join(',')}]`);
  // Staff: names from the demo lists, unique emails, one a minute back from now, a few deleted.
  await db.execute(sql`
    insert into users (email, first_name, last_name, phone, role_id, user_type, created_at, updated_at, deleted_at)
    select
      lower(f) || '.' || lower(l) || g || '@staff.rewardclub.ng', f, l, '080' || lpad(g::text, 8, '0'),
      (${roleIds})[1 + g % 4], 'ADMIN',
      now() - make_interval(mins => g), now() - make_interval(mins => g),
      case when g % 50 = 0 then now() else null end
    from generate_series(1, ${STAFF}) g,
      lateral (select (${arr(FIRST)})[1 + (g * 7) % ${FIRST.length}] as f,
                      (${arr(LAST)})[1 + (g * 13) % ${LAST.length}] as l) n`);
  // Events: a third of each actor type, one every 30 seconds back from now.
  await db.execute(sql`
    insert into events (at, actor_id, actor_type, actor_name, actor_organization, action, entity, entity_id, ip_address, ip_location, user_agent)
    select
      now() - make_interval(secs => g * 30), g % 5000,
      (array['PARTNER','CUSTOMER','ADMIN'])[1 + g % 3],
      (${arr(FIRST)})[1 + (g * 7) % ${FIRST.length}] || ' ' || (${arr(LAST)})[1 + (g * 11) % ${LAST.length}],
      case g % 3 when 0 then (${arr(ORGS)})[1 + g % ${ORGS.length}] when 2 then 'Reward Club' else null end,
      (${arr(ACTIONS)})[1 + (g * 3) % ${ACTIONS.length}], 'user', (g % 5000)::text,
      (${arr(PLACES.map((p) => p[0]!))})[1 + g % ${PLACES.length}] || (g % 250 + 1) || '.' || (g % 200 + 1),
      (${arr(PLACES.map((p) => p[1]!))})[1 + g % ${PLACES.length}],
      'Mozilla/5.0 (bench)'
    from generate_series(1, ${EVENTS}) g`);
}

const CASES: Case[] = [
  { name: 'staff: page 1 (newest first)', path: '/admin/user/admin-users?pageNumber=1&pageSize=10' },
  { name: 'staff: page 4,900 of 20 (deep)', path: '/admin/user/admin-users?pageNumber=4900&pageSize=20' },
  {
    name: 'staff: search "ngozi" (2.5% match)',
    path: '/admin/user/admin-users?searchText=ngozi&pageSize=10',
  },
  { name: 'staff: search "okafor4242" (rare)', path: '/admin/user/admin-users?searchText=okafor4242' },
  {
    name: 'staff: sort lastName asc',
    path: '/admin/user/admin-users?sortBy=lastName&sortOrder=asc&pageSize=50',
  },
  {
    name: 'staff: sort email desc, page 100',
    path: '/admin/user/admin-users?sortBy=email&sortOrder=desc&pageNumber=100',
  },
  { name: 'staff: sort role (not indexed)', path: '/admin/user/admin-users?sortBy=role&pageSize=10' },
  {
    name: 'activities: PARTNER page 1',
    path: '/admin/user/activities?userType=PARTNER&pageNumber=1&pageSize=10',
  },
  {
    name: 'activities: ADMIN page 1,600 of 20 (deep)',
    path: '/admin/user/activities?userType=ADMIN&pageNumber=1600&pageSize=20',
  },
  { name: 'activities: search "lagos"', path: '/admin/user/activities?userType=CUSTOMER&searchText=lagos' },
  {
    name: 'activities: search "redeemed a gift"',
    path: '/admin/user/activities?userType=PARTNER&searchText=redeemed%20a%20gift',
  },
  {
    name: 'activities: sort name asc',
    path: '/admin/user/activities?userType=PARTNER&sortBy=name&sortOrder=asc',
  },
  {
    name: 'activities: sort action desc',
    path: '/admin/user/activities?userType=ADMIN&sortBy=action&sortOrder=desc',
  },
];

/** The SQL the app runs for some of the cases (same expressions as server/routes), for EXPLAIN. */
const EXPLAINED: [string, string][] = [
  ['staff page 1', `select * from users where deleted_at is null order by created_at desc, id desc limit 10`],
  ['staff count', `select count(*) from users where deleted_at is null`],
  [
    'staff search "ngozi" page',
    `select * from users where deleted_at is null and (first_name || ' ' || last_name || ' ' || email) ilike '%ngozi%' order by created_at desc, id desc limit 10`,
  ],
  [
    'staff search "ngozi" count',
    `select count(*) from users where deleted_at is null and (first_name || ' ' || last_name || ' ' || email) ilike '%ngozi%'`,
  ],
  [
    'staff search "okafor4242"',
    `select * from users where deleted_at is null and (first_name || ' ' || last_name || ' ' || email) ilike '%okafor4242%' order by created_at desc, id desc limit 10`,
  ],
  [
    'staff sort lastName',
    `select * from users where deleted_at is null order by lower(last_name) asc, id asc limit 50`,
  ],
  [
    'staff deep page',
    `select * from users where deleted_at is null order by created_at desc, id desc limit 20 offset 97980`,
  ],
  [
    'activities PARTNER page 1',
    `select * from events where actor_type = 'PARTNER' order by at desc, id desc limit 10`,
  ],
  ['activities PARTNER count', `select count(*) from events where actor_type = 'PARTNER'`],
  [
    'activities search "lagos"',
    `select * from events where actor_type = 'CUSTOMER' and (actor_name || ' ' || action || ' ' || coalesce(actor_organization, '') || ' ' || coalesce(ip_address, '') || ' ' || coalesce(ip_location, '')) ilike '%lagos%' order by at desc, id desc limit 10`,
  ],
  [
    'activities search "redeemed a gift" count',
    `select count(*) from events where actor_type = 'PARTNER' and (actor_name || ' ' || action || ' ' || coalesce(actor_organization, '') || ' ' || coalesce(ip_address, '') || ' ' || coalesce(ip_location, '')) ilike '%redeemed a gift%'`,
  ],
  [
    'activities sort name',
    `select * from events where actor_type = 'PARTNER' order by lower(actor_name) asc, id asc limit 10`,
  ],
];

async function run(target: Target) {
  const t0 = performance.now();
  const database = await target.open();
  const mailDir = mkdtempSync(join(tmpdir(), 'rc-bench-mail-'));
  try {
    await seed(database.db);
    // Fresh statistics and visibility map (index-only counts), as autovacuum would give a live system.
    for (const table of ['users', 'events', 'roles'])
      await database.db.execute(sql.raw(`vacuum analyze ${table}`));
    const seeded = performance.now();
    const signedIn = await signedInApp(database.db, mailDir, () => new Date());

    console.log(
      `\n${target.name}: seeded ${STAFF.toLocaleString()} staff and ${EVENTS.toLocaleString()} events in ${((seeded - t0) / 1000).toFixed(1)} s; ${RUNS} runs per case after 3 warm-ups`,
    );
    const rows = await timeCases(signedIn, CASES, RUNS);
    console.table(rows);
    caseFigures('lists', target.name, rows);

    if (EXPLAIN) await printPlans(database.db, target.name, EXPLAINED);
  } finally {
    await database.close();
    rmSync(mailDir, { recursive: true, force: true });
  }
}

const targets: Target[] = [pgliteTarget];
const pg = await postgresTarget();
if (pg) targets.push(pg);
else console.log('No PostgreSQL answered (set TEST_DATABASE_URL); PGlite only.');
for (const target of targets) await run(target);
