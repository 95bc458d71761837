import { APPROVAL_QUEUE_STATES } from '../../../../../contract/approvals';
import { pageSizeField } from '../../../../../contract/list';
import { z } from '../../../../../contract/zod';
import { listSearchDefaults } from '../../../../lib/list-search';

/** /dashboard/approvals?state=&page=&pageSize=: the tab (waiting, expired, decided) and the page. */
export const approvalSearchSchema = z.object({
  state: z.catch(z._default(z.enum(APPROVAL_QUEUE_STATES), 'awaiting_approval'), 'awaiting_approval'),
  page: z.catch(z._default(z.coerce.number().check(z.int(), z.minimum(1)), 1), 1),
  pageSize: z.catch(z._default(pageSizeField, 20), 20),
});
export const APPROVAL_SEARCH_DEFAULTS = listSearchDefaults(approvalSearchSchema);
