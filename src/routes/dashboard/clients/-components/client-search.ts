import { customerList } from '../../../../../contract/customers';
import type { AccountStatus } from '../../../../../contract/list';
import { listSearchDefaults, tabbedListSearchSchema } from '../../../../lib/list-search';

/** SPEC section 2: tabs Active Customers (ACTIVE) and Blocked Customers (BLOCKED). */
export const CLIENT_TABS = ['active', 'blocked'] as const;
export type ClientTab = (typeof CLIENT_TABS)[number];
export const clientStatusOfTab = (tab: ClientTab): AccountStatus =>
  tab === 'blocked' ? 'BLOCKED' : 'ACTIVE';

/** /dashboard/clients?activeTab=active|blocked&page=&pageSize=&search=&sortBy=&sortOrder= */
export const clientSearchSchema = tabbedListSearchSchema({ ...customerList, tabs: CLIENT_TABS });
export const CLIENT_LIST_DEFAULTS = listSearchDefaults(clientSearchSchema);
