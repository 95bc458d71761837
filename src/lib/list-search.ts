import {
  type ListDefinition,
  type ListSortOptions,
  listSearchSchema,
  type PageSize,
  type SortOrder,
} from '../../contract/list';
import { z } from '../../contract/zod';

/**
 * List state kept in the URL (docs/product.md#spa): page, page size, search text and sort, plus the
 * active tab where a screen has tabs. Every key has a default and a bad value falls back to it, so
 * any URL restores a screen and a hand-edited one never breaks it. The search schema of a list is
 * its definition's `search` (contract/list.ts `defineList`); a screen with tabs adds them here.
 */
export type { SortOrder };

export interface ListState {
  page: number;
  pageSize: PageSize;
  search: string;
  sortBy?: string | undefined;
  sortOrder?: SortOrder | undefined;
}

export const DEFAULT_PAGE_SIZE: PageSize = 10;

/** A list's search schema with an `activeTab` (default the first tab) for screens with tabs. */
export function tabbedListSearchSchema<Tab extends string, Sort extends string>(
  options: ListSortOptions<Sort> & { tabs: readonly [Tab, ...Tab[]] },
) {
  return z.extend(listSearchSchema(options), {
    activeTab: z.catch(z._default(z.enum(options.tabs), options.tabs[0]), options.tabs[0]),
  });
}

/** The defaults of a schema: what `stripSearchParams` leaves out of the URL. */
export const listSearchDefaults = <S extends z.ZodMiniType>(schema: S): z.output<S> => schema.parse({});

/** One user action on a list. */
export type ListChange =
  | { type: 'page'; page: number }
  | { type: 'pageSize'; pageSize: PageSize }
  | { type: 'search'; search: string }
  | { type: 'sort'; sortBy: string; sortOrder: SortOrder };

/**
 * The next search params after a list change. Changing page size, search or sort goes back to
 * page 1 (docs/product.md#list-behaviour); paging keeps everything else.
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
 * records (Users and Roles, a partner's Visits, Rewards and Analytics) also reset page size, search
 * and sort (the defaults then leave the address); tabs over the same columns keep them.
 */
export function applyTabChange<S extends ListState & { activeTab: string }>(
  prev: S,
  activeTab: S['activeTab'],
  { keepSearchAndSort = false }: { keepSearchAndSort?: boolean } = {},
): S {
  if (prev.activeTab === activeTab) return prev;
  if (keepSearchAndSort) return { ...prev, activeTab, page: 1 };
  return {
    ...prev,
    activeTab,
    page: 1,
    pageSize: DEFAULT_PAGE_SIZE,
    search: '',
    sortBy: undefined,
    sortOrder: undefined,
  };
}

/** The list query a list call sends: pageNumber is a string from '1' (docs/product.md#calls). */
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
export function withListSort<S extends ListState, Sort extends string>(
  state: S,
  list: ListDefinition<Sort>,
  defaultSort: { sortBy: Sort; sortOrder: SortOrder } = list.defaultSort,
): S {
  if (state.sortBy && (list.sortKeys as readonly string[]).includes(state.sortBy)) return state;
  return { ...state, ...defaultSort };
}
