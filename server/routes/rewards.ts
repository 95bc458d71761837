import { eq, type SQL, sql } from 'drizzle-orm';
import { Hono } from 'hono';
import { partnerServerMessages } from '../../contract/partners';
import { partnerRewardsQuerySchema, type Reward } from '../../contract/rewards';
import { customers, partners, rewards } from '../db/schema';
import { findLivePartner } from '../domain/partners';
import { assertPartnerScope } from '../http/access';
import type { AppEnv, RouteContext } from '../http/context';
import { ApiError, ok } from '../http/errors';
import { type ListSpec, listPage } from '../http/list';
import { queryParams } from '../http/validate';

type RewardStatus = Reward['status'];

/** The status as of `now`: an Active reward past its expiry reads Expired, whatever the row says. */
const statusAt = (now: Date) =>
  sql<RewardStatus>`(case when ${rewards.status} = 'Active' and ${rewards.expiryDate} < ${now.toISOString()}::timestamptz then 'Expired' else ${rewards.status} end)`;

const rewardListAt = (
  now: Date,
): ListSpec<'createdAt' | 'expiryDate' | 'userName' | 'rewardType' | 'status' | 'balance'> => ({
  sortColumns: {
    createdAt: rewards.createdAt,
    expiryDate: rewards.expiryDate,
    userName: sql`lower(${customers.firstName} || ' ' || ${customers.lastName})`,
    rewardType: rewards.rewardType,
    status: statusAt(now),
    balance: rewards.balance,
  },
  defaultSort: { by: 'createdAt', order: 'desc' },
  tieBreaker: rewards.id,
  searchTarget: sql`(${rewards.code} || ' ' || ${rewards.title} || ' ' || ${customers.firstName} || ' ' || ${customers.lastName})`,
  dateColumn: rewards.createdAt,
});

/** /admin/partners/rewards?partnerId=: the rewards a partner issued (the Rewards tab). */
export function partnerRewardRoutes(ctx: RouteContext) {
  const { db, clock, guards } = ctx;
  return new Hono<AppEnv>().get(
    '/',
    guards.requirePermission('rewards.view'),
    queryParams(partnerRewardsQuerySchema),
    async (c) => {
      const q = c.req.valid('query');
      assertPartnerScope(c.get('user'), q.partnerId);
      if (!(await findLivePartner(db, q.partnerId))) throw new ApiError(404, partnerServerMessages.notFound);
      const now = clock();
      const status = statusAt(now);
      const data = await listPage(rewardListAt(now), q, {
        filters: [eq(rewards.partnerId, q.partnerId), q.status ? sql`${status} = ${q.status}` : undefined],
        rows: async (p) =>
          (
            await db
              .select({
                r: rewards,
                status,
                firstName: customers.firstName,
                lastName: customers.lastName,
                organizationName: partners.organizationName,
              })
              .from(rewards)
              .innerJoin(customers, eq(customers.id, rewards.customerId))
              .innerJoin(partners, eq(partners.id, rewards.partnerId))
              .where(p.where)
              .orderBy(...p.orderBy)
              .limit(p.limit)
              .offset(p.offset)
          ).map(
            ({ r, status, firstName, lastName, organizationName }): Reward => ({
              id: r.id,
              user: { id: r.customerId, firstName, lastName },
              partner: { id: r.partnerId, organizationName },
              rewardType: r.rewardType,
              rewardTypeCategory: r.rewardTypeCategory,
              code: r.code,
              title: r.title,
              description: r.description,
              promotionalImage: r.promotionalImage,
              expiryDate: r.expiryDate?.toISOString() ?? null,
              issuedAmount: r.issuedAmount,
              percentageDiscount: r.percentageDiscount,
              balance: r.rewardType === 'GIFTCARD' ? r.balance : null,
              status,
              issuedTo: r.customerId,
              createdAt: r.createdAt.toISOString(),
            }),
          ),
        count: async (where: SQL | undefined) => {
          const [row] = await db
            .select({ n: sql<number>`count(*)::int` })
            .from(rewards)
            .innerJoin(customers, eq(customers.id, rewards.customerId))
            .where(where);
          return Number(row?.n ?? 0);
        },
      });
      return ok(c, data);
    },
  );
}
