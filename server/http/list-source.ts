import type { SQL } from 'drizzle-orm';
import { sql } from 'drizzle-orm';
import type { PgSelect, PgTable } from 'drizzle-orm/pg-core';
import type { Context } from 'hono';
import type { ListData } from '../../contract/envelope';
import type { DbOrTx } from '../db/client';
import type { Logger } from '../log';
import { type BatchPlan, type CsvColumn, type ExportKey, exportCsv, keyColumns } from './csv-export';
import { type ListParams, type ListSpec, listPage } from './list';

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
export function sourcePage<K extends string, T>(
  source: ListSource<K, T>,
  q: ListParams<K>,
): Promise<ListData<T>> {
  const keys = keyColumns(source.spec, q);
  return listPage(source.spec, q, {
    filters: source.filters,
    rows: async (p) => (await source.read({ ...p, ...keys })).records,
    count: source.count,
    total: source.total,
  });
}

/** The CSV export of the list: every row its filters, search and sort match, in batches. */
export function sourceExport<K extends string, T>(
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
