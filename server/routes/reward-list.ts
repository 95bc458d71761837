import { eq, type SQL, sql } from 'drizzle-orm';
import { partnerServerMessages } from '../../contract/partners';
import type { PartnerRewardsQuery, Reward } from '../../contract/rewards';
import { rewardList as rewardListDefinition } from '../../contract/rewards';
import { customers, partners, rewards } from '../db/schema';
import { findLivePartner } from '../domain/partners';
import { type RewardView, rewardWithStatus } from '../domain/rewards';
import { assertPartnerScope } from '../domain/scope';
import { userName } from '../domain/visits';
import { ApiError } from '../errors';
import type { RouteContext } from '../http/context';
import { rewardCsvColumns } from '../http/csv-columns';
import type { ListSpec } from '../http/list';
import { type ListSource, listRoutes, readSelect } from '../http/list-source';
import { routeSet } from '../http/route';
import type { AuthUser } from '../types';

/* GET /admin/partners/rewards (and its CSV export): the rewards a partner issued, as of now. */

type RewardStatus = Reward['status'];

/** The status as of `now`: an Active reward past its expiry reads Expired, whatever the row says. */
const statusAt = (now: Date) =>
  sql<RewardStatus>`(case when ${rewards.status} = 'Active' and ${rewards.expiryDate} < ${now.toISOString()}::timestamptz then 'Expired' else ${rewards.status} end)`;

type RewardSortKey = 'createdAt' | 'expiryDate' | 'userName' | 'rewardType' | 'status' | 'balance';

const rewardListAt = (now: Date): ListSpec<RewardSortKey> => ({
  sortColumns: {
    createdAt: rewards.createdAt,
    expiryDate: rewards.expiryDate,
    userName,
    rewardType: rewards.rewardType,
    status: statusAt(now),
    balance: rewards.balance,
  },
  list: rewardListDefinition,
  tieBreaker: rewards.id,
  searchTarget: sql`(${rewards.code} || ' ' || ${rewards.title} || ' ' || ${customers.firstName} || ' ' || ${customers.lastName})`,
  dateColumn: rewards.createdAt,
});

type RewardListRow = RewardView & { status: RewardStatus };

const toListedReward = ({ status, ...row }: RewardListRow): Reward => rewardWithStatus(row, status);

/** /admin/partners/rewards?partnerId=: the rewards a partner issued (the Rewards tab). */
export function partnerRewardRoutes(ctx: RouteContext) {
  const { db, clock, guards } = ctx;
  /** The list's filters, after the scope and partner checks (404 outside the caller's scope). */
  const prepare = async (user: AuthUser, q: PartnerRewardsQuery) => {
    assertPartnerScope(user, q.partnerId);
    if (!(await findLivePartner(db, q.partnerId))) throw new ApiError(404, partnerServerMessages.notFound);
    const now = clock();
    const status = statusAt(now);
    const filters = [
      eq(rewards.partnerId, q.partnerId),
      q.status ? sql`${status} = ${q.status}` : undefined,
      q.userId === undefined ? undefined : eq(rewards.customerId, q.userId),
    ];
    return { spec: rewardListAt(now), status, filters };
  };
  const selectRewards = <F extends Record<string, SQL.Aliased | SQL>>(status: SQL<RewardStatus>, extra: F) =>
    db
      .select({
        r: rewards,
        status,
        firstName: customers.firstName,
        lastName: customers.lastName,
        organizationName: partners.organizationName,
        ...extra,
      })
      .from(rewards)
      .innerJoin(customers, eq(customers.id, rewards.customerId))
      .innerJoin(partners, eq(partners.id, rewards.partnerId));
  const countRewards = async (where: SQL | undefined) => {
    const [row] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(rewards)
      .innerJoin(customers, eq(customers.id, rewards.customerId))
      .where(where);
    return Number(row?.n ?? 0);
  };

  /** The rewards of the partner asked, for the list and its export (a sort by expiry may meet NULL). */
  const rewardSource = async (
    user: AuthUser,
    q: PartnerRewardsQuery,
  ): Promise<ListSource<RewardSortKey, Reward>> => {
    const { spec, status, filters } = await prepare(user, q);
    return {
      spec: { ...spec, nullableSorts: ['expiryDate'] },
      filters,
      read: (p) =>
        readSelect(selectRewards(status, p.keyFields).$dynamic(), p, (rows) => rows.map(toListedReward)),
      count: countRewards,
    };
  };

  const list = listRoutes(ctx, 'GET /admin/partners/rewards', {
    source: (q, c) => rewardSource(c.get('user'), q),
    csv: { name: (q) => `rewards-partner-${q.partnerId}`, columns: rewardCsvColumns },
  });

  return routeSet(guards)
    .on('GET /admin/partners/rewards', list.page)
    .on('GET /admin/partners/rewards/export', list.export).router;
}
