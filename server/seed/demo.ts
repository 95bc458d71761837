import { sql } from 'drizzle-orm';
import { ALL_PERMISSION_NAMES, type PermissionName, SUPER_ADMIN_ROLE } from '../../contract/permissions';
import type { DbOrTx } from '../db/client';
import { executeRows } from '../db/rows';
import {
  customers,
  events,
  extendedServices,
  partnerExtendedServices,
  partners,
  rewardLedger,
  rewards,
  roles,
  users,
  visitItems,
  visits,
} from '../db/schema';
import { eligibilityWindow, inWindow, lagosDate } from '../domain/eligibility';
import { ADMIN_ORGANIZATION, ipLocation } from '../domain/events';
import { storeFile } from '../domain/images';
import { createPasswordHasher, type PasswordHasher } from '../domain/passwords';
import { pointsForVisit } from '../domain/points';
import { type Rgb, solidPng } from './png';

/** The demo sign-in, printed by `npm start` and used by the e2e tests. */
export const DEMO_ADMIN = { email: 'admin@rewardclub.ng', password: 'RewardClub#2026' } as const;
export const DEMO_STAFF_PASSWORD = 'Staff#2026';

/** The same counts on every run. */
export const DEMO_COUNTS = {
  partners: 25,
  blockedPartners: 4,
  customers: 200,
  blockedCustomers: 14,
  extendedServices: 6,
  visits: 2000,
  rewards: 240,
} as const;

const DAY = 24 * 60 * 60 * 1000;

/** mulberry32: a small seeded PRNG, so the demo is the same every time. */
export function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const chance = (p: number) => next() < p;
  return { next, int, pick, chance };
}

/** True when nothing has been created yet (no roles, staff, partners or customers). */
export async function isEmpty(db: DbOrTx): Promise<boolean> {
  const [row] = await executeRows<{ n: number }>(
    db,
    sql`select ((select count(*) from roles) + (select count(*) from users) + (select count(*) from partners) + (select count(*) from customers))::int as n`,
  );
  return Number(row?.n ?? 0) === 0;
}

async function insertChunked<T>(rows: T[], size: number, insert: (chunk: T[]) => Promise<unknown>) {
  for (let i = 0; i < rows.length; i += size) await insert(rows.slice(i, i + size));
}

// ---------------------------------------------------------------------------------------------
// Source data

const FIRST_NAMES = [
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
] as const;

const LAST_NAMES = [
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
] as const;

type City = 'Lagos' | 'Abuja' | 'Port Harcourt';

const AREAS: Record<City, readonly string[]> = {
  Lagos: [
    'Victoria Island',
    'Lekki Phase 1',
    'Ikeja GRA',
    'Surulere',
    'Yaba',
    'Ikoyi',
    'Ajah',
    'Magodo',
    'Festac Town',
  ],
  Abuja: ['Wuse 2', 'Maitama', 'Garki', 'Gwarinpa', 'Jabi', 'Asokoro', 'Utako'],
  'Port Harcourt': ['GRA Phase 2', 'Trans-Amadi', 'Rumuola', 'Old GRA', 'Woji', 'D-Line'],
};

const STREETS = [
  'Adeola Odeku Street',
  'Admiralty Way',
  'Allen Avenue',
  'Awolowo Road',
  'Adetokunbo Ademola Crescent',
  'Aminu Kano Crescent',
  'Herbert Macaulay Way',
  'Aba Road',
  'Olu Obasanjo Road',
  'Ozumba Mbadiwe Avenue',
  'Ahmadu Bello Way',
  'Isaac John Street',
  'Bode Thomas Street',
  'Ikwerre Road',
] as const;

type Category = 'restaurant' | 'grocery' | 'cinema' | 'fitness' | 'spa' | 'retail' | 'auto' | 'pharmacy';

const PARTNERS: readonly { name: string; city: City; area: string; category: Category }[] = [
  { name: 'Eko Grill House', city: 'Lagos', area: 'Victoria Island', category: 'restaurant' },
  { name: 'Jollof Republic', city: 'Lagos', area: 'Lekki Phase 1', category: 'restaurant' },
  { name: 'Wuse Suya Spot', city: 'Abuja', area: 'Wuse 2', category: 'restaurant' },
  { name: 'Garden City Cinemas', city: 'Port Harcourt', area: 'GRA Phase 2', category: 'cinema' },
  { name: 'Ikoyi Fitness Club', city: 'Lagos', area: 'Ikoyi', category: 'fitness' },
  { name: 'Naija Fresh Supermarket', city: 'Lagos', area: 'Surulere', category: 'grocery' },
  { name: 'Calabar Pot Kitchen', city: 'Lagos', area: 'Ikeja GRA', category: 'restaurant' },
  { name: 'Maitama Spa & Wellness', city: 'Abuja', area: 'Maitama', category: 'spa' },
  { name: 'Bole Palace', city: 'Port Harcourt', area: 'Rumuola', category: 'restaurant' },
  { name: 'Yaba Brew Cafe', city: 'Lagos', area: 'Yaba', category: 'restaurant' },
  { name: 'Lekki Family Mart', city: 'Lagos', area: 'Lekki Phase 1', category: 'grocery' },
  { name: 'Ajah MedPlus Pharmacy', city: 'Lagos', area: 'Ajah', category: 'pharmacy' },
  { name: 'Garki Bites & Grills', city: 'Abuja', area: 'Garki', category: 'restaurant' },
  { name: 'Woji Pepper Soup Joint', city: 'Port Harcourt', area: 'Woji', category: 'restaurant' },
  { name: 'Jabi Lakeside Cinemas', city: 'Abuja', area: 'Jabi', category: 'cinema' },
  { name: 'Trans-Amadi Auto Care', city: 'Port Harcourt', area: 'Trans-Amadi', category: 'auto' },
  { name: 'Gwarinpa Family Store', city: 'Abuja', area: 'Gwarinpa', category: 'grocery' },
  { name: 'Festac Fashion House', city: 'Lagos', area: 'Festac Town', category: 'retail' },
  { name: 'Magodo Body Fit Gym', city: 'Lagos', area: 'Magodo', category: 'fitness' },
  { name: 'Asokoro Glow Spa', city: 'Abuja', area: 'Asokoro', category: 'spa' },
  { name: 'Utako Gadget Hub', city: 'Abuja', area: 'Utako', category: 'retail' },
  { name: 'D-Line Seafood Place', city: 'Port Harcourt', area: 'D-Line', category: 'restaurant' },
  { name: 'Ikeja City Bowling', city: 'Lagos', area: 'Ikeja GRA', category: 'cinema' },
  { name: 'Old GRA Wellness Pharmacy', city: 'Port Harcourt', area: 'Old GRA', category: 'pharmacy' },
  { name: 'Victoria Island Auto Spa', city: 'Lagos', area: 'Victoria Island', category: 'auto' },
];

/** Indexes into PARTNERS that start BLOCKED. */
const BLOCKED_PARTNERS = new Set([7, 15, 20, 23]);

const CATALOGUE: Record<Category, readonly [string, number][]> = {
  restaurant: [
    ['Jollof rice with chicken', 4500],
    ['Pounded yam and egusi', 5000],
    ['Pepper soup', 3500],
    ['Suya platter', 6000],
    ['Fried plantain (dodo)', 1500],
    ['Chapman', 2000],
    ['Grilled croaker fish', 9500],
    ['Small chops', 4000],
    ['Zobo drink', 1000],
    ['Asun', 5500],
  ],
  grocery: [
    ['Bag of rice (10 kg)', 18500],
    ['Vegetable oil (3 L)', 7800],
    ['Indomie carton', 9800],
    ['Garri (5 kg)', 4500],
    ['Tin tomatoes (6 pack)', 3600],
    ['Frozen chicken (1 kg)', 5200],
    ['Milo refill (500 g)', 3900],
    ['Eggs (crate)', 4800],
  ],
  cinema: [
    ['Standard ticket', 4000],
    ['VIP ticket', 8000],
    ['Popcorn combo', 3500],
    ['Soft drink', 1200],
    ['Bowling game', 5000],
  ],
  fitness: [
    ['Day pass', 5000],
    ['Personal training session', 15000],
    ['Protein shake', 3000],
    ['Yoga class', 6000],
    ['Monthly membership', 45000],
  ],
  spa: [
    ['Full body massage', 25000],
    ['Facial treatment', 18000],
    ['Manicure and pedicure', 12000],
    ['Sauna session', 8000],
  ],
  retail: [
    ['Ankara fabric (6 yards)', 15000],
    ['Phone charger', 6500],
    ['Bluetooth earbuds', 22000],
    ['Senator wear', 35000],
    ['Power bank', 14000],
    ['Aso-oke cap', 7500],
  ],
  auto: [
    ['Car wash', 5000],
    ['Engine oil change', 28000],
    ['Wheel balancing', 8000],
    ['Interior detailing', 15000],
  ],
  pharmacy: [
    ['Multivitamins', 6500],
    ['Malaria treatment pack', 4800],
    ['Blood pressure check', 2000],
    ['Hand sanitizer', 1500],
    ['First aid kit', 9000],
  ],
};

const EXTENDED_SERVICES: readonly [string, string][] = [
  ['Free Wi-Fi Access', 'Complimentary high-speed fiber Wi-Fi for Reward Club members on the premises.'],
  [
    'Home Delivery',
    'Orders delivered to the member’s address within the city, free above the qualifying spend.',
  ],
  [
    'Priority Booking',
    'Members skip the queue and can reserve tables, screenings or sessions ahead of the public.',
  ],
  ['Birthday Treats', 'A complimentary treat or service during the member’s birthday month.'],
  ['Member-only Events', 'Invitations to tastings, premieres and workshops held for Reward Club members.'],
  ['Extended Warranty', 'Twelve more months of warranty cover on eligible purchases.'],
];

const FIBER_PLANS = [
  { plan: 'Fiber Home 20', speed: 20, fee: 15000 },
  { plan: 'Fiber Home 50', speed: 50, fee: 25000 },
  { plan: 'Fiber Home 100', speed: 100, fee: 40000 },
  { plan: 'Fiber Business 200', speed: 200, fee: 75000 },
] as const;

/** Public address ranges of Nigerian networks, plus office and home networks. */
const IP_PREFIXES = [
  '102.89.',
  '105.112.',
  '197.210.',
  '41.58.',
  '102.88.',
  '41.184.',
  '192.168.1.',
  '10.0.0.',
] as const;

/** The demo's partner role (roles.partner_role): its holders work at one partner. */
const PARTNER_STAFF_ROLE = 'Partner Staff';

const ROLE_PERMISSIONS: Record<string, PermissionName[]> = {
  Support: [
    'dashboard.view',
    'clients.view',
    'clients.update',
    'partners.view',
    'visits.view',
    'rewards.view',
    'extended_services.view',
    'activities.view',
  ],
  'Partner Manager': [
    'dashboard.view',
    'partners.view',
    'partners.create',
    'partners.update',
    'partners.delete',
    'extended_services.view',
    'extended_services.create',
    'extended_services.update',
    'extended_services.delete',
    'visits.view',
    'rewards.view',
    'rewards.issue',
    'rewards.redeem',
    'clients.view',
  ],
  Auditor: ALL_PERMISSION_NAMES.filter((p) => p.endsWith('.view')),
  // Their own partner's page and analytics (partner-scoped: another partner is 404, decision 023).
  [PARTNER_STAFF_ROLE]: [
    'dashboard.view',
    'partners.view',
    'visits.view',
    'visits.create',
    'rewards.view',
    'rewards.issue',
    'rewards.redeem',
  ],
};

const STAFF: readonly {
  first: string;
  last: string;
  role: string;
  partnerIndex?: number;
  invited?: boolean;
}[] = [
  { first: 'Tunde', last: 'Bakare', role: 'Support' },
  { first: 'Ngozi', last: 'Eze', role: 'Partner Manager' },
  { first: 'Ifeoma', last: 'Nwosu', role: 'Auditor' },
  { first: 'Emeka', last: 'Obi', role: 'Support' },
  { first: 'Halima', last: 'Bello', role: 'Partner Manager', invited: true },
  { first: 'Segun', last: 'Adeyemi', role: 'Partner Staff', partnerIndex: 0 },
  { first: 'Chiamaka', last: 'Okonkwo', role: 'Partner Staff', partnerIndex: 1 },
  { first: 'Musa', last: 'Abubakar', role: 'Partner Staff', partnerIndex: 2 },
];

/** Cover colours by category (drawn in code: solid PNGs with a darker band). */
const COVER_COLOURS: Record<Category, Rgb> = {
  restaurant: [214, 96, 48],
  grocery: [76, 155, 82],
  cinema: [88, 64, 160],
  fitness: [32, 128, 196],
  spa: [196, 120, 170],
  retail: [230, 170, 40],
  auto: [90, 100, 112],
  pharmacy: [40, 170, 160],
};

/** Partners whose Eligible users tab shows both Yes and No today (indexes into PARTNERS). */
const ELIGIBILITY_SHOWCASE = [0, 1, 2, 4, 5, 6] as const;
/** Per showcase partner: customers made eligible today (2 visits each) and not eligible (1 visit each). */
const SHOWCASE_ELIGIBLE = 3;
const SHOWCASE_NOT_ELIGIBLE = 3;
const SHOWCASE_VISITS = ELIGIBILITY_SHOWCASE.length * (SHOWCASE_ELIGIBLE * 2 + SHOWCASE_NOT_ELIGIBLE);
/** Rewards issued 'by points' (they claim part of the customer's points at that partner). */
const POINTS_REWARDS = 12;

const shade = ([r, g, b]: Rgb, f: number): Rgb => [Math.round(r * f), Math.round(g * f), Math.round(b * f)];

const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/&/g, 'and')
    .replace(/[^a-z0-9]+/g, '');
const money2 = (n: number) => Math.round(n * 100) / 100;

// ---------------------------------------------------------------------------------------------

export type SeedOptions = {
  /** "Now" for the demo's dates (default: the current time). Counts never depend on it. */
  now?: Date;
  hasher?: PasswordHasher;
  seed?: number;
};

export type SeedSummary = {
  roles: number;
  staff: number;
  partners: number;
  customers: number;
  visits: number;
  rewards: number;
  events: number;
};

/** Seeds the demo club into an empty database in one transaction (a few seconds on PGlite). */
export async function seedDemo(db: DbOrTx, opts: SeedOptions = {}): Promise<SeedSummary> {
  const now = opts.now ?? new Date();
  const hasher = opts.hasher ?? createPasswordHasher();
  const r = prng(opts.seed ?? 20260301);
  const daysAgo = (d: number, hour = r.int(8, 20)) => {
    const t = new Date(now.getTime() - d * DAY);
    t.setUTCHours(hour, r.int(0, 59), r.int(0, 59), 0);
    // Never in the future: today's events happened before "now".
    return t.getTime() > now.getTime() ? new Date(now.getTime() - r.int(1, 180) * 60_000) : t;
  };

  const adminHash = await hasher.hash(DEMO_ADMIN.password);
  const staffHashes: (string | null)[] = [];
  for (const s of STAFF) staffHashes.push(s.invited ? null : await hasher.hash(DEMO_STAFF_PASSWORD));

  return db.transaction(async (tx) => {
    // Roles
    const roleRows = await tx
      .insert(roles)
      .values([
        {
          name: SUPER_ADMIN_ROLE,
          permissions: [...ALL_PERMISSION_NAMES],
          builtIn: true,
          createdAt: daysAgo(400, 9),
        },
        ...Object.entries(ROLE_PERMISSIONS).map(([name, permissions], i) => ({
          name,
          permissions,
          partnerRole: name === PARTNER_STAFF_ROLE,
          createdAt: daysAgo(390 - i * 10, 10),
        })),
      ])
      .returning({ id: roles.id, name: roles.name });
    const roleId = (name: string) => roleRows.find((x) => x.name === name)!.id;

    // Extended services
    const serviceRows = await tx
      .insert(extendedServices)
      .values(
        EXTENDED_SERVICES.map(([title, description], i) => ({
          title,
          description,
          createdAt: daysAgo(380 - i * 7, 11),
        })),
      )
      .returning({ id: extendedServices.id });

    // Cover images (one per partner, a shade of its category's colour) and a few receipt images
    const coverUrls: string[] = [];
    for (const [i, p] of PARTNERS.entries()) {
      const colour = shade(COVER_COLOURS[p.category], 0.75 + (i % 5) * 0.06);
      const png = solidPng(160, 90, colour, { color: shade(colour, 0.8), every: 6 + (i % 4) });
      coverUrls.push(await storeFile(tx, png, 'image/png', daysAgo(360 - i * 9, 10)));
    }
    const receiptUrls: string[] = [];
    for (let i = 0; i < 6; i++) {
      const png = solidPng(90 + i * 4, 160, [250, 250, 246], { color: [150, 150, 150], every: 7 + i });
      receiptUrls.push(await storeFile(tx, png, 'image/png', daysAgo(120, 9)));
    }

    // Partners
    const partnerRows = await tx
      .insert(partners)
      .values(
        PARTNERS.map((p, i) => {
          const first = r.pick(FIRST_NAMES);
          const last = r.pick(LAST_NAMES);
          return {
            firstName: first,
            lastName: last,
            email: `${first.toLowerCase()}@${slug(p.name)}.com.ng`,
            phone: `0${r.pick(['803', '805', '806', '807', '808', '809', '810', '813', '816', '903'])}${String(r.int(0, 9_999_999)).padStart(7, '0')}`,
            organizationName: p.name,
            address: `${r.int(1, 120)} ${r.pick(STREETS)}, ${p.area}, ${p.city}`,
            coverImage: coverUrls[i]!,
            minSpendToQualify: 10000 + r.int(0, 16) * 2500,
            accountStatus: BLOCKED_PARTNERS.has(i) ? ('BLOCKED' as const) : ('ACTIVE' as const),
            createdAt: daysAgo(360 - i * 9, 10),
          };
        }),
      )
      .returning({
        id: partners.id,
        organizationName: partners.organizationName,
        minSpend: partners.minSpendToQualify,
      });
    await tx.insert(partnerExtendedServices).values(
      partnerRows.flatMap((p, i) => {
        const count = 1 + (i % 3);
        const chosen = new Set<number>();
        while (chosen.size < count) chosen.add(serviceRows[r.int(0, serviceRows.length - 1)]!.id);
        return [...chosen].map((extendedServiceId) => ({ partnerId: p.id, extendedServiceId }));
      }),
    );

    // Staff: the super admin, admins and partner staff
    const [admin] = await tx
      .insert(users)
      .values({
        email: DEMO_ADMIN.email,
        passwordHash: adminHash,
        firstName: 'Adaeze',
        lastName: 'Okafor',
        phone: '08031234567',
        address: '12 Adeola Odeku Street, Victoria Island, Lagos',
        userType: 'ADMIN',
        roleId: roleId(SUPER_ADMIN_ROLE),
        createdAt: daysAgo(400, 9),
      })
      .returning({ id: users.id });
    const staffRows = await tx
      .insert(users)
      .values(
        STAFF.map((s, i) => {
          const partner = s.partnerIndex === undefined ? undefined : PARTNERS[s.partnerIndex]!;
          return {
            email: partner
              ? `${s.first.toLowerCase()}.${s.last.toLowerCase()}@${slug(partner.name)}.com.ng`
              : `${s.first.toLowerCase()}.${s.last.toLowerCase()}@rewardclub.ng`,
            passwordHash: staffHashes[i] ?? null,
            firstName: s.first,
            lastName: s.last,
            phone: `080${String(20_000_000 + i * 1_234_567).slice(0, 8)}`,
            userType: partner ? ('PARTNER' as const) : ('ADMIN' as const),
            roleId: roleId(s.role),
            partnerId: s.partnerIndex === undefined ? null : partnerRows[s.partnerIndex]!.id,
            createdAt: daysAgo(300 - i * 20, 10),
          };
        }),
      )
      .returning({
        id: users.id,
        firstName: users.firstName,
        lastName: users.lastName,
        partnerId: users.partnerId,
      });

    // Customers, each with a fiber plan
    const customerValues = Array.from({ length: DEMO_COUNTS.customers }, (_, i) => {
      const first = FIRST_NAMES[i % FIRST_NAMES.length]!;
      const last = LAST_NAMES[(i * 7 + Math.floor(i / FIRST_NAMES.length)) % LAST_NAMES.length]!;
      const city = r.pick(['Lagos', 'Lagos', 'Abuja', 'Port Harcourt'] as const);
      const plan = r.pick(FIBER_PLANS);
      return {
        firstName: first,
        lastName: last,
        email: `${first.toLowerCase()}.${last.toLowerCase()}${i + 1}@${r.pick(['gmail.com', 'yahoo.com', 'outlook.com'])}`,
        phone: `0${r.pick(['803', '806', '813', '705', '802', '909'])}${String(r.int(0, 9_999_999)).padStart(7, '0')}`,
        address: `${r.int(1, 80)} ${r.pick(STREETS)}, ${r.pick(AREAS[city])}, ${city}`,
        accountStatus: i % 14 === 13 ? ('BLOCKED' as const) : ('ACTIVE' as const),
        fiberPlan: plan.plan,
        fiberSpeedMbps: plan.speed,
        fiberMonthlyFee: plan.fee,
        fiberStatus: i % 14 === 13 ? ('SUSPENDED' as const) : ('ACTIVE' as const),
        fiberRenewalDate: new Date(now.getTime() + r.int(1, 30) * DAY),
        createdAt: daysAgo(r.int(130, 420)),
      };
    });
    const customerRows: { id: number; firstName: string; lastName: string }[] = [];
    await insertChunked(customerValues, 500, async (chunk) => {
      customerRows.push(
        ...(await tx
          .insert(customers)
          .values(chunk)
          .returning({ id: customers.id, firstName: customers.firstName, lastName: customers.lastName })),
      );
    });

    // Visits with items, over the last 120 days (mostly at active partners)
    const activePartnerIdx = PARTNERS.map((_, i) => i).filter((i) => !BLOCKED_PARTNERS.has(i));
    const attendants = PARTNERS.map(() => [r.pick(FIRST_NAMES), r.pick(FIRST_NAMES), r.pick(FIRST_NAMES)]);
    const visitPlans = Array.from({ length: DEMO_COUNTS.visits - SHOWCASE_VISITS }, () => {
      const pi = r.chance(0.92) ? r.pick(activePartnerIdx) : r.int(0, PARTNERS.length - 1);
      const items = Array.from({ length: r.int(1, 5) }, () => {
        const [name, price] = r.pick(CATALOGUE[PARTNERS[pi]!.category]);
        return { name, quantity: r.int(1, 3), price };
      });
      return {
        partnerIndex: pi,
        customer: customerRows[Math.floor(r.next() ** 1.6 * customerRows.length)]!,
        attendantName: r.pick(attendants[pi]!),
        visitDate: daysAgo(r.int(0, 119)),
        items,
      };
    });
    // The Eligible users tab, today: at each showcase partner, customers over the minimum spend in the
    // 30-day window (two visits each) and customers who visited without reaching it (one cheap visit,
    // chosen among those with no other visit there in the window).
    const today = eligibilityWindow(lagosDate(now));
    for (const pi of ELIGIBILITY_SHOWCASE) {
      const min = partnerRows[pi]!.minSpend;
      const menu = [...CATALOGUE[PARTNERS[pi]!.category]].sort((a, b) => a[1] - b[1]);
      const visitedHere = new Set(
        visitPlans
          .filter((v) => v.partnerIndex === pi && inWindow(today, v.visitDate))
          .map((v) => v.customer.id),
      );
      const fresh = customerRows.filter((c, i) => i % 14 !== 13 && !visitedHere.has(c.id));
      for (let k = 0; k < SHOWCASE_ELIGIBLE + SHOWCASE_NOT_ELIGIBLE; k++) {
        const customer = fresh[(pi * 7 + k * 11) % fresh.length]!;
        const eligible = k < SHOWCASE_ELIGIBLE;
        const visitsHere = eligible ? 2 : 1;
        for (let n = 0; n < visitsHere; n++) {
          // Eligible: each visit is worth over half the minimum. Not eligible: the cheapest item once.
          const items: { name: string; quantity: number; price: number }[] = [];
          if (eligible) {
            let sum = 0;
            while (sum * 2 <= min) {
              const [name, price] = menu[(k + n + items.length) % menu.length]!;
              items.push({ name, quantity: 1, price });
              sum += price;
            }
          } else {
            const [name, price] = menu[0]!;
            items.push({ name, quantity: 1, price });
          }
          visitPlans.push({
            partnerIndex: pi,
            customer,
            attendantName: attendants[pi]![n % 3]!,
            visitDate: daysAgo(1 + ((k * 5 + n * 3) % 20)),
            items,
          });
        }
      }
    }
    visitPlans.sort((a, b) => a.visitDate.getTime() - b.visitDate.getTime());
    await insertChunked(visitPlans, 400, async (chunk) => {
      const ids = await tx
        .insert(visits)
        .values(
          chunk.map((v, j) => ({
            partnerId: partnerRows[v.partnerIndex]!.id,
            customerId: v.customer.id,
            attendantName: v.attendantName,
            visitDate: v.visitDate,
            totalAmount: money2(v.items.reduce((sum, it) => sum + it.quantity * it.price, 0)),
            receiptImage: j % 3 === 0 ? receiptUrls[v.customer.id % receiptUrls.length]! : null,
            createdAt: v.visitDate,
          })),
        )
        .returning({ id: visits.id });
      await tx
        .insert(visitItems)
        .values(chunk.flatMap((v, i) => v.items.map((it) => ({ visitId: ids[i]!.id, ...it }))));
    });

    // Rewards of every type, category and status, with the gift-card ledger and cached balances
    const issuers = [admin!.id, ...staffRows.filter((s) => s.partnerId).map((s) => s.id)];
    // The first GUARANTEED plans are Active gift cards and coupons at the partner staff's partners
    // (indices 0 to 2), for active customers, so the guided redemption always has something to redeem.
    const GUARANTEED = 6;
    const staffPartners = [0, 1, 2].filter((pi) => !BLOCKED_PARTNERS.has(pi));
    const rewardPlans = Array.from({ length: DEMO_COUNTS.rewards }, (_, i) => {
      const guaranteed = i < GUARANTEED && staffPartners.length > 0;
      const kind = guaranteed
        ? i % 2 === 0
          ? 'GIFTCARD'
          : 'COUPON'
        : i % 20 < 8
          ? 'GIFTCARD'
          : i % 20 < 15
            ? 'COUPON'
            : 'SUBSCRIPTION';
      const drawnStatus = r.chance(0.5) ? 'Active' : r.chance(0.6) ? 'Redeemed' : 'Expired';
      const status = guaranteed ? 'Active' : drawnStatus;
      const created = daysAgo(r.int(1, 119));
      const drawnPartner = r.pick(activePartnerIdx);
      const pi = guaranteed ? staffPartners[i % staffPartners.length]! : drawnPartner;
      const amount = kind === 'GIFTCARD' ? r.int(4, 100) * 500 : null;
      const discount =
        kind === 'COUPON' ? r.int(1, 6) * 5 : kind === 'SUBSCRIPTION' ? r.int(2, 10) * 5 : null;
      const redemptions: number[] = [];
      if (amount !== null) {
        if (status === 'Redeemed') {
          const parts = r.int(1, 3);
          let left = amount;
          for (let k = 1; k < parts; k++) {
            const part = Math.round((left * r.int(20, 60)) / 100 / 50) * 50;
            if (part > 0 && part < left) {
              redemptions.push(part);
              left -= part;
            }
          }
          redemptions.push(left);
        } else if (r.chance(0.5)) {
          redemptions.push(Math.round((amount * r.int(10, 60)) / 100 / 50) * 50 || 500);
        }
      }
      const expiry =
        status === 'Expired'
          ? new Date(now.getTime() - r.int(1, 30) * DAY)
          : new Date(Math.max(created.getTime(), now.getTime()) + r.int(10, 90) * DAY);
      return {
        kind,
        status,
        created,
        pi,
        amount,
        discount,
        redemptions,
        expiry,
        customer: guaranteed ? customerRows[i]! : r.pick(customerRows),
      };
    });
    // Rewards issued by points: they go to the customers with the most points at a partner and claim
    // half of them, so the 'By Points Accumulated' modal shows claimed and unclaimed balances.
    const earned = new Map<string, { pi: number; customer: (typeof customerRows)[number]; points: number }>();
    for (const v of visitPlans) {
      if (BLOCKED_PARTNERS.has(v.partnerIndex)) continue;
      const key = `${v.partnerIndex}:${v.customer.id}`;
      const total = v.items.reduce((sum, it) => sum + it.quantity * it.price, 0);
      const entry = earned.get(key) ?? { pi: v.partnerIndex, customer: v.customer, points: 0 };
      entry.points += pointsForVisit(total);
      earned.set(key, entry);
    }
    const topPoints = [...earned.values()]
      .sort((a, b) => b.points - a.points || a.pi - b.pi || a.customer.id - b.customer.id)
      .slice(0, POINTS_REWARDS);
    const pointsClaimed = new Map<number, number>();
    topPoints.forEach((top, k) => {
      const i = k * 20 + 3; // a gift card (i % 20 < 8)
      rewardPlans[i]!.pi = top.pi;
      rewardPlans[i]!.customer = top.customer;
      pointsClaimed.set(i, Math.floor(top.points / 2));
    });
    // Two rewards past their expiry whose stored status was never updated: lists read them as Expired.
    for (const i of [9, 29]) {
      const p = rewardPlans[i]!;
      if (p.status === 'Expired' && p.redemptions.length === 0) p.status = 'Active';
    }
    const rewardRows = await tx
      .insert(rewards)
      .values(
        rewardPlans.map((p, i) => {
          const spent = p.redemptions.reduce((a, b) => a + b, 0);
          const org = PARTNERS[p.pi]!.name;
          return {
            partnerId: partnerRows[p.pi]!.id,
            customerId: p.customer.id,
            rewardType: p.kind === 'GIFTCARD' ? ('GIFTCARD' as const) : ('COUPON' as const),
            rewardTypeCategory:
              p.kind === 'SUBSCRIPTION' ? ('DISCOUNTED_SUBSCRIPTION' as const) : ('GENERAL' as const),
            code: `${p.kind === 'GIFTCARD' ? 'GC' : p.kind === 'COUPON' ? 'CP' : 'DS'}-${(0x10000 + i * 7919).toString(36).toUpperCase()}${r.int(10, 99)}`,
            title:
              p.kind === 'GIFTCARD'
                ? `₦${p.amount!.toLocaleString('en-NG')} ${org} gift card`
                : p.kind === 'COUPON'
                  ? `${p.discount}% off at ${org}`
                  : `${p.discount}% off your fiber subscription`,
            description:
              p.kind === 'SUBSCRIPTION'
                ? `Earned at ${org}: ${p.discount}% off the next monthly fiber bill.`
                : `A Reward Club reward for loyal customers of ${org}.`,
            expiryDate: p.expiry,
            issuedAmount: p.amount,
            percentageDiscount: p.discount,
            balance: p.amount === null ? null : money2(p.amount - spent),
            status: p.status as 'Active' | 'Redeemed' | 'Expired',
            pointsClaimed: pointsClaimed.get(i) ?? 0,
            issuedBy: r.pick(issuers),
            createdAt: p.created,
            updatedAt: p.created,
            redeemedAt:
              p.status === 'Redeemed'
                ? new Date(Math.min(now.getTime(), p.created.getTime() + r.int(1, 10) * DAY))
                : null,
          };
        }),
      )
      .returning({ id: rewards.id, redeemedAt: rewards.redeemedAt });
    const ledger: (typeof rewardLedger.$inferInsert)[] = [];
    let reversals = 0;
    rewardPlans.forEach((p, i) => {
      const rewardId = rewardRows[i]!.id;
      if (p.amount === null) {
        // A redeemed coupon has its 0-naira REDEEM row, as the redeem call writes one (ledger.ts):
        // the weekly charts count redemptions from the ledger (decision 018).
        const at = rewardRows[i]!.redeemedAt;
        if (p.status === 'Redeemed' && at) {
          ledger.push({ rewardId, kind: 'REDEEM', amount: 0, reason: 'Redeemed at partner', at });
        }
        return;
      }
      ledger.push({ rewardId, kind: 'ISSUE', amount: p.amount, reason: 'Issued', at: p.created });
      p.redemptions.forEach((amount, k) => {
        const at = new Date(Math.min(now.getTime(), p.created.getTime() + (k + 1) * DAY));
        ledger.push({ rewardId, kind: 'REDEEM', amount: -amount, reason: 'Redeemed at partner', at });
        // A few redemptions were keyed twice and reversed (the net balance stays as planned).
        if (p.status === 'Active' && reversals < 3 && k === 0) {
          reversals++;
          ledger.push({ rewardId, kind: 'REDEEM', amount: -500, reason: 'Duplicate redemption', at });
          ledger.push({
            rewardId,
            kind: 'REVERSAL',
            amount: 500,
            reason: 'Reversed duplicate redemption',
            at,
          });
        }
      });
    });
    await insertChunked(ledger, 500, (chunk) => tx.insert(rewardLedger).values(chunk));
    // Each reversal names the duplicate it gives back (reverses_id), as reverseEntry() writes it, so
    // the ledger shows the duplicate as reversed and the weekly charts leave it out (decision 018).
    await tx.execute(sql`update reward_ledger v set reverses_id = d.id
      from reward_ledger d
      where v.kind = 'REVERSAL' and v.reverses_id is null
        and d.reward_id = v.reward_id and d.kind = 'REDEEM' and d.reason = 'Duplicate redemption'`);

    // Some history for the activity log
    const eventRows: (typeof events.$inferInsert)[] = [];
    const partnerStaff = staffRows.filter((s) => s.partnerId !== null);
    const adminActors = [
      { id: admin!.id, name: 'Adaeze Okafor' },
      ...staffRows
        .filter((s, i) => s.partnerId === null && !STAFF[i]!.invited)
        .map((s) => ({ id: s.id, name: `${s.firstName} ${s.lastName}` })),
    ];
    for (let i = 0; i < 240; i++) {
      const at = daysAgo(r.int(0, 30));
      const ip = `${r.pick(IP_PREFIXES)}${r.int(1, 254)}`;
      const fullIp = ip.split('.').length === 4 ? ip : `${ip}.${r.int(1, 254)}`;
      const who = r.int(0, 2);
      if (who === 0) {
        const s = r.pick(partnerStaff);
        const org = partnerRows.find((p) => p.id === s.partnerId)!.organizationName;
        const c = r.pick(customerRows);
        const action = r.pick([
          `Recorded a visit for ${c.firstName} ${c.lastName}`,
          `Issued a reward to ${c.firstName} ${c.lastName}`,
          `Redeemed a gift card for ${c.firstName} ${c.lastName}`,
          'Signed in',
        ]);
        eventRows.push({
          at,
          actorId: s.id,
          actorType: 'PARTNER',
          actorName: `${s.firstName} ${s.lastName}`,
          actorOrganization: org,
          action,
          entity: action === 'Signed in' ? 'user' : 'visit',
          ipAddress: fullIp,
          ipLocation: ipLocation(fullIp),
          userAgent: 'Mozilla/5.0 (Linux; Android 13) RewardClubPartner/1.4',
        });
      } else if (who === 1) {
        const c = r.pick(customerRows);
        const p = r.pick(partnerRows);
        eventRows.push({
          at,
          actorId: c.id,
          actorType: 'CUSTOMER',
          actorName: `${c.firstName} ${c.lastName}`,
          actorOrganization: null,
          action: r.pick([
            `Visited ${p.organizationName}`,
            'Viewed their rewards',
            `Redeemed a coupon at ${p.organizationName}`,
          ]),
          entity: 'customer',
          entityId: String(c.id),
          ipAddress: fullIp,
          ipLocation: ipLocation(fullIp),
          userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) RewardClub/2.3',
        });
      } else {
        // Admins: the super admin and the admin staff who have signed in at least once.
        const p = r.pick(partnerRows);
        const who = r.pick(adminActors);
        const action = r.pick([
          'Signed in',
          'Signed in',
          'Signed out',
          'Failed sign-in attempt',
          `Updated partner ${p.organizationName}`,
          `Viewed analytics of ${p.organizationName}`,
          'Updated profile',
        ]);
        eventRows.push({
          at,
          actorId: who.id,
          actorType: 'ADMIN',
          actorName: who.name,
          actorOrganization: ADMIN_ORGANIZATION,
          action,
          entity: action.includes('partner') || action.includes('analytics') ? 'partner' : 'user',
          entityId:
            action.includes('partner') || action.includes('analytics') ? String(p.id) : String(who.id),
          ipAddress: fullIp,
          ipLocation: ipLocation(fullIp),
          userAgent: r.pick([
            'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/126.0',
            'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) Safari/605.1.15',
          ]),
        });
      }
    }
    // How the roles and the staff came to be: the super admin created the roles and invited everyone.
    const officeIp = '102.89.34.17';
    const adminActor = {
      actorId: admin!.id,
      actorType: 'ADMIN' as const,
      actorName: 'Adaeze Okafor',
      actorOrganization: ADMIN_ORGANIZATION,
      ipAddress: officeIp,
      ipLocation: ipLocation(officeIp),
      userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/126.0',
    };
    Object.keys(ROLE_PERMISSIONS).forEach((name, i) => {
      eventRows.push({
        ...adminActor,
        at: new Date(daysAgo(390 - i * 10, 10).getTime() + 60_000),
        action: `Created role ${name}`,
        entity: 'role',
        entityId: String(roleId(name)),
      });
    });
    staffRows.forEach((s, i) => {
      const invitedAt = daysAgo(300 - i * 20, 10);
      eventRows.push({
        ...adminActor,
        at: invitedAt,
        action: `Invited ${s.firstName} ${s.lastName}`,
        entity: 'user',
        entityId: String(s.id),
      });
      if (!STAFF[i]!.invited) {
        const homeIp = `192.168.0.${10 + i}`;
        eventRows.push({
          at: new Date(invitedAt.getTime() + 3 * 3600_000),
          actorId: s.id,
          actorType: s.partnerId ? 'PARTNER' : 'ADMIN',
          actorName: `${s.firstName} ${s.lastName}`,
          actorOrganization: s.partnerId
            ? partnerRows.find((p) => p.id === s.partnerId)!.organizationName
            : ADMIN_ORGANIZATION,
          action: 'Set password from an invitation',
          entity: 'user',
          entityId: String(s.id),
          ipAddress: homeIp,
          ipLocation: ipLocation(homeIp),
          userAgent: 'Mozilla/5.0 (Linux; Android 13) Chrome/125.0',
        });
      }
    });
    eventRows.push({
      ...adminActor,
      at: daysAgo(45, 15),
      action: 'Updated role Support',
      entity: 'role',
      entityId: String(roleId('Support')),
    });
    // How the partners, services and blocks came to be.
    EXTENDED_SERVICES.forEach(([title], i) => {
      eventRows.push({
        ...adminActor,
        at: new Date(daysAgo(380 - i * 7, 11).getTime() + 60_000),
        action: `Created extended service ${title}`,
        entity: 'extended_service',
        entityId: String(serviceRows[i]!.id),
      });
    });
    partnerRows.forEach((p, i) => {
      const addedAt = daysAgo(360 - i * 9, 10);
      eventRows.push({
        ...adminActor,
        at: new Date(addedAt.getTime() + 60_000),
        action: `Added partner ${p.organizationName}`,
        entity: 'partner',
        entityId: String(p.id),
      });
      if (BLOCKED_PARTNERS.has(i)) {
        eventRows.push({
          ...adminActor,
          at: daysAgo(20 + i, 14),
          action: `Blocked partner ${p.organizationName}`,
          entity: 'partner',
          entityId: String(p.id),
        });
      }
    });
    customerRows.forEach((c, i) => {
      if (i % 14 !== 13) return;
      eventRows.push({
        ...adminActor,
        at: daysAgo(10 + (i % 30), 13),
        action: `Blocked client ${c.firstName} ${c.lastName}`,
        entity: 'customer',
        entityId: String(c.id),
      });
    });
    eventRows.sort((a, b) => a.at!.getTime() - b.at!.getTime());
    await insertChunked(eventRows, 500, (chunk) => tx.insert(events).values(chunk));

    // The demo partners already hold these customers' visits and rewards: each pair is a confirmed
    // consent link, as the migration of issue 28 made them for existing data (decision 053).
    await tx.execute(sql`insert into customer_links (partner_id, customer_id, requested, state, created_at, confirmed_at)
      select s.partner_id, s.customer_id, 'member:' || s.customer_id, 'CONFIRMED', now(), now()
      from (select partner_id, customer_id from visits union select partner_id, customer_id from rewards) s
      on conflict do nothing`);

    return {
      roles: roleRows.length,
      staff: staffRows.length + 1,
      partners: partnerRows.length,
      customers: customerRows.length,
      visits: visitPlans.length,
      rewards: rewardRows.length,
      events: eventRows.length,
    };
  });
}
