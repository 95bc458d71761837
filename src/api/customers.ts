import { queryOptions } from '@tanstack/react-query';
import type { AddCustomerBody } from '../../contract/customer-sync';
import { type ClientInternetInfo, customerList, customerSchema } from '../../contract/customers';
import type { AccountStatus } from '../../contract/list';
import { apiData, apiMessage } from './call';
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
  apiData('GET /user/internet/client_info', { query: { client_id: customerId } });

export const setCustomerStatus = async (customerId: number, accountStatus: AccountStatus): Promise<string> =>
  apiMessage('PATCH /admin/user/customers/status', { body: { customerId, accountStatus } });

/**
 * Add customer (issue 27): one customer by hand, under the sync's rules; answers the new customer
 * (`data.customer`). A taken external id or email is a 409 naming the field.
 */
export const addCustomer = (body: AddCustomerBody) => apiData('POST /admin/user/customers', { body });

/** A soft delete: the customer leaves the lists, its history stays. */
export const deleteCustomer = async (customerId: number): Promise<string> =>
  apiMessage('DELETE /admin/user/customers/{customerId}', { params: { customerId } });

export const customerInternetInfoQueryOptions = (customerId: number) =>
  queryOptions({
    queryKey: customerKeys.internet(customerId),
    queryFn: () => fetchCustomerInternetInfo(customerId),
    staleTime: 30_000,
  });
