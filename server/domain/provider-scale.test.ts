import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ListData } from '../../contract/envelope';
import type { EligibleUser, PointsEligibleUser, Visit } from '../../contract/visits';
import {
  pointsFromVisits,
  pointsTableFromRows,
  pointsTableKept,
  spendInWindow,
  visitIdsByCustomerName,
} from '../../tests/setup/scale-oracles';
import {
  createCustomer,
  createPartner,
  createReward,
  createSuperAdmin,
  createVisit,
  setupTestServer,
  signIn,
} from '../../tests/setup/server';
import { executeRows } from '../db/rows';

/**
 * The rollups of decision 069 (migration 0021) stay equal to the direct queries (tests/setup/
 * scale-oracles.ts) through every kind of write: the points-eligible list from customer_points, the
 * visits tab's customer sort from the name kept on each visit. The weekly charts' club rollups are
 * checked in analytics.test.ts against their own oracle.
 */
const t = setupTestServer();
let token: string;
const get = <T>(path: string) => t.request<T>('GET', path, { token });
const partners: number[] = [];
const people: number[] = [];
const at = new Date('2026-02-10T11:00:00.000Z');
/** A day whose 30-day eligibility window holds `at`: 2026-01-13 00:00 to 2026-02-12 00:00 Lagos. */
const windowDay = '2026-02-11';
const eligibilityWindowOf = (day: string) => ({
  start: new Date(new Date(`${day}T00:00:00+01:00`).getTime() - 29 * 86_400_000),
  endExclusive: new Date(new Date(`${day}T00:00:00+01:00`).getTime() + 86_400_000),
});

/** Every page of a list, pageSize 10. */
async function allPages<T>(path: string) {
  const records: T[] = [];
  const totals = new Set<number>();
  for (let page = 1; ; page++) {
    const res = await get<ListData<T>>(`${path}&pageSize=10&pageNumber=${page}`);
    expect(res.status).toBe(200);
    totals.add(res.body.data!.meta.totalCount);
    records.push(...res.body.data!.records);
    if (res.body.data!.records.length < 10) break;
  }
  return { records, totals: [...totals] };
}

async function check() {
  expect(await pointsTableKept(t.db)).toEqual(await pointsTableFromRows(t.db));
  for (const p of partners) {
    const expected = await pointsFromVisits(t.db, p);
    const { records, totals } = await allPages<PointsEligibleUser>(
      `/admin/partners/visits/eligible-users-bypoints?partnerId=${p}`,
    );
    expect(records.map((r) => ({ id: r.id, points: r.totalUnclaimedPoints }))).toEqual(expected);
    expect(totals).toEqual([expected.length]);
    for (const order of ['asc', 'desc'] as const) {
      const visits = await allPages<Visit>(
        `/admin/partners/visits?partnerId=${p}&sortBy=userName&sortOrder=${order}`,
      );
      expect(visits.records.map((v) => v.id)).toEqual(await visitIdsByCustomerName(t.db, p, order));
      // The eligibility window's spend (30 Lagos days ending with the date), by name and by spend.
      for (const by of ['userName', 'totalSpent'] as const) {
        const eligible = await allPages<EligibleUser>(
          `/admin/partners/visits/reward-eligible-users?partnerId=${p}&date=${windowDay}&sortBy=${by}&sortOrder=${order}`,
        );
        const expected = await spendInWindow(t.db, p, eligibilityWindowOf(windowDay), { by, order });
        expect(eligible.records.map((r) => ({ id: r.user.id, total: r.totalSpent }))).toEqual(expected);
        expect(eligible.totals).toEqual([expected.length]);
      }
    }
  }
}

beforeAll(async () => {
  const admin = await createSuperAdmin(t.db);
  token = (await signIn(t, admin.email, admin.password)).accessToken;
  for (const name of ['Scale P', 'Scale Q'])
    partners.push((await createPartner(t.db, { organizationName: name })).id);
  const names = [
    ['Zainab', 'Usman'],
    ['ada', 'Obi'],
    ['Ada', 'Obi'],
    ['Émeka', 'Eze'],
    ['Musa', 'Bello'],
  ] as const;
  for (const [firstName, lastName] of names)
    people.push((await createCustomer(t.db, { firstName, lastName })).id);
});

describe('customer_points and visits.customer_name_key (decision 069)', () => {
  it('stay equal to the direct queries through inserts, bulk writes, moves, updates, deletes, renames, deletion and restore', async () => {
    const [p, q] = partners as [number, number];
    const [z, a1, a2, e, m] = people as [number, number, number, number, number];
    // One visit at a time (₦150 + ₦150 earn 1 + 1), claims by points rewards.
    await createVisit(t.db, { partnerId: p, customerId: z, visitDate: at, amount: 150 });
    await createVisit(t.db, { partnerId: p, customerId: z, visitDate: at, amount: 150 });
    await createVisit(t.db, { partnerId: p, customerId: a1, visitDate: at, amount: 12_550 });
    await createVisit(t.db, { partnerId: p, customerId: a2, visitDate: at, amount: 5_000 });
    await createVisit(t.db, { partnerId: p, customerId: e, visitDate: at, amount: 99.99 });
    await createVisit(t.db, { partnerId: q, customerId: e, visitDate: at, amount: 100_000 });
    // Outside the eligibility window (after its last day): earns points, spends nothing in it.
    await createVisit(t.db, {
      partnerId: p,
      customerId: m,
      visitDate: new Date('2026-03-20T10:00:00Z'),
      amount: 700,
    });
    await createReward(t.db, { partnerId: p, customerId: a2, pointsClaimed: 50 });
    await createReward(t.db, { partnerId: p, customerId: a1, pointsClaimed: 25 });
    await createReward(t.db, { partnerId: q, customerId: z, pointsClaimed: 1 });
    await check();

    // One statement, many rows over both partners, one customer several times.
    await t.db.execute(sql`insert into visits (partner_id, customer_id, attendant_name, visit_date, total_amount)
      select case when g % 2 = 0 then ${p}::int else ${q}::int end, (array[${z}, ${m}, ${m}, ${a1}]::int[])[1 + g % 4],
        'Bulk', ${at.toISOString()}::timestamptz, 100 + g * 37.5
      from generate_series(1, 12) g`);
    await check();

    // A visit's amount changes, a visit moves partner, a visit changes customer, visits go.
    await t.db.execute(
      sql`update visits set total_amount = total_amount + 250 where partner_id = ${p} and customer_id = ${m}`,
    );
    await t.db.execute(
      sql`update visits set partner_id = ${q} where id = (select min(id) from visits where customer_id = ${a1} and partner_id = ${p})`,
    );
    await t.db.execute(
      sql`update visits set customer_id = ${e} where id = (select max(id) from visits where customer_id = ${z} and partner_id = ${p})`,
    );
    await t.db.execute(
      sql`delete from visit_items where visit_id in (select id from visits where attendant_name = 'Bulk' and total_amount < 300)`,
    );
    await t.db.execute(sql`delete from visits where attendant_name = 'Bulk' and total_amount < 300`);
    await check();

    // Claims change, move and go.
    await t.db.execute(
      sql`update rewards set points_claimed = points_claimed + 3 where customer_id = ${a1} and partner_id = ${p}`,
    );
    await t.db.execute(
      sql`update rewards set partner_id = ${p} where customer_id = ${z} and partner_id = ${q}`,
    );
    await t.db.execute(
      sql`delete from reward_ledger where reward_id in (select id from rewards where customer_id = ${a2})`,
    );
    await t.db.execute(sql`delete from rewards where customer_id = ${a2}`);
    await check();

    // Renames (one at a time, and several in one statement as the subscriber sync writes them).
    await t.db.execute(sql`update customers set first_name = 'Aaron' where id = ${m}`);
    await t.db.execute(
      sql`update customers set last_name = case id when ${z} then 'Abiola' else 'Zubair' end where id in (${z}, ${a1})`,
    );
    await check();

    // Deleted customers leave the points list; restored, they are back.
    await t.db.execute(sql`update customers set deleted_at = now() where id in (${a1}, ${e})`);
    await check();
    await t.db.execute(sql`update customers set deleted_at = null where id = ${a1}`);
    await check();
  });

  it('a new visit takes its customer’s name as it is now', async () => {
    const [p] = partners as [number];
    const c = await createCustomer(t.db, { firstName: 'Aaa', lastName: 'First' });
    await t.db.execute(sql`update customers set first_name = 'Zzz' where id = ${c.id}`);
    const v = await createVisit(t.db, { partnerId: p, customerId: c.id, visitDate: at, amount: 500 });
    const [row] = await executeRows<{ key: string }>(
      t.db,
      sql`select customer_name_key as key from visits where id = ${v.id}`,
    );
    expect(row?.key).toBe('zzz first');
    await check();
  });
});
