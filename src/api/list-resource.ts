import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { ApiRouteKey } from '../../contract/api';
import { type ListData, listSchema } from '../../contract/envelope';
import type { ListFilterValues } from '../../contract/list';
import type { z } from '../../contract/zod';
import { type ListState, toListQuery } from '../lib/list-search';
import { api, type Query } from './client';
import { type DownloadOptions, downloadCsv } from './export';

/** A path the contract declares a GET for (contract/api.ts, OpenAPI form): any other does not compile. */
type GetPath = ApiRouteKey extends infer K ? (K extends `GET ${infer P}` ? P : never) : never;

/** A list's path: the contract declares its GET and its CSV export (`<path>/export`) both. */
export type ListPath = { [P in GetPath]: `${P}/export` extends GetPath ? P : never }[GetPath];

/**
 * Where one record of the list is read: its REST path (`/admin/partners/{partnerId}`, the id filled
 * in), or a path taking the id in the query (`idQuery`: `/admin/user/get-role-detail?roleId=`).
 */
export type DetailPath =
  | { path: Extract<GetPath, `${string}/{${string}}`> }
  | { path: GetPath; idQuery: string };

/** What a list needs from its contract definition (`defineList`, contract/list.ts). */
interface ContractList<Sort extends string> {
  sortKeys: readonly Sort[];
  filters: z.core.$ZodLooseShape;
}

/** A list's call parameters: the URL's list state and the values of the list's own filters. */
export type ListParams<L extends ContractList<string>> = ListState & ListFilterValues<L>;

/**
 * One list of the SPA, declared once from the contract (docs/how-to.md, "Add a list screen"): the
 * query keys, the page call, the CSV export, the list's query options (the previous page stays on
 * screen while the next loads), the choices of a select and, with `detail`, the record call and its
 * query options.
 *
 * The query of a call is the list state (`toListQuery` with the list's sort keys) and the values of
 * the filters the contract's definition names (a status, a partnerId, …) taken from the params.
 */
export function listResource<
  const Root extends readonly string[],
  Item extends z.core.$ZodType,
  L extends ContractList<string>,
  D extends DetailPath | undefined = undefined,
>(def: {
  /** The root of the query keys (`['customers']`): invalidating it refreshes every list and record. */
  key: Root;
  /** The contract's list definition (`customerList`). */
  list: L;
  /** GET path of a page; its export is `<path>/export`. */
  path: ListPath;
  /** The schema of one record (`customerSchema`). */
  item: Item;
  /** Where one record is read, for `fetchOne` and `detailQueryOptions` (lists without one have neither). */
  detail?: D;
}) {
  type Params = ListParams<L>;
  type Row = z.output<Item>;
  const pageSchema = listSchema(def.item);
  const filterNames = Object.keys(def.list.filters);

  const query = (params: Params): Query => {
    const filters: Query = {};
    for (const name of filterNames) {
      const value = (params as unknown as Query)[name];
      if (value !== undefined) filters[name] = value;
    }
    return { ...toListQuery(params, def.list.sortKeys), ...filters };
  };

  const keys = {
    all: def.key,
    lists: () => [...def.key, 'list'] as const,
    list: (params: Params) => [...keys.lists(), query(params)] as const,
    choices: () => [...def.key, 'choices'] as const,
    details: () => [...def.key, 'detail'] as const,
    detail: (id: number) => [...keys.details(), id] as const,
  };

  const fetchPage = (params: Params): Promise<ListData<Row>> =>
    api().get(def.path, pageSchema, { query: query(params) });

  const fetchOne = (id: number): Promise<Row> => {
    const detail = def.detail as DetailPath;
    if ('idQuery' in detail) return api().get(detail.path, def.item, { query: { [detail.idQuery]: id } });
    return api().get(detail.path.replace(/\{[^}]+\}/, String(id)), def.item);
  };
  const one = {
    fetchOne,
    detailQueryOptions: (id: number) =>
      queryOptions({ queryKey: keys.detail(id), queryFn: () => fetchOne(id) }),
  };

  const list = {
    keys,
    fetchPage,
    /** Every record the list's filters, search and sort match, as CSV (paging does not apply). */
    exportCsv: (params: Params, opts?: DownloadOptions) =>
      downloadCsv(`${def.path}/export`, query(params), opts),
    listQueryOptions: (params: Params) =>
      queryOptions({
        queryKey: keys.list(params),
        queryFn: () => fetchPage(params),
        placeholderData: keepPreviousData,
        staleTime: 10_000,
      }),
    /**
     * Every record as the choices of a form's select: the largest page size, sorted by `sortBy`
     * ascending, with the list's filters as given (active partners only, …).
     */
    choicesQueryOptions: <C>(
      { sortBy, ...filters }: { sortBy: L['sortKeys'][number] } & ListFilterValues<L>,
      toChoice: (row: Row) => C,
    ) =>
      queryOptions({
        queryKey: keys.choices(),
        queryFn: () =>
          fetchPage({
            page: 1,
            pageSize: 100,
            search: '',
            sortBy,
            sortOrder: 'asc',
            ...filters,
          } as Params).then((page) => page.records.map(toChoice)),
        staleTime: 30_000,
      }),
  };
  return (def.detail ? { ...list, ...one } : list) as typeof list &
    (D extends DetailPath ? typeof one : unknown);
}
