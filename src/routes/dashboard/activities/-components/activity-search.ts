import { activityList } from '../../../../../contract/activities';
import type { UserType } from '../../../../../contract/auth';
import { listSearchDefaults, tabbedListSearchSchema } from '../../../../lib/list-search';

/** SPEC section 2: tabs Partner, Customer, Admin; default Partner. */
export const ACTIVITY_TABS = ['partner', 'customer', 'admin'] as const;
export type ActivityTab = (typeof ACTIVITY_TABS)[number];

export const userTypeOf = (tab: ActivityTab): UserType => tab.toUpperCase() as UserType;

/** /dashboard/activities?activeTab=partner|customer|admin&page=&pageSize=&search=&sortBy=&sortOrder= */
export const activitySearchSchema = tabbedListSearchSchema({ ...activityList, tabs: ACTIVITY_TABS });
export const ACTIVITY_LIST_DEFAULTS = listSearchDefaults(activitySearchSchema);
