import { customerSortKeys } from '../../../../../contract/customers';
import type { AccountStatus } from '../../../../../contract/list';
import { tabbedListSearchSchema } from '../../../../lib/list-search';

/** SPEC section 2: tabs Active Customers (ACTIVE) and Blocked Customers (BLOCKED). */
export const CLIENT_TABS = ['active', 'blocked'] as const;
export type ClientTab = (typeof CLIENT_TABS)[number];
export const clientStatusOfTab = (tab: ClientTab): AccountStatus =>
  tab === 'blocked' ? 'BLOCKED' : 'ACTIVE';

/** /dashboard/clients?activeTab=active|blocked&page=&pageSize=&search=&sortBy=&sortOrder= */
export const clientSearchSchema = tabbedListSearchSchema({
  tabs: CLIENT_TABS,
  sortKeys: customerSortKeys,
  defaultSort: { sortBy: 'createdAt', sortOrder: 'desc' },
});

export const CLIENT_LIST_DEFAULTS = {
  activeTab: 'active',
  page: 1,
  pageSize: 10,
  search: '',
  sortBy: 'createdAt',
  sortOrder: 'desc',
} as const;
