/**
 * The figures' equality check of issue 36 on the large data set: every list and figure the partner
 * benchmark times, read through the API, against the direct queries production ran before the
 * rollups and kept sort keys of decision 069 (tests/setup/scale-oracles.ts and
 * reward-activity-oracle.ts, written from the rules: 1 point per ₦100 of a visit, the 12 Lagos weeks).
 * It is not a timing: a difference is thrown, and the bench exits non-zero.
 */
import { isDeepStrictEqual } from 'node:util';
import { sql } from 'drizzle-orm';
import type { ListData } from '../../contract/envelope';
import type { RewardActivity } from '../../contract/reward-activity';
import type { EligibleUser, PointsEligibleUser, Visit } from '../../contract/visits';
import { API_BASE } from '../../server/app';
import type { Db } from '../../server/db/client';
import { executeRows } from '../../server/db/rows';
import { activityDaysFromRows, activityDaysKept, activityFromRows } from '../setup/reward-activity-oracle';
import {
  pointsFromVisits,
  pointsTableFromRows,
  pointsTableKept,
  spendInWindow,
  visitIdsByCustomerName,
} from '../setup/scale-oracles';
import type { signedInApp } from './support';

type Signed = Awaited<ReturnType<typeof signedInApp>>;

/** The first pages of a list (pageSize 10) and the totals it answered. */
async function pages<T>({ app, headers }: Signed, path: string, count: number) {
  const records: T[] = [];
  const totals = new Set<number>();
  for (let page = 1; page <= count; page++) {
    const res = await app.request(`${API_BASE}${path}&pageSize=10&pageNumber=${page}`, { headers });
    const body = (await res.json()) as { data: ListData<T> };
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(body)}`);
    totals.add(body.data.meta.totalCount);
    records.push(...body.data.records);
  }
  return { records, totals: [...totals] };
}

async function read<T>({ app, headers }: Signed, path: string): Promise<T> {
  const res = await app.request(`${API_BASE}${path}`, { headers });
  const body = (await res.json()) as { data: T };
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(body)}`);
  return body.data;
}

/** Compares each figure with its oracle; prints one line per check; throws listing the ones that differ. */
export async function checkFigures(
  db: Db,
  signed: Signed,
  o: { partners: number[]; now: Date; search: string; date: string },
): Promise<void> {
  const differ: string[] = [];
  const check = (name: string, actual: unknown, expected: unknown) => {
    const same = isDeepStrictEqual(actual, expected);
    console.log(`  ${same ? 'equal ' : 'DIFFER'} ${name}`);
    if (!same) differ.push(name);
  };
  const started = performance.now();
  // The eligibility window of the date: its 30 Lagos days, the last one the date itself.
  const dayStart = new Date(`${o.date}T00:00:00+01:00`).getTime();
  const window = {
    start: new Date(dayStart - 29 * 86_400_000),
    endExclusive: new Date(dayStart + 86_400_000),
  };
  console.log('\nThe figures against direct queries (tests/bench/scale-figures.ts):');
  check('customer_points, every row', await pointsTableKept(db), await pointsTableFromRows(db));
  check('reward_activity_by_day, every row', await activityDaysKept(db), await activityDaysFromRows(db));
  check(
    'weekly charts: club-wide',
    { ...(await read<RewardActivity>(signed, '/admin/partners/stats/reward/weekly')), asOf: null },
    { ...(await activityFromRows(db, { now: o.now })), asOf: null },
  );
  for (const partnerId of o.partners) {
    check(
      `weekly charts: partner ${partnerId}`,
      {
        ...(await read<RewardActivity>(
          signed,
          `/admin/partners/stats/partner/weekly?partnerId=${partnerId}`,
        )),
        asOf: null,
      },
      { ...(await activityFromRows(db, { now: o.now, partnerId })), asOf: null },
    );
    const points = await pointsFromVisits(db, partnerId);
    const listed = await pages<PointsEligibleUser>(
      signed,
      `/admin/partners/visits/eligible-users-bypoints?partnerId=${partnerId}`,
      3,
    );
    check(
      `points: partner ${partnerId}, first 3 pages and total`,
      {
        rows: listed.records.map((r) => ({ id: r.id, points: r.totalUnclaimedPoints })),
        totals: listed.totals,
      },
      { rows: points.slice(0, 30), totals: [points.length] },
    );
    for (const order of ['asc', 'desc'] as const) {
      const ids = await visitIdsByCustomerName(db, partnerId, order);
      const visits = await pages<Visit>(
        signed,
        `/admin/partners/visits?partnerId=${partnerId}&sortBy=userName&sortOrder=${order}`,
        3,
      );
      check(
        `visits by customer name ${order}: partner ${partnerId}, first 3 pages and total`,
        { ids: visits.records.map((v) => v.id), totals: visits.totals },
        { ids: ids.slice(0, 30), totals: [ids.length] },
      );
      for (const by of ['userName', 'totalSpent'] as const) {
        const spend = await spendInWindow(db, partnerId, window, { by, order });
        const eligible = await pages<EligibleUser>(
          signed,
          `/admin/partners/visits/reward-eligible-users?partnerId=${partnerId}&date=${o.date}&sortBy=${by}&sortOrder=${order}`,
          3,
        );
        check(
          `eligible users by ${by} ${order}: partner ${partnerId}, first 3 pages and total`,
          {
            rows: eligible.records.map((r) => ({ id: r.user.id, total: r.totalSpent })),
            totals: eligible.totals,
          },
          { rows: spend.slice(0, 30), totals: [spend.length] },
        );
      }
    }
  }
  const [matches] = await executeRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from customers where deleted_at is null and account_status = 'ACTIVE'
      and (first_name || ' ' || last_name || ' ' || email) ilike ${`%${o.search}%`}`,
  );
  const found = await pages<{ id: number }>(
    signed,
    `/admin/user/customers?status=ACTIVE&searchText=${o.search}`,
    1,
  );
  check(`clients: search "${o.search}" (active) total`, found.totals, [Number(matches?.n)]);
  console.log(`  (${((performance.now() - started) / 1000).toFixed(1)} s)`);
  if (differ.length) throw new Error(`Figures differ from their direct queries: ${differ.join('; ')}`);
}
