import { PAGE_SIZES, type PageSize } from '../../contract/list';
import { z } from '../../contract/zod';

/**
 * List state kept in the URL (DESIGN section 4): page, page size, search text and sort, plus the
 * active tab where a screen has tabs. Every key has a default and a bad value falls back to it, so
 * any URL restores a screen and a hand-edited one never breaks it.
 */
export type SortOrder = 'asc' | 'desc';

export interface ListState {
  page: number;
  pageSize: PageSize;
  search: string;
  sortBy?: string | undefined;
  sortOrder?: SortOrder | undefined;
}

export const DEFAULT_PAGE_SIZE: PageSize = 10;

const pageField = z.catch(
  z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(1_000_000)), 1),
  1,
);
const pageSizeField = z.catch(
  z._default(
    z.pipe(
      z.coerce.number().check(z.refine((n): n is PageSize => (PAGE_SIZES as readonly number[]).includes(n))),
      z.transform((n) => n as PageSize),
    ),
    DEFAULT_PAGE_SIZE,
  ),
  DEFAULT_PAGE_SIZE,
);
const searchField = z.catch(z._default(z.string().check(z.trim(), z.maxLength(100)), ''), '');
const sortOrderField = z.enum(['asc', 'desc']);

export interface ListSearchOptions<Sort extends string> {
  /** Column ids the server can sort by; any other sortBy in the URL is dropped. */
  sortKeys: readonly [Sort, ...Sort[]];
  /** The sort shown (and sent) when the URL names none. */
  defaultSort?: { sortBy: Sort; sortOrder: SortOrder };
}

/**
 * The search schema of one list: page, pageSize, search, sortBy, sortOrder, with defaults. zod/mini
 * (not classic zod): the route tree's search schemas are in the sign-in screen's JavaScript.
 */
export function listSearchSchema<Sort extends string>({ sortKeys, defaultSort }: ListSearchOptions<Sort>) {
  return z.object({
    page: pageField,
    pageSize: pageSizeField,
    search: searchField,
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

/** The same, with an `activeTab` (default the first tab) for screens with tabs. */
export function tabbedListSearchSchema<Tab extends string, Sort extends string>(
  options: ListSearchOptions<Sort> & { tabs: readonly [Tab, ...Tab[]] },
) {
  return z.extend(listSearchSchema(options), {
    activeTab: z.catch(z._default(z.enum(options.tabs), options.tabs[0]), options.tabs[0]),
  });
}

/** One user action on a list. */
export type ListChange =
  | { type: 'page'; page: number }
  | { type: 'pageSize'; pageSize: PageSize }
  | { type: 'search'; search: string }
  | { type: 'sort'; sortBy: string; sortOrder: SortOrder };

/**
 * The next search params after a list change. Changing page size, search or sort goes back to
 * page 1 (SPEC 'Common list behaviour'); paging keeps everything else.
 */
export function applyListChange<S extends ListState>(prev: S, change: ListChange): S {
  switch (change.type) {
    case 'page':
      return { ...prev, page: Math.max(1, Math.trunc(change.page)) };
    case 'pageSize':
      return { ...prev, pageSize: change.pageSize, page: 1 };
    case 'search':
      return { ...prev, search: change.search.trim(), page: 1 };
    case 'sort':
      return { ...prev, sortBy: change.sortBy, sortOrder: change.sortOrder, page: 1 };
  }
}

/**
 * The next search params after a tab change: page 1 always. Screens whose tabs list different
 * records (Users and Roles) also clear search and sort; tabs over the same columns keep them.
 */
export function applyTabChange<S extends ListState & { activeTab: string }>(
  prev: S,
  activeTab: S['activeTab'],
  { keepSearchAndSort = false }: { keepSearchAndSort?: boolean } = {},
): S {
  if (prev.activeTab === activeTab) return prev;
  if (keepSearchAndSort) return { ...prev, activeTab, page: 1 };
  return { ...prev, activeTab, page: 1, search: '', sortBy: undefined, sortOrder: undefined };
}

/** The list query a list call sends: pageNumber is a string from '1' (SPEC section 7). */
export function toListQuery<Sort extends string>(
  state: ListState,
  sortKeys: readonly Sort[],
): { pageNumber: string; pageSize: number; searchText?: string; sortBy?: Sort; sortOrder?: SortOrder } {
  const sortBy = sortKeys.find((key) => key === state.sortBy);
  return {
    pageNumber: String(state.page),
    pageSize: state.pageSize,
    ...(state.search ? { searchText: state.search } : {}),
    ...(sortBy ? { sortBy, sortOrder: state.sortOrder ?? 'asc' } : {}),
  };
}

/**
 * The list state of one list among several sharing a URL (a detail screen's tabs): a sortBy this
 * list does not know gives way to its own default sort.
 */
export function withListSort<S extends ListState>(
  state: S,
  sortKeys: readonly string[],
  defaultSort: { sortBy: string; sortOrder: SortOrder },
): S {
  if (state.sortBy && sortKeys.includes(state.sortBy)) return state;
  return { ...state, ...defaultSort };
}
