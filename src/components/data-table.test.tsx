import { act, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/client';
import { applyListChange, type ListChange, type ListState } from '../lib/list-search';
import {
  type DataColumn,
  DataTable,
  dataColumnHelper,
  NO_RESULTS,
  SEARCH_CUT_NOTE,
  SEARCH_DEBOUNCE_MS,
  SKELETON_ROWS,
} from './data-table';

interface Person {
  id: number;
  name: string;
  email: string;
}
const col = dataColumnHelper<Person>();
const columns: DataColumn<Person>[] = col.columns([
  col.accessor('name', { header: 'Name', enableSorting: true }),
  col.accessor('email', { header: 'Email' }),
]);
const people: Person[] = [
  { id: 1, name: 'Ada Obi', email: 'ada@example.ng' },
  { id: 2, name: 'Bola Ade', email: 'bola@example.ng' },
];
const initial: ListState = { page: 1, pageSize: 10, search: '' };

/** The table over URL-like state: every change goes through applyListChange, as the routes do. */
function Harness({
  start = initial,
  records = people,
  noRecords = false,
  totalCount = 45,
  isPending = false,
  error,
  onChange,
}: {
  start?: ListState;
  records?: Person[];
  noRecords?: boolean;
  totalCount?: number | undefined;
  isPending?: boolean;
  error?: unknown;
  onChange?: (change: ListChange, next: ListState) => void;
}) {
  const [state, setState] = useState(start);
  return (
    <>
      <DataTable
        label="People"
        columns={columns}
        records={noRecords ? undefined : records}
        totalCount={totalCount}
        isPending={isPending}
        error={error}
        state={state}
        searchLabel="Search people"
        getRowId={(p) => String(p.id)}
        onChange={(change) => {
          const next = applyListChange(state, change);
          onChange?.(change, next);
          setState(next);
        }}
      />
      <output data-testid="state">{JSON.stringify(state)}</output>
    </>
  );
}

const currentState = (): ListState => JSON.parse(screen.getByTestId('state').textContent ?? '{}');
const bodyRows = () =>
  within(screen.getByRole('table', { name: 'People' }))
    .getAllByRole('row')
    .slice(1);

afterEach(() => vi.useRealTimers());

describe('DataTable', () => {
  it('shows a 13-row loading skeleton while the first page loads', () => {
    render(<Harness noRecords totalCount={undefined} isPending />);
    expect(SKELETON_ROWS).toBe(13);
    expect(bodyRows()).toHaveLength(13);
    expect(screen.getByRole('table', { name: 'People' })).toHaveAttribute('aria-busy', 'true');
    expect(screen.queryByText(NO_RESULTS)).not.toBeInTheDocument();
  });

  it("shows 'No results.' when the page is empty, and '1 of 1'", () => {
    render(<Harness records={[]} totalCount={0} />);
    expect(screen.getByRole('cell', { name: 'No results.' })).toBeInTheDocument();
    expect(screen.getByText('1 of 1')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Prev' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
  });

  it('with pager={false} shows every record and no pager (a short list shown whole)', () => {
    render(
      <DataTable
        label="People"
        columns={columns}
        records={people}
        totalCount={people.length}
        isPending={false}
        state={initial}
        onChange={() => undefined}
        pager={false}
      />,
    );
    expect(bodyRows()).toHaveLength(people.length);
    expect(screen.queryByRole('navigation', { name: 'People pages' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Next' })).not.toBeInTheDocument();
  });

  it('renders the records of the page', () => {
    render(<Harness />);
    expect(bodyRows().map((r) => r.textContent)).toEqual([
      'Ada Obiada@example.ng',
      'Bola Adebola@example.ng',
    ]);
  });

  it("shows the server message as 'Error: …', else the server fallback", () => {
    const { unmount } = render(<Harness noRecords error={new ApiError(500, 'Database is down')} />);
    expect(screen.getByRole('alert')).toHaveTextContent('Error: Database is down');
    unmount();
    render(<Harness noRecords error={new ApiError(500, '')} />);
    expect(screen.getByRole('alert')).toHaveTextContent('An error occurred on the server');
  });

  it("pages with Prev and Next and shows 'n of m' from the server total", async () => {
    const user = userEvent.setup();
    render(<Harness />);
    expect(screen.getByText('1 of 5')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Prev' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByText('2 of 5')).toBeInTheDocument();
    expect(currentState().page).toBe(2);
    await user.click(screen.getByRole('button', { name: 'Prev' }));
    expect(screen.getByText('1 of 5')).toBeInTheDocument();
  });

  it('disables Next on the last page', () => {
    render(<Harness start={{ ...initial, page: 5 }} />);
    expect(screen.getByText('5 of 5')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Prev' })).toBeEnabled();
  });

  it('toggles a sortable header asc, desc, asc with aria-sort, and leaves other columns unsortable', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<Harness start={{ ...initial, page: 3 }} onChange={onChange} />);
    const name = screen.getByRole('columnheader', { name: 'Name' });
    const email = screen.getByRole('columnheader', { name: 'Email' });
    expect(name).toHaveAttribute('aria-sort', 'none');
    expect(email).not.toHaveAttribute('aria-sort');
    expect(within(email).queryByRole('button')).not.toBeInTheDocument();

    await user.click(within(name).getByRole('button', { name: 'Name' }));
    expect(onChange).toHaveBeenLastCalledWith(
      { type: 'sort', sortBy: 'name', sortOrder: 'asc' },
      expect.anything(),
    );
    expect(name).toHaveAttribute('aria-sort', 'ascending');
    expect(currentState()).toMatchObject({ sortBy: 'name', sortOrder: 'asc', page: 1 });

    await user.click(within(name).getByRole('button', { name: 'Name' }));
    expect(name).toHaveAttribute('aria-sort', 'descending');
    expect(currentState()).toMatchObject({ sortBy: 'name', sortOrder: 'desc' });

    await user.click(within(name).getByRole('button', { name: 'Name' }));
    expect(name).toHaveAttribute('aria-sort', 'ascending');
  });

  it('debounces the search box by 500 ms and goes back to page 1', () => {
    vi.useFakeTimers();
    const onChange = vi.fn();
    render(<Harness start={{ ...initial, page: 4 }} onChange={onChange} />);
    const box = screen.getByRole('searchbox', { name: 'Search people' });
    fireEvent.change(box, { target: { value: 'ad' } });
    act(() => vi.advanceTimersByTime(300));
    fireEvent.change(box, { target: { value: 'ada' } });
    act(() => vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS - 1));
    expect(onChange).not.toHaveBeenCalled();
    expect(box).toHaveValue('ada');
    act(() => vi.advanceTimersByTime(1));
    expect(onChange).toHaveBeenCalledTimes(1);
    expect(onChange).toHaveBeenCalledWith({ type: 'search', search: 'ada' }, expect.anything());
    expect(currentState()).toMatchObject({ search: 'ada', page: 1 });
  });

  it('cuts a search at 100 characters and says so (never drops it for the whole list)', () => {
    render(<Harness />);
    const box = screen.getByRole('searchbox', { name: 'Search people' });
    expect(box).toHaveAttribute('maxLength', '100');
    expect(screen.queryByText(SEARCH_CUT_NOTE)).not.toBeInTheDocument();
    fireEvent.change(box, { target: { value: 'a'.repeat(100) } });
    expect(screen.getByText(SEARCH_CUT_NOTE)).toHaveAttribute('role', 'status');
    expect(box).toHaveAccessibleDescription(SEARCH_CUT_NOTE);
  });

  it('commits the search at once on Enter', () => {
    vi.useFakeTimers();
    const onChange = vi.fn();
    render(<Harness onChange={onChange} />);
    const box = screen.getByRole('searchbox', { name: 'Search people' });
    fireEvent.change(box, { target: { value: 'bola ' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(onChange).toHaveBeenCalledWith({ type: 'search', search: 'bola' }, expect.anything());
    act(() => vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS));
    expect(onChange).toHaveBeenCalledTimes(1);
  });

  it('follows a search changed from outside (Back) without committing it again', () => {
    const onChange = vi.fn();
    const view = (search: string) => (
      <DataTable
        label="People"
        columns={columns}
        records={people}
        totalCount={2}
        isPending={false}
        state={{ ...initial, search }}
        searchLabel="Search people"
        onChange={onChange}
      />
    );
    const { rerender } = render(view('ada'));
    expect(screen.getByRole('searchbox', { name: 'Search people' })).toHaveValue('ada');
    rerender(view(''));
    expect(screen.getByRole('searchbox', { name: 'Search people' })).toHaveValue('');
    expect(onChange).not.toHaveBeenCalled();
  });

  it('changes the page size from 10/20/50/100 and goes back to page 1', async () => {
    const user = userEvent.setup();
    render(<Harness start={{ ...initial, page: 3 }} />);
    const select = screen.getByRole('combobox', { name: 'Rows per page' });
    expect([...select.querySelectorAll('option')].map((o) => o.value)).toEqual(['10', '20', '50', '100']);
    await user.selectOptions(select, '20');
    expect(currentState()).toMatchObject({ pageSize: 20, page: 1 });
    expect(screen.getByText('1 of 3')).toBeInTheDocument();
  });

  it('moves to the last page when the page is beyond it (after a deletion)', () => {
    render(<Harness start={{ ...initial, page: 6 }} totalCount={45} />);
    expect(currentState().page).toBe(5);
  });
});
