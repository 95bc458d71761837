import type { ErasedCustomer } from '../../contract/customer-privacy';
import { apiCall, fillPath } from './call';
import { api } from './client';
import type { ExportedFile } from './export';

/*
 * The customer's rights (issue 28, docs/decisions/054-customer-erasure.md): a club admin with
 * customers.privacy downloads a customer's data and erases them.
 */

/** Everything the club holds about the customer, as the JSON file the server names. */
export async function downloadCustomerData(customerId: number): Promise<Omit<ExportedFile, 'rows'>> {
  const res = await api().download(
    fillPath('/admin/user/customers/{customerId}/data-export', { customerId }),
  );
  const blob = await res.blob();
  const filename =
    /filename="([^"]+)"/.exec(res.headers.get('Content-Disposition') ?? '')?.[1] ??
    `customer-${customerId}.json`;
  return { blob: new Blob([blob], { type: 'application/json' }), filename };
}

/** Erases the customer: what was kept, and the server's sentence. */
export const eraseCustomer = async (customerId: number): Promise<{ data: ErasedCustomer; message: string }> =>
  apiCall('POST /admin/user/customers/{customerId}/erase', { params: { customerId } });
