/**
 * The large data set of the benchmarks (issue 7), seeded set-based with generate_series so that it
 * takes minutes, not hours, and is the same on every run: 5,000 partners, 100,000 customers,
 * 1,000,000 visits (one item each), 200,000 rewards with their ledger rows and 1,000,000 events,
 * plus the bench admin (BENCH_ADMIN). Dates are relative to the fixed NOW. Partner 1 is the busy one:
 * every 20th visit (5%) and every 50th reward are there. Each part's duration goes to `log`.
 */
import { sql } from 'drizzle-orm';
import { ALL_PERMISSION_NAMES, SUPER_ADMIN_ROLE } from '../../contract/permissions';
import type { Db } from '../../server/db/client';
import { roles, users } from '../../server/db/schema';
import { createPasswordHasher, TEST_PASSWORD_HASHING } from '../../server/domain/passwords';
import { arr, BENCH_ADMIN } from './support';

export type SeedSizes = {
  partners: number;
  customers: number;
  visits: number;
  rewards: number;
  events: number;
};

/** The sizes issue 7 names. */
export const LARGE: SeedSizes = {
  partners: 5_000,
  customers: 100_000,
  visits: 1_000_000,
  rewards: 200_000,
  events: 1_000_000,
};

/** Fixed "now" for the data (dates are relative to it), so every run seeds the same rows. */
export const NOW = new Date('2026-03-02T09:00:00.000Z');
/** The busy partner (5% of the visits, 2% of the rewards). */
export const BUSY = 1;

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
const IPS = ['102.89.', '105.112.', '197.210.', '102.88.', '192.168.1.', '10.0.0.'];
const CITIES = [
  'Lagos, Nigeria',
  'Lagos, Nigeria',
  'Port Harcourt, Nigeria',
  'Abuja, Nigeria',
  'Local network',
  'Local network',
];

export async function seedLargeData(db: Db, sizes: SeedSizes, log: (step: string) => void) {
  const { partners: PARTNERS, customers: CUSTOMERS, rewards: REWARDS } = sizes;
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
    from generate_series(1, ${sizes.visits}) g`);
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
  await db.execute(sql`insert into events (at, actor_id, actor_type, actor_name, actor_organization, action,
      entity, entity_id, ip_address, ip_location, user_agent)
    select ${now} - g * interval '30 seconds', 1 + g % ${PARTNERS},
      (array['PARTNER','CUSTOMER','ADMIN'])[1 + g % 3],
      (${arr(FIRST)})[1 + (g * 7) % ${FIRST.length}] || ' ' || (${arr(LAST)})[1 + (g * 11) % ${LAST.length}],
      case g % 3 when 0 then (${arr(PLACE)})[1 + g % ${PLACE.length}] || ' ' || (${arr(KIND)})[1 + (g / 7) % ${KIND.length}]
        when 2 then 'Reward Club' else null end,
      (${arr(ACTIONS)})[1 + (g * 3) % ${ACTIONS.length}], 'user', (g % ${PARTNERS})::text,
      (${arr(IPS)})[1 + g % ${IPS.length}] || (g % 250 + 1) || '.' || (g % 200 + 1),
      (${arr(CITIES)})[1 + g % ${CITIES.length}], 'Mozilla/5.0 (bench)'
    from generate_series(1, ${sizes.events}) g`);
  log('events');
}

/** Fresh planner statistics (and a visibility map) for the seeded tables. */
export async function analyzeSeeded(db: Db) {
  for (const table of [
    'partners',
    'customers',
    'visits',
    'visit_items',
    'rewards',
    'reward_ledger',
    'events',
  ])
    await db.execute(sql.raw(`vacuum analyze ${table}`));
}
