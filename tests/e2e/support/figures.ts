import { sql } from 'drizzle-orm';
import type { Db } from '../../../server/db/client';

/**
 * The dashboard's figures, counted straight from the tables with plain SQL: an independent
 * reading to hold the screen against (not the server's own analytics code).
 */
export async function readDashboardFigures(db: Db) {
  const one = async (query: ReturnType<typeof sql>) => {
    const result = (await db.execute(query)) as unknown as { rows: Record<string, unknown>[] };
    return Number(Object.values(result.rows[0] ?? {})[0] ?? 0);
  };
  const coupons = sql`reward_type = 'COUPON' and reward_type_category = 'GENERAL'`;
  const subs = sql`reward_type = 'COUPON' and reward_type_category = 'DISCOUNTED_SUBSCRIPTION'`;
  return {
    totalPartners: await one(sql`select count(*) from partners where deleted_at is null`),
    totalClients: await one(sql`select count(*) from customers where deleted_at is null`),
    totalStaff: await one(sql`select count(*) from users where deleted_at is null`),
    totalIssuedGiftcardsCount: await one(sql`select count(*) from rewards where reward_type = 'GIFTCARD'`),
    totalIssuedGiftcardsAmount: await one(
      sql`select coalesce(sum(issued_amount), 0) from rewards where reward_type = 'GIFTCARD'`,
    ),
    totalRedeemedIssuedGiftcards: await one(
      sql`select coalesce(-sum(l.amount), 0) from reward_ledger l join rewards r on r.id = l.reward_id
          where r.reward_type = 'GIFTCARD' and l.kind in ('REDEEM', 'REVERSAL')`,
    ),
    totalIssuedCouponsCount: await one(sql`select count(*) from rewards where ${coupons}`),
    totalRedeemedCouponsCount: await one(
      sql`select count(*) from rewards where ${coupons} and status = 'Redeemed'`,
    ),
    totalIssuedDiscountedSubscriptions: await one(sql`select count(*) from rewards where ${subs}`),
    totalRedeemedDiscountedSubscriptions: await one(
      sql`select count(*) from rewards where ${subs} and status = 'Redeemed'`,
    ),
  };
}

export type DashboardFigures = Awaited<ReturnType<typeof readDashboardFigures>>;
