import { queryOptions } from '@tanstack/react-query';
import {
  type ClientInternetInfo,
  clientInternetInfoSchema,
  customerList,
  customerSchema,
} from '../../contract/customers';
import type { AccountStatus } from '../../contract/list';
import { z } from '../../contract/zod';
import { api } from './client';
import { listResource } from './list-resource';

const customers = listResource({
  key: ['customers'],
  list: customerList,
  path: '/admin/user/customers',
  item: customerSchema,
  detail: { path: '/admin/user/customers/{customerId}' },
});

export const customerKeys = {
  ...customers.keys,
  internet: (id: number) => [...customers.keys.detail(id), 'internet'] as const,
};

export const customerListQueryOptions = customers.listQueryOptions;
/** Every customer the list's tab, search and sort match, as CSV. */
export const exportCustomers = customers.exportCsv;
export const fetchCustomer = customers.fetchOne;
export const customerDetailQueryOptions = customers.detailQueryOptions;

/** The customer's fiber account (plan, speed, monthly fee, status, renewal date). */
export const fetchCustomerInternetInfo = (customerId: number): Promise<ClientInternetInfo> =>
  api().get('/user/internet/client_info', clientInternetInfoSchema, { query: { client_id: customerId } });

export const setCustomerStatus = async (customerId: number, accountStatus: AccountStatus): Promise<string> =>
  (
    await api().send('PATCH', '/admin/user/customers/status', z.unknown(), {
      body: { customerId, accountStatus },
    })
  ).message;

/** A soft delete: the customer leaves the lists, its history stays. */
export const deleteCustomer = async (customerId: number): Promise<string> =>
  (await api().send('DELETE', `/admin/user/customers/${customerId}`, z.unknown())).message;

export const customerInternetInfoQueryOptions = (customerId: number) =>
  queryOptions({
    queryKey: customerKeys.internet(customerId),
    queryFn: () => fetchCustomerInternetInfo(customerId),
    staleTime: 30_000,
  });
