import { isNull, sql } from 'drizzle-orm';
import { formatNaira } from '../../contract/money';
import {
  type EligibleUser,
  type EligibleUserDetail,
  eligibleList as eligibleListDefinition,
  visitServerMessages as msg,
  type PointsEligibleUser,
  pointsEligibleList,
} from '../../contract/visits';
import type { DbOrTx } from '../db/client';
import { executeRows } from '../db/rows';
import { customerPoints, customers, visits } from '../db/schema';
import { eligibilityVerdict, eligibilityWindow, lagosDate, type Window } from '../domain/eligibility';
import { maskEmail } from '../domain/otp';
import { type PartnerRow, scopedLivePartner } from '../domain/partners';
import { fullName } from '../domain/users';
import { findVisits } from '../domain/visits';
import { ApiError } from '../errors';
import { type AggregateList, aggregatePage, exportAggregate } from '../http/aggregate-list';
import type { RouteContext } from '../http/context';
import { eligibleCsvColumns, pointsCsvColumns } from '../http/csv-columns';
import { ok } from '../http/errors';
import type { ListSpec } from '../http/list';
import { routeSet } from '../http/route';
import type { AuthUser } from '../types';

/**
 * /admin/partners/visits/reward-eligible-users and /eligible-users-bypoints: a partner's customers
 * by their spend in the eligibility window and by their unclaimed points. Each is an aggregate
 * list (server/http/aggregate-list.ts) written once for its page and its CSV export.
 */

const spendTotal = sql`"spend"."total"`;
/**
 * Sorted by the spend rows' own columns (decision 069): the customer's name as each visit keeps it
 * (`customer_name_key`, equal to `userName` of server/domain/visits.ts) and the customer's id, so
 * the page sorts the window's groups and looks up only its own customers.
 */
const eligibleList: ListSpec<'userName' | 'totalSpent'> = {
  sortColumns: { userName: sql`"spend"."name_key"`, totalSpent: spendTotal },
  list: eligibleListDefinition,
  tieBreaker: sql`"spend"."customer_id"`,
  searchTarget: sql`(${customers.firstName} || ' ' || ${customers.lastName} || ' ' || ${customers.email})`,
};

const pointsList: ListSpec<'points'> = {
  sortColumns: { points: sql`"balance"."unclaimed"` },
  list: pointsEligibleList,
  // The customer's id as the rollup has it: the page follows customer_points_unclaimed_idx.
  tieBreaker: sql`"balance"."customer_id"`,
  searchTarget: sql`(${customers.firstName} || ' ' || ${customers.lastName} || ' ' || ${customers.email})`,
};

/**
 * The customer of a spend row, looked up by primary key. `offset 0` keeps the subquery from being
 * flattened into a join: otherwise, past a few thousand spenders, the planner hashes a sequential
 * scan of every customer (docs/decisions/005-partner-queries.md).
 */
const customerOf = (row: 'spend' | 'balance') =>
  sql`(select c.id, c.first_name, c.last_name, c.email, c.deleted_at from customers c
  where c.id = ${sql.raw(row)}.customer_id offset 0) customers`;

/**
 * Each live customer's spend at the partner inside the window from the visits that count (approved:
 * not waiting for review nor rejected, decision 075): one GROUP BY over the window's entries of
 * visits_partner_date_id_idx (index only: migration 0024 adds review_state to its payload), a deleted
 * customer's visits left out by the few deleted ids (customers_deleted_idx, a hashed set), never by a
 * lookup of every spender (migration 0023, decision 069).
 */
const spendCte = (partnerId: number, w: Window) => sql`with spend as (
  select ${visits.customerId} as customer_id, min(${visits.customerNameKey}) as name_key, sum(${visits.totalAmount}) as total
  from ${visits}
  where ${visits.partnerId} = ${partnerId} and ${visits.visitDate} >= ${w.start.toISOString()}::timestamptz and ${visits.visitDate} < ${w.endExclusive.toISOString()}::timestamptz
    and ${visits.reviewState} = 'approved'
    and ${visits.customerId} not in (select ${customers.id} from ${customers} where ${customers.deletedAt} is not null)
  group by ${visits.customerId})`;

/**
 * Each customer's unclaimed points at the partner: 1 per ₦100, rounded down per visit
 * (server/domain/points.ts), less the points rewards issued there by points claimed; the figures of
 * customer_points (migration 0021, decision 069), kept by triggers on visits and rewards.
 */
const balanceCte = (partnerId: number) => sql`with balance as (
    select ${customerPoints.customerId} as customer_id, ${customerPoints.earned} - ${customerPoints.claimed} as unclaimed
    from ${customerPoints}
    where ${customerPoints.partnerId} = ${partnerId} and ${customerPoints.earned} > ${customerPoints.claimed}
      and ${customerPoints.live}
  )`;

type SpendRow = { id: number; firstName: string; lastName: string; total: string };
type PointsRow = { id: number; firstName: string; lastName: string; email: string; points: string };

/**
 * The partner's customers by spend in the window, with the verdict of each. Its total is a count of
 * the spend rows (run beside the page), so the page sorts the groups and stops at its end.
 */
const eligibleUsers = (
  db: DbOrTx,
  partner: PartnerRow,
  window: Window,
): AggregateList<'userName' | 'totalSpent', SpendRow, EligibleUser> => ({
  spec: eligibleList,
  // Deleted customers are left out by spendCte itself.
  filters: [],
  prelude: spendCte(partner.id, window),
  from: sql`from spend cross join lateral ${customerOf('spend')}`,
  cut: { groups: 'spend', join: sql`cross join lateral ${customerOf('spend')}` },
  columns: sql`${customers.id} as id, ${customers.firstName} as "firstName", ${customers.lastName} as "lastName",
    spend.total::text as total`,
  map: (r) => ({
    user: { id: Number(r.id), firstName: r.firstName, lastName: r.lastName },
    totalSpent: Number(r.total),
    ...eligibilityVerdict(r.total, partner.minSpendToQualify),
  }),
  total: async () => {
    const [row] = await executeRows<{ n: number }>(
      db,
      sql`${spendCte(partner.id, window)} select count(*)::int as n from spend`,
    );
    return Number(row?.n ?? 0);
  },
});

/** The partner's customers with unclaimed points, most first. */
const pointsEligible = (
  db: DbOrTx,
  partner: PartnerRow,
  masked: boolean,
): AggregateList<'points', PointsRow, PointsEligibleUser> => ({
  spec: pointsList,
  filters: [sql`balance.unclaimed > 0`, isNull(customers.deletedAt)],
  prelude: balanceCte(partner.id),
  from: sql`from balance cross join lateral ${customerOf('balance')}`,
  columns: sql`${customers.id} as id, ${customers.firstName} as "firstName", ${customers.lastName} as "lastName",
    ${customers.email} as email, balance.unclaimed::text as points`,
  map: (r) => ({
    id: Number(r.id),
    name: fullName(r),
    // Partner staff and keys see the address masked (issue 28).
    email: masked ? maskEmail(r.email) : r.email,
    totalUnclaimedPoints: Number(r.points),
  }),
  // The rows of balanceCte: `live` already leaves deleted customers out.
  total: async () => {
    const [row] = await executeRows<{ n: number }>(
      db,
      sql`${balanceCte(partner.id)} select count(*)::int as n from balance`,
    );
    return Number(row?.n ?? 0);
  },
});

/** The explainer's words for the visits of the window that do not count (decision 075), or ''. */
export function notCountedSentence(n: EligibleUserDetail['notCounted']): string {
  const visitsOf = (count: number) => (count === 1 ? '1 visit' : `${count} visits`);
  const parts = [
    n.waiting > 0 ? `${visitsOf(n.waiting)} (${formatNaira(n.waitingAmount)}) waiting for review` : null,
    n.rejected > 0 ? `${visitsOf(n.rejected)} (${formatNaira(n.rejectedAmount)}) rejected in review` : null,
  ].filter((p): p is string => p !== null);
  return parts.length > 0 ? `; not counted: ${parts.join(', ')}` : '';
}

export function visitEligibilityRoutes(ctx: RouteContext) {
  const { db, clock, guards } = ctx;
  const partnerFor = (user: AuthUser, partnerId: number) =>
    scopedLivePartner(db, user, partnerId, msg.partnerNotFound);
  const csv = { clock, log: ctx.log, batchSize: ctx.config.exportBatchSize };

  return routeSet(guards)
    .on('GET /admin/partners/visits/reward-eligible-users', async (c) => {
      const q = c.req.valid('query');
      const partner = await partnerFor(c.get('user'), q.partnerId);
      const window = eligibilityWindow(q.date ?? lagosDate(clock()));
      return ok(c, await aggregatePage(db, eligibleUsers(db, partner, window), q));
    })
    .on('GET /admin/partners/visits/reward-eligible-users/export', async (c) => {
      const q = c.req.valid('query');
      const partner = await partnerFor(c.get('user'), q.partnerId);
      const day = q.date ?? lagosDate(clock());
      return exportAggregate(c, db, eligibleUsers(db, partner, eligibilityWindow(day)), q, {
        ...csv,
        name: `eligible-users-partner-${partner.id}-${day}`,
        columns: eligibleCsvColumns,
      });
    })
    .on('GET /admin/partners/visits/reward-eligible-users/{userId}', async (c) => {
      const q = c.req.valid('query');
      const { userId } = c.req.valid('param');
      const partner = await partnerFor(c.get('user'), q.partnerId);
      const window = eligibilityWindow(q.date ?? lagosDate(clock()));
      const inWindow = sql`${visits.partnerId} = ${partner.id} and ${visits.customerId} = ${userId}
          and ${visits.visitDate} >= ${window.start.toISOString()}::timestamptz and ${visits.visitDate} < ${window.endExclusive.toISOString()}::timestamptz
          and ${customers.deletedAt} is null`;
      const visitHistory = await findVisits(db, inWindow, [
        sql`${visits.visitDate} desc`,
        sql`${visits.id} desc`,
      ]);
      const first = visitHistory[0];
      if (!first) throw new ApiError(404, msg.noVisits);
      // What counts (approved) and what does not (waiting for review, rejected), per state.
      const sums = await executeRows<{ state: string; n: number; total: string }>(
        db,
        sql`select ${visits.reviewState} as state, count(*)::int as n, coalesce(sum(${visits.totalAmount}), 0)::text as total from ${visits}
            where ${visits.partnerId} = ${partner.id} and ${visits.customerId} = ${userId}
            and ${visits.visitDate} >= ${window.start.toISOString()}::timestamptz and ${visits.visitDate} < ${window.endExclusive.toISOString()}::timestamptz
            group by 1`,
      );
      const of = (state: string) => sums.find((r) => r.state === state);
      const total = of('approved')?.total ?? '0';
      const notCounted = {
        waiting: Number(of('waiting')?.n ?? 0),
        waitingAmount: Number(of('waiting')?.total ?? 0),
        rejected: Number(of('rejected')?.n ?? 0),
        rejectedAmount: Number(of('rejected')?.total ?? 0),
      };
      const verdict = eligibilityVerdict(total, partner.minSpendToQualify);
      const detail: EligibleUserDetail = {
        user: first.user,
        totalSpent: Number(total),
        ...verdict,
        message: verdict.message + notCountedSentence(notCounted),
        visitHistory,
        notCounted,
      };
      return ok(c, detail);
    })
    .on('GET /admin/partners/visits/eligible-users-bypoints', async (c) => {
      const q = c.req.valid('query');
      const partner = await partnerFor(c.get('user'), q.partnerId);
      return ok(c, await aggregatePage(db, pointsEligible(db, partner, c.get('partnerScope') !== null), q));
    })
    .on('GET /admin/partners/visits/eligible-users-bypoints/export', async (c) => {
      const q = c.req.valid('query');
      const partner = await partnerFor(c.get('user'), q.partnerId);
      return exportAggregate(c, db, pointsEligible(db, partner, c.get('partnerScope') !== null), q, {
        ...csv,
        name: `points-eligible-partner-${partner.id}`,
        columns: pointsCsvColumns,
      });
    }).router;
}
