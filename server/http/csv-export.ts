import { stringify } from 'csv-stringify/sync';
import { and, asc, desc, type SQL, sql } from 'drizzle-orm';
import type { Context } from 'hono';
import { lagosDate } from '../domain/eligibility';
import type { Logger } from '../log';
import { type ListParams, type ListSpec, planList, type SortOrder, sortOf, totalOf } from './list';

/**
 * CSV export of a list (issue 9, decision 017): every row the list's filters, search and sort
 * match, not one page, streamed in keyset batches so memory stays flat whatever the row count.
 *
 * Each batch is one short query `WHERE <the list's filters> AND (sort, id) after (last row's sort,
 * last id) ORDER BY sort, id LIMIT n`: no transaction or cursor is held open while a slow client
 * downloads (PGlite has one connection; a held transaction would stall every other request).
 */

/** Rows per batch: small enough to keep memory flat, large enough that 100,000 rows take 50 queries. */
export const EXPORT_BATCH_SIZE = 2_000;

/** UTF-8 byte order mark: spreadsheets then read ₦ and accented names right (decision 017). */
export const CSV_BOM = '\uFEFF';

/** The keyset of the last row of a batch, read back as text with its SQL type. */
export type ExportKey = { __k: string | null; __t: string; __id: string };

/** What a batch query receives: the list's WHERE plus the keyset, ORDER BY, LIMIT, the key columns. */
export type BatchPlan = {
  where: SQL | undefined;
  orderBy: SQL[];
  limit: number;
  /** For a drizzle `.select({ ...columns, ...plan.keyFields })`. */
  keyFields: { __k: SQL<string | null>; __t: SQL<string>; __id: SQL<string> };
  /** For raw SQL: `select ... ${plan.keySql} from ...` (starts with a comma). */
  keySql: SQL;
};

export type CsvColumn<R> = { header: string; value: (record: R) => string | number | null | undefined };

export type ExportOptions<K extends string, R> = {
  /** File name without the date and extension, e.g. 'partners'. */
  name: string;
  spec: ListSpec<K> & { nullableSorts?: readonly K[] };
  query: ListParams<K>;
  filters?: (SQL | undefined)[];
  columns: CsvColumn<R>[];
  /** One batch: the records (in order) and the key columns of the last raw row. */
  batch: (plan: BatchPlan) => Promise<{ records: R[]; last: ExportKey | undefined }>;
  /** Rows the export will hold, for the client's progress (X-Total-Count); optional. */
  count?: (where: SQL | undefined) => Promise<number>;
  /** The exact number of rows `filters` select, from a counter (used when no search text or dates). */
  total?: () => Promise<number>;
  clock: () => Date;
  log: Logger;
  batchSize?: number;
};

/** A SQL type name from pg_typeof, safe to inline in a cast (letters, digits, spaces, brackets). */
const safeType = (t: string): string => {
  if (!/^[a-z][a-z0-9 _]*(\[\])?$/.test(t)) throw new Error(`unexpected sort type ${t}`);
  return t;
};

/**
 * The rows after `last` in the order (sort, tieBreaker) ascending or descending. PostgreSQL puts
 * NULLs last ascending and first descending; a nullable sort key is handled in both directions.
 */
export function keysetAfter(
  sort: SQL | unknown,
  tie: SQL | unknown,
  order: SortOrder,
  last: ExportKey,
  nullable: boolean,
): SQL {
  const id = sql`${last.__id}::bigint`;
  if (last.__k === null) {
    const sameNullGroup = order === 'asc' ? sql`${tie} > ${id}` : sql`${tie} < ${id}`;
    return order === 'asc'
      ? sql`(${sort} is null and ${sameNullGroup})`
      : sql`((${sort} is null and ${sameNullGroup}) or ${sort} is not null)`;
  }
  const value = sql`cast(${last.__k} as ${sql.raw(safeType(last.__t))})`;
  const after =
    order === 'asc' ? sql`(${sort}, ${tie}) > (${value}, ${id})` : sql`(${sort}, ${tie}) < (${value}, ${id})`;
  return nullable && order === 'asc' ? sql`(${after} or ${sort} is null)` : after;
}

/** The key columns of a row in the query's sort: its sort value, that value's SQL type, its id. */
export function keyColumns<K extends string>(
  spec: ListSpec<K>,
  q: Pick<ListParams<K>, 'sortBy' | 'sortOrder'>,
): Pick<BatchPlan, 'keyFields' | 'keySql'> {
  const sort = spec.sortColumns[sortOf(spec, q).by];
  const keyFields = {
    __k: sql<string | null>`(${sort})::text`,
    __t: sql<string>`pg_typeof(${sort})::text`,
    __id: sql<string>`(${spec.tieBreaker})::text`,
  };
  return {
    keyFields,
    keySql: sql`, ${keyFields.__k} as "__k", ${keyFields.__t} as "__t", ${keyFields.__id} as "__id"`,
  };
}

/** `partners-2026-03-02.csv`: the list's name and today's date in Lagos. */
export const exportFileName = (name: string, now: Date) => `${name}-${lagosDate(now)}.csv`;

/** CSV text of records; formulas (= + - @ tab CR at the start of a cell) get a leading apostrophe. */
export function csvText<R>(columns: CsvColumn<R>[], records: R[], withHeader: boolean): string {
  const rows = records.map((r) => columns.map((col) => col.value(r) ?? ''));
  return stringify(withHeader ? [columns.map((col) => col.header), ...rows] : rows, {
    escape_formulas: true,
    record_delimiter: 'windows',
  });
}

/**
 * Answers with the CSV of every matching row. The first batch runs before the response starts, so a
 * failing query still gets the error envelope. The body is a pull stream: the next batch is read
 * only when the socket has taken the last one (a slow client slows the export, never fills memory),
 * and a failure later errors the stream, so the download breaks instead of ending short and clean.
 */
export async function exportCsv<K extends string, R>(c: Context, o: ExportOptions<K, R>) {
  const size = o.batchSize ?? EXPORT_BATCH_SIZE;
  const plan = planList(o.spec, { ...o.query, pageNumber: 1, pageSize: 10 }, o.filters);
  const { by, order } = sortOf(o.spec, o.query);
  const sort = o.spec.sortColumns[by];
  const tie = o.spec.tieBreaker;
  const nullable = o.spec.nullableSorts?.includes(by) ?? false;
  const direction = order === 'asc' ? asc : desc;
  const keys = keyColumns(o.spec, o.query);
  const batchPlan = (last: ExportKey | undefined): BatchPlan => ({
    where: last ? and(plan.where, keysetAfter(sort, tie, order, last, nullable)) : plan.where,
    orderBy: [direction(sort), direction(tie)],
    limit: size,
    ...keys,
  });

  const [total, first] = await Promise.all([totalOf(plan, o), o.batch(batchPlan(undefined))]);
  const encoder = new TextEncoder();
  let next: ExportKey | undefined = first.records.length === size ? first.last : undefined;
  let pending: string | null = CSV_BOM + csvText(o.columns, first.records, true);
  let rows = first.records.length;
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          if (pending !== null) {
            controller.enqueue(encoder.encode(pending));
            pending = null;
            return;
          }
          if (!next) {
            controller.close();
            return;
          }
          const batch = await o.batch(batchPlan(next));
          rows += batch.records.length;
          next = batch.records.length === size ? batch.last : undefined;
          if (batch.records.length)
            controller.enqueue(encoder.encode(csvText(o.columns, batch.records, false)));
          else controller.close();
        } catch (err) {
          o.log.error('csv export failed', { export: o.name, rows, error: String(err) });
          controller.error(err);
        }
      },
      cancel() {
        next = undefined;
        pending = null;
      },
    },
    { highWaterMark: 0 },
  );

  const headers: Record<string, string> = {
    'Content-Type': 'text/csv; charset=utf-8',
    'Content-Disposition': `attachment; filename="${exportFileName(o.name, o.clock())}"`,
    'X-Content-Type-Options': 'nosniff',
  };
  if (total !== undefined) headers['X-Total-Count'] = String(total);
  return c.body(body, 200, headers);
}
