import { type SQL, sql } from 'drizzle-orm';
import type { RewardActivity, RewardWeek } from '../../contract/reward-activity';
import type { DbOrTx } from '../../server/db/client';
import { executeRows } from '../../server/db/rows';
import { activityWeeks } from '../../server/domain/analytics';

/**
 * The test oracle of the weekly reward charts: decision 018's direct query, as production ran it
 * before the per-day rollup (migration 0011), reading every reward and ledger row of the 12 weeks.
 * Tests compare server/domain/analytics.ts's rollup-based `rewardActivity` with it; production code
 * never uses it.
 */
export async function activityFromRows(
  db: DbOrTx,
  opts: { now: Date; partnerId?: number },
): Promise<RewardActivity> {
  const { starts, start, endExclusive } = activityWeeks(opts.now);
  const from = start.toISOString();
  const to = endExclusive.toISOString();
  const now = opts.now.toISOString();
  const p = opts.partnerId;
  const week = (col: SQL) =>
    sql`floor(extract(epoch from (${col} - ${from}::timestamptz)) / ${7 * 24 * 60 * 60})::int`;
  const rows = await executeRows<{ k: 'i' | 'r' | 'o'; w: number | null; n: number; amount: string }>(
    db,
    sql`
    select 'i' as k, ${week(sql.raw('r.created_at'))} as w, count(*)::int as n,
      coalesce(sum(r.issued_amount) filter (where r.reward_type = 'GIFTCARD'), 0)::numeric(14, 2)::text as amount
    from rewards r
    where r.created_at >= ${from}::timestamptz and r.created_at < ${to}::timestamptz
      and ${p === undefined ? sql`true` : sql`r.partner_id = ${p}`}
    group by 2
    union all
    select 'r', ${week(sql.raw('l.at'))}, count(*)::int, coalesce(-sum(l.amount), 0)::numeric(14, 2)::text
    from reward_ledger l
    ${p === undefined ? sql`` : sql`join rewards r on r.id = l.reward_id and r.partner_id = ${p}`}
    where l.kind = 'REDEEM' and l.at >= ${from}::timestamptz and l.at < ${to}::timestamptz
      and not exists (select 1 from reward_ledger x where x.reverses_id = l.id)
    group by 2
    union all
    select 'o', null, count(*)::int, coalesce(sum(g.balance), 0)::numeric(14, 2)::text
    from rewards g
    where g.reward_type = 'GIFTCARD' and g.status = 'Active'
      and (g.expiry_date is null or g.expiry_date > ${now}::timestamptz)
      and ${p === undefined ? sql`true` : sql`g.partner_id = ${p}`}
  `,
  );
  const weeks: RewardWeek[] = starts.map((weekStart) => ({
    weekStart,
    issuedCount: 0,
    issuedAmount: 0,
    redeemedCount: 0,
    redeemedAmount: 0,
  }));
  for (const row of rows) {
    const w = row.w === null ? undefined : weeks[Number(row.w)];
    if (!w) continue;
    if (row.k === 'i') {
      w.issuedCount = Number(row.n);
      w.issuedAmount = Number(row.amount);
    } else if (row.k === 'r') {
      w.redeemedCount = Number(row.n);
      w.redeemedAmount = Number(row.amount);
    }
  }
  const outstanding = rows.find((r) => r.k === 'o');
  return {
    timeZone: 'Africa/Lagos',
    weeks,
    outstandingGiftcardBalance: Number(outstanding?.amount ?? 0),
    outstandingGiftcardCount: Number(outstanding?.n ?? 0),
    asOf: now,
  };
}

/**
 * reward_activity_by_day as the migration's backfill computes it from every reward and ledger row,
 * all days (not only 12 weeks), zero rows left out: the whole table must always equal it.
 */
export async function activityDaysFromRows(db: DbOrTx) {
  return executeRows<Record<string, string | number>>(
    db,
    sql`select d.partner_id::int as "partnerId", d.day::text as day, sum(d.ic)::int as ic, sum(d.ia)::numeric(14, 2)::text as ia,
      sum(d.rc)::int as rc, sum(d.ra)::numeric(14, 2)::text as ra
    from (
      select r.partner_id, (r.created_at at time zone interval '+01:00')::date as day, 1 as ic,
        case when r.reward_type = 'GIFTCARD' then coalesce(r.issued_amount, 0) else 0 end as ia, 0 as rc, 0 as ra
      from rewards r
      union all
      select r.partner_id, (l.at at time zone interval '+01:00')::date, 0, 0, 1, -l.amount
      from reward_ledger l join rewards r on r.id = l.reward_id
      where l.kind = 'REDEEM' and not exists (select 1 from reward_ledger x where x.reverses_id = l.id)
    ) d
    group by 1, 2
    order by 1, 2`,
  );
}

/** The rows of reward_activity_by_day, zero rows left out, in the shape of activityDaysFromRows. */
export async function activityDaysKept(db: DbOrTx) {
  return executeRows<Record<string, string | number>>(
    db,
    sql`select partner_id::int as "partnerId", day::text as day, issued_count as ic, issued_amount::numeric(14, 2)::text as ia,
      redeemed_count as rc, redeemed_amount::numeric(14, 2)::text as ra
    from reward_activity_by_day
    where issued_count <> 0 or issued_amount <> 0 or redeemed_count <> 0 or redeemed_amount <> 0
    order by 1, 2`,
  );
}
