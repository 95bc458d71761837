import {
  type AnyColumn,
  and,
  asc,
  desc,
  getTableColumns,
  gte,
  lt,
  type SQL,
  sql,
  type Table,
} from 'drizzle-orm';
import type { ListData } from '../../contract/envelope';
import { type ListDefinition, type ListQuery, searchOf } from '../../contract/list';

export type SortOrder = 'asc' | 'desc';

/** Lagos has no daylight saving time: a date in a list filter is a day in West Africa Time. */
const DAY_OFFSET = '+01:00';
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * How one list is searched, sorted and filtered by date. `sortColumns` is the whitelist of sortable
 * keys (the contract's `sortBy` enum of that list), each mapped to the SQL it sorts by; `tieBreaker`
 * (the primary key) is appended in the same direction, so the order is total and a page never
 * repeats or skips a row, and a btree `(sort, id)` serves it forwards or backwards.
 */
export type ListSpec<K extends string> = {
  /** The contract's `defineList`: its sort keys and default sort are the server's (one source). */
  list: ListDefinition<K>;
  sortColumns: Record<K, AnyColumn | SQL>;
  tieBreaker: AnyColumn | SQL;
  /** The text searched with ILIKE '%text%' (kept equal to the trigram index expression). */
  searchTarget?: SQL;
  /** Filtered by the query's startDate / endDate (whole days, both inclusive). */
  dateColumn?: AnyColumn;
};

/**
 * The spec of a list over one table's rows: ties broken by its `id`, the date filter on its
 * `createdAt`.
 */
export const tableList = <K extends string>(
  table: { id: AnyColumn; createdAt: AnyColumn },
  list: ListDefinition<K>,
  searchTarget: SQL,
  sortColumns: Record<K, AnyColumn | SQL>,
): ListSpec<K> => ({ list, sortColumns, tieBreaker: table.id, searchTarget, dateColumn: table.createdAt });

/** Sort keys of a table's text columns, which sort without regard to case: `lower(column)`. */
export function caseless<T extends Table, N extends keyof T['_']['columns'] & string>(
  table: T,
  names: readonly N[],
): Record<N, SQL> {
  const columns = getTableColumns(table);
  return Object.fromEntries(names.map((name) => [name, sql`lower(${columns[name]})`])) as Record<N, SQL>;
}

/** What the page and count queries receive. */
export type ListPlan = {
  where: SQL | undefined;
  orderBy: SQL[];
  limit: number;
  offset: number;
  /** The query's search text or dates narrow the rows beyond the list's own filters. */
  narrowed: boolean;
};

export type ListParams<K extends string> = Pick<
  ListQuery,
  'pageNumber' | 'pageSize' | 'searchText' | 'search' | 'startDate' | 'endDate' | 'sortOrder'
> & { sortBy?: K | undefined };

/** `%`, `_` and `\` typed by a user match themselves, not any text. */
export const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (m) => `\\${m}`);

/** `target ILIKE '%text%'`, the text taken literally. */
export const containsText = (target: SQL | AnyColumn, text: string): SQL =>
  sql`${target} ilike ${`%${escapeLike(text)}%`}`;

/** The start of a day (YYYY-MM-DD, West Africa Time) as an instant. */
export const dayStart = (day: string): Date => new Date(`${day}T00:00:00${DAY_OFFSET}`);

/** The sort of a query: an explicit sortBy without sortOrder sorts ascending; none is the list's default. */
export function sortOf<K extends string>(
  spec: ListSpec<K>,
  q: Pick<ListParams<K>, 'sortBy' | 'sortOrder'>,
): { by: K; order: SortOrder } {
  const { sortBy, sortOrder } = spec.list.defaultSort;
  return q.sortBy
    ? { by: q.sortBy, order: q.sortOrder ?? 'asc' }
    : { by: sortBy, order: q.sortOrder ?? sortOrder };
}

/** Turns a validated list query into WHERE, ORDER BY, LIMIT and OFFSET. */
export function planList<K extends string>(
  spec: ListSpec<K>,
  q: ListParams<K>,
  filters: (SQL | undefined)[] = [],
): ListPlan {
  const conditions = [...filters];
  const own = conditions.length;
  const text = searchOf(q);
  if (text && spec.searchTarget) conditions.push(containsText(spec.searchTarget, text));
  if (spec.dateColumn && q.startDate) conditions.push(gte(spec.dateColumn, dayStart(q.startDate)));
  if (spec.dateColumn && q.endDate) {
    conditions.push(lt(spec.dateColumn, new Date(dayStart(q.endDate).getTime() + DAY_MS)));
  }
  const { by, order } = sortOf(spec, q);
  const direction = order === 'asc' ? asc : desc;
  return {
    where: conditions.some(Boolean) ? and(...conditions) : undefined,
    orderBy: [direction(spec.sortColumns[by]), direction(spec.tieBreaker)],
    limit: q.pageSize,
    offset: (q.pageNumber - 1) * q.pageSize,
    narrowed: conditions.length > own,
  };
}

/**
 * One page of a list with its total: the page query (LIMIT/OFFSET over an index in the sort order)
 * and the count run side by side. The count is `total` (an exact counter kept by triggers, decision
 * 011) when the list has one for its own filters and the query adds no search text or dates, else
 * `count` over the WHERE (an index-only scan where the filter allows it).
 * A page past the end is empty, with the true totalCount, so the caller can step back.
 */
export async function listPage<K extends string, Row>(
  spec: ListSpec<K>,
  q: ListParams<K>,
  run: {
    filters?: (SQL | undefined)[];
    rows: (plan: ListPlan) => Promise<Row[]>;
    count: (where: SQL | undefined) => Promise<number>;
    /** The exact number of rows `filters` select, when a counter keeps it. */
    total?: (() => Promise<number>) | undefined;
  },
): Promise<ListData<Row>> {
  const plan = planList(spec, q, run.filters);
  const [records, totalCount] = await Promise.all([run.rows(plan), totalOf(plan, run)]);
  return {
    records,
    meta: { totalCount: Number(totalCount), pageNumber: q.pageNumber, pageSize: q.pageSize },
  };
}

/** `total` when the plan is the list's own filters only and a counter keeps their total, else `count`. */
export const totalOf = (
  plan: ListPlan,
  o: {
    count?: ((where: SQL | undefined) => Promise<number>) | undefined;
    total?: (() => Promise<number>) | undefined;
  },
): Promise<number> | undefined => (o.total && !plan.narrowed ? o.total() : o.count?.(plan.where));
