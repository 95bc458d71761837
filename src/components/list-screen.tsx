import type { UseQueryResult } from '@tanstack/react-query';
import { type NavigateOptions, useNavigate } from '@tanstack/react-router';
import type { RowData } from '@tanstack/react-table';
import { type ComponentProps, type ReactNode, useCallback } from 'react';
import type { ListData } from '../../contract/envelope';
import type { PermissionName } from '../../contract/permissions';
import { css, cx } from '../../styled-system/css';
import { button } from '../../styled-system/recipes';
import { applyListChange, applyTabChange, type ListChange, type ListState } from '../lib/list-search';
import { useCan } from '../lib/use-can';
import { type DataColumn, DataTable, type DataTableProps, dataColumnHelper } from './data-table';
import { ExportButton } from './export-button';
import { ForbiddenState, isForbidden } from './forbidden-state';
import { Button } from './ui/button';
import { Tabs } from './ui/tabs';

/**
 * The parts a list screen is made of (docs/how-to.md, "Add a list screen"): the URL-owned list
 * state changes (`useListChange`), tabs over one list (`ListTabs`), the table fed by one list query
 * with its toolbar, Export CSV, search, pager, skeleton and empty row (`ListTable`), the 'Add …'
 * button (`AddButton`) and the Edit/Delete cell (`withRowActions`); the confirmed deletion is
 * `useConfirmedDeletion` (confirmed-deletion.tsx).
 */

/**
 * A route's `navigate` (its search updater form), as `getRouteApi(...).useNavigate()` gives it;
 * the route's own schema has typed its search already, so the updaters here take any list state.
 */
// biome-ignore lint/suspicious/noExplicitAny: the navigate of whichever list route
type SearchNavigate = (options: { search: (prev: any) => any }) => Promise<void>;

/** The list-change handler of a screen: every change goes into the URL (page resets per docs/product.md#list-behaviour). */
export function useListChange(navigate: SearchNavigate) {
  return useCallback(
    (change: ListChange) => void navigate({ search: (prev: ListState) => applyListChange(prev, change) }),
    [navigate],
  );
}

/** A list screen's route (`getRouteApi(...)`): its search is the list's state. */
type ListRoute = { useSearch: () => ListState; useNavigate: () => SearchNavigate };

/**
 * The state of a list that lives in its screen's URL, and its changes:
 * `<ListTable {...useRouteList(route)} … />`.
 */
export function useRouteList(route: ListRoute) {
  return { state: route.useSearch(), onChange: useListChange(route.useNavigate()) };
}

/**
 * Tabs over the same list (a status, a user type): the active tab is in the URL; a tab change goes
 * to page 1 and keeps the search and sort, as the columns stay the same.
 */
export function ListTabs<Tab extends string>({
  label,
  labels,
  route,
  children,
}: {
  /** The tab list's accessible name. */
  label: string;
  labels: Record<Tab, string>;
  /** The screen's route (`getRouteApi(...)`), whose search holds `activeTab`. */
  route: { useSearch: () => { activeTab: Tab }; useNavigate: () => SearchNavigate };
  /** The list shown under every tab (it reads the tab from the URL). */
  children: ReactNode;
}) {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  return (
    <Tabs
      label={label}
      value={search.activeTab}
      onValueChange={(activeTab) =>
        void navigate({
          search: (prev: ListState & { activeTab: Tab }) =>
            applyTabChange(prev, activeTab, { keepSearchAndSort: true }),
        })
      }
      items={(Object.keys(labels) as Tab[]).map((tab) => ({
        value: tab,
        label: labels[tab],
        content: children,
      }))}
    />
  );
}

/** A row's id is its record's `id`; a record without one (an eligible user) names its own. */
type RowIdProps<T> = [T] extends [{ id: number | string }]
  ? { getRowId?: (record: T) => string }
  : { getRowId: (record: T) => string };

export type ListTableProps<T extends RowData> = Omit<
  DataTableProps<T>,
  'records' | 'totalCount' | 'isPending' | 'isFetching' | 'error' | 'getRowId'
> &
  RowIdProps<T> & {
    /** The list query of the page shown (its records and total count). */
    query: UseQueryResult<ListData<T>>;
    /** The list's Export CSV (first in the toolbar), bound to its filters, search and sort. */
    exportCsv?: ComponentProps<typeof ExportButton>;
  };

const recordId = (record: unknown) => String((record as { id: number | string }).id);

/**
 * The table of one list query: the forbidden state when the list is not the user's to see; a list
 * that failed offers Retry (a refetch of this query).
 */
export function ListTable<T extends RowData>({
  query,
  exportCsv,
  toolbar,
  getRowId = recordId,
  ...table
}: ListTableProps<T>) {
  if (isForbidden(query.error)) return <ForbiddenState />;
  return (
    <DataTable
      {...table}
      getRowId={getRowId}
      toolbar={
        exportCsv ? (
          <>
            <ExportButton {...exportCsv} />
            {toolbar}
          </>
        ) : (
          toolbar
        )
      }
      onRetry={() => void query.refetch()}
      records={query.data?.records}
      totalCount={query.data?.meta.totalCount}
      isPending={query.isPending}
      isFetching={query.isFetching}
      error={query.error}
    />
  );
}

/** A list's 'Add …' button: opens the add screen; not there without the create permission. */
export function AddButton({
  to,
  permission,
  children,
}: {
  to: NavigateOptions['to'];
  permission: PermissionName;
  children: ReactNode;
}) {
  const can = useCan();
  const navigate = useNavigate();
  return can(permission) ? <Button onClick={() => void navigate({ to })}>{children}</Button> : null;
}

/** The look of an Edit link in a row (a ghost button). */
export const rowActionLink = cx(button({ variant: 'ghost', size: 'sm' }), css({ color: 'brand.700' }));

/**
 * The columns with an Actions column at the end: an Edit link and a Delete button, each only where
 * given (the user's permissions); no column at all when neither is.
 */
export function withRowActions<T extends RowData>(
  columns: DataColumn<T>[],
  {
    edit,
    onDelete,
    hasActions = () => true,
    canDelete = () => true,
  }: {
    /** The row's Edit link (use `rowActionLink` for its class); null where the row cannot be edited. */
    edit?: ((row: T) => ReactNode) | undefined;
    onDelete?: ((row: T) => void) | undefined;
    /** Rows without actions (a built-in role). */
    hasActions?: (row: T) => boolean;
    /** Rows whose deletion the server would refuse (your own staff row) get no Delete. */
    canDelete?: (row: T) => boolean;
  },
): DataColumn<T>[] {
  if (!edit && !onDelete) return columns;
  const col = dataColumnHelper<T>();
  return [
    ...columns,
    col.display({
      id: 'actions',
      header: 'Actions',
      meta: { align: 'end' },
      cell: ({ row }) =>
        hasActions(row.original) ? (
          <span
            className={css({
              display: 'inline-flex',
              gap: '1',
              justifyContent: 'flex-end',
              whiteSpace: 'nowrap',
            })}
          >
            {edit?.(row.original)}
            {onDelete && canDelete(row.original) ? (
              <Button
                variant="ghost"
                size="sm"
                onClick={() => onDelete(row.original)}
                className={css({ color: 'red.700' })}
              >
                Delete
              </Button>
            ) : null}
          </span>
        ) : null,
    }),
  ];
}
