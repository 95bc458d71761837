import type { ConfirmedLink, CustomerLink } from '../../contract/customer-links';
import { apiData } from './call';

/**
 * Consent links (issue 28, decision 053): a partner asks the customer for a link (a code is mailed
 * to them) and enters the code the customer gives; club admins list and remove a customer's links.
 */
export const askCustomerLink = (body: { email?: string; memberNumber?: string; partnerId?: number }) =>
  apiData('POST /partners/customer-links', { body });

export const confirmCustomerLink = (linkId: number, code: string): Promise<ConfirmedLink> =>
  apiData('POST /partners/customer-links/{linkId}/confirm', { params: { linkId }, body: { code } });

export const customerLinks = (customerId: number): Promise<CustomerLink[]> =>
  apiData('GET /admin/user/customers/{customerId}/links', { params: { customerId } });

export const removeCustomerLink = (customerId: number, linkId: number) =>
  apiData('DELETE /admin/user/customers/{customerId}/links/{linkId}', { params: { customerId, linkId } });
