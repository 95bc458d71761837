import { and, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import { Hono } from 'hono';
import type { ListData } from '../../contract/envelope';
import { searchOf } from '../../contract/list';
import {
  createVisitBodySchema,
  type EligibleUser,
  type EligibleUserDetail,
  eligibleUserDetailQuerySchema,
  eligibleUserIdParamSchema,
  eligibleUsersQuerySchema,
  visitServerMessages as msg,
  type PointsEligibleUser,
  pointsEligibleQuerySchema,
  type Visit,
  visitIdParamSchema,
  visitListQuerySchema,
} from '../../contract/visits';
import type { DbOrTx } from '../db/client';
import { executeRows } from '../db/rows';
import { customers, partners, visitItems, visits } from '../db/schema';
import { partnerVisitCount } from '../domain/counts';
import { eligibilityVerdict, eligibilityWindow, lagosDate, type Window } from '../domain/eligibility';
import { actions, actorOfAuthUser, recordEvent, requestMeta } from '../domain/events';
import { storeFile } from '../domain/images';
import { findLivePartner, type PartnerRow, transactingPartner } from '../domain/partners';
import { NAIRA_PER_POINT } from '../domain/points';
import { fullName } from '../domain/users';
import { assertPartnerScope } from '../http/access';
import type { AppEnv, AuthUser, RouteContext } from '../http/context';
import { type CsvColumn, type ExportKey, exportCsv } from '../http/csv-export';
import { ApiError, fieldError, ok } from '../http/errors';
import { imageField } from '../http/images';
import { type ListParams, type ListPlan, type ListSpec, listPage, planList } from '../http/list';
import { jsonBody, pathParams, queryParams } from '../http/validate';

/** numeric(14,2): at most 999,999,999,999.99 naira. */
const MAX_TOTAL_KOBO = 99_999_999_999_999n;
/** A visit may be recorded a little ahead of the server clock (clock skew), never later. */
const FUTURE_TOLERANCE_MS = 5 * 60 * 1000;

const isoOf = (col: SQL | unknown) =>
  sql`to_char(${col} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const userName = sql`lower(${customers.firstName} || ' ' || ${customers.lastName})`;

/** Visits with their customer and partner; the items follow in one query per page (`withItems`). */
const visitColumns = sql`select ${visits.id} as id, ${customers.id} as "customerId", ${customers.firstName} as "firstName",
  ${customers.lastName} as "lastName", ${visits.attendantName} as "attendantName", ${isoOf(visits.visitDate)} as "visitDate",
  ${visits.totalAmount}::text as "totalAmount", ${visits.receiptImage} as "receiptImage",
  ${partners.id} as "partnerId", ${partners.organizationName} as "organizationName"`;
const visitFrom = sql`from ${visits} join ${customers} on ${customers.id} = ${visits.customerId} join ${partners} on ${partners.id} = ${visits.partnerId}`;
const visitSelect = sql`${visitColumns} ${visitFrom}`;

const visitCsvColumns: CsvColumn<Visit>[] = [
  { header: 'ID', value: (v) => v.id },
  { header: 'Visit date', value: (v) => v.visitDate },
  { header: 'Customer ID', value: (v) => v.user.id },
  { header: 'First name', value: (v) => v.user.firstName },
  { header: 'Last name', value: (v) => v.user.lastName },
  { header: 'Attendant', value: (v) => v.attendantName },
  { header: 'Total amount (NGN)', value: (v) => v.totalAmount },
  { header: 'Partner', value: (v) => v.partner.organizationName },
  {
    header: 'Items',
    value: (v) => v.visitItems.map((i) => `${i.name} x${i.quantity} @ ${i.price}`).join('; '),
  },
];

const eligibleCsvColumns: CsvColumn<EligibleUser>[] = [
  { header: 'Customer ID', value: (e) => e.user.id },
  { header: 'First name', value: (e) => e.user.firstName },
  { header: 'Last name', value: (e) => e.user.lastName },
  { header: 'Total spent (NGN)', value: (e) => e.totalSpent },
  { header: 'Eligible', value: (e) => (e.isEligible ? 'Yes' : 'No') },
  { header: 'Reward type', value: (e) => e.rewardType },
  { header: 'Message', value: (e) => e.message },
];

const pointsCsvColumns: CsvColumn<PointsEligibleUser>[] = [
  { header: 'ID', value: (u) => u.id },
  { header: 'Name', value: (u) => u.name },
  { header: 'Email', value: (u) => u.email },
  { header: 'Total unclaimed points', value: (u) => u.totalUnclaimedPoints },
];

type VisitRow = {
  id: number;
  customerId: number;
  firstName: string;
  lastName: string;
  attendantName: string;
  visitDate: string;
  totalAmount: string;
  receiptImage: string | null;
  partnerId: number;
  organizationName: string;
};

type Item = Visit['visitItems'][number];

const toVisit = (r: VisitRow, items: Item[]): Visit => ({
  id: Number(r.id),
  user: { id: Number(r.customerId), firstName: r.firstName, lastName: r.lastName },
  attendantName: r.attendantName,
  visitDate: r.visitDate,
  totalAmount: Number(r.totalAmount),
  partner: { id: Number(r.partnerId), organizationName: r.organizationName },
  imageUrl: r.receiptImage,
  visitItems: items,
});

/**
 * The rows of a page with their items, in one query (a subquery per row would also run for every
 * row an OFFSET skips).
 */
async function withItems(db: DbOrTx, rows: VisitRow[]): Promise<Visit[]> {
  const ids = rows.map((r) => Number(r.id));
  const items = new Map<number, Item[]>(ids.map((id) => [id, []]));
  if (ids.length) {
    const found = await db
      .select({
        visitId: visitItems.visitId,
        id: visitItems.id,
        name: visitItems.name,
        quantity: visitItems.quantity,
        price: visitItems.price,
      })
      .from(visitItems)
      .where(inArray(visitItems.visitId, ids))
      .orderBy(visitItems.visitId, visitItems.id);
    for (const { visitId, ...item } of found) items.get(visitId)?.push(item);
  }
  return rows.map((r) => toVisit(r, items.get(Number(r.id)) ?? []));
}

const visitSearch = sql`(${customers.firstName} || ' ' || ${customers.lastName} || ' ' || ${visits.attendantName})`;

const visitList: ListSpec<'visitDate' | 'totalAmount' | 'userName' | 'attendantName'> = {
  sortColumns: {
    visitDate: visits.visitDate,
    totalAmount: visits.totalAmount,
    userName,
    attendantName: sql`lower(${visits.attendantName})`,
  },
  defaultSort: { by: 'visitDate', order: 'desc' },
  tieBreaker: visits.id,
  searchTarget: visitSearch,
  dateColumn: visits.visitDate,
};

const spendTotal = sql`"spend"."total"`;
const eligibleList: ListSpec<'userName' | 'totalSpent'> = {
  sortColumns: { userName, totalSpent: spendTotal },
  defaultSort: { by: 'userName', order: 'asc' },
  tieBreaker: customers.id,
  searchTarget: sql`(${customers.firstName} || ' ' || ${customers.lastName} || ' ' || ${customers.email})`,
};

const pointsList: ListSpec<'points'> = {
  sortColumns: { points: sql`"balance"."unclaimed"` },
  defaultSort: { by: 'points', order: 'desc' },
  tieBreaker: customers.id,
  searchTarget: sql`(${customers.firstName} || ' ' || ${customers.lastName} || ' ' || ${customers.email})`,
};

const orderSql = (orderBy: SQL[]) => sql.join(orderBy, sql`, `);
const whereSql = (where: SQL | undefined) => (where ? sql`where ${where}` : sql``);

/**
 * The customer of a spend row, looked up by primary key. `offset 0` keeps the subquery from being
 * flattened into a join: otherwise, past a few thousand spenders, the planner hashes a sequential
 * scan of every customer (docs/decisions/005-partner-queries.md).
 */
const customerOf = (row: 'spend' | 'balance') =>
  sql`(select c.id, c.first_name, c.last_name, c.email, c.deleted_at from customers c
  where c.id = ${sql.raw(row)}.customer_id offset 0) customers`;

/** Each customer's spend at the partner inside the window: one GROUP BY over the partner's visits. */
const spendCte = (partnerId: number, w: Window) => sql`with spend as (
  select ${visits.customerId} as customer_id, sum(${visits.totalAmount}) as total
  from ${visits}
  where ${visits.partnerId} = ${partnerId} and ${visits.visitDate} >= ${w.start.toISOString()}::timestamptz and ${visits.visitDate} < ${w.endExclusive.toISOString()}::timestamptz
  group by ${visits.customerId})`;

/**
 * Each customer's unclaimed points at the partner: 1 per ₦100, rounded down per visit
 * (server/domain/points.ts), less the points rewards issued there by points claimed.
 */
const balanceCte = (partnerId: number) => sql`with earned as (
    select customer_id, sum(floor(total_amount / ${NAIRA_PER_POINT}))::bigint as points
    from visits where partner_id = ${partnerId} group by customer_id
  ), claimed as (
    select customer_id, sum(points_claimed)::bigint as points
    from rewards where partner_id = ${partnerId} and points_claimed > 0 group by customer_id
  ), balance as (
    select e.customer_id, e.points - coalesce(c.points, 0) as unclaimed
    from earned e left join claimed c on c.customer_id = e.customer_id
  )`;

const TOTAL = sql`(count(*) over ())::int as "totalCount"`;

/**
 * A page over an aggregate (eligible users, points): every group is computed before the first can be
 * sorted, so there is no early stop to lose and the page carries its total (`TOTAL`, a window count)
 * in the same query, instead of a second query that would aggregate everything again. A page past
 * the end has no row to carry it and asks `count`.
 */
async function aggregatePage<K extends string, R extends Record<string, unknown>, T>(
  db: DbOrTx,
  spec: ListSpec<K>,
  q: ListParams<K>,
  opts: {
    filters: (SQL | undefined)[];
    rows: (p: ListPlan) => SQL;
    count: (where: SQL | undefined) => SQL;
    map: (r: R) => T;
  },
): Promise<ListData<T>> {
  const plan = planList(spec, q, opts.filters);
  const rows = await executeRows<R & { totalCount: number }>(db, opts.rows(plan));
  let totalCount = Number(rows[0]?.totalCount ?? 0);
  if (rows.length === 0 && plan.offset > 0) {
    const [row] = await executeRows<{ n: number }>(db, opts.count(plan.where));
    totalCount = Number(row?.n ?? 0);
  }
  return {
    records: rows.map(opts.map),
    meta: { totalCount, pageNumber: q.pageNumber, pageSize: q.pageSize },
  };
}

async function findVisits(db: DbOrTx, where: SQL, orderBy: SQL[] = [sql`${visits.id}`], limit?: number) {
  const rows = await executeRows<VisitRow>(
    db,
    sql`${visitSelect} where ${where} order by ${orderSql(orderBy)} ${limit ? sql`limit ${limit}` : sql``}`,
  );
  return withItems(db, rows);
}

/** POST /user/visits: a partner records a customer's visit. */
export function recordVisitRoutes(ctx: RouteContext) {
  const { db, clock, config, guards } = ctx;
  return new Hono<AppEnv>().post(
    '/',
    guards.requirePermission('visits.create', 'partner'),
    jsonBody(createVisitBodySchema),
    async (c) => {
      const actor = c.get('user');
      const body = c.req.valid('json');
      const now = clock();
      const meta = requestMeta(c, config.trustProxy);
      assertPartnerScope(actor, body.partnerId);
      const visitDate = new Date(body.visitDate);
      if (visitDate.getTime() > now.getTime() + FUTURE_TOLERANCE_MS)
        throw fieldError('visitDate', msg.futureDate);
      // Exact: kobo as big integers (quantity x price can reach 10^12 naira per item).
      const totalKobo = body.items.reduce(
        (sum, i) => sum + BigInt(i.quantity) * BigInt(Math.round(i.price * 100)),
        0n,
      );
      if (totalKobo > MAX_TOTAL_KOBO) throw fieldError('items', msg.totalTooLarge);
      const totalAmount = Number(totalKobo) / 100;
      const receipt =
        body.receiptImage !== undefined ? imageField('receiptImage', body.receiptImage) : undefined;

      const id = await db.transaction(async (tx) => {
        // Share locks: a concurrent delete or block of either waits for this visit.
        const partner = await transactingPartner(tx, body.partnerId, 'partnerId');
        const [customer] = await tx
          .select({
            id: customers.id,
            firstName: customers.firstName,
            lastName: customers.lastName,
            status: customers.accountStatus,
          })
          .from(customers)
          .where(and(eq(customers.id, body.customerId), isNull(customers.deletedAt)))
          .for('share');
        if (!customer) throw fieldError('customerId', msg.customerNotFound, 404);
        if (customer.status !== 'ACTIVE') throw fieldError('customerId', msg.customerBlocked);

        const receiptImage = receipt ? await storeFile(tx, receipt.bytes, receipt.mime, now) : null;
        const [created] = await tx
          .insert(visits)
          .values({
            partnerId: partner.id,
            customerId: customer.id,
            attendantName: body.attendantName,
            visitDate,
            totalAmount: Number(totalKobo) / 100,
            receiptImage,
            createdAt: now,
          })
          .returning({ id: visits.id });
        await tx.insert(visitItems).values(
          body.items.map((i) => ({
            visitId: created!.id,
            name: i.name,
            quantity: i.quantity,
            price: i.price,
          })),
        );
        await recordEvent(tx, {
          actor: actorOfAuthUser(actor),
          action: actions.recordedVisit(fullName(customer), partner.organizationName),
          entity: 'visit',
          entityId: created!.id,
          payload: {
            partnerId: partner.id,
            customerId: customer.id,
            totalAmount,
            items: body.items.length,
          },
          meta,
          at: now,
        });
        return created!.id;
      });
      const [visit] = await findVisits(db, sql`${visits.id} = ${id}`);
      return ok(c, visit!, msg.recorded, 201);
    },
  );
}

/** /admin/partners/visits: a partner's visits, its eligible customers and their points. */
export function visitRoutes(ctx: RouteContext) {
  const { db, clock, guards } = ctx;

  /** The partner the query names: live, and the caller's own when they are partner staff. */
  const partnerFor = async (user: AuthUser, partnerId: number): Promise<PartnerRow> => {
    assertPartnerScope(user, partnerId);
    const partner = await findLivePartner(db, partnerId);
    if (!partner) throw new ApiError(404, msg.partnerNotFound);
    return partner;
  };

  return new Hono<AppEnv>()
    .get(
      '/',
      guards.requirePermission('visits.view', 'partner'),
      queryParams(visitListQuerySchema),
      async (c) => {
        const q = c.req.valid('query');
        const partner = await partnerFor(c.get('user'), q.partnerId);
        const searching = searchOf(q) !== undefined;
        const data = await listPage(visitList, q, {
          filters: [sql`${visits.partnerId} = ${partner.id}`],
          rows: async (p) =>
            withItems(
              db,
              await executeRows<VisitRow>(
                db,
                sql`${visitSelect} ${whereSql(p.where)} order by ${orderSql(p.orderBy)} limit ${p.limit} offset ${p.offset}`,
              ),
            ),
          count: async (where) => {
            // The customer join only when the search needs the name.
            const from = searching
              ? sql`${visits} join ${customers} on ${customers.id} = ${visits.customerId}`
              : sql`${visits}`;
            const [row] = await executeRows<{ n: number }>(
              db,
              sql`select count(*)::int as n from ${from} ${whereSql(where)}`,
            );
            return Number(row?.n ?? 0);
          },
          total: () => partnerVisitCount(db, partner.id),
        });
        return ok(c, data);
      },
    )
    .get(
      '/export',
      guards.requirePermission('visits.view', 'partner'),
      queryParams(visitListQuerySchema),
      async (c) => {
        const q = c.req.valid('query');
        const partner = await partnerFor(c.get('user'), q.partnerId);
        return exportCsv(c, {
          name: `visits-partner-${partner.id}`,
          spec: visitList,
          query: q,
          filters: [sql`${visits.partnerId} = ${partner.id}`],
          columns: visitCsvColumns,
          clock,
          log: ctx.log,
          batchSize: ctx.config.exportBatchSize,
          count: async (where) => {
            const [row] = await executeRows<{ n: number }>(
              db,
              sql`select count(*)::int as n from ${visits} join ${customers} on ${customers.id} = ${visits.customerId} ${whereSql(where)}`,
            );
            return Number(row?.n ?? 0);
          },
          total: () => partnerVisitCount(db, partner.id),
          batch: async (p) => {
            const raw = await executeRows<VisitRow & ExportKey>(
              db,
              sql`${visitColumns} ${p.keySql} ${visitFrom} ${whereSql(p.where)} order by ${orderSql(p.orderBy)} limit ${p.limit}`,
            );
            return { records: await withItems(db, raw), last: raw.at(-1) };
          },
        });
      },
    )
    .get(
      '/:visitId{[0-9]+}',
      guards.requirePermission('visits.view', 'partner'),
      pathParams(visitIdParamSchema),
      async (c) => {
        const user = c.get('user');
        const [visit] = await findVisits(db, sql`${visits.id} = ${c.req.valid('param').visitId}`);
        if (!visit || (user.partnerId != null && user.partnerId !== visit.partner.id)) {
          throw new ApiError(404, msg.notFound);
        }
        return ok(c, visit);
      },
    )
    .get(
      '/reward-eligible-users',
      guards.requirePermission('visits.view', 'partner'),
      queryParams(eligibleUsersQuerySchema),
      async (c) => {
        const q = c.req.valid('query');
        const partner = await partnerFor(c.get('user'), q.partnerId);
        const window = eligibilityWindow(q.date ?? lagosDate(clock()));
        const from = sql`from spend cross join lateral ${customerOf('spend')}`;
        const data = await aggregatePage(db, eligibleList, q, {
          filters: [isNull(customers.deletedAt)],
          rows: (p) => sql`${spendCte(partner.id, window)}
            select ${customers.id} as id, ${customers.firstName} as "firstName", ${customers.lastName} as "lastName",
              spend.total::text as total, ${TOTAL}
            ${from} ${whereSql(p.where)} order by ${orderSql(p.orderBy)} limit ${p.limit} offset ${p.offset}`,
          count: (where) =>
            sql`${spendCte(partner.id, window)} select count(*)::int as n ${from} ${whereSql(where)}`,
          map: (r: { id: number; firstName: string; lastName: string; total: string }): EligibleUser => ({
            user: { id: Number(r.id), firstName: r.firstName, lastName: r.lastName },
            totalSpent: Number(r.total),
            ...eligibilityVerdict(r.total, partner.minSpendToQualify),
          }),
        });
        return ok(c, data);
      },
    )
    .get(
      '/reward-eligible-users/export',
      guards.requirePermission('visits.view', 'partner'),
      queryParams(eligibleUsersQuerySchema),
      async (c) => {
        const q = c.req.valid('query');
        const partner = await partnerFor(c.get('user'), q.partnerId);
        const day = q.date ?? lagosDate(clock());
        const window = eligibilityWindow(day);
        const from = sql`from spend cross join lateral ${customerOf('spend')}`;
        return exportCsv(c, {
          name: `eligible-users-partner-${partner.id}-${day}`,
          spec: eligibleList,
          query: q,
          filters: [isNull(customers.deletedAt)],
          columns: eligibleCsvColumns,
          clock,
          log: ctx.log,
          batchSize: ctx.config.exportBatchSize,
          count: async (where) => {
            const [row] = await executeRows<{ n: number }>(
              db,
              sql`${spendCte(partner.id, window)} select count(*)::int as n ${from} ${whereSql(where)}`,
            );
            return Number(row?.n ?? 0);
          },
          batch: async (p) => {
            const raw = await executeRows<
              { id: number; firstName: string; lastName: string; total: string } & ExportKey
            >(
              db,
              sql`${spendCte(partner.id, window)}
                select ${customers.id} as id, ${customers.firstName} as "firstName", ${customers.lastName} as "lastName",
                  spend.total::text as total ${p.keySql}
                ${from} ${whereSql(p.where)} order by ${orderSql(p.orderBy)} limit ${p.limit}`,
            );
            return {
              records: raw.map(
                (r): EligibleUser => ({
                  user: { id: Number(r.id), firstName: r.firstName, lastName: r.lastName },
                  totalSpent: Number(r.total),
                  ...eligibilityVerdict(r.total, partner.minSpendToQualify),
                }),
              ),
              last: raw.at(-1),
            };
          },
        });
      },
    )
    .get(
      '/reward-eligible-users/:userId{[0-9]+}',
      guards.requirePermission('visits.view', 'partner'),
      pathParams(eligibleUserIdParamSchema),
      queryParams(eligibleUserDetailQuerySchema),
      async (c) => {
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
        const [sum] = await executeRows<{ total: string }>(
          db,
          sql`select coalesce(sum(${visits.totalAmount}), 0)::text as total from ${visits}
            where ${visits.partnerId} = ${partner.id} and ${visits.customerId} = ${userId}
            and ${visits.visitDate} >= ${window.start.toISOString()}::timestamptz and ${visits.visitDate} < ${window.endExclusive.toISOString()}::timestamptz`,
        );
        const total = sum?.total ?? '0';
        const detail: EligibleUserDetail = {
          user: first.user,
          totalSpent: Number(total),
          ...eligibilityVerdict(total, partner.minSpendToQualify),
          visitHistory,
        };
        return ok(c, detail);
      },
    )
    .get(
      '/eligible-users-bypoints',
      guards.requirePermission('visits.view', 'partner'),
      queryParams(pointsEligibleQuerySchema),
      async (c) => {
        const q = c.req.valid('query');
        const partner = await partnerFor(c.get('user'), q.partnerId);
        const from = sql`from balance cross join lateral ${customerOf('balance')}`;
        const data = await aggregatePage(
          db,
          pointsList,
          { ...q, sortBy: undefined },
          {
            filters: [sql`balance.unclaimed > 0`, isNull(customers.deletedAt)],
            rows: (p) => sql`${balanceCte(partner.id)}
              select ${customers.id} as id, ${customers.firstName} as "firstName", ${customers.lastName} as "lastName",
                ${customers.email} as email, balance.unclaimed::text as points, ${TOTAL}
              ${from} ${whereSql(p.where)} order by ${orderSql(p.orderBy)} limit ${p.limit} offset ${p.offset}`,
            count: (where) =>
              sql`${balanceCte(partner.id)} select count(*)::int as n ${from} ${whereSql(where)}`,
            map: (r: { id: number; firstName: string; lastName: string; email: string; points: string }) =>
              ({
                id: Number(r.id),
                name: fullName(r),
                email: r.email,
                totalUnclaimedPoints: Number(r.points),
              }) satisfies PointsEligibleUser,
          },
        );
        return ok(c, data);
      },
    )
    .get(
      '/eligible-users-bypoints/export',
      guards.requirePermission('visits.view', 'partner'),
      queryParams(pointsEligibleQuerySchema),
      async (c) => {
        const q = c.req.valid('query');
        const partner = await partnerFor(c.get('user'), q.partnerId);
        const from = sql`from balance cross join lateral ${customerOf('balance')}`;
        return exportCsv(c, {
          name: `points-eligible-partner-${partner.id}`,
          spec: pointsList,
          query: { ...q, sortBy: undefined },
          filters: [sql`balance.unclaimed > 0`, isNull(customers.deletedAt)],
          columns: pointsCsvColumns,
          clock,
          log: ctx.log,
          batchSize: ctx.config.exportBatchSize,
          count: async (where) => {
            const [row] = await executeRows<{ n: number }>(
              db,
              sql`${balanceCte(partner.id)} select count(*)::int as n ${from} ${whereSql(where)}`,
            );
            return Number(row?.n ?? 0);
          },
          batch: async (p) => {
            const raw = await executeRows<
              { id: number; firstName: string; lastName: string; email: string; points: string } & ExportKey
            >(
              db,
              sql`${balanceCte(partner.id)}
                select ${customers.id} as id, ${customers.firstName} as "firstName", ${customers.lastName} as "lastName",
                  ${customers.email} as email, balance.unclaimed::text as points ${p.keySql}
                ${from} ${whereSql(p.where)} order by ${orderSql(p.orderBy)} limit ${p.limit}`,
            );
            return {
              records: raw.map((r) => ({
                id: Number(r.id),
                name: fullName(r),
                email: r.email,
                totalUnclaimedPoints: Number(r.points),
              })),
              last: raw.at(-1),
            };
          },
        });
      },
    );
}
