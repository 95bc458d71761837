import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { ListData } from '../../contract/envelope';
import { ApiError } from '../api/client';
import { type DataColumn, dataColumnHelper } from './data-table';
import { ListTable } from './list-screen';

interface Person {
  id: number;
  name: string;
}
const col = dataColumnHelper<Person>();
const columns: DataColumn<Person>[] = col.columns([col.accessor('name', { header: 'Name' })]);

/** A list whose first answer is a server failure and whose second is the page. */
let calls = 0;
function FlakyList() {
  const query = useQuery<ListData<Person>>({
    queryKey: ['people'],
    queryFn: async () => {
      calls += 1;
      if (calls === 1) throw new ApiError(500, 'Database is down');
      return { records: [{ id: 1, name: 'Ada Obi' }], meta: { totalCount: 1, pageNumber: 1, pageSize: 10 } };
    },
  });
  return (
    <ListTable
      label="People"
      columns={columns}
      query={query}
      state={{ page: 1, pageSize: 10, search: '' }}
      onChange={() => undefined}
    />
  );
}

describe('ListTable', () => {
  it('offers Retry on a list that failed, and shows the list once the retry answers', async () => {
    const user = userEvent.setup();
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <FlakyList />
      </QueryClientProvider>,
    );
    expect(await screen.findByRole('alert')).toHaveTextContent('Error: Database is down');
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('cell', { name: 'Ada Obi' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
