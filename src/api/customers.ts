import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import {
  type ClientInternetInfo,
  type Customer,
  clientInternetInfoSchema,
  customerList,
  customerSchema,
} from '../../contract/customers';
import { listSchema } from '../../contract/envelope';
import type { AccountStatus } from '../../contract/list';
import { z } from '../../contract/zod';
import { type ListState, toListQuery } from '../lib/list-search';
import { api } from './client';
import { type DownloadOptions, downloadCsv } from './export';

export const customerListSchema = listSchema(customerSchema);
export type CustomerList = z.infer<typeof customerListSchema>;

export interface CustomerListParams extends ListState {
  status: AccountStatus;
}

const toQuery = ({ status, ...state }: CustomerListParams) => ({
  ...toListQuery(state, customerList.sortKeys),
  status,
});

export const customerKeys = {
  all: ['customers'] as const,
  lists: () => [...customerKeys.all, 'list'] as const,
  list: (params: CustomerListParams) => [...customerKeys.lists(), toQuery(params)] as const,
  details: () => [...customerKeys.all, 'detail'] as const,
  detail: (id: number) => [...customerKeys.details(), id] as const,
  internet: (id: number) => [...customerKeys.detail(id), 'internet'] as const,
};

export const fetchCustomers = (params: CustomerListParams): Promise<CustomerList> =>
  api().get('/admin/user/customers', customerListSchema, { query: toQuery(params) });

/** Every customer the list's tab, search and sort match, as CSV. */
export const exportCustomers = (params: CustomerListParams, opts?: DownloadOptions) =>
  downloadCsv('/admin/user/customers/export', toQuery(params), opts);

export const fetchCustomer = (customerId: number): Promise<Customer> =>
  api().get(`/admin/user/customers/${customerId}`, customerSchema);

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

export const customerListQueryOptions = (params: CustomerListParams) =>
  queryOptions({
    queryKey: customerKeys.list(params),
    queryFn: () => fetchCustomers(params),
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });

export const customerDetailQueryOptions = (customerId: number) =>
  queryOptions({ queryKey: customerKeys.detail(customerId), queryFn: () => fetchCustomer(customerId) });

export const customerInternetInfoQueryOptions = (customerId: number) =>
  queryOptions({
    queryKey: customerKeys.internet(customerId),
    queryFn: () => fetchCustomerInternetInfo(customerId),
    staleTime: 30_000,
  });
