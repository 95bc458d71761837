import { customerList } from '../../../../../contract/customers';
import type { AccountStatus } from '../../../../../contract/list';
import type { z } from '../../../../../contract/zod';
import { tabbedListSearchSchema } from '../../../../lib/list-search';

/** docs/product.md#screens: tabs Active Customers (ACTIVE) and Blocked Customers (BLOCKED). */
export const CUSTOMER_TABS = ['active', 'blocked'] as const;
export type CustomerTab = (typeof CUSTOMER_TABS)[number];
const customerStatusOfTab = (tab: CustomerTab): AccountStatus => (tab === 'blocked' ? 'BLOCKED' : 'ACTIVE');

/** /dashboard/clients?activeTab=active|blocked&page=&pageSize=&search=&sortBy=&sortOrder= */
export const customerSearchSchema = tabbedListSearchSchema({ ...customerList, tabs: CUSTOMER_TABS });

/** The list's query of the URL's search (the screen's and the route loader's): the tab is the status. */
export const customerListParams = (search: z.output<typeof customerSearchSchema>) => ({
  ...search,
  status: customerStatusOfTab(search.activeTab),
});
