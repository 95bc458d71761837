import { type SQL, sql } from 'drizzle-orm';
import type { Context } from 'hono';
import type { ListData } from '../../contract/envelope';
import type { DbOrTx } from '../db/client';
import { executeRows, orderSql, whereSql } from '../db/rows';
import type { Logger } from '../log';
import { type CsvColumn, type ExportKey, exportCsv } from './csv-export';
import { type ListParams, type ListSpec, planList } from './list';

/**
 * A list over an aggregate (a partner's eligible customers, their points), written once for its
 * page and its CSV export: `with` clauses that compute the groups, the `from` that joins them, the
 * columns of a row and how a row reads.
 */
export type AggregateList<K extends string, R extends Record<string, unknown>, T> = {
  spec: ListSpec<K>;
  filters: (SQL | undefined)[];
  /** The `with ...` clauses the rows and the count share. */
  prelude: SQL;
  from: SQL;
  /** The columns of a row (without `select`). */
  columns: SQL;
  map: (row: R) => T;
  /**
   * The exact number of rows `filters` select, when a rollup keeps it (decision 069): the page then
   * reads its rows in the index's order and stops at the page's end, instead of a window count over
   * every group. Used only when the query adds no search text or dates.
   */
  total?: () => Promise<number>;
  /**
   * The groups a page is cut from (a `with` name such as `spend`, sorted by its own columns) and the
   * join that completes a row. With `total`, and when the query adds no search text or dates, the
   * page is cut from the groups before the join, so only its own rows are joined (decision 069);
   * otherwise `from` as it is.
   */
  cut?: { groups: string; join: SQL };
};

const TOTAL = sql`(count(*) over ())::int as "totalCount"`;

const countSql = (list: AggregateList<string, never, unknown>, where: SQL | undefined) =>
  sql`${list.prelude} select count(*)::int as n ${list.from} ${whereSql(where)}`;

/**
 * A page over an aggregate: every group is computed before the first can be sorted, so there is no
 * early stop to lose and the page carries its total (`TOTAL`, a window count) in the same query,
 * instead of a second query that would aggregate everything again. A page past the end has no row
 * to carry it and asks for the count.
 */
export async function aggregatePage<K extends string, R extends Record<string, unknown>, T>(
  db: DbOrTx,
  list: AggregateList<K, R, T>,
  q: ListParams<K>,
): Promise<ListData<T>> {
  const plan = planList(list.spec, q, list.filters);
  if (list.total && !plan.narrowed) {
    const cut = list.cut && plan.where === undefined ? list.cut : undefined;
    const groups = cut ? sql.raw(`"${cut.groups}"`) : undefined;
    const query = cut
      ? sql`${list.prelude} select ${list.columns}
          from (select * from ${groups} order by ${orderSql(plan.orderBy)} limit ${plan.limit} offset ${plan.offset}) as ${groups}
          ${cut.join} order by ${orderSql(plan.orderBy)}`
      : sql`${list.prelude} select ${list.columns} ${list.from} ${whereSql(plan.where)}
          order by ${orderSql(plan.orderBy)} limit ${plan.limit} offset ${plan.offset}`;
    const [page, totalCount] = await Promise.all([executeRows<R>(db, query), list.total()]);
    return {
      records: page.map(list.map),
      meta: { totalCount: Number(totalCount), pageNumber: q.pageNumber, pageSize: q.pageSize },
    };
  }
  const rows = await executeRows<R & { totalCount: number }>(
    db,
    sql`${list.prelude} select ${list.columns}, ${TOTAL} ${list.from} ${whereSql(plan.where)}
      order by ${orderSql(plan.orderBy)} limit ${plan.limit} offset ${plan.offset}`,
  );
  let totalCount = Number(rows[0]?.totalCount ?? 0);
  if (rows.length === 0 && plan.offset > 0) {
    const [row] = await executeRows<{ n: number }>(db, countSql(list as never, plan.where));
    totalCount = Number(row?.n ?? 0);
  }
  return {
    records: rows.map(list.map),
    meta: { totalCount, pageNumber: q.pageNumber, pageSize: q.pageSize },
  };
}

/** The CSV export of an aggregate list: every row its query matches, in batches (decision 017). */
export function exportAggregate<K extends string, R extends Record<string, unknown>, T>(
  c: Context,
  db: DbOrTx,
  list: AggregateList<K, R, T>,
  q: ListParams<K>,
  o: { name: string; columns: CsvColumn<T>[]; clock: () => Date; log: Logger; batchSize?: number },
) {
  return exportCsv(c, {
    ...o,
    spec: list.spec,
    query: q,
    filters: list.filters,
    count: async (where) => {
      const [row] = await executeRows<{ n: number }>(db, countSql(list as never, where));
      return Number(row?.n ?? 0);
    },
    batch: async (p) => {
      const raw = await executeRows<R & ExportKey>(
        db,
        sql`${list.prelude} select ${list.columns} ${p.keySql} ${list.from} ${whereSql(p.where)}
          order by ${orderSql(p.orderBy)} limit ${p.limit}`,
      );
      return { records: raw.map(list.map), last: raw.at(-1) };
    },
  });
}
