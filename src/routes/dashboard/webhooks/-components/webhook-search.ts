import { z } from '../../../../../contract/zod';
import { listSearchSchema } from '../../../../lib/list-search';

/** /dashboard/webhooks?page=&pageSize=&webhook=&deliveryPage=: the list, and the delivery log of one. */
export const webhookSearchSchema = z.extend(
  listSearchSchema({ sortKeys: ['createdAt'], defaultSort: { sortBy: 'createdAt', sortOrder: 'desc' } }),
  {
    webhook: z.catch(z.optional(z.coerce.number().check(z.int(), z.positive())), undefined),
    deliveryPage: z.catch(z._default(z.coerce.number().check(z.int(), z.minimum(1)), 1), 1),
  },
);

export const WEBHOOK_SEARCH_DEFAULTS = {
  page: 1,
  pageSize: 10,
  search: '',
  sortBy: 'createdAt',
  sortOrder: 'desc',
  deliveryPage: 1,
} as const;
