import { activityList, activitySchema } from '../../contract/activities';
import { listResource } from './list-resource';

const activities = listResource({
  key: ['activities'],
  list: activityList,
  path: '/admin/user/activities',
  item: activitySchema,
});

export const activityListQueryOptions = activities.listQueryOptions;
/** The activity log of the tab's user type (search, sort) as CSV. */
export const exportActivities = activities.exportCsv;
