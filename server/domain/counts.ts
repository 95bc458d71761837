import { type SQL, sql } from 'drizzle-orm';
import type { PartnerStats } from '../../contract/partners';
import type { UserStats } from '../../contract/stats';
import type { DbOrTx } from '../db/client';
import { executeRows } from '../db/rows';
import type { ActorType } from './events';

/**
 * Exact row counts read from the counter tables of migration 0012 (decision 011), which triggers keep
 * in the same transaction as every write to the counted table: a few rows read instead of a count(*)
 * over up to hundreds of thousands. They answer the lists' totalCount when the query adds no search
 * text or dates (a filtered list still counts its rows) and the dashboard's user figures.
 */

type AccountStatus = 'ACTIVE' | 'BLOCKED';

const one = async (db: DbOrTx, query: SQL): Promise<number> => {
  const [row] = await executeRows<{ n: string | number }>(db, query);
  return Number(row?.n ?? 0);
};

/** Live rows of a counter table kept per account status, of one status or all. */
const statusCount = (table: 'customer_counts' | 'partner_counts') => (db: DbOrTx, status?: AccountStatus) =>
  one(
    db,
    sql`select coalesce(sum(n), 0)::bigint as n from ${sql.raw(table)} ${status ? sql`where account_status = ${status}` : sql``}`,
  );

/** Live customers, of one status or all. */
export const liveCustomerCount = statusCount('customer_counts');

/** Live partners, of one status or all. */
export const livePartnerCount = statusCount('partner_counts');

/** Live staff members (every user type and status). */
export const liveStaffCount = (db: DbOrTx) =>
  one(db, sql`select coalesce(sum(n), 0)::bigint as n from staff_counts`);

/** Visits recorded at a partner. */
export const partnerVisitCount = (db: DbOrTx, partnerId: number) =>
  one(db, sql`select coalesce(sum(n), 0)::bigint as n from visit_counts where partner_id = ${partnerId}`);

/** Events of one actor type: the sum of its shard rows. */
export const eventCount = (db: DbOrTx, actorType: ActorType) =>
  one(db, sql`select coalesce(sum(n), 0)::bigint as n from event_counts where actor_type = ${actorType}`);

/** The dashboard's user figures: live partners, customers and staff. */
export async function userStats(db: DbOrTx): Promise<UserStats> {
  const [row] = await executeRows<Record<keyof UserStats, string | number>>(
    db,
    sql`select
      (select coalesce(sum(n), 0) from partner_counts)::bigint as "totalPartners",
      (select coalesce(sum(n), 0) from customer_counts)::bigint as "totalClients",
      (select coalesce(sum(n), 0) from staff_counts)::bigint as "totalStaff"`,
  );
  return {
    totalPartners: Number(row?.totalPartners ?? 0),
    totalClients: Number(row?.totalClients ?? 0),
    totalStaff: Number(row?.totalStaff ?? 0),
  };
}

/** The partner list's header: live partners, active and blocked. */
export async function partnerStats(db: DbOrTx): Promise<PartnerStats> {
  const [row] = await executeRows<Record<'active' | 'blocked' | 'total', string | number>>(
    db,
    sql`select coalesce(sum(n), 0)::bigint as total,
      coalesce(sum(n) filter (where account_status = 'ACTIVE'), 0)::bigint as active,
      coalesce(sum(n) filter (where account_status = 'BLOCKED'), 0)::bigint as blocked
    from partner_counts`,
  );
  return {
    totalPartners: Number(row?.total ?? 0),
    activePartners: Number(row?.active ?? 0),
    blockedPartners: Number(row?.blocked ?? 0),
  };
}
