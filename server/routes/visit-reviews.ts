import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Context } from 'hono';
import { formatNaira } from '../../contract/money';
import type { ReviewRules } from '../../contract/partners';
import { visitReviewMessages as msg, visitReviewList } from '../../contract/visit-reviews';
import { type Visit, visitReviewFlagLabels } from '../../contract/visits';
import { executeRows, orderSql, whereSql } from '../db/rows';
import { customers, partners, visits } from '../db/schema';
import { actions, actorOfAuthUser, recordEvent } from '../domain/events';
import { staffUserId } from '../domain/scope';
import { reviewRulesColumns, toReviewRules } from '../domain/visit-review';
import { findVisits, type VisitRow, visitColumns, visitFrom, withItems } from '../domain/visits';
import { ApiError } from '../errors';
import { requestMeta } from '../http/client-address';
import type { RouteContext } from '../http/context';
import { visitReviewCsvColumns } from '../http/csv-columns';
import type { ExportKey } from '../http/csv-export';
import { ok } from '../http/errors';
import type { ListSpec } from '../http/list';
import { listRoutes } from '../http/list-source';
import { routeSet } from '../http/route';
import type { AppEnv } from '../types';

type ReviewSortKey = 'visitDate' | 'totalAmount';

const reviewList: ListSpec<ReviewSortKey> = {
  sortColumns: { visitDate: visits.visitDate, totalAmount: visits.totalAmount },
  list: visitReviewList,
  tieBreaker: visits.id,
  searchTarget: sql`(${customers.firstName} || ' ' || ${customers.lastName} || ' ' || ${visits.attendantName})`,
  dateColumn: visits.visitDate,
};

/** Flagged visits only: the queue and its history (visits_review_queue_idx, visits_review_partner_idx). */
const flagged = sql`cardinality(${visits.reviewFlags}) > 0`;

const rulesText = (r: ReviewRules) =>
  [
    `amount above ${r.amountAbove === null ? 'none' : formatNaira(r.amountAbove)}`,
    `receipt ${r.requireReceipt ? 'required' : 'not required'}`,
    `visits per day ${r.maxVisitsPerDay === null ? 'no limit' : `at most ${r.maxVisitsPerDay}`}`,
  ].join(', ');

/**
 * /admin/visit-reviews and /admin/partners/{id}/review-rules (issue 35, decision 075): the club's
 * queue of flagged visits, its decisions, and a partner's rules. Club-scoped: a partner's staff
 * neither review its own visits nor change its rules.
 */
export function visitReviewRoutes(ctx: RouteContext) {
  const { db, clock, guards, config } = ctx;

  const list = listRoutes(ctx, 'GET /admin/visit-reviews', {
    source: async (q) => {
      if (q.partnerId !== undefined) {
        const [p] = await db
          .select({ id: partners.id })
          .from(partners)
          .where(and(eq(partners.id, q.partnerId), isNull(partners.deletedAt)));
        if (!p) throw new ApiError(404, 'Partner not found');
      }
      return {
        spec: reviewList,
        filters: [
          flagged,
          sql`${visits.reviewState} = ${q.state}`,
          q.partnerId === undefined ? undefined : sql`${visits.partnerId} = ${q.partnerId}`,
        ],
        read: async (p) => {
          const raw = await executeRows<VisitRow & ExportKey>(
            db,
            sql`${visitColumns} ${p.keySql} ${visitFrom} ${whereSql(p.where)} order by ${orderSql(p.orderBy)} limit ${p.limit} offset ${p.offset}`,
          );
          return { records: await withItems(db, raw), last: raw.at(-1) };
        },
        count: async (where) => {
          const [row] = await executeRows<{ n: number }>(
            db,
            sql`select count(*)::int as n from ${visits} join ${customers} on ${customers.id} = ${visits.customerId} ${whereSql(where)}`,
          );
          return Number(row?.n ?? 0);
        },
      };
    },
    csv: { name: (q) => `visit-reviews-${q.state}`, columns: visitReviewCsvColumns },
  });

  /** Moves a waiting visit to `state` (locked, conditional), with its event and `visit.reviewed`. */
  const decide = async (
    c: Context<AppEnv>,
    visitId: number,
    state: 'approved' | 'rejected',
    reason: string | null,
  ): Promise<Visit> => {
    const user = c.get('user');
    const now = clock();
    const meta = requestMeta(c, config.trustProxy);
    return db.transaction(async (tx) => {
      const [row] = await tx
        .select({
          id: visits.id,
          partnerId: visits.partnerId,
          customerId: visits.customerId,
          reviewState: visits.reviewState,
          reviewFlags: visits.reviewFlags,
          totalAmount: visits.totalAmount,
        })
        .from(visits)
        .where(eq(visits.id, visitId))
        .for('update');
      if (!row) throw new ApiError(404, msg.notFound);
      if (row.reviewState !== 'waiting') throw new ApiError(409, msg.notWaiting(row.reviewState));
      // Conditional as well as locked: one decision moves a waiting visit. The points rollup's
      // trigger (migration 0024) moves its points in on approval.
      const moved = await tx
        .update(visits)
        .set({ reviewState: state, reviewReason: reason, reviewedBy: staffUserId(user), reviewedAt: now })
        .where(and(eq(visits.id, row.id), eq(visits.reviewState, 'waiting')))
        .returning({ id: visits.id });
      if (moved.length === 0) throw new ApiError(409, msg.notWaiting('decided'));
      const [visit] = await findVisits(tx, sql`${visits.id} = ${row.id}`);
      const customer = `${visit!.user.firstName} ${visit!.user.lastName}`.trim();
      const flags = visit!.review.flags;
      await recordEvent(tx, {
        actor: actorOfAuthUser(user),
        action:
          state === 'approved'
            ? actions.approvedVisit(customer, visit!.partner.organizationName)
            : actions.rejectedVisit(customer, visit!.partner.organizationName, reason ?? ''),
        entity: 'visit',
        entityId: row.id,
        payload: {
          partnerId: row.partnerId,
          customerId: row.customerId,
          state,
          flags,
          flagText: flags.map((f) => visitReviewFlagLabels[f]),
          reason,
          totalAmount: Number(row.totalAmount),
        },
        meta,
        at: now,
        webhook: {
          type: 'visit.reviewed',
          partnerId: row.partnerId,
          data: {
            visitId: row.id,
            partnerId: row.partnerId,
            customerId: row.customerId,
            state,
            flags,
            reason,
            totalAmount: Number(row.totalAmount),
            reviewedAt: now.toISOString(),
          },
        },
      });
      return visit!;
    });
  };

  return routeSet(guards)
    .on('GET /admin/visit-reviews', list.page)
    .on('GET /admin/visit-reviews/export', list.export)
    .on('POST /admin/visit-reviews/{visitId}/approve', async (c) => {
      const visit = await decide(c, c.req.valid('param').visitId, 'approved', null);
      return ok(c, visit, msg.approved);
    })
    .on('POST /admin/visit-reviews/{visitId}/reject', async (c) => {
      const { reason } = c.req.valid('json');
      const visit = await decide(c, c.req.valid('param').visitId, 'rejected', reason);
      return ok(c, visit, msg.rejected);
    })
    .on('PATCH /admin/partners/{partnerId}/review-rules', async (c) => {
      const { partnerId } = c.req.valid('param');
      const body = c.req.valid('json');
      const user = c.get('user');
      const now = clock();
      const rules = await db.transaction(async (tx) => {
        const [before] = await tx
          .select({ organizationName: partners.organizationName, ...reviewRulesColumns })
          .from(partners)
          .where(and(eq(partners.id, partnerId), isNull(partners.deletedAt)))
          .for('update');
        if (!before) throw new ApiError(404, 'Partner not found');
        const previous = toReviewRules(before);
        const next: ReviewRules = {
          amountAbove: body.amountAbove === undefined ? previous.amountAbove : body.amountAbove,
          requireReceipt: body.requireReceipt ?? previous.requireReceipt,
          maxVisitsPerDay:
            body.maxVisitsPerDay === undefined ? previous.maxVisitsPerDay : body.maxVisitsPerDay,
        };
        // The partner's own record (and its version, decision 024) is not changed: only its rules.
        await tx
          .update(partners)
          .set({
            reviewAmountAbove: next.amountAbove,
            reviewRequireReceipt: next.requireReceipt,
            reviewMaxVisitsPerDay: next.maxVisitsPerDay,
          })
          .where(eq(partners.id, partnerId));
        await recordEvent(tx, {
          actor: actorOfAuthUser(user),
          action: actions.setVisitReviewRules(before.organizationName, rulesText(next)),
          entity: 'partner',
          entityId: partnerId,
          payload: { ...next, previous },
          meta: requestMeta(c, config.trustProxy),
          at: now,
        });
        return next;
      });
      return ok(c, rules, msg.rulesSaved);
    }).router;
}
