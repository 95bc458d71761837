import { webhookList } from '../../../../../contract/webhooks';
import { z } from '../../../../../contract/zod';
import { listSearchDefaults } from '../../../../lib/list-search';

/** /dashboard/webhooks?page=&pageSize=&webhook=&deliveryPage=: the list, and the delivery log of one. */
export const webhookSearchSchema = z.extend(webhookList.search, {
  webhook: z.catch(z.optional(z.coerce.number().check(z.int(), z.positive())), undefined),
  deliveryPage: z.catch(z._default(z.coerce.number().check(z.int(), z.minimum(1)), 1), 1),
});
export const WEBHOOK_SEARCH_DEFAULTS = listSearchDefaults(webhookSearchSchema);
