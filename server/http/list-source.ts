import type { SQL } from 'drizzle-orm';
import { and, asc, desc, sql } from 'drizzle-orm';
import type { PgSelect, PgTable, SelectedFields } from 'drizzle-orm/pg-core';
import type { SelectResultFields } from 'drizzle-orm/query-builders/select.types';
import type { Context } from 'hono';
import type { ApiRouteAt, ApiRouteKey } from '../../contract/api';
import type { CursorListData, ListData } from '../../contract/envelope';
import { CURSOR_LIMIT_DEFAULT, type CursorQuery, cursorMessages } from '../../contract/list';
import type { DbOrTx } from '../db/client';
import { fieldError } from '../errors';
import type { Logger } from '../log';
import type { AppEnv } from '../types';
import type { RouteContext } from './context';
import {
  type BatchPlan,
  type CsvColumn,
  type ExportKey,
  exportCsv,
  keyColumns,
  keysetAfter,
} from './csv-export';
import { ok } from './errors';
import { type ListParams, type ListSpec, listPage, planList, type SortOrder, sortOf } from './list';
import type { RouteInput } from './route';

/**
 * A list written once for its page and its CSV export (decisions 017, 041): one set of filters, one
 * query, one count, so the export holds the rows the list shows. (Lists over an aggregate have the
 * same for raw SQL: aggregate-list.ts.)
 */
export type ListSource<K extends string, T> = {
  spec: ListSpec<K> & { nullableSorts?: readonly K[] };
  filters: (SQL | undefined)[];
  /**
   * The rows after `where` in `orderBy`, at most `limit` from `offset`, with `keyFields` selected
   * too (or `keySql`, for raw SQL): the export reads on after the last raw row's keys.
   */
  read: (p: ReadPlan) => Promise<{ records: T[]; last: ExportKey | undefined }>;
  count: (where: SQL | undefined) => Promise<number>;
  /** The exact number of rows `filters` select, when a counter keeps it (decision 011). */
  total?: (() => Promise<number>) | undefined;
};

export type ReadPlan = BatchPlan & { offset: number };

/** One page of the list, with its total. */
function sourcePage<K extends string, T>(source: ListSource<K, T>, q: ListParams<K>): Promise<ListData<T>> {
  const keys = keyColumns(source.spec, q);
  return listPage(source.spec, q, {
    filters: source.filters,
    rows: async (p) => (await source.read({ ...p, ...keys })).records,
    count: source.count,
    total: source.total,
  });
}

/** The query's cursor keys when it pages by cursor (any of them sent), else undefined. */
function cursorOf(q: CursorQuery): CursorQuery | undefined {
  return q.limit !== undefined || q.startingAfter !== undefined || q.endingBefore !== undefined
    ? q
    : undefined;
}

const flip = (order: SortOrder): SortOrder => (order === 'asc' ? 'desc' : 'asc');

/**
 * One cursor page of the list (decision 066): the records after `startingAfter` (or the first ones),
 * or the records before `endingBefore`, in the query's sort, at most `limit`. The keyset is the
 * cursor record's current sort value and its id, read under the list's own filters (so a record of
 * another partner, or one no longer in the list, is a 400 `invalid_cursor`, never a page of someone
 * else's rows); `limit + 1` rows are read to know `hasMore`. Nothing is counted.
 */
async function sourceCursorPage<K extends string, T>(
  source: ListSource<K, T>,
  q: ListParams<K> & CursorQuery,
): Promise<CursorListData<T>> {
  const { spec } = source;
  const limit = q.limit ?? CURSOR_LIMIT_DEFAULT;
  const plan = planList(spec, { ...q, pageNumber: 1 }, source.filters);
  const { by, order } = sortOf(spec, q);
  const sort = spec.sortColumns[by];
  const tie = spec.tieBreaker;
  const nullable = spec.nullableSorts?.includes(by) ?? false;
  const keys = keyColumns(spec, q);
  const backwards = q.endingBefore !== undefined;
  const walk = backwards ? flip(order) : order;
  const direction = walk === 'asc' ? asc : desc;
  const orderBy = [direction(sort), direction(tie)];
  let where = plan.where;
  const cursorId = q.endingBefore ?? q.startingAfter;
  if (cursorId !== undefined) {
    const field = backwards ? 'endingBefore' : 'startingAfter';
    const { last } = await source.read({
      where: and(...source.filters, sql`${tie} = ${cursorId}`),
      orderBy,
      limit: 1,
      offset: 0,
      ...keys,
    });
    if (!last) throw fieldError(field, cursorMessages.unknown(field), 400, 'invalid_cursor');
    where = and(where, keysetAfter(sort, tie, walk, last, nullable));
  }
  const { records } = await source.read({ where, orderBy, limit: limit + 1, offset: 0, ...keys });
  const page = records.slice(0, limit);
  return { records: backwards ? page.reverse() : page, hasMore: records.length > limit };
}

/**
 * A cursor query must not also page by number, nor name both cursors: a 400 naming the field.
 * `pageNumber`/`pageSize` are read from the raw query (the validated one has their defaults).
 */
function assertOneKindOfPaging(c: Context, q: CursorQuery) {
  if (q.startingAfter !== undefined && q.endingBefore !== undefined) {
    throw fieldError('endingBefore', cursorMessages.both);
  }
  for (const name of ['pageNumber', 'pageSize'] as const) {
    if (c.req.query(name)) throw fieldError(name, cursorMessages.withPage);
  }
}

/** The CSV export of the list: every row its filters, search and sort match, in batches. */
function sourceExport<K extends string, T>(
  c: Context,
  source: ListSource<K, T>,
  q: ListParams<K>,
  o: {
    name: string;
    columns: CsvColumn<T>[];
    clock: () => Date;
    log: Logger;
    batchSize?: number | undefined;
  },
) {
  return exportCsv(c, {
    ...o,
    spec: source.spec,
    query: q,
    filters: source.filters,
    count: source.count,
    total: source.total,
    batch: (p) => source.read({ ...p, offset: 0 }),
  });
}

/** `count(*)` of a table's rows matching `where`. */
export const countRows =
  (db: DbOrTx, table: PgTable) =>
  async (where: SQL | undefined): Promise<number> => {
    const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(table).where(where);
    return Number(row?.n ?? 0);
  };

/**
 * `read` for a drizzle select (`.$dynamic()`, with `p.keyFields` among its columns): the plan's
 * WHERE, ORDER BY, LIMIT and OFFSET, the rows mapped, and the last raw row's keys.
 */
export async function readSelect<Q extends PgSelect, T>(
  query: Q,
  p: ReadPlan,
  map: (rows: Awaited<Q>) => T[] | Promise<T[]>,
): Promise<{ records: T[]; last: ExportKey | undefined }> {
  const raw = (await query
    .where(p.where)
    .orderBy(...p.orderBy)
    .limit(p.limit)
    .offset(p.offset)) as Awaited<Q>;
  return { records: await map(raw), last: raw.at(-1) as ExportKey | undefined };
}

/**
 * The `ListSource` of one table's rows: `columns` (with the plan's key fields) selected from `table`,
 * mapped by `map`, counted over `table`.
 */
export function tableSource<K extends string, C extends SelectedFields, T>(
  db: DbOrTx,
  table: PgTable,
  columns: C,
  o: Pick<ListSource<K, T>, 'spec' | 'filters' | 'total'> & {
    map: (rows: SelectResultFields<C>[]) => T[] | Promise<T[]>;
  },
): ListSource<K, T> {
  return {
    spec: o.spec,
    filters: o.filters,
    read: (p) =>
      readSelect(
        db
          .select({ ...columns, ...p.keyFields })
          .from(table)
          .$dynamic(),
        p,
        (rows) => o.map(rows as SelectResultFields<C>[]),
      ),
    count: countRows(db, table),
    total: o.total,
  };
}

/** The validated query of a route, as its handler reads it (`c.req.valid('query')`). */
type QueryOf<R extends ApiRouteKey> = RouteInput<ApiRouteAt<R>>['out'] extends { query: infer Q } ? Q : never;

/** A handler of a route whose query is `Q`. */
type ListHandler<Q> = (c: Context<AppEnv, string, { out: { query: Q } }>) => Promise<Response>;

/**
 * The handlers of a list's page route (`route`) and of its CSV export route, which takes the same
 * query: both serve the request's `source`, so the export holds the rows the list shows.
 * `routes.on(pageKey, list.page).on(exportKey, list.export)`.
 */
export function listRoutes<R extends ApiRouteKey, K extends string, T>(
  ctx: Pick<RouteContext, 'clock' | 'log' | 'config'>,
  _route: R,
  o: {
    source: (q: QueryOf<R>, c: Context<AppEnv>) => ListSource<K, T> | Promise<ListSource<K, T>>;
    /** The export's file name (without the date) and columns. */
    csv: { name: (q: QueryOf<R>) => string; columns: CsvColumn<T>[] };
  },
): { page: ListHandler<QueryOf<R>>; export: ListHandler<QueryOf<R>> } {
  return {
    page: async (c) => {
      const q = c.req.valid('query') as QueryOf<R> & ListParams<K> & CursorQuery;
      const cursor = cursorOf(q);
      if (cursor) assertOneKindOfPaging(c, cursor);
      const source = await o.source(q, c);
      if (!source.spec.list.cursor) return ok(c, await sourcePage(source, q));
      if (cursor) return ok(c, await sourceCursorPage(source, q));
      // Paged by number, a list that also pages by cursor says `hasMore` too (one answer shape).
      const page = await sourcePage(source, q);
      const seen = (q.pageNumber - 1) * q.pageSize + page.records.length;
      return ok(c, { ...page, hasMore: seen < page.meta.totalCount } satisfies CursorListData<T>);
    },
    export: async (c) => {
      const q = c.req.valid('query') as QueryOf<R> & ListParams<K>;
      return sourceExport(c, await o.source(q, c), q, {
        name: o.csv.name(q),
        columns: o.csv.columns,
        clock: ctx.clock,
        log: ctx.log,
        batchSize: ctx.config.exportBatchSize,
      });
    },
  };
}
