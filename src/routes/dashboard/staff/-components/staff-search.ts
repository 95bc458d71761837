import { roleSortKeys } from '../../../../../contract/roles';
import { staffSortKeys } from '../../../../../contract/staff';
import { tabbedListSearchSchema } from '../../../../lib/list-search';

export const STAFF_TABS = ['users', 'roles'] as const;
export type StaffTab = (typeof STAFF_TABS)[number];

const sortKeys = [...new Set([...staffSortKeys, ...roleSortKeys])] as [
  (typeof staffSortKeys)[number] | (typeof roleSortKeys)[number],
  ...((typeof staffSortKeys)[number] | (typeof roleSortKeys)[number])[],
];

/** /dashboard/staff?activeTab=users|roles&page=&pageSize=&search=&sortBy=&sortOrder= */
export const staffSearchSchema = tabbedListSearchSchema({
  tabs: STAFF_TABS,
  sortKeys,
  defaultSort: { sortBy: 'createdAt', sortOrder: 'desc' },
});

/** List defaults left out of the URL; activeTab always stays in it (SPEC section 2). */
export const STAFF_LIST_DEFAULTS = {
  page: 1,
  pageSize: 10,
  search: '',
  sortBy: 'createdAt',
  sortOrder: 'desc',
} as const;
