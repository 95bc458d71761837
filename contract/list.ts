import { MAX_ID } from './ids';
import { z } from './zod';

/** Page sizes the lists offer (docs/product.md#constants). */
export const PAGE_SIZES = [10, 20, 50, 100] as const;
export type PageSize = (typeof PAGE_SIZES)[number];

const pageSizeMessage = `pageSize must be one of ${PAGE_SIZES.join(', ')}`;

/** The longest search text a list takes (the server refuses more; the SPA cuts a longer one, with a note). */
export const SEARCH_MAX = 100;

/** The earliest date a filter takes: before it, instants fall outside what the database can store. */
export const EARLIEST_DATE = '1900-01-01';

/** A calendar date (YYYY-MM-DD) from 1900 on. */
export const listDate = (name: string) =>
  z.iso
    .date({ error: `${name} must be a date (YYYY-MM-DD)` })
    .check(z.refine((d) => d >= EARLIEST_DATE, { error: `${name} must be on or after ${EARLIEST_DATE}` }));

/** One of PAGE_SIZES, from a string too (typed as PageSize, as a type-guard refinement narrows it). */
export const pageSizeField = z.coerce
  .number({ error: pageSizeMessage })
  .check(
    z.refine((n) => (PAGE_SIZES as readonly number[]).includes(n), { error: pageSizeMessage }),
  ) as z.ZodMiniType<PageSize, unknown>;

/** A list's page, from 1 (a string in the query); 1 when absent. */
export const pageNumberField = z._default(
  z.coerce
    .number({ error: 'pageNumber must be a whole number from 1' })
    .check(
      z.int({ error: 'pageNumber must be a whole number from 1' }),
      z.minimum(1, { error: 'pageNumber must be a whole number from 1' }),
      z.maximum(1_000_000, { error: 'pageNumber is too large' }),
    ),
  1,
);

/**
 * Query of every list call: pageNumber (a string from '1'), pageSize, searchText or search,
 * sortBy and sortOrder (sorting spans all pages), optional dates. Empty values count as absent.
 */
export const listQuerySchema = z.object({
  pageNumber: pageNumberField,
  pageSize: z._default(pageSizeField, 10),
  searchText: z.optional(
    z
      .string()
      .check(
        z.trim(),
        z.maxLength(SEARCH_MAX, { error: `searchText must be at most ${SEARCH_MAX} characters` }),
      ),
  ),
  search: z.optional(
    z
      .string()
      .check(z.trim(), z.maxLength(SEARCH_MAX, { error: `search must be at most ${SEARCH_MAX} characters` })),
  ),
  sortBy: z.optional(z.string().check(z.maxLength(40))),
  sortOrder: z.optional(z.enum(['asc', 'desc'], { error: "sortOrder must be 'asc' or 'desc'" })),
  startDate: z.optional(listDate('startDate')),
  endDate: z.optional(listDate('endDate')),
});
export type ListQuery = z.infer<typeof listQuerySchema>;

/** The most records a cursor page holds (`limit`), and how many it holds when `limit` is left out. */
export const CURSOR_LIMIT_MAX = 100;
export const CURSOR_LIMIT_DEFAULT = 10;

const cursorIdField = (name: string) =>
  z.coerce
    .number({ error: `${name} must be the id of a record of this list` })
    .check(
      z.int({ error: `${name} must be the id of a record of this list` }),
      z.positive({ error: `${name} must be the id of a record of this list` }),
      z.maximum(MAX_ID, { error: `${name} is out of range` }),
    );

export const cursorMessages = {
  both: 'Send startingAfter or endingBefore, not both',
  withPage:
    'pageNumber and pageSize page by number; startingAfter, endingBefore and limit page by cursor: send one kind',
  unknown: (name: string) =>
    `${name} names no record of this list (unknown, removed, or outside its filters): start again without it`,
};

/**
 * Cursor paging (issue 31, docs/decisions/066-cursor-paging-and-typed-client.md): a till walks a list by the id of the
 * last (or first) record it holds, so records that arrive meanwhile never shift what it reads next.
 * Any of the three keys puts the call in cursor mode; `pageNumber`/`pageSize` must then be absent.
 */
export const cursorQueryShape = {
  limit: z.optional(
    z.coerce
      .number({ error: `limit must be a whole number from 1 to ${CURSOR_LIMIT_MAX}` })
      .check(
        z.int({ error: `limit must be a whole number from 1 to ${CURSOR_LIMIT_MAX}` }),
        z.minimum(1, { error: `limit must be a whole number from 1 to ${CURSOR_LIMIT_MAX}` }),
        z.maximum(CURSOR_LIMIT_MAX, { error: `limit must be a whole number from 1 to ${CURSOR_LIMIT_MAX}` }),
      )
      .register(z.globalRegistry, {
        description: `Cursor paging: the most records in the answer, 1 to ${CURSOR_LIMIT_MAX} (${CURSOR_LIMIT_DEFAULT} when left out). Not with pageNumber/pageSize.`,
        example: 20,
      }),
  ),
  startingAfter: z.optional(
    cursorIdField('startingAfter').register(z.globalRegistry, {
      description:
        'Cursor paging: the `id` of the last record of the page you hold; the answer holds the records after it, in the same sort (send the same sortBy/sortOrder and filters). An id that is not in this list is a 400 `invalid_cursor`.',
      example: 3401,
    }),
  ),
  endingBefore: z.optional(
    cursorIdField('endingBefore').register(z.globalRegistry, {
      description:
        "Cursor paging backwards: the `id` of the first record of the page you hold; the answer holds the records before it (still in the list's order), and `hasMore` says whether more come before them. Not with startingAfter.",
      example: 3390,
    }),
  ),
};
export type CursorQuery = {
  limit?: number | undefined;
  startingAfter?: number | undefined;
  endingBefore?: number | undefined;
};

export type SortOrder = 'asc' | 'desc';

/** The URL's page: a bad value falls back to 1 (a hand-edited URL never breaks a screen). */
const pageSearchField = z.catch(
  z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(1_000_000)), 1),
  1,
);
/** The URL's page size: one of PAGE_SIZES, else 10. */
const pageSizeSearchField = z.catch(
  z._default(
    z.pipe(
      z.coerce.number().check(z.refine((n): n is PageSize => (PAGE_SIZES as readonly number[]).includes(n))),
      z.transform((n) => n as PageSize),
    ),
    10 as PageSize,
  ),
  10 as PageSize,
);
/**
 * The URL's search text: trimmed and cut to SEARCH_MAX (a longer one is clamped, never dropped for the
 * whole list; the search box says it was cut); digits only arrive as a number from the router's parser.
 */
const searchTextField = z.catch(
  z._default(
    z.pipe(
      z.union([z.string(), z.number()]),
      z.transform((v) => String(v).trim().slice(0, SEARCH_MAX).trim()),
    ),
    '',
  ),
  '',
);
const sortOrderField = z.enum(['asc', 'desc']);

export interface ListSortOptions<Sort extends string> {
  /** The keys the server sorts by; any other sortBy is refused (server) or dropped (URL). */
  sortKeys: readonly [Sort, ...Sort[]];
  /** The sort shown (and sent) when the URL names none. */
  defaultSort?: { sortBy: Sort; sortOrder: SortOrder } | undefined;
}

/**
 * The SPA's URL search schema of a list: page, pageSize, search, sortBy, sortOrder, each with a
 * default; a bad value falls back to it (docs/product.md#spa: any URL restores a screen).
 */
export function listSearchSchema<Sort extends string>({ sortKeys, defaultSort }: ListSortOptions<Sort>) {
  return z.object({
    page: pageSearchField,
    pageSize: pageSizeSearchField,
    search: searchTextField,
    sortBy: z.pipe(
      z.catch(z.optional(z.enum(sortKeys)), undefined),
      z.transform((v): Sort | undefined => v ?? defaultSort?.sortBy),
    ),
    sortOrder: z.pipe(
      z.catch(z.optional(sortOrderField), undefined),
      z.transform((v): SortOrder | undefined => v ?? defaultSort?.sortOrder),
    ),
  });
}

/**
 * One list, defined once: the keys it sorts by, its default sort, the filters it takes beside the
 * common page/search/date keys, and the page sizes it offers. From it come the server's query
 * schema (`query`: strict, a bad value is a 400 in the envelope) and the SPA's URL search schema
 * (`search`: lenient, a bad value falls back to its default). Add a list with one `defineList`
 * beside its record schema; see docs/how-to.md, "Add a list screen".
 */
export function defineList<
  const Sort extends string,
  const Filters extends z.core.$ZodLooseShape = Record<never, never>,
  const Cursor extends boolean = false,
>(def: {
  sortKeys: readonly [Sort, ...Sort[]];
  defaultSort: { sortBy: Sort; sortOrder: SortOrder };
  /** Query keys of this list only (a status, a partnerId, …), validated by the server. */
  filters?: Filters;
  /** The list also pages by cursor (`limit`, `startingAfter`, `endingBefore`): the lists a till walks. */
  cursor?: Cursor;
}) {
  const filters = (def.filters ?? {}) as Filters;
  const cursorShape = (def.cursor ? cursorQueryShape : {}) as Cursor extends true
    ? typeof cursorQueryShape
    : Record<never, never>;
  return {
    sortKeys: def.sortKeys,
    defaultSort: def.defaultSort,
    pageSizes: PAGE_SIZES,
    filters,
    cursor: def.cursor === true,
    /** The server's query schema (GET list and its /export). */
    query: z.extend(listQuerySchema, {
      ...filters,
      ...cursorShape,
      sortBy: z.optional(z.enum(def.sortKeys)),
    }),
    /** The SPA's URL search schema (page, pageSize, search, sortBy, sortOrder). */
    search: listSearchSchema(def),
  };
}
/** The values of a list's own filters (its `defineList` `filters`: a status, a partnerId, …), if any. */
export type ListFilterValues<L extends { filters: z.core.$ZodLooseShape }> = [keyof L['filters']] extends [
  never,
]
  ? unknown
  : z.output<z.ZodMiniObject<L['filters']>>;
export type ListDefinition<Sort extends string = string> = {
  sortKeys: readonly [Sort, ...Sort[]];
  defaultSort: { sortBy: Sort; sortOrder: SortOrder };
  /** The list also pages by cursor (decision 066). */
  cursor?: boolean;
};

/** The search text of a list query, whichever of the two spellings the caller used. */
export const searchOf = (q: Pick<ListQuery, 'searchText' | 'search'>): string | undefined =>
  (q.searchText || q.search || '').trim() || undefined;

export const accountStatusSchema = z.enum(['ACTIVE', 'BLOCKED'], {
  error: "status must be 'ACTIVE' or 'BLOCKED'",
});
export type AccountStatus = z.infer<typeof accountStatusSchema>;
