import { activityList } from '../../../../../contract/activities';
import type { UserType } from '../../../../../contract/auth';
import type { z } from '../../../../../contract/zod';
import { tabbedListSearchSchema } from '../../../../lib/list-search';

/** docs/product.md#screens: tabs Partner, Customer, Admin; default Partner. */
export const ACTIVITY_TABS = ['partner', 'customer', 'admin'] as const;
export type ActivityTab = (typeof ACTIVITY_TABS)[number];

/** /dashboard/activities?activeTab=partner|customer|admin&page=&pageSize=&search=&sortBy=&sortOrder= */
export const activitySearchSchema = tabbedListSearchSchema({ ...activityList, tabs: ACTIVITY_TABS });

/** The list's query of the URL's search (the screen's and the route loader's): the tab is the user type. */
export const activityListParams = (search: z.output<typeof activitySearchSchema>) => ({
  ...search,
  userType: search.activeTab.toUpperCase() as UserType,
});
