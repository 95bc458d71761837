import { QueryClientContext } from '@tanstack/react-query';
import { useRouter } from '@tanstack/react-router';
import {
  type ColumnDef,
  createColumnHelper,
  metaHelper,
  type PaginationState,
  type RowData,
  rowPaginationFeature,
  rowSortingFeature,
  type SortingState,
  tableFeatures,
  type Updater,
  useTable,
} from '@tanstack/react-table';
import {
  type ReactNode,
  type RefObject,
  useContext,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
} from 'react';
import { PAGE_SIZES, type PageSize, SEARCH_MAX } from '../../contract/list';
import { css, cx } from '../../styled-system/css';
import { field } from '../../styled-system/recipes';
import type { ListChange, ListState } from '../lib/list-search';
import { isUnanswered, NOT_AVAILABLE_OFFLINE, QueryErrorText } from './query-error-text';
import { Button } from './ui/button';
import { ProgressBar } from './ui/progress-bar';
import { SelectField } from './ui/select';

/** A search at the limit: longer text is cut (typed, pasted or in the URL), never ignored. */
export const SEARCH_CUT_NOTE = `Searches use the first ${SEARCH_MAX} characters.`;

/** docs/product.md#constants: search debounce and loading skeleton size. */
export const SEARCH_DEBOUNCE_MS = 500;
export const SKELETON_ROWS = 13;
export const NO_RESULTS = 'No results.';

export interface DataColumnMeta {
  /** Extra classes for this column's header and cells. */
  className?: string;
  /** Right-align (numbers, actions). */
  align?: 'end';
  /**
   * Keep this column (a row's actions) in view at the right edge while the rest of a wide table
   * scrolls sideways, so an action is never clipped (issue 16).
   */
  sticky?: boolean;
  /**
   * The row's actions (buttons, links). Never wraps or collapses; on a phone the card shows them as
   * a row of buttons at its foot. Columns with the id `actions` or `issue` are actions too.
   */
  actions?: boolean;
}

/**
 * Decision 067, the card rule: below md (768 px) a table's rows are drawn as cards. The first column
 * is the card's title (the field that tells rows apart), every other field follows under its own
 * label in column order, and the action columns end the card as a row of buttons. From md up it is
 * a table whose text wraps, so it fits 1280 px and wider without a sideways scroll; only the action
 * column never wraps. The table keeps its roles (table, row, cell) in both looks.
 */
const isActionColumn = (id: string, meta: DataColumnMeta | undefined): boolean =>
  meta?.actions ?? (id === 'actions' || id === 'issue');

/** A column's header as text (the card's field label and the phone's sort choice). */
const headerText = (header: unknown, id: string): string => (typeof header === 'string' ? header : id);

/**
 * True while the box's content is wider than the box and not scrolled to its end: the table shows
 * a visible hint that it scrolls sideways.
 */
function useMoreToTheRight(box: RefObject<HTMLDivElement | null>): boolean {
  const [more, setMore] = useState(false);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const measure = () => setMore(el.scrollWidth - el.clientWidth - el.scrollLeft > 1);
    measure();
    el.addEventListener('scroll', measure, { passive: true });
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
    observer?.observe(el);
    const table = el.firstElementChild;
    if (table) observer?.observe(table);
    return () => {
      el.removeEventListener('scroll', measure);
      observer?.disconnect();
    };
  }, [box]);
  return more;
}

export const SCROLL_HINT = 'Scroll sideways for more columns';

/**
 * The table features every list uses: server-side sorting and paging (manual mode), and typed
 * column meta. Columns are opt-in sortable (`enableSorting: true`); their id is the server's sortBy.
 */
export const dataTableFeatures = tableFeatures({
  rowSortingFeature,
  rowPaginationFeature,
  columnMeta: metaHelper<DataColumnMeta>(),
});
export type DataTableFeatures = typeof dataTableFeatures;
// biome-ignore lint/suspicious/noExplicitAny: heterogeneous accessor value types, as helper.columns() returns them
export type DataColumn<T extends RowData> = ColumnDef<DataTableFeatures, T, any>;

/** A column helper bound to the list features: `const col = dataColumnHelper<StaffUser>()`. */
export const dataColumnHelper = <T extends RowData>() => createColumnHelper<DataTableFeatures, T>();

export interface DataTableProps<T extends RowData> {
  /** Accessible name of the table, e.g. 'Staff'. */
  label: string;
  /** Stable column definitions (module scope or useMemo). */
  columns: DataColumn<T>[];
  /** The current page of records, already sorted and paged by the server. */
  records: T[] | undefined;
  totalCount: number | undefined;
  /** First load with nothing to show yet: the 13-row skeleton. */
  isPending: boolean;
  /** A fetch is running while rows stay visible (a newer page, or a refetch): a bar runs along the top. */
  isFetching?: boolean;
  error?: unknown;
  /** Retry after a failure (default: refetch the active queries). */
  onRetry?: () => void;
  /** The URL-owned list state. */
  state: ListState;
  onChange: (change: ListChange) => void;
  /** Search box label (also its placeholder); omit for no search box. */
  searchLabel?: string;
  /** Extra controls at the right of the toolbar (buttons, filters). */
  toolbar?: ReactNode;
  getRowId?: (record: T) => string;
  /** False for a short list shown whole (no page size, no Prev/Next). */
  pager?: boolean;
}

const emptyRecords: never[] = [];

export function DataTable<T extends RowData>({
  label,
  columns,
  records,
  totalCount,
  isPending,
  isFetching = false,
  error,
  onRetry,
  state,
  onChange,
  searchLabel,
  toolbar,
  getRowId,
  pager = true,
}: DataTableProps<T>) {
  // Optional: the table also renders outside a QueryClientProvider (tests, stories).
  const queryClient = useContext(QueryClientContext);
  const sorting = useMemo<SortingState>(
    () => (state.sortBy ? [{ id: state.sortBy, desc: state.sortOrder === 'desc' }] : []),
    [state.sortBy, state.sortOrder],
  );
  const pagination = useMemo<PaginationState>(
    () => ({ pageIndex: state.page - 1, pageSize: state.pageSize }),
    [state.page, state.pageSize],
  );
  const data = records ?? (emptyRecords as T[]);

  const table = useTable({
    features: dataTableFeatures,
    columns,
    data,
    ...(getRowId ? { getRowId: (row: T) => getRowId(row) } : {}),
    rowCount: totalCount ?? 0,
    manualPagination: true,
    manualSorting: true,
    autoResetPageIndex: false,
    enableSortingRemoval: false,
    enableMultiSort: false,
    sortDescFirst: false,
    defaultColumn: { enableSorting: false },
    state: { sorting, pagination },
    onSortingChange: (updater: Updater<SortingState>) => {
      const next = typeof updater === 'function' ? updater(sorting) : updater;
      const first = next[0];
      if (first) onChange({ type: 'sort', sortBy: first.id, sortOrder: first.desc ? 'desc' : 'asc' });
    },
    onPaginationChange: (updater: Updater<PaginationState>) => {
      const next = typeof updater === 'function' ? updater(pagination) : updater;
      if (next.pageSize !== pagination.pageSize) {
        onChange({ type: 'pageSize', pageSize: next.pageSize as PageSize });
      } else if (next.pageIndex !== pagination.pageIndex) {
        onChange({ type: 'page', page: next.pageIndex + 1 });
      }
    },
  });

  const pageCount = Math.max(1, table.getPageCount());
  const hasData = records !== undefined;
  const showSkeleton = isPending && !hasData;
  const showError = Boolean(error) && !showSkeleton;
  const visibleColumns = table.getAllLeafColumns().length;
  const scrollBox = useRef<HTMLDivElement>(null);
  const moreToTheRight = useMoreToTheRight(scrollBox);
  // On a phone the header row is not shown: the sortable columns are offered in one choice instead.
  const sortable = table
    .getAllLeafColumns()
    .filter((column) => column.getCanSort())
    .map((column) => ({ id: column.id, label: headerText(column.columnDef.header, column.id) }));

  // A page beyond the last (a deletion, a stale URL) moves to the last page once the count is known.
  const lastPage = Math.max(1, Math.ceil((totalCount ?? 0) / state.pageSize));
  useEffect(() => {
    if (hasData && !isFetching && totalCount !== undefined && state.page > lastPage) {
      onChange({ type: 'page', page: lastPage });
    }
  }, [hasData, isFetching, totalCount, state.page, lastPage, onChange]);

  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}>
      {searchLabel || toolbar || sortable.length > 0 ? (
        <div
          className={cx(
            css({
              display: 'flex',
              flexWrap: 'wrap',
              alignItems: 'center',
              justifyContent: 'space-between',
              gap: '3',
            }),
            // Only the phone's sort choice: no toolbar row from md up.
            searchLabel || toolbar ? undefined : css({ md: { display: 'none' } }),
          )}
        >
          {searchLabel ? (
            <SearchBox
              label={searchLabel}
              value={state.search}
              onCommit={(search) => onChange({ type: 'search', search })}
            />
          ) : (
            <span />
          )}
          {sortable.length > 0 ? (
            <PhoneSortChoice
              label={label}
              options={sortable}
              sortBy={state.sortBy}
              sortOrder={state.sortOrder}
              onSort={(sortBy, sortOrder) => onChange({ type: 'sort', sortBy, sortOrder })}
            />
          ) : null}
          {toolbar ? (
            <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap' })}>{toolbar}</div>
          ) : null}
        </div>
      ) : null}

      <div
        className={css({
          position: 'relative',
          // The sticky action column stacks inside the table's own box, never against a dialog.
          isolation: 'isolate',
          layerStyle: 'card',
          // Cards on a phone: the box is only the frame around them.
          bg: { base: 'transparent', md: 'bg.surface' },
          borderWidth: { base: '0', md: '1px' },
          boxShadow: { base: 'none', md: 'card' },
          overflow: { base: 'visible', md: 'hidden' },
        })}
      >
        {/* A newer page or a refetch is loading while the rows shown stay: a bar along the top. */}
        {isFetching && hasData ? <ProgressBar label={`Loading ${label}`} position="absolute" /> : null}
        {/* Wide tables scroll inside this box on small screens; the page itself never does. */}
        <div
          ref={scrollBox}
          // Says the box scrolls sideways and the hint below says so (the layout check reads it).
          data-scroll-hint={moreToTheRight ? '' : undefined}
          className={css({ overflowX: { base: 'visible', md: 'auto' } })}
        >
          {/* Explicit roles: on a phone the parts are drawn as cards (display: grid), which drops the
              table semantics in some browsers; the roles keep them (decision 067). */}
          <table
            role="table"
            aria-label={label}
            aria-busy={showSkeleton || isFetching || undefined}
            className={cx(tableLook, isFetching && hasData ? css({ opacity: 0.65 }) : undefined)}
          >
            <thead role="rowgroup" className={css({ display: { base: 'none', md: 'table-header-group' } })}>
              {table.getHeaderGroups().map((group) => (
                <tr role="row" key={group.id}>
                  {group.headers.map((header) => {
                    const column = header.column;
                    const meta = column.columnDef.meta;
                    const canSort = column.getCanSort();
                    const sorted = column.getIsSorted();
                    return (
                      <th
                        role="columnheader"
                        key={header.id}
                        scope="col"
                        aria-sort={
                          canSort
                            ? sorted === 'asc'
                              ? 'ascending'
                              : sorted === 'desc'
                                ? 'descending'
                                : 'none'
                            : undefined
                        }
                        className={cx(
                          headerCell,
                          meta?.align === 'end' ? endAlign : undefined,
                          meta?.sticky ? stickyHeader : undefined,
                          meta?.className,
                        )}
                      >
                        {header.isPlaceholder ? null : canSort ? (
                          <button
                            type="button"
                            className={sortButton}
                            onClick={column.getToggleSortingHandler()}
                          >
                            <table.FlexRender header={header} />
                            <SortIndicator direction={sorted} />
                          </button>
                        ) : (
                          <table.FlexRender header={header} />
                        )}
                      </th>
                    );
                  })}
                </tr>
              ))}
            </thead>
            <tbody role="rowgroup" className={cardList}>
              {showSkeleton ? (
                Array.from({ length: SKELETON_ROWS }, (_, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: placeholder rows have no identity
                  <tr role="row" key={i} data-skeleton="" className={bodyRow}>
                    {Array.from({ length: visibleColumns }, (_, j) => (
                      // biome-ignore lint/suspicious/noArrayIndexKey: placeholder cells have no identity
                      <td role="cell" key={j} className={bodyCell}>
                        <span aria-hidden="true" className={skeletonBar} />
                      </td>
                    ))}
                  </tr>
                ))
              ) : showError ? (
                <tr role="row" className={messageRow}>
                  <td role="cell" colSpan={visibleColumns} className={cx(bodyCell, messageCell)}>
                    {/* Issue 17: nothing saved and no answer; issue 22: any failure. Say so, offer Retry. */}
                    <span
                      className={css({
                        display: 'inline-flex',
                        alignItems: 'center',
                        gap: '3',
                        flexWrap: 'wrap',
                        justifyContent: 'center',
                      })}
                    >
                      {isUnanswered(error) ? (
                        <span role="alert">{NOT_AVAILABLE_OFFLINE}</span>
                      ) : (
                        <QueryErrorText error={error} />
                      )}
                      <Button
                        variant="outline"
                        onClick={() =>
                          onRetry ? onRetry() : void queryClient?.refetchQueries({ type: 'active' })
                        }
                      >
                        Retry
                      </Button>
                    </span>
                  </td>
                </tr>
              ) : table.getRowModel().rows.length === 0 ? (
                <tr role="row" className={messageRow}>
                  <td role="cell" colSpan={visibleColumns} className={cx(bodyCell, messageCell)}>
                    {NO_RESULTS}
                  </td>
                </tr>
              ) : (
                table.getRowModel().rows.map((row) => (
                  <tr role="row" key={row.id} className={bodyRow}>
                    {row.getAllCells().map((cell, index) => {
                      const meta = cell.column.columnDef.meta;
                      const actions = isActionColumn(cell.column.id, meta);
                      const look = actions ? 'actions' : index === 0 ? 'title' : 'field';
                      return (
                        <td
                          role="cell"
                          key={cell.id}
                          data-card={look}
                          // A phone shows the field's label before its value (the cell's ::before).
                          data-label={
                            look === 'field'
                              ? headerText(cell.column.columnDef.header, cell.column.id)
                              : undefined
                          }
                          className={cx(
                            bodyCell,
                            meta?.align === 'end' ? endAlign : undefined,
                            actions ? actionCell : undefined,
                            meta?.sticky ? stickyCell : undefined,
                            meta?.className,
                          )}
                        >
                          <span className={cardValue}>
                            <table.FlexRender cell={cell} />
                          </span>
                        </td>
                      );
                    })}
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
      </div>
      {moreToTheRight ? (
        <p className={css({ mt: '-2', fontSize: 'xs', color: 'fg.muted', textAlign: 'right' })}>
          {SCROLL_HINT} <span aria-hidden="true">→</span>
        </p>
      ) : null}

      {pager ? (
        <nav
          aria-label={`${label} pages`}
          className={css({
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'space-between',
            gap: '3',
          })}
        >
          <div className={css({ display: { base: 'none', md: 'flex' }, alignItems: 'center', gap: '2' })}>
            <SelectField
              label="Rows per page"
              hideLabel
              options={PAGE_SIZES.map((n) => ({ value: String(n), label: `${n} per page` }))}
              value={String(state.pageSize)}
              onChange={(e) => table.setPageSize(Number(e.target.value))}
              className={css({ h: '9', w: 'auto' })}
            />
          </div>
          <div className={css({ display: 'flex', alignItems: 'center', gap: '3', ml: 'auto' })}>
            <Button
              variant="outline"
              size="sm"
              disabled={!table.getCanPreviousPage()}
              onClick={() => table.previousPage()}
            >
              Prev
            </Button>
            <span
              aria-live="polite"
              className={css({ fontSize: 'sm', color: 'fg.muted', minW: '16', textAlign: 'center' })}
            >
              {`${state.page} of ${pageCount}`}
            </span>
            <Button
              variant="outline"
              size="sm"
              disabled={!table.getCanNextPage()}
              onClick={() => table.nextPage()}
            >
              Next
            </Button>
          </div>
        </nav>
      ) : null}
    </div>
  );
}

/**
 * The search box: typing updates the box at once and the URL 500 ms after the last key; Enter
 * commits at once. A URL change from outside (Back, a link) updates the box. A navigation to
 * another screen (a row's Edit clicked within the 500 ms) drops the pending commit, which would
 * otherwise bring the list back over the screen the user chose.
 */
export function SearchBox({
  label,
  value,
  onCommit,
}: {
  label: string;
  value: string;
  onCommit: (search: string) => void;
}) {
  const [text, setText] = useState(value);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const textRef = useRef(text);
  textRef.current = text;
  const id = useId();

  useEffect(() => {
    if (textRef.current.trim() !== value) setText(value);
  }, [value]);
  useEffect(() => () => clearTimeout(timer.current), []);
  // Outside a router (component tests) there is nothing to leave.
  const router = useRouter({ warn: false }) as ReturnType<typeof useRouter> | undefined;
  useEffect(
    () =>
      router?.subscribe('onBeforeNavigate', (event) => {
        if (event.pathChanged) clearTimeout(timer.current);
      }),
    [router],
  );

  const commit = (next: string) => {
    clearTimeout(timer.current);
    if (next.trim() !== value) onCommit(next.trim());
  };

  const full = text.length >= SEARCH_MAX;
  return (
    <div className={css({ w: { base: 'full', sm: '20rem' } })}>
      <label htmlFor={id} className={css({ srOnly: true })}>
        {label}
      </label>
      <div className={css({ position: 'relative' })}>
        <SearchIcon />
        <input
          id={id}
          type="search"
          placeholder={label}
          autoComplete="off"
          maxLength={SEARCH_MAX}
          aria-describedby={full ? `${id}-note` : undefined}
          value={text}
          onChange={(e) => {
            const next = e.target.value;
            setText(next);
            clearTimeout(timer.current);
            timer.current = setTimeout(() => commit(next), SEARCH_DEBOUNCE_MS);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter') commit(text);
          }}
          // The text fields' input (the field recipe), a little lower, with room for the icon.
          className={cx(field().input, css({ h: '10', pl: '9' }))}
        />
      </div>
      {full ? (
        <p id={`${id}-note`} role="status" className={css({ mt: '1', fontSize: 'xs', color: 'fg.muted' })}>
          {SEARCH_CUT_NOTE}
        </p>
      ) : null}
    </div>
  );
}

/** On a phone the columns' headers are not shown: their sorts are one choice above the cards. */
function PhoneSortChoice({
  label,
  options,
  sortBy,
  sortOrder,
  onSort,
}: {
  label: string;
  options: { id: string; label: string }[];
  sortBy: string | undefined;
  sortOrder: 'asc' | 'desc' | undefined;
  onSort: (sortBy: string, sortOrder: 'asc' | 'desc') => void;
}) {
  const choices = options.flatMap((o) => [
    { value: `${o.id}:asc`, label: `${o.label} ↑` },
    { value: `${o.id}:desc`, label: `${o.label} ↓` },
  ]);
  const value = sortBy ? `${sortBy}:${sortOrder ?? 'asc'}` : '';
  return (
    <div className={css({ display: { base: 'block', md: 'none' }, w: 'full' })}>
      <SelectField
        label={`Sort ${label.toLowerCase()} by`}
        hideLabel
        options={choices}
        {...(choices.some((c) => c.value === value) ? {} : { placeholder: 'Sort by' })}
        value={value}
        onChange={(e) => {
          const [id, order] = e.target.value.split(':');
          if (id) onSort(id, order === 'desc' ? 'desc' : 'asc');
        }}
        className={css({ h: '10' })}
      />
    </div>
  );
}

function SearchIcon() {
  return (
    <svg
      aria-hidden="true"
      width="16"
      height="16"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      className={css({
        position: 'absolute',
        left: '3',
        top: '50%',
        transform: 'translateY(-50%)',
        color: 'fg.subtle',
      })}
    >
      <circle cx="11" cy="11" r="7" />
      <path d="m20 20-3.5-3.5" />
    </svg>
  );
}

function SortIndicator({ direction }: { direction: false | 'asc' | 'desc' }) {
  return (
    <svg
      aria-hidden="true"
      width="12"
      height="12"
      viewBox="0 0 12 12"
      className={css({ flexShrink: 0, color: direction ? 'brand.700' : 'fg.subtle' })}
    >
      <path d="M6 1 9.5 5h-7z" fill="currentColor" opacity={direction === 'desc' ? 0.25 : 1} />
      <path d="M6 11 2.5 7h7z" fill="currentColor" opacity={direction === 'asc' ? 0.25 : 1} />
    </svg>
  );
}

const tableLook = css({
  w: 'full',
  borderCollapse: 'collapse',
  fontSize: 'sm',
  transition: 'opacity 0.15s',
  display: { base: 'block', md: 'table' },
});
const headerCell = css({
  textAlign: 'left',
  // Tighter from md to 2xl, so the widest lists fit 1280 px (decision 067).
  px: { md: '2', '2xl': '3' },
  py: '3',
  textStyle: 'caption',
  color: 'fg.muted',
  bg: 'bg.subtle',
  borderBottomWidth: '1px',
  borderColor: 'border.default',
  // Long headers take two lines rather than widen the table (it fits 1280 px, decision 067).
  whiteSpace: 'normal',
});
const sortButton = css({
  display: 'inline-flex',
  alignItems: 'center',
  gap: '1.5',
  textStyle: 'caption',
  textAlign: 'left',
  cursor: 'pointer',
  borderRadius: 'sm',
  _hover: { color: 'fg.default' },
  _focusVisible: { outline: '2px solid', outlineColor: 'border.focus', outlineOffset: '2px' },
});
/** The rows: a column of cards on a phone, table rows from md up. */
const cardList = css({
  display: { base: 'flex', md: 'table-row-group' },
  flexDirection: 'column',
  gap: '3',
});
const bodyRow = css({
  display: { base: 'flex', md: 'table-row' },
  flexDirection: 'column',
  gap: '2',
  p: { base: '4', md: '0' },
  bg: 'bg.surface',
  borderWidth: { base: '1px', md: '0' },
  borderColor: 'border.default',
  borderRadius: { base: 'xl', md: '0' },
  boxShadow: { base: 'card', md: 'none' },
  md: { _hover: { bg: 'brand.50/40' } },
});
const bodyCell = css({
  display: { base: 'flex', md: 'table-cell' },
  alignItems: 'baseline',
  gap: '3',
  minW: '0',
  px: { base: '0', md: '2', '2xl': '3' },
  py: { base: '0', md: '3' },
  borderBottomWidth: { base: '0', md: '1px' },
  borderColor: 'border.default',
  verticalAlign: 'middle',
  // Long words (an email) break rather than widen the table or the card.
  overflowWrap: 'anywhere',
  '&[data-card=title]': {
    fontSize: { base: 'md', md: 'sm' },
    fontWeight: { base: 'semibold', md: 'inherit' },
  },
  // On a phone a card's text wraps, whatever a cell asks for the table (a name kept on one line).
  mdDown: { '&[data-card=field] *, &[data-card=title] *': { whiteSpace: 'normal' } },
  // On a phone, a field's label beside its value; the table's header says it from md up.
  '&[data-label]::before': {
    content: 'attr(data-label)',
    flex: '0 0 38%',
    textStyle: 'caption',
    color: 'fg.muted',
    overflowWrap: 'normal',
    md: { content: 'none', display: 'none' },
  },
});
const cardValue = css({ flex: '1', minW: '0' });
/** The row's actions: a row of buttons at the card's foot; from md up a cell that never wraps. */
const actionCell = css({
  whiteSpace: 'nowrap',
  overflowWrap: 'normal',
  borderTopWidth: { base: '1px', md: '0' },
  pt: { base: '3', md: '3' },
  mt: { base: '1', md: '0' },
  '& > span': { display: { base: 'flex', md: 'inline' }, flexWrap: 'wrap', gap: '2' },
  // A screen's own wrapper around its buttons (kept on one line in the table) wraps on a phone too:
  // four buttons are wider than a 375 px card.
  mdDown: { '& > span > span': { display: 'flex', flexWrap: 'wrap', gap: '2', whiteSpace: 'normal' } },
});
const endAlign = css({ md: { textAlign: 'right' } });
const sticky = {
  position: 'sticky',
  right: '0',
  zIndex: 'docked',
  borderLeftWidth: '1px',
} as const;
const stickyHeader = css({ md: sticky });
const stickyCell = css({ md: { ...sticky, bg: 'bg.surface' } });
const messageRow = css({ display: { base: 'block', md: 'table-row' } });
const messageCell = css({
  display: { base: 'block', md: 'table-cell' },
  textAlign: 'center',
  py: '10',
  color: 'fg.muted',
  bg: 'bg.surface',
  borderRadius: { base: 'xl', md: '0' },
  boxShadow: { base: 'card', md: 'none' },
  borderWidth: { base: '1px', md: '0' },
  borderBottomWidth: '1px',
});
const skeletonBar = css({
  display: 'block',
  h: '3',
  w: 'full',
  maxW: '10rem',
  borderRadius: 'sm',
  bg: 'slate.200',
  animation: 'pulse 1.4s ease-in-out infinite',
});
