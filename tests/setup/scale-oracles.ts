import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../server/db/client';
import { executeRows } from '../../server/db/rows';

/**
 * Test oracles of the rollups of decision 069 (migration 0021): the direct queries production ran
 * before them, reading every visit and reward. Tests compare the lists and the kept tables with these;
 * production code never uses them.
 */

/**
 * A partner's customers with unclaimed points, most first: 1 point per ₦100 per visit that counts
 * (approved in review, decision 075), rounded down, less points claimed there.
 */
export async function pointsFromVisits(
  db: DbOrTx,
  partnerId: number,
): Promise<{ id: number; points: number }[]> {
  const rows = await executeRows<{ id: number; points: string }>(
    db,
    sql`with earned as (
        select customer_id, sum(floor(total_amount / 100))::bigint as points from visits where partner_id = ${partnerId} and review_state = 'approved' group by customer_id
      ), claimed as (
        select customer_id, sum(points_claimed)::bigint as points from rewards where partner_id = ${partnerId} and points_claimed > 0 group by customer_id
      )
      select c.id, (e.points - coalesce(cl.points, 0))::text as points
      from earned e left join claimed cl on cl.customer_id = e.customer_id join customers c on c.id = e.customer_id
      where e.points - coalesce(cl.points, 0) > 0 and c.deleted_at is null
      order by e.points - coalesce(cl.points, 0) desc, c.id desc`,
  );
  return rows.map((r) => ({ id: Number(r.id), points: Number(r.points) }));
}

/** Every (partner, customer) pair's earned and claimed points, recomputed from visits (approved) and rewards. */
export async function pointsTableFromRows(db: DbOrTx) {
  return executeRows<{
    partnerId: number;
    customerId: number;
    earned: string;
    claimed: string;
    live: boolean;
  }>(
    db,
    sql`select p.partner_id as "partnerId", p.customer_id as "customerId", sum(p.earned)::text as earned,
        sum(p.claimed)::text as claimed, bool_and(c.deleted_at is null) as live
      from (
        select partner_id, customer_id, floor(total_amount / 100)::bigint as earned, 0::bigint as claimed from visits
          where review_state = 'approved'
        union all
        select partner_id, customer_id, 0, points_claimed from rewards where points_claimed > 0
      ) p join customers c on c.id = p.customer_id
      group by 1, 2 having sum(p.earned) <> 0 or sum(p.claimed) <> 0
      order by 1, 2`,
  );
}

/** customer_points as kept, without its zero rows (a pair whose visits and claims all went). */
export async function pointsTableKept(db: DbOrTx) {
  return executeRows<{
    partnerId: number;
    customerId: number;
    earned: string;
    claimed: string;
    live: boolean;
  }>(
    db,
    sql`select partner_id as "partnerId", customer_id as "customerId", earned::text, claimed::text, live
      from customer_points where earned <> 0 or claimed <> 0 order by 1, 2`,
  );
}

/** A partner's visit ids sorted by their customer's name (lower(first || ' ' || last)), then id, read through the join. */
export async function visitIdsByCustomerName(db: DbOrTx, partnerId: number, order: 'asc' | 'desc') {
  const dir = sql.raw(order);
  const rows = await executeRows<{ id: number }>(
    db,
    sql`select v.id from visits v join customers c on c.id = v.customer_id where v.partner_id = ${partnerId}
      order by lower(c.first_name || ' ' || c.last_name) ${dir}, v.id ${dir}`,
  );
  return rows.map((r) => Number(r.id));
}

/**
 * A partner's live customers with spend in a window [start, end) from the visits that count (approved
 * in review, decision 075), read by joining every visit of the window to its customer: ids and totals in the order asked (by name lower(first || ' ' || last), or
 * by spend), id as the tie-breaker.
 */
export async function spendInWindow(
  db: DbOrTx,
  partnerId: number,
  w: { start: Date; endExclusive: Date },
  sort: { by: 'userName' | 'totalSpent'; order: 'asc' | 'desc' },
): Promise<{ id: number; total: number }[]> {
  const dir = sql.raw(sort.order);
  const key =
    sort.by === 'userName' ? sql`lower(c.first_name || ' ' || c.last_name)` : sql`sum(v.total_amount)`;
  const rows = await executeRows<{ id: number; total: string }>(
    db,
    sql`select c.id, sum(v.total_amount)::text as total from visits v join customers c on c.id = v.customer_id
      where v.partner_id = ${partnerId} and c.deleted_at is null and v.review_state = 'approved'
        and v.visit_date >= ${w.start.toISOString()}::timestamptz and v.visit_date < ${w.endExclusive.toISOString()}::timestamptz
      group by c.id, c.first_name, c.last_name
      order by ${key} ${dir}, c.id ${dir}`,
  );
  return rows.map((r) => ({ id: Number(r.id), total: Number(r.total) }));
}
