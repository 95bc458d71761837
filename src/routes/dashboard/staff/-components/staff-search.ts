import { roleList } from '../../../../../contract/roles';
import { staffList } from '../../../../../contract/staff';
import { tabbedListSearchSchema } from '../../../../lib/list-search';

export const STAFF_TABS = ['users', 'roles'] as const;
export type StaffTab = (typeof STAFF_TABS)[number];

type StaffScreenSort = (typeof staffList.sortKeys)[number] | (typeof roleList.sortKeys)[number];

/**
 * /dashboard/staff?activeTab=users|roles&page=&pageSize=&search=&sortBy=&sortOrder=: one URL for
 * both tabs (a tab change clears search and sort), so it takes the keys of both lists and the
 * screen opens newest first on either tab.
 */
export const staffSearchSchema = tabbedListSearchSchema({
  tabs: STAFF_TABS,
  sortKeys: [...new Set([...staffList.sortKeys, ...roleList.sortKeys])] as [
    StaffScreenSort,
    ...StaffScreenSort[],
  ],
  defaultSort: staffList.defaultSort,
});

/** List defaults left out of the URL; activeTab always stays in it (docs/product.md#screens). */
export const STAFF_LIST_DEFAULTS = (({ activeTab: _, ...rest }) => rest)(staffSearchSchema.parse({}));
