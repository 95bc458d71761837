import { afterEach, describe, expect, it } from 'vitest';
import { customerList, customerSchema } from '../../contract/customers';
import { rewardList, rewardSchema } from '../../contract/rewards';
import { createApiClient, setApiClient } from './client';
import { customerKeys, customerListQueryOptions, exportCustomers, fetchCustomer } from './customers';
import { listResource } from './list-resource';
import { roleDetailQueryOptions } from './roles';

const customer = {
  id: 7,
  firstName: 'Ada',
  lastName: 'Obi',
  email: 'ada@example.com',
  phone: null,
  address: null,
  imageUrl: null,
  accountStatus: 'ACTIVE',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};
const page = (records: unknown[]) => ({
  records,
  meta: { totalCount: records.length, pageNumber: 1, pageSize: 10 },
});

/** Answers every call with `data` (a CSV body for an export) and records the URLs asked for. */
function fakeServer(data: unknown) {
  const urls: string[] = [];
  const fetch = (async (url: RequestInfo | URL) => {
    urls.push(String(url));
    if (String(url).includes('/export')) {
      return new Response('\uFEFFID,Name\n7,Ada\n', {
        headers: {
          'Content-Type': 'text/csv',
          'Content-Disposition': 'attachment; filename="customers.csv"',
        },
      });
    }
    return new Response(JSON.stringify({ success: true, data, message: '', errors: [] }), {
      headers: { 'Content-Type': 'application/json' },
    });
  }) as typeof globalThis.fetch;
  setApiClient(
    createApiClient({ tokens: { accessToken: async () => 't', rejected: async () => null }, fetch }),
  );
  return urls;
}

afterEach(() => setApiClient(null));

const state = { page: 2, pageSize: 20 as const, search: 'ada', sortBy: 'email', sortOrder: 'desc' as const };

describe('listResource', () => {
  it('asks for a page with the list state and the filters the contract names, nothing else', async () => {
    const urls = fakeServer(page([customer]));
    // As a tabbed screen passes them: its URL search (with the tab) and the tab's status.
    const params = { ...state, activeTab: 'blocked', status: 'BLOCKED' as const };
    const options = customerListQueryOptions(params);
    expect(options.queryKey).toEqual([
      'customers',
      'list',
      {
        pageNumber: '2',
        pageSize: 20,
        searchText: 'ada',
        sortBy: 'email',
        sortOrder: 'desc',
        status: 'BLOCKED',
      },
    ]);
    expect(options.staleTime).toBe(10_000);
    expect(options.placeholderData).toBeTypeOf('function');
    const list = await options.queryFn?.({} as never);
    expect(list?.records[0]?.email).toBe('ada@example.com');
    expect(urls).toEqual([
      '/api/v1/admin/user/customers?pageNumber=2&pageSize=20&searchText=ada&sortBy=email&sortOrder=desc&status=BLOCKED',
    ]);
  });

  it('drops a sort the list does not know and an absent filter', () => {
    const rewards = listResource({
      key: ['rewards'],
      list: rewardList,
      path: '/admin/partners/rewards',
      item: rewardSchema,
    });
    expect(rewards.keys.list({ ...state, sortBy: 'name', partnerId: 3 })).toEqual([
      'rewards',
      'list',
      { pageNumber: '2', pageSize: 20, searchText: 'ada', partnerId: 3 },
    ]);
  });

  it('exports from <path>/export without paging', async () => {
    const urls = fakeServer(null);
    const file = await exportCustomers({ ...state, status: 'ACTIVE' });
    expect(file).toMatchObject({ filename: 'customers.csv', rows: 1 });
    expect(urls).toEqual([
      '/api/v1/admin/user/customers/export?searchText=ada&sortBy=email&sortOrder=desc&status=ACTIVE',
    ]);
  });

  it('reads a record by its REST path or by an id in the query', async () => {
    const urls = fakeServer(customer);
    expect(await fetchCustomer(7)).toEqual(customer);
    expect(customerKeys.detail(7)).toEqual(['customers', 'detail', 7]);
    // The customer is not a role (the answer is refused); the URL is what counts.
    await expect(roleDetailQueryOptions(4).queryFn?.({} as never)).rejects.toThrow();
    expect(urls).toEqual(['/api/v1/admin/user/customers/7', '/api/v1/admin/user/get-role-detail?roleId=4']);
  });

  it('offers every record as choices: the largest page, by the given key, with the given filters', async () => {
    const urls = fakeServer(page([customer]));
    const customers = listResource({
      key: ['customers'],
      list: customerList,
      path: '/admin/user/customers',
      item: customerSchema,
    });
    const options = customers.choicesQueryOptions({ sortBy: 'email', status: 'ACTIVE' }, (c) => c.email);
    expect(options.queryKey).toEqual(['customers', 'choices']);
    expect(options.staleTime).toBe(30_000);
    expect(await options.queryFn?.({} as never)).toEqual(['ada@example.com']);
    expect(urls).toEqual([
      '/api/v1/admin/user/customers?pageNumber=1&pageSize=100&sortBy=email&sortOrder=asc&status=ACTIVE',
    ]);
  });
});
