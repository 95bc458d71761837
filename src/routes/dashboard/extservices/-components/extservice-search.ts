import { extendedServiceSortKeys } from '../../../../../contract/extended-services';
import { listSearchSchema } from '../../../../lib/list-search';

/** /dashboard/extservices?page=&pageSize=&search=&sortBy=&sortOrder= */
export const extServiceSearchSchema = listSearchSchema({
  sortKeys: extendedServiceSortKeys,
  defaultSort: { sortBy: 'createdAt', sortOrder: 'desc' },
});

export const EXT_SERVICE_LIST_DEFAULTS = {
  page: 1,
  pageSize: 10,
  search: '',
  sortBy: 'createdAt',
  sortOrder: 'desc',
} as const;
